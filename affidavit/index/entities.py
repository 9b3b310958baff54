"""Entity mining: the phrases a store's own text treats as names, found with no model call.

Lines are cut into *segments* at punctuation (the full stop of a title or an initial,
"Mr.", "St.", "J.", does not cut), and segments into word tokens, folded to lower
case. A candidate is an n-gram of 1 to MAX_WORDS tokens inside one segment, neither
starting nor ending with a stop word or a number. A candidate of two or more words is
an entity when:

- **its words occur together beyond chance**: the pointwise mutual information over its
  *weakest split*, min over k of log2(p(phrase) / (p(left k words) p(the rest))), with
  p = count / tokens, is at least MIN_PMI;
- **it keeps varied company**: the entropy (bits) of the words just before it, and of
  the words just after it (a segment edge counts as one more "word"), are each at least
  MIN_ENTROPY, so a fragment that always continues the same way ("New" of "New York")
  is not a unit of its own;
- **its parts do not choose freely**: at the weakest split, at least one part occurs in
  this phrase in at least BOUND_SHARE of all its occurrences ("York" is almost always
  "New York"; "Mr" goes with every surname, but the surname is the bound part).

A single word has no split; it is an entity when it is written with a capital where no
sentence starts in at least CAPITAL_SHARE of its occurrences, keeps varied company, and
is not a title (followed by a capitalised word in TITLE_SHARE of its occurrences: "Mr",
"Sir"). Possessive and contracted endings are cut ("Lydgate’s" is Lydgate), and number
words neither open nor close a candidate ("a thousand pounds" is a sum, not a name).
Capitals help single words only: phrases need none, so lower-case text, Spanish and
Turkish are mined alike. Every candidate needs MIN_COUNT occurrences.

Counting is vectorised: tokens become integer ids and each n-gram length is counted with
one ``numpy.unique`` over integer keys (Grams).
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from affidavit.index.number_words import NUMBER_WORDS
from affidavit.index.text import STOP_WORDS, lower

MAX_WORDS = 4
# NOTE: thresholds chosen on Middlemarch (bench/entity_graph.py prints the top 40 and the
# counts kept): MIN_COUNT 3 keeps minor characters (named 3-5 times) and drops one-offs;
# MIN_PMI 3 bits (8 times chance) keeps "Lowick Manor" and drops "young man"; entropy
# 1.5 bits (about three equally likely neighbours) drops fragments; a bound share of one
# half and a capital share of 0.8 separate "Lydgate" from "Poor" or "Yes".
MIN_COUNT = 3
MIN_PMI = 3.0
MIN_ENTROPY = 1.5
BOUND_SHARE = 0.5
CAPITAL_SHARE = 0.8
# A capitalised word followed by another capitalised word this often is a title ("Mr",
# "Sir", "Miss"), not a name.
TITLE_SHARE = 0.8

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
# "Lydgate’s" is Lydgate, "I’m" is I: a possessive or a contraction is not part of a name.
_SUFFIX = re.compile(r"['’](?:s|m|ve|ll|re|d|t)$", re.IGNORECASE)
# Turkish writes a proper noun's case ending after an apostrophe: "ABD'de" is ABD.
_TURKISH_SUFFIX = re.compile(r"['’][^\W\d_]+$")


def bare(word: str, language: str) -> str:
    """A word without its possessive, contraction or (Turkish) case ending."""
    return (_TURKISH_SUFFIX if language == "tr" else _SUFFIX).sub("", word)


# Punctuation that ends a segment; a full stop after a short capitalised word (a title:
# "Mr.", "Mrs.", "St.") does not.
_BREAK = re.compile(r"[,;:!?()\[\]{}\"“”«»—–]|\.")
# A full stop after a title or an initial ("Mr. Brooke", "St. Peter", "J. Smith") is not
# the end of a segment; after any other word ("met Tom. Rollo came") it is.
_TITLES = frozenset(
    "mr mrs ms dr st sr jr mt rev col gen capt sgt lt prof sra sr dña dn av".split()
)
_LAST_WORD = re.compile(r"([^\W\d_]+)\s*$")


def pieces(text: str) -> list[str]:
    """``text`` cut into segments at punctuation, keeping titles' and initials' stops."""
    if "." not in text:
        return _BREAK.split(text)
    found: list[str] = []
    start = 0
    for match in _BREAK.finditer(text):
        if match.group(0) == ".":
            before = _LAST_WORD.search(text, start, match.start())
            word = before.group(1) if before else ""
            if word.casefold() in _TITLES or (len(word) == 1 and word.isupper()):
                continue
        found.append(text[start : match.start()])
        start = match.end()
    found.append(text[start:])
    return found


_EDGE = -1  # the "word" before a segment's first and after its last token


@dataclass(frozen=True, slots=True)
class Entity:
    """A mined entity: its words (folded), how it is written most often, and its count."""

    words: tuple[str, ...]
    name: str
    count: int


def pmi_weakest_split(
    phrase_count: int, part_counts: Sequence[tuple[int, int]], tokens: int
) -> float:
    """min over splits of log2(p(phrase) / (p(left) p(right))); p = count / tokens.

    ``part_counts`` holds (left count, right count) for each split point.
    """
    if phrase_count <= 0 or tokens <= 0 or not part_counts:
        return float("-inf")
    p_phrase = phrase_count / tokens
    return min(
        math.log2(p_phrase / ((left / tokens) * (right / tokens))) for left, right in part_counts
    )


def entropy(counts: Iterable[int]) -> float:
    """Shannon entropy in bits of a distribution given by its counts."""
    values = [c for c in counts if c > 0]
    total = sum(values)
    if total == 0:
        return 0.0
    return -sum(c / total * math.log2(c / total) for c in values)


@dataclass
class Corpus:
    """A store's lines as token ids: flat arrays, one row per token, in line id order.

    Kept with the graph, so a document added to the store is read alone (``extended``)
    and the counts are taken again over arrays, not over the text.
    """

    vocabulary: list[str]  # id -> folded word
    ids: np.ndarray  # token id per token (int32)
    segment: np.ndarray  # segment number per token (int32)
    line: np.ndarray  # line id per token
    capital: np.ndarray  # written with a capital, not at a segment's start
    opening: np.ndarray  # the first token of its segment
    forms: list[str]  # id -> a word as written
    surface: np.ndarray  # form id per token (one small int, not a string, per token)

    @classmethod
    def read(cls, lines: Iterable[tuple[int, str, str]]) -> Corpus:
        """``lines``: (line id, text, language)."""
        small, large = np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int64)
        none = np.zeros(0, dtype=bool)
        return cls([], small, small, large, none, none, [], small).extended(lines)

    def extended(self, lines: Iterable[tuple[int, str, str]]) -> Corpus:
        """This corpus with ``lines`` (later line ids) read after it."""
        index = {word: number for number, word in enumerate(self.vocabulary)}
        written = {form: number for number, form in enumerate(self.forms)}
        # Typed arrays, not lists: a list holds a pointer and an int object a token
        # (NOTE: at 100 MB of text, 17 million tokens, the lists were most of the peak).
        ids = array("i")
        segments = array("i")
        owners = array("q")
        capitals = array("b")
        openings = array("b")
        surface = array("i")
        segment = int(self.segment[-1]) + 1 if len(self.segment) else 0
        for line_id, text, language in lines:
            for piece in pieces(text):
                first = True
                for match in _WORD.finditer(piece):
                    word = bare(match.group(0), language)
                    folded = lower(word, language)
                    ids.append(index.setdefault(folded, len(index)))
                    segments.append(segment)
                    owners.append(line_id)
                    capitals.append(word[0].isupper() and not first)
                    openings.append(first)
                    surface.append(written.setdefault(word, len(written)))
                    first = False
                segment += 1
        return Corpus(
            list(index),
            np.concatenate([self.ids, _numbers(ids)]),
            np.concatenate([self.segment, _numbers(segments)]),
            np.concatenate([self.line, _numbers(owners)]),
            np.concatenate([self.capital, _flags(capitals)]),
            np.concatenate([self.opening, _flags(openings)]),
            list(written),
            np.concatenate([self.surface, _numbers(surface)]),
        )

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Compact arrays: the line and segment of each token as runs (a line's tokens
        are consecutive, a segment's too), the two flags as bits, ids as int32. About 9
        bytes a token, against 26 as plain columns."""
        line_values, line_counts = _runs(self.line)
        segment_values, segment_counts = _runs(self.segment)
        return {
            "c_vocabulary": _strings(self.vocabulary),
            "c_ids": self.ids.astype(np.int32),
            "c_segment_values": segment_values,
            "c_segment_counts": segment_counts,
            "c_line_values": line_values,
            "c_line_counts": line_counts,
            "c_flags": np.packbits(np.stack([self.capital, self.opening]).astype(bool), axis=1),
            "c_tokens": np.array([len(self.ids)], dtype=np.int64),
            "c_forms": _strings(self.forms),
            "c_surface": self.surface.astype(np.int32),
        }

    @classmethod
    def from_arrays(cls, data: Any) -> Corpus:
        if "c_line" in data:  # the plain columns an older store cached
            line, segment = data["c_line"], data["c_segment"]
            capital, opening = data["c_capital"], data["c_opening"]
        else:
            line = np.repeat(data["c_line_values"], data["c_line_counts"])
            segment = np.repeat(data["c_segment_values"], data["c_segment_counts"])
            tokens = int(data["c_tokens"][0])
            flags = np.unpackbits(data["c_flags"], axis=1, count=tokens).astype(bool)
            capital, opening = flags[0], flags[1]
        return cls(
            _unstrings(data["c_vocabulary"]),
            data["c_ids"].astype(np.int32),
            segment.astype(np.int32),
            line.astype(np.int64),
            capital,
            opening,
            _unstrings(data["c_forms"]),
            data["c_surface"].astype(np.int32),
        )


def _numbers(values: array[int]) -> np.ndarray:
    """A typed array as numpy's, without a copy: int32 ids, int64 line ids."""
    dtype = np.int32 if values.typecode == "i" else np.int64
    return np.frombuffer(values, dtype=dtype) if len(values) else np.zeros(0, dtype)


def _flags(values: array[int]) -> np.ndarray:
    return np.frombuffer(values, dtype=np.int8).astype(bool) if len(values) else np.zeros(0, bool)


def _runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value, how many times in a row) of each run of equal neighbours in ``values``."""
    if not len(values):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32)
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    counts = np.diff(np.r_[starts, len(values)])
    return values[starts].astype(np.int64), counts.astype(np.int32)


def _strings(values: list[str]) -> np.ndarray:
    return np.frombuffer("\n".join(values).encode("utf-8"), dtype=np.uint8)


def _unstrings(array: np.ndarray) -> list[str]:
    text = bytes(array).decode("utf-8")
    return text.split("\n") if text else []


def mine(lines: Iterable[tuple[int, str, str]]) -> list[Entity]:
    """The entities of ``lines`` ((line id, text, language)), most frequent first."""
    return mine_corpus(Corpus.read(lines))


def mine_corpus(corpus: Corpus) -> list[Entity]:
    """The entities of a read corpus, most frequent first (ties by their words)."""
    tokens = len(corpus.ids)
    if tokens == 0:
        return []
    vocabulary = corpus.vocabulary
    closed = np.array([_closed(w) for w in vocabulary], dtype=bool)
    grams = Grams(corpus.ids, max(len(vocabulary), 1), {})
    entities: list[Entity] = []
    # Each length's candidates are judged as soon as it is counted: their parts are shorter
    # grams, already counted, and only one length's occurrences are held at a time.
    for n, level in grams.counted(corpus, min(MAX_WORDS, tokens)):
        unique = grams.words(n)
        wanted = (level.tally >= MIN_COUNT) & ~closed[unique[:, 0]] & ~closed[unique[:, -1]]
        rows = np.flatnonzero(wanted)
        if not len(rows):
            continue
        # Occurrences grouped by gram: one sort instead of a scan per candidate.
        order = np.argsort(level.inverse, kind="stable")
        bounds = np.searchsorted(level.inverse[order], rows)
        # Each candidate's splits (first k words, the rest), counted for all at once; a
        # part counted once weighs as one occurrence.
        chosen = unique[rows]
        parts = [
            (
                np.maximum(grams.counts_of(chosen[:, :k]), 1),
                np.maximum(grams.counts_of(chosen[:, k:]), 1),
            )
            for k in range(1, n)
        ]
        for at, (row, start) in enumerate(zip(rows.tolist(), bounds.tolist(), strict=True)):
            gram = tuple(unique[row].tolist())
            count = int(level.tally[row])
            where = level.starts[order[start : start + count]]
            splits = [(int(left[at]), int(right[at])) for left, right in parts]
            if not _kept(corpus, splits, gram, where, tokens):
                continue
            words = tuple(vocabulary[i] for i in gram)
            entities.append(Entity(words, _name(corpus, where, n), count))
    entities.sort(key=lambda e: (-e.count, e.words))
    return entities


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
    """Every n-gram of a corpus (1 to MAX_WORDS words inside one segment), counted.

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
        for _ in grams.counted(corpus, longest):
            pass
        return grams

    def counted(self, corpus: Corpus, longest: int) -> Iterator[tuple[int, Level]]:
        """Count each length in turn, 1 to ``longest``, and give it whole (with where each
        occurrence starts); a length is kept without its occurrences once the next one is
        asked for."""
        ids, size = corpus.ids, len(corpus.ids)
        rank = ids  # the rank of the (n-1)-gram starting at each position (n = 1: the word)
        for n in range(1, longest + 1):
            same = corpus.segment[: size - n + 1] == corpus.segment[n - 1 :]
            starts = np.flatnonzero(same).astype(np.int32)
            if n == 1:
                key = ids[starts].astype(np.int64)
            else:
                key = rank[starts].astype(np.int64) * self.vocabulary + ids[starts + n - 1]
            keys, first, inverse, tally = np.unique(
                key, return_index=True, return_inverse=True, return_counts=True
            )
            del key
            inverse = inverse.reshape(-1).astype(np.int32)
            level = Level(starts, inverse, keys, tally, starts[first].astype(np.int64))
            self.levels[n] = level
            if n < longest:
                rank = np.full(size, -1, dtype=np.int32)
                rank[starts] = inverse
            yield n, level
            empty = np.zeros(0, dtype=np.int32)
            self.levels[n] = Level(empty, empty, keys, tally, level.first)

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


def _kept(
    corpus: Corpus,
    splits: list[tuple[int, int]],
    gram: tuple[int, ...],
    where: np.ndarray,
    tokens: int,
) -> bool:
    n = len(gram)
    count = len(where)
    if n == 1:
        inside = ~corpus.opening[where]
        if not inside.any() or corpus.capital[where].sum() < CAPITAL_SHARE * inside.sum():
            return False
        following = where + 1
        following = following[following < tokens]
        same = corpus.segment[following] == corpus.segment[following - 1]
        titled = (corpus.capital[following] & same).sum()
        if titled >= TITLE_SHARE * count:
            return False
    else:
        if pmi_weakest_split(count, splits, tokens) < MIN_PMI:
            return False
        # The weakest split has the least PMI: the largest product of its parts' counts.
        weakest = max(range(n - 1), key=lambda k: (splits[k][0] * splits[k][1], -k))
        if count < BOUND_SHARE * min(splits[weakest]):
            return False  # both parts go freely with other words
    return _varied(corpus, where, n)


def _closed(word: str) -> bool:
    """Words that neither open nor close a candidate: stop words, numbers, letters."""
    return word in _ALL_STOP or word in _NUMBER_WORDS or word.isdigit() or len(word) < 2


def _varied(corpus: Corpus, starts: np.ndarray, n: int) -> bool:
    size = len(corpus.ids)
    before = np.where(
        (starts > 0) & (corpus.segment[np.maximum(starts - 1, 0)] == corpus.segment[starts]),
        corpus.ids[np.maximum(starts - 1, 0)],
        _EDGE,
    )
    ends = starts + n - 1
    after_at = np.minimum(ends + 1, size - 1)
    after = np.where(
        (ends + 1 < size) & (corpus.segment[after_at] == corpus.segment[ends]),
        corpus.ids[after_at],
        _EDGE,
    )
    left = entropy(np.unique(before, return_counts=True)[1].tolist())
    right = entropy(np.unique(after, return_counts=True)[1].tolist())
    return min(left, right) >= MIN_ENTROPY


def _name(corpus: Corpus, starts: np.ndarray, n: int) -> str:
    """The entity as it is written most often (ties: the first written)."""
    written: dict[str, int] = {}
    for start in starts.tolist():
        form = " ".join(corpus.forms[i] for i in corpus.surface[start : start + n].tolist())
        written[form] = written.get(form, 0) + 1
    return max(written, key=written.__getitem__)


_ALL_STOP = frozenset().union(*STOP_WORDS.values())
_NUMBER_WORDS = frozenset(NUMBER_WORDS) | {
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "thousand",
    "million",
    "half",
}
