"""Which lines each window of lines spans: the incidence matrix the word index scores
windows through, found by one sort of every line's (document, position)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

Window = tuple[int, int, int, int]  # document id, scale, first position, last position


def in_line_order(windows: list[Window], slot_of: dict[int, int]) -> list[Window]:
    """Windows in the order of their first lines (documents in the order of ``slot_of``,
    as the lines are): the windows of a run of lines are then a run of windows, which
    block_max.py's blocks rely on."""
    return sorted(windows, key=lambda w: (slot_of[w[0]], w[2], w[3], w[1]))


def window_incidence(
    docs: np.ndarray, positions: np.ndarray, windows: list[Window]
) -> sp.csr_matrix:
    """A (window, line row) matrix of ones, a row a window (document id, scale, start,
    end) in the order given, a column a line in the order of ``docs`` and ``positions``."""
    rows, columns = _members(docs, positions, windows)
    incidence = sp.csr_matrix(
        (np.ones(len(rows), dtype=np.int8), (rows, columns)), shape=(len(windows), len(docs))
    )
    incidence.sort_indices()
    return incidence


def _members(
    docs: np.ndarray, positions: np.ndarray, windows: list[Window]
) -> tuple[np.ndarray, np.ndarray]:
    """(window, line row) of each line each window spans, windows in order and each
    window's lines by position, a position no line holds left out: every line's
    (document, position) sorted once and looked up, not kept in a dict."""
    empty = np.zeros(0, dtype=np.int64)
    if not windows or not len(docs):
        return empty, empty
    spans = np.asarray([(d, start, end) for d, _, start, end in windows], dtype=np.int64)
    sizes = np.maximum(spans[:, 2] - spans[:, 1] + 1, 0)
    window = np.repeat(np.arange(len(windows), dtype=np.int64), sizes)
    first = np.repeat(np.cumsum(sizes) - sizes, sizes)
    wanted = np.repeat(spans[:, 1], sizes) + np.arange(int(sizes.sum()), dtype=np.int64) - first
    owner = np.repeat(spans[:, 0], sizes)
    # One key per (document, position); a position past every line's is held by none.
    width = int(positions.max()) + 1
    held = (wanted >= 0) & (wanted < width)
    window, wanted, owner = window[held], wanted[held], owner[held]
    keys = docs * width + positions
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    sought = owner * width + wanted
    at = np.minimum(np.searchsorted(ordered, sought), len(ordered) - 1)
    found = ordered[at] == sought
    return window[found], order[at[found]]
