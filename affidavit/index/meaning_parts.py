"""The meaning index kept in parts, as the word index is (``word_parts.py``): the whole
index, then one part per update holding the vectors and profiles of the documents added
(their lines alone encoded). Opening joins them in order. A part is written only when the
store gained documents; any other change writes the whole index again, and so do parts
that pile up (MAX_PARTS, or more than REWRITE_SHARE of the whole's bytes). Parts that do
not join into one document list (a document in two of them, as two writers may leave)
are not used: the index is built from the lines again.
"""

from __future__ import annotations

from affidavit.index.meaning import MeaningIndex
from affidavit.index.word_parts import MAX_PARTS, REWRITE_SHARE
from affidavit.store.guard import decoded
from affidavit.store.parts import cached_parts, part_sizes, replace_parts
from affidavit.store.sqlite import Store

# The cache name before parts: its vectors are reused once, by line id and text.
LEGACY = "meaning2"


def name(fingerprint: str) -> str:
    """The parts' name prefix for an encoder (3: kept in parts)."""
    return f"meaning3:{fingerprint}"


def newest(store: Store, prefix: str) -> int:
    """The generation the newest part was made at (-1 without parts)."""
    parts = part_sizes(store, prefix)
    return max((generation for _, generation, _ in parts), default=-1)


def load(store: Store, prefix: str) -> MeaningIndex | None:
    """The index the cached parts join into, or None (no parts, or unusable ones)."""
    parts = cached_parts(store, prefix)
    if not parts or parts[0][0] != prefix:
        return None
    pieces = [decoded(payload, MeaningIndex.from_bytes) for _, _, payload in parts]
    if any(piece is None for piece in pieces):
        return None
    index = MeaningIndex.joined([piece for piece in pieces if piece is not None])
    ids = index.line_ids
    if len(set(index.document_keys)) != len(index.document_keys) or (
        len(ids) > 1 and not (ids[1:] > ids[:-1]).all()
    ):
        return None
    return index


def legacy(store: Store, fingerprint: str) -> MeaningIndex | None:
    """The whole index an older version cached, if any (its vectors are reused)."""
    return decoded(store.cached_latest(f"{LEGACY}:{fingerprint}"), MeaningIndex.from_bytes)


def save(
    store: Store, prefix: str, generation: int, index: MeaningIndex, piece: MeaningIndex | None
) -> None:
    """Cache ``piece`` (what an update added) as a part, or the whole ``index`` when there
    is no piece or the parts have piled up."""
    sizes = [size for _, _, size in part_sizes(store, prefix)]
    if piece is not None and sizes and len(sizes) < MAX_PARTS:
        payload = piece.to_bytes()
        if sum(sizes[1:]) + len(payload) <= REWRITE_SHARE * sizes[0]:
            replace_parts(store, prefix, f"{prefix}+{generation:012d}", generation, payload)
            return
    replace_parts(store, prefix, prefix, generation, index.to_bytes())
