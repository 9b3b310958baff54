"""BM25 (Lucene's variant) as pure functions over sparse term-count matrices (rows = units,
columns = terms)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import scipy.sparse as sp

K1 = 1.2
B = 0.75


def idf(document_frequency: np.ndarray, n_units: int) -> np.ndarray:
    """Lucene's IDF: never negative, so a word in every unit still counts a little."""
    df = document_frequency.astype(np.float64)
    return np.log1p((n_units - df + 0.5) / (df + 0.5))


def bm25_weights(counts: sp.csr_matrix, *, k1: float = K1, b: float = B) -> sp.csc_matrix:
    """Turn term counts into BM25 term weights; returns CSC for fast column (term) sums."""
    counts = counts.tocsr().astype(np.float64)
    n_units = counts.shape[0]
    if n_units == 0 or counts.nnz == 0:
        return sp.csc_matrix(counts.shape, dtype=np.float32)
    lengths = np.asarray(counts.sum(axis=1)).ravel()
    average = lengths.mean() or 1.0
    df = np.bincount(counts.indices, minlength=counts.shape[1])
    term_idf = idf(df, n_units)
    row_of = np.repeat(np.arange(n_units), np.diff(counts.indptr))
    tf = counts.data
    norm = length_norms(lengths, average, k1=k1, b=b)[row_of]
    data = term_idf[counts.indices] * tf * (k1 + 1.0) / (tf + norm)
    weights = sp.csr_matrix(
        (data.astype(np.float32), counts.indices, counts.indptr), shape=counts.shape
    )
    return weights.tocsc()


def lengths(counts: sp.csc_matrix) -> np.ndarray:
    """Each unit's length: the sum of its term counts (whole numbers, exact in float32).

    NOTE: scipy's row sum of a CSC matrix took 4 ms for 3.5 million postings where a
    bincount over them took 155 ms (a store of 20 MB, read again at every reopen)."""
    return np.asarray(counts.sum(axis=1), dtype=np.float64).ravel()


def length_norms(
    unit_lengths: np.ndarray, average: float, *, k1: float = K1, b: float = B
) -> np.ndarray:
    """Each unit's length normalisation, k1 (1 - b + b length / average), in float64:
    taken once an index, where every term's weights would take it again for each of
    its postings (bit for bit the same values)."""
    return k1 * (1.0 - b + b * unit_lengths / (average or 1.0))


def term_weights(
    counts: sp.csc_matrix,
    norms: np.ndarray,
    term: int,
    frequencies: np.ndarray | Mapping[int, int] | None = None,
    units: int | None = None,
) -> np.ndarray:
    """The BM25 weight of ``term`` in each unit of its postings (``counts`` is CSC;
    ``norms`` from ``length_norms``), in posting order, float32: the same arithmetic as
    ``bm25_weights``, which weighs every (unit, term) at once. The word index keeps raw
    counts and weighs only the postings of a question's terms this way (summed in
    scoring.py). ``frequencies``: each term's units when ``counts`` holds only some of
    its postings (index/words/twins.py), or in a whole store of which ``counts`` are a
    shard's (with ``units``, the whole's units; index/words/statistics.py), else the
    postings' own count."""
    lo, hi = counts.indptr[term], counts.indptr[term + 1]
    tf = counts.data[lo:hi].astype(np.float64)
    df = hi - lo if frequencies is None else frequencies[term]
    term_idf = idf(np.asarray([df]), counts.shape[0] if units is None else units)[0]
    return (term_idf * tf * (K1 + 1.0) / (tf + norms[counts.indices[lo:hi]])).astype(np.float32)
