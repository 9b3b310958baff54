"""A shard's half of its store's entities: how often the phrases of a question stand in
the shard's kept corpus, with the company mining.py judges a phrase by, and the lines
that mention them. The driver sums every shard's counts and judges the sums with
mining.py's own rule (archive/shard_entities.py): an entity of the whole store that no shard's
own mining finds (a name written twice here and once there) is found all the same."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from affidavit.index.entities.corpus import Corpus, KeptWords
from affidavit.index.entities.mining import MAX_WORDS, closed_word

Phrase = tuple[str, ...]  # folded words, as the kept corpus reads them
EDGE = ""  # the "word" before a segment's first token and after its last


@dataclass(frozen=True)
class PhraseFacts:
    """What mining.py judges a phrase by: its occurrences, the words just before and
    just after them (``EDGE`` for a segment's edge), and for a single word how often it
    stands inside a segment, is written there with a capital, and is followed by a
    capitalised word. Only the count is taken of a phrase that is only a part."""

    count: int
    before: dict[str, int] = field(default_factory=dict)
    after: dict[str, int] = field(default_factory=dict)
    written: tuple[int, int, int] = (0, 0, 0)

    @staticmethod
    def summed(parts: Iterable[PhraseFacts]) -> PhraseFacts:
        before: Counter[str] = Counter()
        after: Counter[str] = Counter()
        count, written = 0, np.zeros(3, dtype=np.int64)
        for part in parts:
            count += part.count
            before.update(part.before)
            after.update(part.after)
            written += part.written
        inside, capitals, titled = (int(w) for w in written)
        return PhraseFacts(count, dict(before), dict(after), (inside, capitals, titled))


@dataclass(frozen=True)
class PhraseQuestion:
    """The phrases a driver asks a shard to count (``wanted``), those it wants the company
    of (``candidates``), and the reading hashes of the documents another shard counts
    (a text held on two shards is counted once, as one store mines it once)."""

    wanted: list[Phrase]
    candidates: frozenset[Phrase]
    counted_elsewhere: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Skipped:
    """Lines a kept corpus leaves out of its counts: which of its runs of a line's tokens
    are theirs, and how many tokens they hold."""

    runs: np.ndarray  # bool, one per line of the kept corpus
    tokens: int


@dataclass(frozen=True)
class CorpusFacts:
    """A kept corpus's tokens and the facts of the phrases asked of it."""

    tokens: int
    phrases: dict[Phrase, PhraseFacts]

    @staticmethod
    def summed(parts: Sequence[CorpusFacts]) -> CorpusFacts:
        wanted = sorted({phrase for part in parts for phrase in part.phrases})
        return CorpusFacts(
            sum(part.tokens for part in parts),
            {
                phrase: PhraseFacts.summed(p.phrases[phrase] for p in parts if phrase in p.phrases)
                for phrase in wanted
            },
        )


class PhraseIndex:
    """Where each word of a kept corpus (a Corpus, or its compact arrays) stands, for the
    words that may open or close an entity (``closed_word`` keeps the others out: a
    phrase asked holds one of them at its first or last word, and is found from the rarer
    of those). Built once a graph; about four bytes for each such token."""

    def __init__(self, kept: Corpus | dict[str, np.ndarray], words: KeptWords | None) -> None:
        # A Corpus's columns, or else the compact arrays' runs and bits (not unpacked:
        # two bytes a token more).
        self._segment: np.ndarray | None = None
        self._segment_ends: np.ndarray | None = None
        self._flags: np.ndarray | None = None
        self._capital = self._opening = np.zeros(0, dtype=bool)
        if isinstance(kept, Corpus):
            self._ids = kept.ids
            self._segment = kept.segment
            self._capital, self._opening = kept.capital, kept.opening
            vocabulary = kept.vocabulary
            line_values, line_counts = kept.line_runs
        else:
            self._ids = kept["c_ids"]
            self._segment_ends = np.cumsum(kept["c_segment_counts"], dtype=np.int64)
            self._flags = kept["c_flags"]
            vocabulary = (words or KeptWords.of(kept)).vocabulary
            line_values, line_counts = kept["c_line_values"], kept["c_line_counts"]
        self.tokens = len(self._ids)
        self._line_values = np.asarray(line_values, dtype=np.int64)
        self._line_ends = np.cumsum(line_counts, dtype=np.int64)
        self._number = {word: at for at, word in enumerate(vocabulary)}
        self._vocabulary = vocabulary
        closed = np.array([closed_word(w) for w in vocabulary], dtype=bool)
        self._starts, self._positions = _positions(self._ids, ~closed)

    def skipping(self, line_ids: np.ndarray) -> Skipped:
        """``line_ids`` (those another shard counts) as ``facts`` leaves them out."""
        runs = np.isin(self._line_values, line_ids)
        return Skipped(runs, int(np.diff(np.r_[0, self._line_ends])[runs].sum()))

    def facts(
        self, phrases: Sequence[Phrase], company: frozenset[Phrase], skipped: Skipped | None = None
    ) -> CorpusFacts:
        """The count of each of ``phrases`` here, with the company of those in ``company``
        (the candidates; the others are parts, counted only), leaving out the lines
        ``skipped``."""
        found: dict[Phrase, PhraseFacts] = {}
        tokens = self.tokens - (skipped.tokens if skipped is not None else 0)
        for phrase in phrases:
            starts = self.occurrences(phrase)
            if skipped is not None and skipped.tokens:
                starts = starts[~skipped.runs[self._run_of(starts)]]
            if not len(starts) or phrase not in company:
                found[phrase] = PhraseFacts(len(starts))
                continue
            n = len(phrase)
            written = (0, 0, 0)
            if n == 1:
                following = np.minimum(starts + 1, self.tokens - 1)
                titled = (
                    (starts + 1 < self.tokens)
                    & self._capital_at(following)
                    & self._same_segment(starts, following)
                )
                inside = int((~self._opening_at(starts)).sum())
                written = (inside, int(self._capital_at(starts).sum()), int(titled.sum()))
            found[phrase] = PhraseFacts(
                len(starts),
                self._beside(starts - 1, starts),
                self._beside(starts + n, starts + n - 1),
                written,
            )
        return CorpusFacts(tokens, found)

    def occurrences(self, phrase: Phrase) -> np.ndarray:
        """Where each occurrence of ``phrase`` starts (inside one segment), ascending."""
        n = len(phrase)
        ids = [self._number.get(word, -1) for word in phrase]
        if not 0 < n <= MAX_WORDS or min(ids) < 0:
            return np.zeros(0, dtype=np.int32)
        # Found from its first or last word, whichever is rarer and may open or close one.
        anchors = [k for k in {0, n - 1} if self._starts[ids[k] + 1] > self._starts[ids[k]]]
        if not anchors:
            return np.zeros(0, dtype=np.int32)
        k = min(anchors, key=lambda at: (self._starts[ids[at] + 1] - self._starts[ids[at]], at))
        held = self._positions[self._starts[ids[k]] : self._starts[ids[k] + 1]]
        if n == 1:
            return held
        starts = held - k  # int32, as the positions (a store's shard holds fewer tokens)
        starts = starts[(starts >= 0) & (starts + n <= self.tokens)]
        for at, word in enumerate(ids):
            if at != k:
                starts = starts[self._ids[starts + at] == word]
        return starts[self._same_segment(starts, starts + n - 1)]

    def lines(
        self, phrases: Sequence[Phrase]
    ) -> tuple[list[np.ndarray], dict[tuple[int, int], np.ndarray]]:
        """The ids of the lines that mention each of ``phrases`` (ascending), and for each
        pair (a, b), a < b, the lines where a mention of each stands apart from one of
        the other's (EntityGraph's postings and witnesses, of these phrases alone)."""
        spans = []
        for phrase in phrases:
            starts = self.occurrences(phrase)
            spans.append((starts, starts + len(phrase) - 1, self._line_of(starts)))
        postings = [np.unique(line) for _, _, line in spans]
        pairs: dict[tuple[int, int], np.ndarray] = {}
        for a in range(len(phrases)):
            for b in range(a + 1, len(phrases)):
                witnesses = _apart(spans[a], spans[b])
                if len(witnesses):
                    pairs[(a, b)] = witnesses
        return postings, pairs

    def _run_of(self, positions: np.ndarray) -> np.ndarray:
        return np.searchsorted(self._line_ends, positions, side="right")

    def _line_of(self, positions: np.ndarray) -> np.ndarray:
        return self._line_values[self._run_of(positions)]

    def _segment_of(self, positions: np.ndarray) -> np.ndarray:
        if self._segment is not None:
            return self._segment[positions]
        assert self._segment_ends is not None
        return np.searchsorted(self._segment_ends, positions, side="right")

    def _same_segment(self, first: np.ndarray, last: np.ndarray) -> np.ndarray:
        return self._segment_of(first) == self._segment_of(last)

    def _bit(self, row: int, positions: np.ndarray) -> np.ndarray:
        assert self._flags is not None
        return ((self._flags[row, positions >> 3] >> (7 - (positions & 7))) & 1).astype(bool)

    def _capital_at(self, positions: np.ndarray) -> np.ndarray:
        return self._capital[positions] if self._flags is None else self._bit(0, positions)

    def _opening_at(self, positions: np.ndarray) -> np.ndarray:
        return self._opening[positions] if self._flags is None else self._bit(1, positions)

    def _beside(self, positions: np.ndarray, anchors: np.ndarray) -> dict[str, int]:
        """How often each word stands at ``positions`` beside the occurrences at
        ``anchors`` (``EDGE`` where that is outside the anchor's segment)."""
        inside = (positions >= 0) & (positions < self.tokens)
        clipped = np.clip(positions, 0, max(self.tokens - 1, 0))
        inside &= self._same_segment(clipped, anchors)
        words, counts = np.unique(self._ids[clipped[inside]], return_counts=True)
        pairs = zip(words.tolist(), counts.tolist(), strict=True)
        beside = {self._vocabulary[word]: count for word, count in pairs}
        if (edges := int((~inside).sum())) > 0:
            beside[EDGE] = edges
        return beside


# Tokens placed at a time by ``_positions``: bounds its scratch (about 30 MB).
_PLACED_AT_ONCE = 1 << 20


def _positions(ids: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each ``wanted`` word stands, word by word, each word's positions ascending:
    (where each word's run starts, V + 1 of them; the positions, int32). A counting sort,
    a chunk of tokens at a time. NOTE: one argsort of every token held int64 copies of
    them all: 250 MB beside a 1 GB store's shard, past its 2 GB."""
    words = len(wanted)
    counts = np.zeros(words, dtype=np.int64)
    for low in range(0, len(ids), _PLACED_AT_ONCE):
        chunk = ids[low : low + _PLACED_AT_ONCE]
        counts += np.bincount(chunk[wanted[chunk]], minlength=words)
    starts = np.zeros(words + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    positions = np.empty(int(starts[-1]), dtype=np.int32)
    cursor = starts[:-1].copy()
    for low in range(0, len(ids), _PLACED_AT_ONCE):
        chunk = ids[low : low + _PLACED_AT_ONCE]
        at = np.flatnonzero(wanted[chunk])
        held = chunk[at]
        order = np.argsort(held, kind="stable")  # by word, each word's in text order
        held, at = held[order], at[order]
        opens = np.r_[0, np.flatnonzero(held[1:] != held[:-1]) + 1]
        rank = np.arange(len(held)) - np.repeat(opens, np.diff(np.r_[opens, len(held)]))
        positions[cursor[held] + rank] = at + low
        cursor += np.bincount(held, minlength=words)
    return starts, positions


def _apart(
    a: tuple[np.ndarray, np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> np.ndarray:
    """The lines holding a mention of one phrase and a mention of the other that do not
    overlap, ascending. ``a``, ``b``: each mention's first and last token and its line,
    in text order. Some two spans stand apart in a line when one's earliest end comes
    before the other's latest start."""
    common = np.intersect1d(a[2], b[2])
    if not len(common):
        return common
    ends: list[np.ndarray] = []
    starts: list[np.ndarray] = []
    for first, last, line in (a, b):
        keep = np.isin(line, common)
        at = np.searchsorted(line[keep], common)
        ends.append(np.minimum.reduceat(last[keep], at))
        starts.append(np.maximum.reduceat(first[keep], at))
    return common[(ends[0] < starts[1]) | (ends[1] < starts[0])]
