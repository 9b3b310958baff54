"""Every n-gram of a corpus counted as integer keys, one length at a time, for mining:
no table of Python tuples, and each length's occurrences dropped once it is judged."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from affidavit.index.entities.corpus import Corpus

# Sorted keys compared this many at a time (``unique_keys``): 8 MB of int64 a side.
_COMPARED_AT_ONCE = 1 << 20


@dataclass(frozen=True)
class Level:
    """The n-grams of one length: where each occurrence starts, which distinct gram it is
    (dense, in the order of ``keys``), and the distinct grams' keys, counts and first
    occurrences."""

    starts: np.ndarray  # int32, a token position per occurrence (inside one segment)
    inverse: np.ndarray  # int32, the distinct gram of each occurrence (both dropped once
    # the length's candidates are judged)
    keys: np.ndarray  # int64, sorted: (the rank of the gram's first n-1 words) * V + last
    tally: np.ndarray  # int64, occurrences of each distinct gram
    first: np.ndarray  # int64, a token position where each distinct gram occurs


@dataclass
class Grams:
    """Every n-gram of a corpus (1 to a longest length, inside one segment), counted.

    An n-gram's key is the rank of its first n-1 words among the (n-1)-grams, times the
    vocabulary size, plus its last word: keys stay below tokens x vocabulary whatever n
    is, so each length is counted with one 1-D ``numpy.unique``, and the count of any
    word sequence is a chain of binary searches (no table of Python tuples, which took
    most of the memory of mining a large store)."""

    ids: np.ndarray
    vocabulary: int
    levels: dict[int, Level]

    @classmethod
    def count(cls, corpus: Corpus, longest: int) -> Grams:
        """Every length counted (each length's occurrences dropped once the next is)."""
        grams = cls(corpus.ids, max(len(corpus.vocabulary), 1), {})
        for _, level in grams.counted(corpus, longest):
            del level  # not held beside the next length's count
        return grams

    def counted(self, corpus: Corpus, longest: int) -> Iterator[tuple[int, Level]]:
        """Count each length in turn, 1 to ``longest``, and give it whole (with where each
        occurrence starts); a length is kept without its occurrences once the next one is
        asked for."""
        ids, size = corpus.ids, len(corpus.ids)
        rank = ids  # the rank of the (n-1)-gram starting at each position (n = 1: the word)
        for n in range(1, longest + 1):
            starts = within_segments(corpus.segment, n)
            if n == 1:
                key = ids[starts].astype(np.int64)
            else:  # in place: each temporary of 17 million int64 was 136 MB of the peak
                key = rank[starts].astype(np.int64)
                key *= self.vocabulary
                key += ids[starts + n - 1]
            # The ranks are not read again until they are made anew: not held through the
            # sort (69 MB at 17 million tokens).
            del rank
            keys, first, inverse, tally = unique_keys(key)
            del key
            level = Level(starts, inverse, keys, tally, starts[first].astype(np.int64))
            self.levels[n] = level
            if n < longest:
                rank = np.full(size, -1, dtype=np.int32)
                rank[starts] = inverse
            del inverse, starts  # the level holds them while it is judged, and no longer
            yield n, level
            empty = np.zeros(0, dtype=np.int32)
            self.levels[n] = Level(empty, empty, keys, tally, level.first)
            del level  # nor beside the next length's count

    def words(self, n: int) -> np.ndarray:
        """The word ids of each distinct n-gram, a row each, in the order of its keys."""
        first = self.levels[n].first
        return np.stack([self.ids[first + k] for k in range(n)], axis=1)

    def counts_of(self, grams: np.ndarray) -> np.ndarray:
        """How often each row of word ids occurs inside one segment (0 when never)."""
        rank = np.zeros(len(grams), dtype=np.int64)
        found = np.ones(len(grams), dtype=bool)
        for n in range(1, grams.shape[1] + 1):
            keys = self.levels[n].keys
            key = (
                grams[:, 0].astype(np.int64) if n == 1 else rank * self.vocabulary + grams[:, n - 1]
            )
            at = np.minimum(np.searchsorted(keys, key), max(len(keys) - 1, 0))
            found &= keys[at] == key if len(keys) else False
            rank = at
        counts = self.levels[grams.shape[1]].tally[rank]
        return np.where(found, counts, 0)


def within_segments(segment: np.ndarray, n: int) -> np.ndarray:
    """The positions (int32) where an n-gram starts and ends in the same segment, found a
    chunk at a time: ``numpy.flatnonzero`` over all the tokens would hold int64 positions
    beside their int32 copy (207 MB at 17 million tokens, the worker's peak)."""
    size = len(segment) - n + 1
    if size <= 0:
        return np.zeros(0, dtype=np.int32)
    out = np.empty(size, dtype=np.int32)
    found = 0
    for low in range(0, size, _COMPARED_AT_ONCE):
        high = min(low + _COMPARED_AT_ONCE, size)
        at = np.flatnonzero(segment[low:high] == segment[low + n - 1 : high + n - 1])
        out[found : found + len(at)] = at + low
        found += len(at)
    # A copy of what was found, not a view: a view would keep the whole buffer with the
    # level (a third of it unused at four words).
    return out[:found].copy() if found < size else out


def unique_keys(key: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``numpy.unique(key, return_index=True, return_inverse=True, return_counts=True)``
    with an int32 inverse, made from one sort: numpy's keeps several int64
    copies of the occurrences at once (NOTE: at 17 million tokens that was 300 MB of
    the graph's peak). The sorted keys are compared a chunk at a time, never held whole."""
    if not len(key):
        empty = np.zeros(0, dtype=np.int64)
        return key, empty, np.zeros(0, dtype=np.int32), empty
    # NOTE: not a stable sort (2.2 times as fast on 4 million keys here): the first
    # occurrence of each key is the least position in its run, found after.
    order = np.argsort(key, kind="quicksort")
    if len(key) <= np.iinfo(np.int32).max:
        order = order.astype(np.int32)  # held through the rest: half the bytes
    opens = np.empty(len(key), dtype=bool)
    opens[0] = True
    for low in range(1, len(key), _COMPARED_AT_ONCE):
        high = min(low + _COMPARED_AT_ONCE, len(key))
        np.not_equal(key[order[low:high]], key[order[low - 1 : high - 1]], out=opens[low:high])
    starts = np.flatnonzero(opens)
    first = np.minimum.reduceat(order, starts) if len(starts) else order[:0]
    keys = key[first]
    # Each occurrence's distinct gram: the count of openings up to its place in the sorted
    # order, a chunk at a time (a whole array of them was 69 MB beside the others).
    inverse = np.empty(len(key), dtype=np.int32)
    opened = -1
    for low in range(0, len(key), _COMPARED_AT_ONCE):
        high = min(low + _COMPARED_AT_ONCE, len(key))
        ranks = np.cumsum(opens[low:high], dtype=np.int32)
        ranks += opened
        inverse[order[low:high]] = ranks
        opened = int(ranks[-1])
    tally = np.diff(np.append(starts, len(key)))
    return keys, first, inverse, tally
