"""Building the meaning index from the store's lines read twice, never held whole."""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from threading import Lock
from weakref import WeakKeyDictionary

import numpy as np

from affidavit.index.meaning.encoder import Encoder, encode
from affidavit.index.meaning.profiles import (
    MeaningIndex,
    profiles_of,
    quantized,
    signs_of,
    text_digest,
)
from affidavit.index.packing import typed_numbers
from affidavit.runtime import give_back_freed_memory
from affidavit.text import count_words

LineRow = tuple[int, int, int, str, str]  # (line id, document id, position, kind, text)
ENCODE_CHUNK = 8192  # lines encoded between two progress reports
# How many chunks are encoded between two hand-backs of the freed heap (runtime.py).
TRIM_EVERY_CHUNKS = 3
# The most vectors a process keeps to reuse for a line written again (int8: 256 bytes each
# with the bundled model, about 50 MB at most).
VECTORS_KEPT = 200_000


# NOTE: at 100 MB of text (1.2 million lines) the list of every line and the vectors of
# every line were 780 MB of the ingest's peak; read twice, the index is the same to the bit
# (tests/index/test_meaning.py).
def build_meaning(
    encoder: Encoder,
    lines: Callable[[], Iterable[LineRow]],
    previous: MeaningIndex | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MeaningIndex:
    """Signs for every line ``lines()`` gives (every line, in id order; read twice, so
    both readings must be of one snapshot), reusing ``previous`` where it holds a line,
    and the profiles of the documents added or changed; ``progress(lines encoded, lines
    to encode)`` after each chunk.

    The first reading takes what every line needs (its id, document, a digest of its text
    and its word count); the second reads the texts to encode, a chunk at a time. A
    document's profiles are made as soon as its last line is encoded, so the int8 vectors
    held are one document's, not the store's.
    """
    ids, digests, owners, counts = array("q"), array("q"), array("q"), array("q")
    for line_id, document_id, _, _, text in lines():
        ids.append(line_id)
        owners.append(document_id)
        digests.append(text_digest(text))
        counts.append(count_words(text))
    line_ids, documents = typed_numbers(ids), typed_numbers(owners)
    digest_of = typed_numbers(digests)
    size = len(line_ids)
    dim = previous.dim if previous is not None and previous.size else 0
    signs: np.ndarray | None = None
    known = np.zeros(size, dtype=bool)
    if dim:
        assert previous is not None
        signs = np.zeros((size, previous.signs.shape[1]), dtype=np.uint8)
        where = np.minimum(np.searchsorted(previous.line_ids, line_ids), previous.size - 1)
        known = (previous.line_ids[where] == line_ids) & (
            previous.digests[where] == digest_of if len(previous.digests) else False
        )
        signs[known] = previous.signs[where[known]]
    missing = np.flatnonzero(~known)
    # A document whose lines all kept their signs keeps its profiles; the documents
    # added or changed are profiled again, from every one of their lines.
    kept = np.zeros(0, dtype=bool)
    if previous is not None and len(previous.profiles):
        redo = np.union1d(documents[missing], np.setdiff1d(documents, previous.profile_documents))
        kept = np.isin(previous.profile_documents, documents) & ~np.isin(
            previous.profile_documents, redo
        )
        is_profiled = np.isin(documents, redo)
    else:
        is_profiled = np.ones(size, dtype=bool)
    weights = np.sqrt(typed_numbers(counts).astype(np.float32))
    # Encoded: the lines without signs, and the lines profiled again (the signs kept are
    # too coarse for a profile). In chunks, so a long build reports progress; each line's
    # vector is its own, so the chunking changes no number.
    to_encode = np.union1d(missing, np.flatnonzero(is_profiled))
    profiles = _Profiles()
    done = 0
    seen = _seen_for(encoder)
    for number, (chunk, texts) in enumerate(_chunks(lines(), to_encode), start=1):
        fresh = seen.vectors(encoder, texts, digest_of[chunk])
        if signs is None:
            dim = fresh.shape[1]
            signs = np.zeros((size, (dim + 7) // 8), dtype=np.uint8)
        signs[chunk] = signs_of(fresh)
        wanted = is_profiled[chunk]
        profiles.add(documents[chunk[wanted]], fresh[wanted], weights[chunk[wanted]])
        done += len(chunk)
        # NOTE: each chunk's scratch, freed, stayed on the C heap: 150 MB by the end of a
        # 100 MB store, held while the graph's worker mines. Handed back every few chunks:
        # after every chunk, the trims and the pages taken again cost 1.5-4.4 s of 25-27 s
        # at 100 MB for the same peak of this process; every eighth, the ingest's process
        # tree reached 2,052 MB once (bench/scale.py), so every third.
        if number % TRIM_EVERY_CHUNKS == 0:
            give_back_freed_memory()
        if progress is not None:
            progress(done, len(to_encode))
    if signs is None:
        signs = np.zeros((0, max((dim + 7) // 8, 1)), dtype=np.uint8)
    made_for, made = profiles.finished(max(dim, 1))
    if kept.any():
        assert previous is not None
        made_for = np.concatenate([previous.profile_documents[kept], made_for])
        made = np.vstack([previous.profiles[kept], made]).astype(np.float32)
        order = np.argsort(made_for, kind="stable")  # documents in id order, as a build
        made_for, made = made_for[order], made[order]
    return MeaningIndex(line_ids, signs, made_for, made, digest_of, dim=dim)


def _chunks(rows: Iterable[LineRow], wanted: np.ndarray) -> Iterator[tuple[np.ndarray, list[str]]]:
    """The places in ``wanted`` (ascending) ENCODE_CHUNK at a time, with their texts read
    from ``rows`` as they go by."""
    texts: list[str] = []
    start = 0
    want = iter(wanted.tolist())
    next_place = next(want, None)
    for place, row in enumerate(rows):
        if next_place is None:
            break
        if place != next_place:
            continue
        texts.append(row[4])
        next_place = next(want, None)
        if len(texts) == ENCODE_CHUNK:
            yield wanted[start : start + len(texts)], texts
            start, texts = start + len(texts), []
    if texts:
        yield wanted[start : start + len(texts)], texts


class _Seen:
    """The vectors of the texts this process has encoded with one encoder, by digest (the
    VECTORS_KEPT most recently used): a line another line writes word for word (a copy, a
    version, a repeated row) is encoded once, in one build or across the builds of texts
    added one call at a time. A text's vector is its own whatever it is encoded with, so
    nothing changes but the time."""

    def __init__(self) -> None:
        self._held: OrderedDict[int, np.ndarray] = OrderedDict()
        self._lock = Lock()  # batch threads may build side by side

    def vectors(self, encoder: Encoder, texts: list[str], digests: np.ndarray) -> np.ndarray:
        keys = digests.tolist()
        with self._lock:
            found = {key: self._held[key] for key in keys if key in self._held}
            for key in found:
                self._held.move_to_end(key)
        wanted: dict[int, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in found and key not in wanted:
                wanted[key] = text
        made = quantized(encode(encoder, list(wanted.values()))) if wanted else None
        fresh = dict(zip(wanted, made, strict=True)) if made is not None else {}
        with self._lock:
            self._held.update(fresh)
            while len(self._held) > VECTORS_KEPT:
                self._held.popitem(last=False)
        rows = [fresh[key] if key in fresh else found[key] for key in keys]
        return np.stack(rows) if rows else np.zeros((0, 0), dtype=np.int8)


# One _Seen an encoder, for as long as the encoder lives.
_SEEN: WeakKeyDictionary[Encoder, _Seen] = WeakKeyDictionary()


def _seen_for(encoder: Encoder) -> _Seen:
    try:
        return _SEEN.setdefault(encoder, _Seen())
    except TypeError:  # an encoder that cannot be weakly referenced: this build's own
        return _Seen()


class _Profiles:
    """Documents' profiles made as their lines arrive in id order: a document's run of
    lines is profiled (profiles.py's ``profiles_of``) once the next document's first line
    comes."""

    def __init__(self) -> None:
        self._owners: list[np.ndarray] = []
        self._rows: list[np.ndarray] = []
        self._held: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def add(self, documents: np.ndarray, vectors: np.ndarray, weights: np.ndarray) -> None:
        if not len(documents):
            return
        bounds = np.flatnonzero(np.diff(documents)) + 1
        starts, ends = [0, *bounds.tolist()], [*bounds.tolist(), len(documents)]
        for start, end in zip(starts, ends, strict=True):
            piece = (documents[start:end], vectors[start:end], weights[start:end])
            if self._held and self._held[-1][0][0] != piece[0][0]:
                self._flush()
            self._held.append(piece)

    def finished(self, dim: int) -> tuple[np.ndarray, np.ndarray]:
        self._flush()
        if not self._rows:
            return np.zeros(0, dtype=np.int64), np.zeros((0, dim), dtype=np.float32)
        return np.concatenate(self._owners), np.vstack(self._rows).astype(np.float32)

    def _flush(self) -> None:
        if not self._held:
            return
        documents, vectors, weights = (
            np.concatenate(part) for part in zip(*self._held, strict=True)
        )
        self._held = []
        owners, rows = profiles_of(documents, vectors, weights)
        self._owners.append(owners)
        self._rows.append(rows)
