"""Search that scores only the blocks of lines that could hold the best: block-max top-k."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from affidavit.index.words import bm25
from affidavit.index.words.scoring import (
    WINDOW_GAIN,
    Named,
    Postings,
    Weighing,
    scratch_arrays,
    top_only,
)

# NOTE: measured at 100 MB: blocks of 32, 64 and 128 lines searched in 0.42, 0.40 and
# 0.40 ms (single runs, p50, before the bounds were tightened); the bounds of smaller
# blocks cost more to add up, larger blocks are read more.
BLOCK_SHIFT = 6
# NOTE: below this many lines numpy's reading of every posting is quicker than the blocks'
# bookkeeping (0.15 against 0.36 ms a question at 2 MB in the prototype): smaller stores
# are scored by ``top_only``.
BLOCK_MAX_LINES = 100_000


@dataclass(frozen=True)
class Blocks:
    """An index's per-block maxima, and what the compiled loops read with them (held
    here, so a question packs nothing)."""

    shift: int  # a block is 2**shift lines
    count: int  # blocks
    line_runs: tuple[np.ndarray, ...]  # block_runs over the lines' postings
    line_highest: np.ndarray  # each of those runs' highest weight
    window_runs: tuple[np.ndarray, ...]  # over the windows', by their first line's block
    window_cover: tuple[np.ndarray, ...]  # each term's best window in each block it overlaps
    line_idf: np.ndarray  # per term
    window_idf: np.ndarray
    line_postings: tuple[np.ndarray, ...]  # (indptr, indices, counts, norms)
    window_postings: tuple[np.ndarray, ...]
    membership: tuple[np.ndarray, np.ndarray]  # each line's windows
    slot_blocks: tuple[np.ndarray, np.ndarray]  # each document slot's blocks (CSR)
    no_bonus: tuple[Any, ...]  # the bonus argument of a question naming no document


# NOTE: at 100 MB this scores about 0.3% of the blocks (63 of 18,349, p50).
def best(
    index: Postings,
    blocks: Blocks | None,
    term_ids: Sequence[int],
    named: Named | None,
    k: int,
    weighing: Weighing | None = None,
) -> list[tuple[int, float]]:
    """The best ``k`` lines (store line id, score), as ``top_only`` ranks them, to the bit
    (tests/index/test_block_max.py): over the index's ``blocks`` (``blocks_of``) when it has
    them, else by ``top_only`` itself.

    A block's upper bound is the sum over the question's terms of their highest line
    weights in it, the window gain times the sum of their highest weights for a window
    overlapping it, and the highest name bonus of a document in it. The blocks are scored
    exactly, highest bound first (``block_kernels.best_lines``), until no block left can
    reach the k-th score found.

    With ``weighing`` (a shard's, scoring.py) every weight is the whole store's: a term's
    maxima, taken with this index's own IDF and mean lengths, are stretched into bounds of
    the whole's by the ratio of the IDFs and, where the whole's mean length is the longer,
    of the means (a BM25 weight's length part grows by at most that: ``_stretch``).
    """
    if k <= 0 or index.size == 0 or blocks is None:
        return top_only(index, term_ids, named, k, weighing)
    from affidavit.index.words.block_kernels import best_lines

    terms = np.asarray(term_ids, dtype=np.int64)
    line_idf, window_idf = blocks.line_idf[terms], blocks.window_idf[terms]
    line_postings, window_postings = blocks.line_postings, blocks.window_postings
    line_stretch = window_stretch = np.ones(len(terms))
    if weighing is not None:
        whole_line_idf = _idf(weighing.line_frequencies, terms, weighing.lines)
        whole_window_idf = _idf(weighing.window_frequencies, terms, weighing.windows)
        line_stretch = _stretch(whole_line_idf, line_idf, weighing.line_stretch)
        window_stretch = _stretch(whole_window_idf, window_idf, weighing.window_stretch)
        line_idf, window_idf = whole_line_idf, whole_window_idf
        line_postings = (*line_postings[:3], weighing.line_norms)
        window_postings = (*window_postings[:3], weighing.window_norms)
    bonus = blocks.no_bonus
    if named is not None:
        indptr, owned = blocks.slot_blocks
        bonus = (named.bonus, index.line_documents, indptr, owned, True, blocks.count)
    with scratch_arrays(index.size, index.window_counts.shape[0]) as held:
        ids, scores, _ = best_lines(
            terms,
            line_idf,
            window_idf,
            line_stretch,
            window_stretch,
            bm25.K1 + 1.0,
            np.float32(WINDOW_GAIN),
            k,
            blocks.shift,
            line_postings,
            blocks.line_runs,
            blocks.line_highest,
            window_postings,
            blocks.window_runs,
            blocks.window_cover,
            blocks.membership,
            bonus,
            index.line_ids,
            held.lines,
            held.windows,
        )
    return [(int(i), float(s)) for i, s in zip(ids, scores, strict=True) if i >= 0]


def _idf(frequencies: Mapping[int, int], terms: np.ndarray, units: int) -> np.ndarray:
    """Each of ``terms``' IDF in a whole store (bm25.idf, as a term's weights take it)."""
    return bm25.idf(np.asarray([frequencies[int(t)] for t in terms], dtype=np.int64), units)


def _stretch(whole: np.ndarray, own: np.ndarray, lengths: float) -> np.ndarray:
    """How much a term's highest weight here may grow under the whole's statistics: the
    ratio of the IDFs, times ``lengths`` (the whole's mean length over this index's, at
    least 1), with room for rounding. A weight is idf * tf (k1 + 1) / (tf + norm): its
    length part grows as the norm shrinks, at most by the ratio of the norms, which is
    at most the ratio of the means."""
    return whole / np.maximum(own, 1e-12) * lengths * (1.0 + 1e-6)


# NOTE: the maxima take 0.5-0.8 s and about 200 MB at 100 MB, in compiled loops: once an
# index, at the end of an ingest's index build or by the first search of a reopened store.
def blocks_of(index: Postings) -> Blocks | None:
    """An index's block maxima (None when its windows are not numbered by their first
    lines, as in indexes cached before they were, or one is longer than a block); taken
    once by the index that holds them.

    Its rows are cut into blocks of 2**BLOCK_SHIFT consecutive lines. For each term, its
    postings give the highest weight it has for a line of each block, and for a window
    overlapping each block (a window is shorter than a block, so it overlaps one or two).
    The word index numbers windows in the order of their first lines, so the windows
    starting in a block are one run of each term's postings.
    """
    from affidavit.index.words.block_kernels import block_runs, overlap_maxima, run_maxima

    incidence = index.incidence
    sizes = np.diff(incidence.indptr)
    starts = incidence.indptr[:-1]
    filled = sizes > 0
    first = np.full(len(sizes), -1, dtype=np.int64)
    first[filled] = incidence.indices[starts[filled]]
    last = np.full(len(sizes), -1, dtype=np.int64)
    last[filled] = incidence.indices[starts[filled] + sizes[filled] - 1]
    if np.any(np.diff(first[filled]) < 0) or np.any(last - first >= 1 << BLOCK_SHIFT):
        return None
    if max(index.line_counts.nnz, index.window_counts.nnz) >= 2**31:
        return None  # a posting's place must fit the blocks' int32 starts
    # A window holding no line has no postings: it takes the block of the one before.
    window_block = (np.maximum.accumulate(np.maximum(first, 0)) >> BLOCK_SHIFT).astype(np.int32)
    line_block = (np.arange(index.size) >> BLOCK_SHIFT).astype(np.int32)
    count = int(line_block[-1]) + 1 if index.size else 0
    line_norms, window_norms = index.unit_norms()
    scale = bm25.K1 + 1.0
    lines, windows = index.line_counts, index.window_counts
    line_idf = bm25.idf(np.diff(lines.indptr), lines.shape[0])
    window_idf = bm25.idf(np.diff(windows.indptr), windows.shape[0])
    line_postings = (lines.indptr, lines.indices, lines.data, line_norms)
    window_postings = (windows.indptr, windows.indices, windows.data, window_norms)
    line_runs = block_runs(lines.indptr, lines.indices, line_block, lines.shape[1])
    line_highest = run_maxima(line_runs, *line_postings, line_idf, scale)
    window_runs = block_runs(windows.indptr, windows.indices, window_block, windows.shape[1])
    last_block = np.where(filled, last >> BLOCK_SHIFT, window_block).astype(np.int32)
    window_cover = overlap_maxima(
        *window_postings, window_idf, scale, window_block, last_block, windows.shape[1]
    )
    pairs = np.unique(index.line_documents.astype(np.int64) * count + line_block)
    slots, owned = pairs // count, (pairs % count).astype(np.int64)
    slot_indptr = np.searchsorted(slots, np.arange(len(index.document_ids) + 1))
    return Blocks(
        BLOCK_SHIFT,
        count,
        tuple(line_runs),
        line_highest,
        tuple(window_runs),
        tuple(window_cover),
        line_idf,
        window_idf,
        line_postings,
        window_postings,
        index.line_windows(),
        (slot_indptr, owned),
        (
            np.zeros(1, dtype=np.float32),
            index.line_documents,
            slot_indptr,
            owned,
            False,
            count,
        ),
    )
