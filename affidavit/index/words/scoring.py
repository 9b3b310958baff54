"""A question scored by its postings only: the work grows with the lines it touches (a store
of a million lines must not cost a million of anything per question)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import scipy.sparse as sp

from affidavit.index.words import bm25
from affidavit.index.words.twins import Twins

# NOTE: chosen on SQuAD 2.0 dev sentence retrieval (bench/retrieval.py): a line gains this
# share of the best score of any window holding it.
WINDOW_GAIN = 0.5


class Postings(Protocol):
    """What scoring reads of a word index (word_index.WordIndex is one): the term counts
    of its lines and windows, which lines each window holds, and their length norms."""

    @property
    def size(self) -> int: ...
    @property
    def line_counts(self) -> sp.csc_matrix: ...
    @property
    def window_counts(self) -> sp.csc_matrix: ...
    @property
    def incidence(self) -> sp.csr_matrix: ...
    @property
    def line_ids(self) -> np.ndarray: ...
    @property
    def line_documents(self) -> np.ndarray: ...
    @property
    def document_ids(self) -> np.ndarray: ...
    def unit_norms(self) -> tuple[np.ndarray, np.ndarray]: ...
    def line_windows(self) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass(frozen=True, slots=True)
class Scored:
    """A question's scores: the rows it reached, each once, and their scores."""

    rows: np.ndarray  # index rows, in no particular order
    values: np.ndarray  # float32, > 0
    size: int  # the index's rows

    def dense(self) -> np.ndarray:
        """A score for every index row, 0 where nothing matched."""
        out = np.zeros(self.size, dtype=np.float32)
        out[self.rows] = self.values
        return out


class Named:
    """The documents a question names: each document slot's bonus (float32, 0 for a
    document not named), each line's slot, and the rows of the named documents, gathered
    only when first read (block-max search never reads them: 7,700 rows a question at
    100 MB)."""

    __slots__ = ("bonus", "line_documents", "_gather", "_rows")

    def __init__(
        self, bonus: np.ndarray, line_documents: np.ndarray, rows: Callable[[], np.ndarray]
    ) -> None:
        self.bonus = bonus
        self.line_documents = line_documents
        self._gather = rows
        self._rows: np.ndarray | None = None

    @property
    def rows(self) -> np.ndarray:
        if self._rows is None:
            self._rows = self._gather()
        return self._rows

    def of(self, lines: np.ndarray) -> np.ndarray:
        return self.bonus[self.line_documents[lines]]


@dataclass
class Scratch:
    lines: np.ndarray  # float32 sums, one per line, zeros between questions
    windows: np.ndarray  # float32 sums, one per window
    best: np.ndarray  # float32, each line's best window
    stamp: np.ndarray  # int64 places (see each_once); never read before written


_LOCAL = threading.local()


@contextmanager
def scratch_arrays(lines: int, windows: int) -> Iterator[Scratch]:
    """This thread's scratch for an index of this size; dropped if a question fails
    half way, so no half-summed score outlives it. A question puts it back to zeros where
    it touched it: a fresh array a question would pay for again page by page."""
    held = getattr(_LOCAL, "scratch", None)
    if held is None or held.lines.size != lines or held.windows.size != windows:
        held = Scratch(
            np.zeros(lines, dtype=np.float32),
            np.zeros(windows, dtype=np.float32),
            np.zeros(lines, dtype=np.float32),
            np.empty(lines, dtype=np.int64),
        )
    _LOCAL.scratch = None
    yield held
    _LOCAL.scratch = held  # only a question that ended cleanly gives it back


def accumulate(
    counts: sp.csc_matrix,
    norms: np.ndarray,
    term_ids: Sequence[int],
    out: np.ndarray,
    frequencies: np.ndarray | Mapping[int, int] | None = None,
    units: int | None = None,
) -> np.ndarray:
    """Add the BM25 weights of ``term_ids`` into ``out`` (one per unit); return the
    units first reached, each once. ``frequencies``, ``units``: see
    ``bm25.term_weights``."""
    reached = []
    for term in term_ids:
        lo, hi = counts.indptr[term], counts.indptr[term + 1]
        holders = counts.indices[lo:hi]  # each unit once within a term's postings
        reached.append(holders[out[holders] == 0])
        out[holders] += bm25.term_weights(counts, norms, term, frequencies, units)
    return np.concatenate(reached) if reached else np.zeros(0, dtype=np.int64)


def each_once(values: np.ndarray, stamp: np.ndarray) -> np.ndarray:
    """``values`` (all below ``stamp.size``) without repeats, without sorting them: each
    value keeps the one place of it that ``stamp`` remembers."""
    if values.size == 0:
        return values
    places = np.arange(values.size)
    stamp[values] = places
    return values[stamp[values] == places]


def _expand(
    indptr: np.ndarray, indices: np.ndarray, picked: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The entries of the ``picked`` rows of a CSR structure, flattened in row order, and
    how many each row has."""
    starts = indptr[picked]
    sizes = indptr[picked + 1] - starts
    offsets = np.repeat(starts - np.cumsum(sizes) + sizes, sizes)
    return indices[np.arange(int(sizes.sum())) + offsets].astype(np.int64), sizes


def best_windows(
    incidence: sp.csr_matrix, windows: np.ndarray, window_scores: np.ndarray, scratch: Scratch
) -> np.ndarray:
    """Put each line's best score among ``windows`` that hold it in ``scratch.best``;
    return the lines they hold, each once."""
    lines, sizes = _expand(incidence.indptr, incidence.indices, windows)
    np.maximum.at(scratch.best, lines, np.repeat(window_scores, sizes))
    return each_once(lines, scratch.stamp)


@dataclass(frozen=True, slots=True)
class Weighing:
    """A whole store's counts as one shard's index reads them (statistics.py): each
    unit's length norm under the whole's mean lengths, each term's (by this index's
    term id) lines and windows in the whole, and the whole's lines and windows."""

    line_norms: np.ndarray
    window_norms: np.ndarray
    line_frequencies: Mapping[int, int]
    window_frequencies: Mapping[int, int]
    lines: int
    windows: int
    # The whole's mean line (window) length over this index's, at least 1: how much a
    # length norm may shrink, so a weight grow, under the whole's (block_max.best).
    line_stretch: float = 1.0
    window_stretch: float = 1.0


def score_question(
    index: Postings,
    term_ids: Sequence[int],
    named: Named | None,
    twins: Twins | None = None,
    weighing: Weighing | None = None,
) -> Scored:
    """Lines' BM25, plus the window gain times their best window's, plus the bonus of
    each document the question names. With ``twins``, only the first copy of a text
    stored more than once is scored and its copies take its scores (twins.py).

    The question's postings are added into one score per line (and one per window); the
    rows a posting reaches are kept as they are first reached (a BM25 weight is never 0,
    so a row still at 0 has not been reached), and only those rows are handed on. The
    arithmetic is the dense reading's, term by term in the same order, so every score is
    the same to the bit and so is every ranking. With ``weighing``, the index is a shard's
    and every weight is the whole store's.
    """
    size = index.size
    line_norms, window_norms = index.unit_norms()
    line_counts, window_counts = index.line_counts, index.window_counts
    line_frequencies: np.ndarray | Mapping[int, int] | None = None
    window_frequencies: np.ndarray | Mapping[int, int] | None = None
    lines_in_all = windows_in_all = None
    if twins is not None:
        line_counts, window_counts = twins.line_counts, twins.window_counts
        line_frequencies, window_frequencies = twins.line_frequencies, twins.window_frequencies
    if weighing is not None:
        line_norms, window_norms = weighing.line_norms, weighing.window_norms
        line_frequencies, window_frequencies = (
            weighing.line_frequencies,
            weighing.window_frequencies,
        )
        lines_in_all, windows_in_all = weighing.lines, weighing.windows
    with scratch_arrays(size, window_counts.shape[0]) as scratch:
        total = scratch.lines
        reached = [
            accumulate(line_counts, line_norms, term_ids, total, line_frequencies, lines_in_all)
        ]
        if term_ids and window_counts.shape[0]:
            sums = scratch.windows
            windows = accumulate(
                window_counts, window_norms, term_ids, sums, window_frequencies, windows_in_all
            )
            if windows.size:
                lines = best_windows(index.incidence, windows, sums[windows], scratch)
                total[lines] += np.float32(WINDOW_GAIN) * scratch.best[lines]
                reached.append(lines)
                scratch.best[lines] = 0
            sums[windows] = 0
        if twins is not None:
            originals = each_once(np.concatenate(reached), scratch.stamp)
            copies, sizes = _expand(twins.copies_indptr, twins.copies, originals)
            copied = np.repeat(originals, sizes)
            if named is None:  # no copy's score differs from its original's
                values = np.concatenate((total[originals], total[copied]))
                total[originals] = 0
                return Scored(np.concatenate((originals, copies)), values, size)
            total[copies] = total[copied]
            reached = [originals, copies]
        if named is not None:
            total[named.rows] += named.of(named.rows)
            reached.append(named.rows)
        rows = each_once(np.concatenate(reached), scratch.stamp)
        values = total[rows]
        total[rows] = 0
    return Scored(rows, values, size)


def top_only(
    index: Postings,
    term_ids: Sequence[int],
    named: Named | None,
    k: int,
    weighing: Weighing | None = None,
) -> list[tuple[int, float]]:
    """The best ``k`` lines as ``score_question`` ranks them, giving a whole score only
    to the lines that could be among them. ``named``: the documents the question names.

    A line's own BM25 plus its document's bonus is a floor under its whole score, so the
    k-th best of them is a floor under the k-th best whole score. A line whose floor
    plus the window gain of the best window anywhere stays below it cannot be among the
    best, nor can a line of no named document that no question word stands in, unless a
    window holding it reaches that floor by itself. The lines left get their best window
    from their own windows (``WordIndex.line_windows``), and their sums are made in
    the whole reading's order (own, then window, then bonus), so they are its to the bit.
    With ``weighing``, the index is a shard's and every weight is the whole store's.
    """
    size = index.size
    line_norms, window_norms = index.unit_norms()
    window_counts, incidence = index.window_counts, index.incidence
    gain = np.float32(WINDOW_GAIN)
    whole: tuple[Any, ...] = (None, None, None, None)
    if weighing is not None:
        line_norms, window_norms = weighing.line_norms, weighing.window_norms
        whole = (
            weighing.line_frequencies,
            weighing.lines,
            weighing.window_frequencies,
            weighing.windows,
        )
    with scratch_arrays(size, window_counts.shape[0]) as scratch:
        total, sums = scratch.lines, scratch.windows
        rows = accumulate(index.line_counts, line_norms, term_ids, total, whole[0], whole[1])
        windows = np.zeros(0, dtype=np.int64)
        if term_ids and window_counts.shape[0]:
            windows = accumulate(window_counts, window_norms, term_ids, sums, whole[2], whole[3])
        base = (
            rows if named is None else each_once(np.concatenate((rows, named.rows)), scratch.stamp)
        )
        if base.size >= k and windows.size:
            own = total[base]
            floor_of = own if named is None else own + named.of(base)
            floor = np.partition(floor_of, base.size - k)[base.size - k]
            ceiling = own + gain * sums[windows].max()
            if named is not None:
                ceiling = ceiling + named.of(base)
            strong = windows[gain * sums[windows] >= floor]
            found = [base[ceiling >= floor], _members(incidence, strong)]
        else:
            found = [base, _members(incidence, windows)]
        lines = each_once(np.concatenate(found), scratch.stamp)
        scores = total[lines]
        if windows.size:
            scores = scores + gain * _best_own_window(index.line_windows(), lines, sums)
        if named is not None:
            scores = scores + named.of(lines)
        total[rows] = 0
        sums[windows] = 0
    return top_among(Scored(lines, scores, size), k, index.line_ids)


def _members(incidence: sp.csr_matrix, windows: np.ndarray) -> np.ndarray:
    """The lines ``windows`` hold, flattened (a line once per window holding it)."""
    return _expand(incidence.indptr, incidence.indices, windows)[0]


def _best_own_window(
    membership: tuple[np.ndarray, np.ndarray], lines: np.ndarray, sums: np.ndarray
) -> np.ndarray:
    """Each of ``lines``' best score among the windows holding it (0 for none)."""
    held = membership[0][lines + 1] > membership[0][lines]
    best = np.zeros(lines.size, dtype=np.float32)
    if held.any():
        windows, sizes = _expand(*membership, lines[held])
        bounds = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        best[held] = np.maximum.reduceat(sums[windows], bounds)
    return best


def top_among(scored: Scored, k: int, line_ids: np.ndarray) -> list[tuple[int, float]]:
    """(store line id, score) of the best ``k`` reached rows with a positive score, ties
    broken by line id."""
    positive = scored.values > 0
    rows, values = scored.rows[positive], scored.values[positive]
    if rows.size == 0 or k <= 0:
        return []
    if rows.size > k:
        # Widen the partition so ties at the cut are settled by line id, not by chance.
        cut = np.partition(values, rows.size - k)[rows.size - k]
        wide = values >= cut
        rows, values = rows[wide], values[wide]
    order = np.lexsort((line_ids[rows], -values))[:k]
    return [(int(line_ids[rows[i]]), float(values[i])) for i in order]
