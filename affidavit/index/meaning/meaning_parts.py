"""The meaning index kept in parts, as the word index is (index/words/word_parts.py): the whole
index, then one part per update holding the vectors and profiles of the documents added
(their lines alone encoded)."""

from __future__ import annotations

from affidavit.index.meaning.profiles import MeaningIndex
from affidavit.store import Store, cache_update, cached_parts, decoded, part_sizes, versions_digest

# The cache name before parts: its vectors are reused once, by line id and text.
LEGACY = "meaning2"


def name(fingerprint: str) -> str:
    """The parts' name prefix for an encoder (3: kept in parts)."""
    return f"meaning3:{fingerprint}"


def newest(store: Store, prefix: str) -> int:
    """The generation the newest part was made at (-1 without parts)."""
    parts = part_sizes(store, prefix)
    return max((generation for _, generation, _ in parts), default=-1)


def load(store: Store, prefix: str) -> tuple[MeaningIndex | None, bool]:
    """The index the cached parts join into, in order (None without parts, or with
    unusable ones), and whether each part was made on the parts before it. When one was
    not (a part lost to a busy store), the index is still good for reusing its vectors,
    not as it is. Parts that do not join into one document list (a document in two of
    them, as two writers may leave) are not used: the index is built from the lines
    again."""
    parts = cached_parts(store, prefix)
    if not parts or parts[0][0] != prefix:
        return None, False
    pieces: list[MeaningIndex] = []
    held: list[str] = []
    followed = True
    for _, _, payload in parts:
        found = decoded(payload, MeaningIndex.read_part)
        if found is None:
            return None, False
        followed = followed and (not pieces or found[1] == versions_digest(held))
        pieces.append(found[0])
        held.extend(found[0].document_keys)
    index = MeaningIndex.joined(pieces)
    ids = index.line_ids
    if len(set(index.document_keys)) != len(index.document_keys) or (
        len(ids) > 1 and not (ids[1:] > ids[:-1]).all()
    ):
        return None, False
    return index, followed


def legacy(store: Store, fingerprint: str) -> MeaningIndex | None:
    """The whole index an older version cached, if any (its vectors are reused)."""
    return decoded(store.cached_latest(f"{LEGACY}:{fingerprint}"), MeaningIndex.from_bytes)


def save(
    store: Store,
    prefix: str,
    generation: int,
    index: MeaningIndex,
    piece: MeaningIndex | None,
    made_on: MeaningIndex | None = None,
) -> None:
    """Cache ``piece`` (what an update added to ``made_on``, making ``index``) as a part,
    merged with the newest parts when they fill a tier (store/index_parts.py
    ``cache_update``), or the whole ``index`` when there is no piece. A piece is made only
    when the store gained documents; any other change writes the whole index again."""
    part = None
    if piece is not None and made_on is not None:
        part = piece.to_bytes(made_on.versions())
    cache_update(store, prefix, generation, part, index.to_bytes, merged_parts)


def merged_parts(payloads: list[bytes], whole_first: bool) -> bytes:
    """Successive cached parts (oldest first; the whole index first when ``whole_first``)
    as one, made after what the first was made after."""
    read = [MeaningIndex.read_part(payload) for payload in payloads]
    joined = MeaningIndex.joined([index for index, _ in read])
    return joined.to_bytes("" if whole_first else read[0][1])
