"""The meaning index: each line's signs and each document's profiles, and how documents
rank by meaning against a question's vector."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from affidavit.index.packing import load_arrays, save_arrays
from affidavit.store import versions_digest

# NOTE: on Middlemarch a chapter runs 100-300 lines; 64 keeps a section to a few scenes.
SECTION_LINES = 64


@dataclass
class MeaningIndex:
    line_ids: np.ndarray  # store line id per row, ascending
    signs: np.ndarray  # each line vector's signs, packed 8 to a byte (see line_vectors)
    profile_documents: np.ndarray  # store document id per profile
    profiles: np.ndarray  # unit profile vectors, float32
    # A digest of each line's text: SQLite may give a replaced document's new lines the
    # ids its old lines had, and a vector is reused only for the same id *and* text.
    digests: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    document_keys: list[str] = field(default_factory=list)  # the versions it was built from
    dim: int = 0  # the encoder's dimensions (the signs are padded to whole bytes)
    _owner_places: tuple[np.ndarray, np.ndarray] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    _versions: str | None = field(default=None, init=False, repr=False, compare=False)

    def versions(self) -> str:
        """The digest of the document versions it was built from (store/index_parts.py
        ``versions_digest``), worked out once, and grown from a piece's by ``joined``."""
        if self._versions is None:
            self._versions = versions_digest(self.document_keys)
        return self._versions

    @classmethod
    def joined(cls, pieces: Sequence[MeaningIndex]) -> MeaningIndex:
        """The indexes of successive documents as one (each piece's lines and documents
        after the last's, as a build of them all would hold them); its versions' digest
        grown from the first's."""
        if len(pieces) == 1:
            return pieces[0]
        held = [p for p in pieces if p.size]
        keys = [key for p in pieces for key in p.document_keys]
        if not held:
            first = pieces[0]
            made = cls(first.line_ids, first.signs, first.profile_documents,
                       first.profiles, first.digests, keys, first.dim)  # fmt: skip
        else:
            made = cls(
                np.concatenate([p.line_ids for p in held]),
                np.concatenate([p.signs for p in held]),
                np.concatenate([p.profile_documents for p in held]),
                np.vstack([p.profiles for p in held]).astype(np.float32),
                np.concatenate([p.digests for p in held]),
                keys,
                held[0].dim,
            )
        more = [key for p in pieces[1:] for key in p.document_keys]
        made._versions = versions_digest(more, pieces[0].versions())
        return made

    @property
    def size(self) -> int:
        return len(self.line_ids)

    def rank_documents(self, query_vector: np.ndarray) -> list[tuple[int, float]]:
        """(document id, best profile cosine), best first; ties by document id."""
        if not len(self.profiles):
            return []
        # NOTE: a matrix product's rows may differ in their last bits with the matrix's
        # size (BLAS blocks it), so a shard holding some of the profiles would rank them
        # apart from one store holding all; einsum's loop takes each row alone, the same
        # in any matrix (3.1 against 0.9 ms for 50,000 profiles).
        similarity = np.einsum("ij,j->i", self.profiles, query_vector.astype(np.float32))
        documents, owner = self._owners()
        best = np.full(documents.size, -np.inf, dtype=np.float32)
        np.maximum.at(best, owner, similarity)
        order = np.lexsort((documents, -best))
        return list(zip(documents[order].tolist(), best[order].tolist(), strict=True))

    def _owners(self) -> tuple[np.ndarray, np.ndarray]:
        """The store's documents with profiles, ascending, and each profile's place
        among them (computed once)."""
        if self._owner_places is None:
            documents, owner = np.unique(self.profile_documents, return_inverse=True)
            self._owner_places = (documents, owner.ravel())
        return self._owner_places

    def closeness(self, line_ids: Sequence[int], query_vector: np.ndarray) -> np.ndarray:
        """Each line's sign vector's cosine with the query (``line_vectors(ids) @ query``),
        read a byte at a time: per byte position, a table of what each of its 256 values
        adds, so the signs are never unpacked into floats."""
        rows = self._rows(line_ids)
        if not self.dim or not len(rows):
            return np.zeros(len(rows), dtype=np.float32)
        width = self.signs.shape[1]
        # Padding bits meet zeros of the query, so they add nothing, whatever they are.
        padded = np.zeros(width * 8, dtype=np.float32)
        padded[: self.dim] = query_vector.astype(np.float32)
        # table[j, v]: the query's sum over byte j's bits, +1 where v sets a bit, -1 not.
        table = (padded.reshape(width, 8) @ _BYTE_SIGNS.T).astype(np.float32)
        total = table[np.arange(width), self.signs[rows]].sum(axis=1, dtype=np.float32)
        return total * np.float32(1.0 / np.sqrt(self.dim))

    def _rows(self, line_ids: Sequence[int]) -> np.ndarray:
        wanted = np.asarray(line_ids, dtype=np.int64)
        rows = np.searchsorted(self.line_ids, wanted)
        if len(rows) and (
            rows.max() >= self.size or not np.array_equal(self.line_ids[rows], wanted)
        ):
            raise KeyError("line ids missing from the meaning index (a stale generation?)")
        return rows

    def line_vectors(self, line_ids: Sequence[int]) -> np.ndarray:
        """The lines' sign vectors: each component ±1/√dim, the sign of the encoder's.

        NOTE: measured on the SQuAD 2.0 dev store (every 7th answerable question, its
        article's lines ranked by cosine with the question): the answering line among
        the closest 8 for 0.798 of questions by signs, 0.790 by int8 vectors, 0.786 by
        float32; first for 0.549, 0.551, 0.553. A line costs dim/8 bytes, not dim."""
        rows = self._rows(line_ids)
        bits = np.unpackbits(self.signs[rows], axis=1, count=self.dim)
        scale = np.float32(1.0 / np.sqrt(max(self.dim, 1)))
        return (bits.astype(np.float32) * 2.0 - 1.0) * scale

    # -- persistence (the store's index cache) --

    def to_bytes(self, after: str = "") -> bytes:
        """The index as one npz payload; as a part (meaning_parts.py), ``after`` is the
        digest of the versions of the index it was made on."""
        return save_arrays(
            {
                "line_ids": self.line_ids,
                "signs": self.signs,
                "dim": np.array([self.dim], dtype=np.int64),
                "profile_documents": self.profile_documents,
                "profiles": self.profiles,
                "digests": self.digests,
                "keys": np.frombuffer(json.dumps(self.document_keys).encode(), dtype=np.uint8),
                "after": np.frombuffer(after.encode(), dtype=np.uint8),
            }
        )

    @classmethod
    def from_bytes(cls, payload: bytes) -> MeaningIndex:
        return cls.read_part(payload)[0]

    @classmethod
    def read_part(cls, payload: bytes) -> tuple[MeaningIndex, str]:
        """An index from ``to_bytes`` and the digest it was made after ("" for a whole)."""
        data = load_arrays(payload)
        after = bytes(data["after"]).decode() if "after" in data else ""
        if "signs" in data:
            signs, dim = data["signs"], int(data["dim"][0])
        else:  # an older store cached whole vectors (int8, or float16 before that)
            vectors = data["vectors"]
            if vectors.dtype != np.int8:
                vectors = quantized(vectors.astype(np.float32))
            signs, dim = signs_of(vectors), vectors.shape[1]
        index = cls(
            data["line_ids"],
            signs,
            data["profile_documents"],
            data["profiles"],
            data["digests"],
            json.loads(bytes(data["keys"]).decode()) if "keys" in data else [],
            dim,
        )
        return index, after


# NOTE: a unit vector's components lie in [-1, 1]; at 1/127 steps a component moves by at
# most 0.004 and a cosine by less than 0.01, which reorders only near-ties — and the same
# way every run, since the vectors are quantized as they are built, not only when cached.
QUANTUM = 127.0


# Each byte value's eight bits as +1 (set) or -1 (clear), most significant first, as
# ``np.packbits`` writes them.
_BYTE_SIGNS = (
    np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(np.float32) * 2.0 - 1.0
)


def signs_of(vectors: np.ndarray) -> np.ndarray:
    """Each row's signs (a component above zero sets its bit), packed 8 to a byte."""
    return np.packbits(vectors > 0, axis=1)


def quantized(vectors: np.ndarray) -> np.ndarray:
    """Unit float vectors as int8 steps of 1/127."""
    return np.clip(np.rint(vectors * QUANTUM), -127, 127).astype(np.int8)


def dequantized(vectors: np.ndarray) -> np.ndarray:
    return vectors.astype(np.float32) / np.float32(QUANTUM)


def text_digest(text: str) -> int:
    """An 8-byte digest of ``text`` as a signed int64: a cached line is reused only when
    its id *and* its text are unchanged (SQLite may give a replaced line its old id)."""
    return int.from_bytes(
        hashlib.blake2b(text.encode(), digest_size=8).digest(), "little", signed=True
    )


def profiles_of(
    documents: np.ndarray, vectors: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each document's profiles from its lines' int8 ``vectors``, read as floats a span at a
    time (a store of a million lines would need 1 GB to read them all at once).

    A document's profile is the normalised mean of its line vectors, each line weighted by
    ``weights``: the square root of its number of word tokens (build.py), since a long line
    says more than a heading, but not proportionally more (one 300-word table row must not
    outweigh the prose). A document longer than SECTION_LINES lines also gets one profile
    per run of that many lines (a section), so a large document is found by the part that
    speaks of the question.
    """
    owners: list[int] = []
    rows: list[np.ndarray] = []
    if not len(documents):
        return np.zeros(0, dtype=np.int64), np.zeros((0, vectors.shape[1]), dtype=np.float32)
    # Lines come in id order, so each document's lines are one run.
    bounds = np.flatnonzero(np.diff(documents)) + 1
    for start, end in zip([0, *bounds.tolist()], [*bounds.tolist(), len(documents)], strict=True):
        document = int(documents[start])
        spans = [(start, end)]
        if end - start > SECTION_LINES:
            spans += [(s, min(s + SECTION_LINES, end)) for s in range(start, end, SECTION_LINES)]
        for s, e in spans:
            owners.append(document)
            rows.append(weights[s:e] @ dequantized(vectors[s:e]))  # a span at a time
    matrix = np.vstack(rows).astype(np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return np.array(owners, dtype=np.int64), matrix
