"""Every term's counts in a word index, held as arrays keyed by a digest of the term.

The driver of a sharded store holds each shard's tallies, summed. With them it weighs a
question's terms as one store would (statistics.py) without first asking every shard for
the counts: a search becomes one round of calls to the shards, not two.

Each term is keyed by the 128 bits of its BLAKE2b digest, as two unsigned 64-bit halves:
- the first half orders the table;
- the second half confirms a match.

Two terms of the store may share a first half. Their rows are then marked unsure, and a
question holding a term on an unsure row is counted by the shards instead. Within what
the digests tell apart, every answer read from the table is the counts themselves:
whole numbers, summed exactly."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from affidavit.index.words.statistics import Counted, Statistics


@dataclass(frozen=True)
class Tallies:
    """A store's counts for every term its lines or its document names hold."""

    totals: Statistics  # the store's lines, windows, documents and lengths (no terms)
    keys: np.ndarray  # uint64, ascending: each term's digest, first half
    checks: np.ndarray  # uint64: the second half
    line_frequency: np.ndarray  # int64: the lines holding the term
    window_frequency: np.ndarray
    name_frequency: np.ndarray  # the documents whose names hold it
    held: np.ndarray  # bool: in the word vocabulary (a term only of names is not)
    unsure: np.ndarray  # bool: another term of the store shares its key

    @classmethod
    def of(cls, index: Counted) -> Tallies:
        """``index``'s tallies, every term of its vocabulary and its document names."""
        vocabulary, named = index.vocabulary, index.name_terms
        terms = [*vocabulary, *(t for t in named if t not in vocabulary)]
        columns = np.fromiter((vocabulary.get(t, -1) for t in terms), np.int64, len(terms))
        held = columns >= 0
        line = np.zeros(len(terms), dtype=np.int64)
        window = np.zeros(len(terms), dtype=np.int64)
        line[held] = np.diff(index.line_counts.indptr)[columns[held]]
        window[held] = np.diff(index.window_counts.indptr)[columns[held]]
        name = np.fromiter((len(named.get(t, ())) for t in terms), np.int64, len(terms))
        keys, checks = digests(terms)
        return _grouped(
            cls(
                totals=Statistics.of(index, ()),
                keys=keys,
                checks=checks,
                line_frequency=line,
                window_frequency=window,
                name_frequency=name,
                held=held,
                unsure=np.zeros(len(terms), dtype=bool),
            )
        )

    @classmethod
    def summed(cls, parts: Sequence[Tallies]) -> Tallies:
        """The tallies of several stores' lines taken together."""

        def joined(field: str) -> np.ndarray:
            return np.concatenate([getattr(p, field) for p in parts])

        return _grouped(
            cls(
                totals=Statistics.summed([p.totals for p in parts]),
                keys=joined("keys"),
                checks=joined("checks"),
                line_frequency=joined("line_frequency"),
                window_frequency=joined("window_frequency"),
                name_frequency=joined("name_frequency"),
                held=joined("held"),
                unsure=joined("unsure"),
            )
        )

    def statistics(self, terms: Iterable[str]) -> Statistics | None:
        """The counts for ``terms``, as Statistics.of reads them of one index holding
        every line; None when a term's row is unsure."""
        line_frequency, window_frequency, name_frequency = {}, {}, {}
        for term in sorted(set(terms)):
            row = self._row(term)
            if row is None:
                return None
            if row < 0:
                continue
            if self.held[row]:
                line_frequency[term] = int(self.line_frequency[row])
                window_frequency[term] = int(self.window_frequency[row])
            if self.name_frequency[row]:
                name_frequency[term] = int(self.name_frequency[row])
        return replace(
            self.totals,
            line_frequency=line_frequency,
            window_frequency=window_frequency,
            name_frequency=name_frequency,
        )

    def holds(self, term: str) -> bool | None:
        """Does the word vocabulary hold ``term``; None when its row is unsure."""
        row = self._row(term)
        if row is None:
            return None
        return row >= 0 and bool(self.held[row])

    def _row(self, term: str) -> int | None:
        """The term's row, -1 when the store holds no such term, None when unsure."""
        keys, checks = digests([term])
        row = int(np.searchsorted(self.keys, keys[0]))
        if row >= len(self.keys) or self.keys[row] != keys[0]:
            return -1
        if self.unsure[row]:
            return None
        return row if self.checks[row] == checks[0] else -1


def digests(terms: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The two halves of each term's 128-bit BLAKE2b digest (uint64 each)."""
    joined = b"".join(hashlib.blake2b(t.encode("utf-8"), digest_size=16).digest() for t in terms)
    halves = np.frombuffer(joined, dtype="<u8").reshape(-1, 2)
    return halves[:, 0].astype(np.uint64), halves[:, 1].astype(np.uint64)


def _grouped(tallies: Tallies) -> Tallies:
    """``tallies`` with the rows of one term (one digest) summed into one, in key order,
    and the rows of different terms sharing a key marked unsure."""
    t = tallies
    order = np.lexsort((t.checks, t.keys))
    keys, checks = t.keys[order], t.checks[order]
    if not len(keys):
        return t
    starts = np.flatnonzero(np.r_[True, (keys[1:] != keys[:-1]) | (checks[1:] != checks[:-1])])
    keys, checks = keys[starts], checks[starts]
    shared = keys[1:] == keys[:-1]
    unsure = np.maximum.reduceat(t.unsure[order].astype(np.int8), starts).astype(bool)
    unsure |= np.r_[shared, False] | np.r_[False, shared]
    return replace(
        t,
        keys=keys,
        checks=checks,
        line_frequency=np.add.reduceat(t.line_frequency[order], starts),
        window_frequency=np.add.reduceat(t.window_frequency[order], starts),
        name_frequency=np.add.reduceat(t.name_frequency[order], starts),
        held=np.maximum.reduceat(t.held[order].astype(np.int8), starts).astype(bool),
        unsure=unsure,
    )


def line_idf(lines: int, line_frequency: int) -> float:
    """Lucene's IDF of a term ``line_frequency`` of ``lines`` lines carry; 0 for a term no
    line carries, which cannot tell one line from another: one store's (WordIndex.idf) and
    a sharded store's, over its summed tallies."""
    if not line_frequency:
        return 0.0
    return math.log1p((max(lines, 1) - line_frequency + 0.5) / (line_frequency + 0.5))


class SummedWeights:
    """How rare a term is among every line of a store kept in parts (a sharded store's):
    its IDF by the parts' summed tallies, each weight kept in ``known``. A term whose row
    the tallies cannot tell from another's (two terms sharing a digest's first half) is
    weighed by ``learn``, which asks the parts and adds it to ``known``. An index-room
    value, so the judges weighing words call no code of the room that asked them."""

    def __init__(
        self, tallies: Tallies, known: dict[str, float], learn: Callable[[Sequence[str]], None]
    ) -> None:
        self._tallies = tallies
        self._known = known
        self._learn = learn

    def __call__(self, term: str) -> float:
        weight = self._known.get(term)
        if weight is not None:
            return weight
        counted = self._tallies.statistics([term])
        if counted is None:
            self._learn([term])
            return self._known[term]
        weight = line_idf(counted.lines, counted.line_frequency.get(term, 0))
        self._known[term] = weight
        return weight


class SummedVocabulary:
    """The index terms of every part of a store kept in parts (a sharded store's), as a
    vocabulary is read (``term in vocabulary``), from the parts' summed tallies; each
    answer kept in ``known``. A term whose row the tallies cannot tell from another's is
    asked of the parts by ``learn``, which adds it to ``known``."""

    def __init__(
        self, tallies: Tallies, known: dict[str, bool], learn: Callable[[str], bool]
    ) -> None:
        self._tallies = tallies
        self._known = known
        self._learn = learn

    def __contains__(self, term: object) -> bool:
        if not isinstance(term, str):
            return False
        held = self._known.get(term)
        if held is None:
            held = self._tallies.holds(term)
            if held is None:  # the tallies cannot tell: the parts' vocabularies can
                held = self._learn(term)
            self._known[term] = held
        return held
