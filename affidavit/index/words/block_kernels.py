"""The compiled loops of block-max search (block_max.py): numba, one pass each."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit


# NOTE: numpy would need about a hundred array calls a question for the same work, 0.8 ms at
# 100 MB whatever they read (bench/RESULTS.md); compiled, a question reads only the postings
# of the blocks it scores.
def _kernel(function: Callable[..., Any]) -> Any:
    """``function`` compiled, its machine code cached beside the package (or in the
    user's cache) so a later process loads it; where numba finds no writable place for
    that cache it compiles in each process instead of failing the import."""
    try:
        return njit(cache=True)(function)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return njit(function)


# The blocks scored first, before any k-th score is known.
FIRST_BLOCKS = 16


@_kernel
def _weight(idf, count, norm, scale):  # type: ignore[no-untyped-def]
    """BM25's weight of one posting, as ``bm25.term_weights`` makes it (float64, then
    float32)."""
    tf = np.float64(count)
    return np.float32(idf * tf * scale / (tf + norm))


@_kernel
def block_runs(indptr, indices, unit_block, terms):  # type: ignore[no-untyped-def]
    """For each term: the blocks its postings fall in (ascending) and where each block's
    postings start (they end where the next block's start, or the term's). CSR over the
    terms: (offsets, blocks, starts)."""
    offsets = np.zeros(terms + 1, np.int64)
    for t in range(terms):
        last = -1
        found = 0
        for p in range(indptr[t], indptr[t + 1]):
            b = unit_block[indices[p]]
            if b != last:
                found += 1
                last = b
        offsets[t + 1] = offsets[t] + found
    blocks = np.empty(offsets[-1], np.int32)
    starts = np.empty(offsets[-1], np.int32)
    for t in range(terms):
        at = offsets[t] - 1
        last = -1
        for p in range(indptr[t], indptr[t + 1]):
            b = unit_block[indices[p]]
            if b != last:
                at += 1
                blocks[at] = b
                starts[at] = p
                last = b
    return offsets, blocks, starts


@_kernel
def run_maxima(runs, indptr, indices, data, norms, idf, scale):  # type: ignore[no-untyped-def]
    """Each of ``block_runs``' runs' highest weight."""
    offsets, _, starts = runs
    highest = np.empty(len(starts), np.float32)
    for t in range(len(offsets) - 1):
        for j in range(offsets[t], offsets[t + 1]):
            end = starts[j + 1] if j + 1 < offsets[t + 1] else indptr[t + 1]
            top = np.float32(0.0)
            for p in range(starts[j], end):
                weight = _weight(idf[t], data[p], norms[indices[p]], scale)
                if weight > top:
                    top = weight
            highest[j] = top
    return highest


@_kernel
def overlap_maxima(indptr, indices, data, norms, idf, scale, first_block, last_block, terms):  # type: ignore[no-untyped-def]
    """For each term: every block its windows overlap (ascending; a window spans its first
    line's block and at most the next), and its highest window weight there. CSR:
    (offsets, blocks, highest). A block's lines are in no other windows, so its bound
    needs no neighbour's. Read as a stream: a term's windows come in the order of their
    first lines, so a block is complete once a window starts past it."""
    offsets = np.zeros(terms + 1, np.int64)
    for t in range(terms):  # the blocks each term's stream gives, as the pass below
        found = 0
        current = -1
        pending = False
        for p in range(indptr[t], indptr[t + 1]):
            unit = indices[p]
            first = first_block[unit]
            if first != current:
                if current >= 0:
                    found += 1
                if pending and first != current + 1:
                    found += 1
                pending = False
                current = first
            if last_block[unit] > first:
                pending = True
        if current >= 0:
            found += 2 if pending else 1
        offsets[t + 1] = offsets[t] + found
    blocks = np.empty(offsets[-1], np.int32)
    highest = np.empty(offsets[-1], np.float32)
    for t in range(terms):
        at = offsets[t]
        current = -1
        best = np.float32(0.0)  # the current block's highest
        pending = False
        following = np.float32(0.0)  # the next block's highest, from windows reaching it
        for p in range(indptr[t], indptr[t + 1]):
            unit = indices[p]
            first, last = first_block[unit], last_block[unit]
            weight = _weight(idf[t], data[p], norms[unit], scale)
            if first != current:
                if current >= 0:
                    blocks[at] = current
                    highest[at] = best
                    at += 1
                if pending and first == current + 1:
                    best = following if following > weight else weight
                else:
                    if pending:
                        blocks[at] = current + 1
                        highest[at] = following
                        at += 1
                    best = weight
                pending = False
                following = np.float32(0.0)
                current = first
            elif weight > best:
                best = weight
            if last > first:
                if not pending or weight > following:
                    following = weight
                pending = True
        if current >= 0:
            blocks[at] = current
            highest[at] = best
            at += 1
            if pending:
                blocks[at] = current + 1
                highest[at] = following
                at += 1
    return offsets, blocks, highest


@_kernel
def _run(runs, indptr, t, b):  # type: ignore[no-untyped-def]
    """Where term ``t``'s postings in block ``b`` start and end (an empty range when it
    has none there): a binary search of its runs."""
    offsets, blocks, starts = runs
    lo, hi = offsets[t], offsets[t + 1]
    while lo < hi:
        middle = (lo + hi) >> 1
        if blocks[middle] < b:
            lo = middle + 1
        else:
            hi = middle
    if lo == offsets[t + 1] or blocks[lo] != b:
        return 0, 0
    return starts[lo], starts[lo + 1] if lo + 1 < offsets[t + 1] else indptr[t + 1]


@_kernel
def _add_postings(chosen, terms, idf, scale, runs, postings, out):  # type: ignore[no-untyped-def]
    """Add the weights of ``terms``' postings in the ``chosen`` blocks (ascending) into
    ``out``: block by block, and in each block term by term in the question's order.
    ``postings``: (indptr, indices, counts, norms)."""
    indptr, indices, data, norms = postings
    for b in chosen:
        for i in range(len(terms)):
            start, end = _run(runs, indptr, terms[i], b)
            for p in range(start, end):
                unit = indices[p]
                out[unit] += _weight(idf[i], data[p], norms[unit], scale)


@_kernel
def _clear(chosen, terms, runs, postings, out):  # type: ignore[no-untyped-def]
    """Zero ``out`` where ``_add_postings`` added into it."""
    indptr, indices = postings[0], postings[1]
    for b in chosen:
        for i in range(len(terms)):
            start, end = _run(runs, indptr, terms[i], b)
            for p in range(start, end):
                out[indices[p]] = 0


@_kernel
def best_lines(  # type: ignore[no-untyped-def]
    terms,
    line_idf,
    window_idf,
    line_stretch,
    window_stretch,
    scale,
    gain,
    k,
    shift,
    line_postings,
    line_runs,
    line_highest,
    window_postings,
    window_runs,
    window_cover,
    membership,
    bonus,
    line_ids,
    lines,
    sums,
):
    """The ``k`` best lines as ``top_only`` ranks them (ids ascending on ties): their
    line ids and scores (-1 past the last found), and how many blocks were scored.

    Blocks are scored exactly in order of their upper bounds: FIRST_BLOCKS first, then
    the blocks left that reach the k-th score found so far, highest bound first, in
    batches twice as large each time, until the next bound falls below the k-th score:
    no block below it holds a line that could be among the best.

    ``line_postings`` and ``window_postings`` are (indptr, indices, counts, norms); the
    runs, ``block_runs``' output over each; ``line_highest``, ``run_maxima``'s over the
    lines' runs; ``window_cover``, ``overlap_maxima``'s; ``membership`` each line's
    windows (indptr, indices);
    ``bonus`` (each document slot's name bonus, each line's slot, each slot's blocks as
    CSR, whether any document is named, how many blocks);
    ``lines`` and ``sums`` are zeroed scratch, left zeroed. ``line_stretch`` and
    ``window_stretch`` (each term's; 1 for an index's own weights) scale the maxima into
    bounds of weights taken with other statistics (block_max.best's ``weighing``).

    Every sum is made term by term in the question's order, as scoring.py makes them, of
    weights made as ``_weight`` makes them, so each score is the same to the bit."""
    bound = _bounds(
        terms,
        line_runs,
        line_highest,
        line_stretch,
        window_cover,
        window_stretch,
        gain,
        _block_bonus(bonus),
    )
    done = np.zeros(len(bound), np.bool_)
    best_scores = np.zeros(k, np.float32)
    best_ids = np.full(k, -1, np.int64)
    threshold = 0.0
    first = True
    scored = 0
    queue = np.zeros(0, np.int64)  # the blocks left that reach the threshold, best first
    taken = 0
    batch = FIRST_BLOCKS
    while True:
        if first:
            chosen = _highest_bounds(bound)
            first = False
        else:
            if len(queue) == 0 and taken == 0:
                # Once: the threshold only rises, so the queue only shortens.
                queue = _reaching(bound, done, threshold)
            # The next batch, twice the last, of the queue's blocks still reaching it.
            batch *= 2
            end = taken
            while end < len(queue) and end < taken + batch and bound[queue[end]] >= threshold:
                end += 1
            chosen = np.sort(queue[taken:end])
            taken = end if end > taken else len(queue)
        if len(chosen) == 0:
            break
        scored += len(chosen)
        for b in chosen:
            done[b] = True
        starting = _window_blocks(chosen)
        _add_postings(chosen, terms, line_idf, scale, line_runs, line_postings, lines)
        _add_postings(starting, terms, window_idf, scale, window_runs, window_postings, sums)
        _rank_lines(
            chosen, shift, gain, lines, sums, membership, bonus, line_ids, best_ids, best_scores
        )
        _clear(starting, terms, window_runs, window_postings, sums)
        if best_ids[k - 1] >= 0:
            threshold = np.float64(best_scores[k - 1])
    return best_ids, best_scores, scored


@_kernel
def _block_bonus(bonus):  # type: ignore[no-untyped-def]
    """Each block's highest name bonus: the bonus of the best-named document with a line
    in it (``best_lines``' ``bonus``; zeros when no document is named)."""
    slot_bonus, _, slot_indptr, slot_blocks, named, nb = bonus
    block_bonus = np.zeros(nb)
    if named:
        for slot in range(len(slot_bonus)):
            if slot_bonus[slot] > 0:
                for j in range(slot_indptr[slot], slot_indptr[slot + 1]):
                    if slot_bonus[slot] > block_bonus[slot_blocks[j]]:
                        block_bonus[slot_blocks[j]] = slot_bonus[slot]
    return block_bonus


@_kernel
def _bounds(  # type: ignore[no-untyped-def]
    terms, line_runs, line_highest, line_stretch, window_cover, window_stretch, gain, block_bonus
):
    """Each block's upper bound: the sum over the terms of their highest line weights in
    it, the gain times the sum of their highest weights for a window overlapping it (each
    stretched as ``best_lines`` says), and its highest name bonus."""
    l_offsets, l_blocks, _ = line_runs
    c_offsets, c_blocks, c_highest = window_cover
    nb = len(block_bonus)
    own = np.zeros(nb)
    windowed = np.zeros(nb)
    for i in range(len(terms)):
        t = terms[i]
        for j in range(l_offsets[t], l_offsets[t + 1]):
            own[l_blocks[j]] += line_highest[j] * line_stretch[i]
        for j in range(c_offsets[t], c_offsets[t + 1]):
            windowed[c_blocks[j]] += c_highest[j] * window_stretch[i]
    bound = np.empty(nb)
    for b in range(nb):
        # Headroom for float32 rounding: the scores are float32 sums of float32 weights.
        bound[b] = (own[b] + gain * windowed[b] + block_bonus[b]) * (1.0 + 1e-4)
    return bound


@_kernel
def _highest_bounds(bound):  # type: ignore[no-untyped-def]
    """The FIRST_BLOCKS blocks of highest bound above zero (the lower block on a tie),
    ascending, in one pass."""
    top = np.full(min(FIRST_BLOCKS, len(bound)), -1, np.int64)
    for b in range(len(bound)):
        if bound[b] <= 0:
            continue
        at = len(top)
        while at > 0 and (top[at - 1] < 0 or bound[b] > bound[top[at - 1]]):
            at -= 1
        if at < len(top):
            for moved in range(len(top) - 1, at, -1):
                top[moved] = top[moved - 1]
            top[at] = b
    return np.sort(top[top >= 0])


@_kernel
def _reaching(bound, done, threshold):  # type: ignore[no-untyped-def]
    """Every block not scored yet whose bound is above zero and reaches ``threshold``,
    highest bound first (ties by block)."""
    count = 0
    for b in range(len(bound)):
        if not done[b] and bound[b] > 0 and bound[b] >= threshold:
            count += 1
    left = np.empty(count, np.int64)
    count = 0
    for b in range(len(bound)):
        if not done[b] and bound[b] > 0 and bound[b] >= threshold:
            left[count] = b
            count += 1
    return left[np.argsort(-bound[left], kind="mergesort")]


@_kernel
def _window_blocks(chosen):  # type: ignore[no-untyped-def]
    """The blocks whose windows reach the ``chosen`` blocks' lines (ascending, each once):
    each chosen block and the one before it (a window spans at most two blocks)."""
    starting = np.empty(2 * len(chosen), np.int64)
    count = 0
    for b in chosen:
        if b > 0 and (count == 0 or starting[count - 1] < b - 1):
            starting[count] = b - 1
            count += 1
        if count == 0 or starting[count - 1] < b:
            starting[count] = b
            count += 1
    return starting[:count]


@_kernel
def _rank_lines(  # type: ignore[no-untyped-def]
    chosen, shift, gain, lines, sums, membership, bonus, line_ids, best_ids, best_scores
):
    """Score every line of the ``chosen`` blocks (its own sum, the gain times its best
    window's sum, its document's name bonus), zero its scratch, and keep it among the
    best (``best_ids``, ``best_scores``) when it ranks there."""
    member_indptr, member_indices = membership
    slot_bonus, line_slot, _, _, named, _ = bonus
    size = len(line_ids)
    for b in chosen:
        for row in range(b << shift, min(size, (b + 1) << shift)):
            best = np.float32(0.0)
            for q in range(member_indptr[row], member_indptr[row + 1]):
                if sums[member_indices[q]] > best:
                    best = sums[member_indices[q]]
            score = lines[row] + gain * best
            if named:
                score = score + slot_bonus[line_slot[row]]
            lines[row] = 0
            if score <= 0:
                continue
            line = line_ids[row]
            last = len(best_ids) - 1
            if best_ids[last] >= 0 and (
                score < best_scores[last] or (score == best_scores[last] and line > best_ids[last])
            ):
                continue  # below the last of the best
            _insert(best_ids, best_scores, line, score)


@_kernel
def _insert(best_ids, best_scores, line, score):  # type: ignore[no-untyped-def]
    """Put ``line`` with ``score`` in its place among the best (highest score first, ids
    ascending on ties), the last one falling out."""
    at = len(best_ids) - 1
    while at > 0 and (
        best_ids[at - 1] < 0
        or score > best_scores[at - 1]
        or (score == best_scores[at - 1] and line < best_ids[at - 1])
    ):
        best_scores[at] = best_scores[at - 1]
        best_ids[at] = best_ids[at - 1]
        at -= 1
    best_scores[at] = score
    best_ids[at] = line
