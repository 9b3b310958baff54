"""The word index kept in parts, so an ingest pays for its own documents only."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from affidavit.index.words.name_bonus import joined_slots, name_slots
from affidavit.index.words.word_index import WordIndex
from affidavit.store import (
    Store,
    cache_update,
    cached_parts,
    decoded,
    document_keys,
    replace_parts,
    searchable_lines,
    versions_digest,
    windows,
)

# The cache entry of a whole index; after it, the store caches one part per update: the
# index of the documents added since, and the document versions removed (a replaced file's
# old lines).
PREFIX = "words7"  # 7: a table row's column names, each word once (store/searchable_lines)


def current(store: Store, previous: WordIndex | None) -> WordIndex:
    """The word index of what the store holds now: ``previous`` (or the cached parts)
    brought up to date with the documents added and removed since, the update cached.

    An update analyses the added documents' lines only and writes a part of their size.
    Counts, not weights, are kept (BM25 is weighed at query time), so parts merge without
    rescoring. Which documents the store holds is told by their keys (store/index_parts.py),
    never by ids alone, which SQLite reuses. Parts are merged in size tiers
    (store/index_parts.py ``cache_update``, with ``merged_parts``), never all at once.
    """
    generation = store.generation()
    parts = cached_parts(store, PREFIX) if previous is None else None
    index = previous
    followed = True  # the cached parts follow one another (or none were read)
    if parts:
        index, followed = _assembled(parts)
        if index is not None and followed and parts[-1][1] == generation:
            return index  # the newest part was made at this generation, on the others
    documents = document_keys(store)
    if index is None:
        whole = index_of(store, documents)
        replace_parts(store, PREFIX, PREFIX, generation, whole.to_bytes())
        return whole
    held = set(index.document_keys)
    added = [d for d in documents if d[3] not in held]
    removed = sorted(held - {key for *_, key in documents})
    if not added and not removed:
        return index
    update = index_of(store, added)
    kept = held - set(removed)
    updated = merged([(index, kept), (update, set(update.document_keys))])
    # Parts that did not follow one another are replaced by the whole.
    part = update.to_bytes(removed, versions_digest(index.document_keys)) if followed else None
    cache_update(store, PREFIX, generation, part, updated.to_bytes, merged_parts)
    return updated


def index_of(store: Store, documents: list[tuple[int, str, str, str]]) -> WordIndex:
    """The index of these documents alone, read and analysed from their stored lines."""
    ids = [doc_id for doc_id, _, _, _ in documents]
    return WordIndex.build(
        [(doc_id, name, language) for doc_id, name, language, _ in documents],
        searchable_lines(store, ids),
        windows(store, ids),
        keys=[key for *_, key in documents],
    )


def _assembled(parts: list[tuple[str, int, bytes]]) -> tuple[WordIndex | None, bool]:
    """The index the cached parts add up to (None if one cannot be read), and whether
    each part was made on what the parts before it add up to. Parts are read oldest
    first: a whole index resets what is held, a part's removals drop what it replaced,
    and each document is taken from the last part that added it."""
    read: list[WordIndex] = []
    holder: dict[str, int] = {}  # document version -> the part it is taken from
    followed = True
    for number, (name, _, payload) in enumerate(parts):
        found = decoded(payload, WordIndex.read_part)
        if found is None:
            return None, False
        index, removed, after = found
        if name == PREFIX:
            holder.clear()  # a whole index is what is held, whatever came before
        elif after != versions_digest(list(holder)):
            followed = False  # a part between them was lost: the store is asked
        for key in removed:
            holder.pop(key, None)
        for key in index.document_keys:
            holder[key] = number
        read.append(index)
    pieces = [
        (index, {key for key, n in holder.items() if n == number})
        for number, index in enumerate(read)
    ]
    return merged(pieces), followed


def merged_parts(payloads: list[bytes], whole_first: bool) -> bytes:
    """Successive cached parts (oldest first; the whole index first when ``whole_first``)
    as one: the documents they leave held, the versions they remove from the parts before
    them, and the digest the first was made after (``_assembled`` reads it as it read
    them one by one)."""
    read = [WordIndex.read_part(payload) for payload in payloads]
    holder: dict[str, int] = {}
    removed: set[str] = set()
    for number, (index, gone, _) in enumerate(read):
        for key in gone:
            holder.pop(key, None)
        removed.update(gone)
        for key in index.document_keys:
            holder[key] = number
    pieces = [
        (index, {key for key, n in holder.items() if n == number})
        for number, (index, _, _) in enumerate(read)
    ]
    joined = merged(pieces)
    if whole_first:
        return joined.to_bytes()
    return joined.to_bytes(sorted(removed - set(holder)), read[0][2])


def merged(pieces: list[tuple[WordIndex, set[str]]]) -> WordIndex:
    """One index of the documents each piece keeps (by key): lines in line id order,
    documents in id order, terms no kept line carries left out."""
    if len(pieces) == 1 and pieces[0][1] == set(pieces[0][0].document_keys):
        return pieces[0][0]
    appended = _appended(pieces)
    if appended is not None:
        return appended
    vocabulary: dict[str, int] = {}
    lines: list[sp.csr_matrix] = []
    windows: list[sp.csr_matrix] = []
    incidences: list[sp.csr_matrix] = []
    line_ids: list[np.ndarray] = []
    line_slots: list[np.ndarray] = []
    window_slots: list[np.ndarray] = []
    ids: list[int] = []
    languages: list[str] = []
    names: list[str] = []
    keys: list[str] = []
    for index, kept in pieces:
        slots = [s for s, key in enumerate(index.document_keys) if key in kept]
        if not slots:
            continue
        columns = np.fromiter(
            (vocabulary.setdefault(t, len(vocabulary)) for t in index.vocabulary),
            dtype=np.int32,
            count=len(index.vocabulary),
        )
        renumber = np.full(len(index.document_ids), -1, dtype=np.int32)
        renumber[slots] = np.arange(len(ids), len(ids) + len(slots), dtype=np.int32)
        rows = np.flatnonzero(np.isin(index.line_documents, slots))
        held = np.flatnonzero(np.isin(index.window_documents, slots))
        lines.append(_renamed(index.line_counts.tocsr()[rows], columns))
        windows.append(_renamed(index.window_counts.tocsr()[held], columns))
        incidences.append(index.incidence[held][:, rows])
        line_ids.append(index.line_ids[rows])
        line_slots.append(renumber[index.line_documents[rows]])
        window_slots.append(renumber[index.window_documents[held]])
        ids.extend(int(index.document_ids[s]) for s in slots)
        languages.extend(index.document_languages[s] for s in slots)
        names.extend(index.document_names[s] for s in slots)
        keys.extend(index.document_keys[s] for s in slots)
    width = max(len(vocabulary), 1)
    line_counts = _stacked(lines, width)
    window_counts = _stacked(windows, width)
    incidence = sp.block_diag(incidences, format="csr") if incidences else sp.csr_matrix((0, 0))
    all_ids = np.concatenate(line_ids) if line_ids else np.zeros(0, dtype=np.int64)
    # Documents in id order, lines in line id order, as a whole build makes them.
    by_id = np.argsort(np.asarray(ids, dtype=np.int64), kind="stable")
    slot_of = np.empty(len(ids), dtype=np.int32)
    slot_of[by_id] = np.arange(len(ids), dtype=np.int32)
    order = np.argsort(all_ids, kind="stable")
    row_of = np.empty(len(order), dtype=np.int64)
    row_of[order] = np.arange(len(order))
    line_counts = line_counts[order]
    incidence = sp.csr_matrix(
        (incidence.data, row_of[incidence.indices], incidence.indptr), shape=incidence.shape
    )
    incidence.sort_indices()
    # Terms only removed documents carried are gone from the vocabulary.
    used = np.bincount(line_counts.indices, minlength=width)[: len(vocabulary)] > 0
    terms = [t for t, keep in zip(vocabulary, used, strict=True) if keep]
    line_counts, window_counts = (
        line_counts[:, np.flatnonzero(used)],
        window_counts[:, np.flatnonzero(used)],
    )
    in_order = [int(i) for i in by_id]
    return WordIndex(
        vocabulary={t: i for i, t in enumerate(terms)},
        line_ids=all_ids[order],
        line_documents=slot_of[np.concatenate(line_slots)[order]]
        if line_slots
        else np.zeros(0, dtype=np.int32),
        document_ids=np.asarray([ids[i] for i in in_order], dtype=np.int64),
        document_languages=[languages[i] for i in in_order],
        document_names=[names[i] for i in in_order],
        document_keys=[keys[i] for i in in_order],
        line_counts=line_counts.tocsc(),
        window_counts=window_counts.tocsc(),
        window_documents=slot_of[np.concatenate(window_slots)]
        if window_slots
        else np.zeros(0, dtype=np.int32),
        incidence=incidence.astype(np.int8),
        name_terms=name_slots([names[i] for i in in_order], [languages[i] for i in in_order]),
    )


def _appended(pieces: list[tuple[WordIndex, set[str]]]) -> WordIndex | None:
    """``merged`` of an index and one that only adds to it (both kept whole, the second's
    documents and lines after the first's, every term carried), made by joining each
    term's postings where they are; None when the pieces are not such a pair.

    NOTE: an ingest adding one file to a 100 MB store merged through the general path:
    its copies of the counts (rows picked, stacked, reordered, turned into columns) held
    0.7 GB beside the index in use, the most a question's process held."""
    if len(pieces) != 2:
        return None
    (first, kept), (then, added) = pieces
    if (
        kept != set(first.document_keys)
        or added != set(then.document_keys)
        or not first.size
        or not then.size
        or then.line_ids[0] <= first.line_ids[-1]
        or then.document_ids[0] <= first.document_ids[-1]
        or not np.diff(first.line_counts.indptr).all()
        or not np.diff(then.line_counts.indptr).all()
        # Postings past int32 are the general path's (scipy widens its indices there).
        or first.window_counts.nnz + then.window_counts.nnz > np.iinfo(np.int32).max
    ):
        return None
    vocabulary = dict(first.vocabulary)
    columns = np.fromiter(
        (vocabulary.setdefault(t, len(vocabulary)) for t in then.vocabulary),
        dtype=np.int32,
        count=len(then.vocabulary),
    )
    width = len(vocabulary)
    incidence = sp.block_diag([first.incidence, then.incidence], format="csr")
    incidence.sort_indices()
    names = first.document_names + then.document_names
    languages = first.document_languages + then.document_languages
    slots = np.int32(len(first.document_ids))
    return WordIndex(
        vocabulary=vocabulary,
        line_ids=np.concatenate([first.line_ids, then.line_ids]),
        line_documents=np.concatenate([first.line_documents, then.line_documents + slots]),
        document_ids=np.concatenate([first.document_ids, then.document_ids]),
        document_languages=languages,
        document_names=names,
        document_keys=first.document_keys + then.document_keys,
        line_counts=_joined(first.line_counts, then.line_counts, columns, width),
        window_counts=_joined(first.window_counts, then.window_counts, columns, width),
        window_documents=np.concatenate([first.window_documents, then.window_documents + slots]),
        incidence=incidence.astype(np.int8),
        # The first index's name terms stand; the added documents' follow at their slots.
        name_terms=joined_slots(first.name_terms, then.name_terms, int(slots)),
    )


def _joined(
    first: sp.csc_matrix, then: sp.csc_matrix, columns: np.ndarray, width: int
) -> sp.csc_matrix:
    """``first``'s units, then ``then``'s, ``width`` terms wide: each term's postings in
    ``first`` followed by its postings in ``then`` (whose terms ``columns`` renumbers)."""
    rows = first.shape[0]
    placed = _renamed(then.tocsr(), columns)
    placed = sp.csr_matrix(
        (placed.data, placed.indices, placed.indptr), shape=(then.shape[0], width)
    ).tocsc()
    placed.sort_indices()
    indptr = np.concatenate(
        [first.indptr, np.full(width + 1 - len(first.indptr), first.indptr[-1])]
    )
    # Each posting of ``then`` goes in at the end of its term's postings in ``first``.
    at = np.repeat(indptr[1:], np.diff(placed.indptr))
    return sp.csc_matrix(
        (
            np.insert(first.data, at, placed.data),
            np.insert(first.indices, at, placed.indices + rows),
            indptr + placed.indptr,
        ),
        shape=(rows + then.shape[0], width),
    )


def _renamed(counts: sp.csr_matrix, columns: np.ndarray) -> sp.csr_matrix:
    """The counts with each term's column renumbered into the merged vocabulary."""
    return sp.csr_matrix(
        (counts.data, columns[counts.indices], counts.indptr),
        shape=(counts.shape[0], int(columns.max()) + 1 if columns.size else 1),
    )


def _stacked(blocks: list[sp.csr_matrix], width: int) -> sp.csr_matrix:
    """The blocks one under the other, ``width`` columns wide."""
    if not blocks:
        return sp.csr_matrix((0, width), dtype=np.float32)
    sized = [
        sp.csr_matrix((b.data, b.indices, b.indptr), shape=(b.shape[0], width)) for b in blocks
    ]
    return sp.vstack(sized, format="csr").astype(np.float32)
