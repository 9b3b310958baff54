"""Documents stored whole more than once, scored once.

Copies of one text read alike (the same reading hash, store/prepared.py: the same lines,
so the same terms, lengths and windows) give every line the score of the line at its
place in the first copy, to the bit: a line's BM25 reads only its own term counts, its
length and each term's line frequency in the whole index. So a question reads the
postings of the first copy alone, with every term's frequency taken from the whole
index, and hands each copy's rows their original's scores: twelve yearly versions of a
policy cost a question one version's postings, not twelve (a name's bonus, which differs
from copy to copy, is added after)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import scipy.sparse as sp

from affidavit.index.copies import originals

# Documents' store ids -> their reading hashes (what the store reads them with).
ReadHashes = Callable[[list[int]], Mapping[int, str]]


class Indexed(Protocol):
    """What the twins read of a word index (word_index.WordIndex is one)."""

    @property
    def size(self) -> int: ...
    @property
    def line_counts(self) -> sp.csc_matrix: ...
    @property
    def window_counts(self) -> sp.csc_matrix: ...
    @property
    def window_documents(self) -> np.ndarray: ...
    @property
    def document_ids(self) -> np.ndarray: ...
    def rows_of_slot(self, slot: int) -> np.ndarray: ...
    def unit_norms(self) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass(frozen=True, slots=True)
class Twins:
    """The postings of an index without its copies' rows and windows, each term's
    frequencies in the whole, and each original row's copies."""

    line_counts: sp.csc_matrix
    window_counts: sp.csc_matrix
    line_frequencies: np.ndarray  # each term's lines in the whole index
    window_frequencies: np.ndarray  # each term's windows in the whole index
    # Each index row's copies' rows, CSR over every row (an original's copies, in the
    # order of their documents; none for any other row).
    copies_indptr: np.ndarray
    copies: np.ndarray

    @classmethod
    def of(cls, index: Indexed, hashes: Mapping[int, str]) -> Twins | None:
        """The twins of ``index`` by its documents' reading ``hashes`` (store id -> hash);
        None when no document copies another (nothing to gain)."""
        pairs = _copied_slots(index, hashes)
        if not pairs:
            return None
        window_order = np.argsort(index.window_documents, kind="stable")
        window_bounds = np.searchsorted(
            index.window_documents[window_order], np.arange(len(index.document_ids) + 1)
        )

        def windows_of(slot: int) -> np.ndarray:
            return window_order[window_bounds[slot] : window_bounds[slot + 1]]

        originals, copy_rows, dropped_windows = [], [], []
        lines, windows = index.unit_norms()  # equal lengths, equal norms
        for copy, original in pairs:
            rows, own = index.rows_of_slot(copy), index.rows_of_slot(original)
            held, their = windows_of(copy), windows_of(original)
            # The hash says they were read alike; their shapes are checked all the same,
            # as a copy scored as another it is not would be ranked wrongly without a word.
            if not (
                rows.size == own.size
                and held.size == their.size
                and np.array_equal(lines[rows], lines[own])
                and np.array_equal(windows[held], windows[their])
            ):
                continue
            originals.append(own)
            copy_rows.append(rows)
            dropped_windows.append(held)
        if not copy_rows:
            return None
        of = np.concatenate(originals).astype(np.int64)
        rows = np.concatenate(copy_rows).astype(np.int64)
        order = np.argsort(of, kind="stable")
        indptr = np.zeros(index.size + 1, dtype=np.int64)
        np.cumsum(np.bincount(of, minlength=index.size), out=indptr[1:])
        return cls(
            line_counts=_without(index.line_counts, rows, index.size),
            window_counts=_without(
                index.window_counts, np.concatenate(dropped_windows), index.window_counts.shape[0]
            ),
            line_frequencies=np.diff(index.line_counts.indptr),
            window_frequencies=np.diff(index.window_counts.indptr),
            copies_indptr=indptr,
            copies=rows[order],
        )


def _copied_slots(index: Indexed, hashes: Mapping[int, str]) -> list[tuple[int, int]]:
    """(copy slot, original slot): each document whose reading hash an earlier one has,
    with the earliest (the smallest id) standing for it."""
    slot_of = {int(document_id): slot for slot, document_id in enumerate(index.document_ids)}
    held = {document_id: hashes[document_id] for document_id in slot_of if document_id in hashes}
    return [(slot_of[copy], slot_of[original]) for copy, original in originals(held).items()]


def _without(counts: sp.csc_matrix, units: np.ndarray, size: int) -> sp.csc_matrix:
    """``counts`` with the postings of ``units`` taken out (the shape, so every row
    number, kept)."""
    dropped = np.zeros(size, dtype=bool)
    dropped[units] = True
    kept = ~dropped[counts.indices]
    columns = np.repeat(np.arange(counts.shape[1]), np.diff(counts.indptr))[kept]
    indptr = np.zeros(counts.shape[1] + 1, dtype=counts.indptr.dtype)
    np.cumsum(np.bincount(columns, minlength=counts.shape[1]), out=indptr[1:])
    return sp.csc_matrix((counts.data[kept], counts.indices[kept], indptr), shape=counts.shape)
