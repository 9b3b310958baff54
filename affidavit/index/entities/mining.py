"""Entity mining, its second half: the phrases a store's own text treats as names, judged
over the token ids corpus.py reads, with no model call."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from affidavit.index.entities.corpus import Corpus
from affidavit.index.entities.grams import Grams, Level
from affidavit.text import NUMBER_WORDS, STOP_WORDS

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

_EDGE = -1  # the "word" before a segment's first and after its last token


@dataclass(frozen=True, slots=True)
class Entity:
    """A mined entity: its words (folded), how it is written most often, and its count."""

    words: tuple[str, ...]
    name: str
    count: int


def llr(both: int, only_a: int, only_b: int, neither: int) -> float:
    """Dunning's log-likelihood ratio G² for a 2x2 contingency table of line counts.

    Signed the usual way for association: two entities mentioned together *less* often
    than chance would have them are not neighbours, and weigh 0.
    """
    table = ((both, only_a), (only_b, neither))
    total = both + only_a + only_b + neither
    if total == 0:
        return 0.0
    rows = (both + only_a, only_b + neither)
    columns = (both + only_b, only_a + neither)
    if both * total <= rows[0] * columns[0]:
        return 0.0
    g2 = 0.0
    for i in range(2):
        for j in range(2):
            k = table[i][j]
            if k > 0:
                g2 += k * math.log(k * total / (rows[i] * columns[j]))
    return max(2.0 * g2, 0.0)


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


def mine(lines: Iterable[tuple[int, str, str]]) -> list[Entity]:
    """The entities of ``lines`` ((line id, text, language)), most frequent first."""
    return mine_corpus(Corpus.read(lines))


def mine_corpus(corpus: Corpus, grams: Grams | None = None) -> list[Entity]:
    """The entities of a read corpus, most frequent first (ties by their words).

    A candidate is an n-gram of 1 to MAX_WORDS tokens inside one segment, neither starting
    nor ending with a stop word or a number (``_closed``: "a thousand pounds" is a sum,
    not a name), with at least MIN_COUNT occurrences. A candidate of two or more words is
    an entity when (``Company.kept``):

    - **its words occur together beyond chance**: the pointwise mutual information over
      its *weakest split*, min over k of log2(p(phrase) / (p(left k words) p(the rest))),
      with p = count / tokens, is at least MIN_PMI;
    - **it keeps varied company**: the entropy (bits) of the words just before it, and of
      the words just after it (a segment edge counts as one more "word"), are each at
      least MIN_ENTROPY, so a fragment that always continues the same way ("New" of "New
      York") is not a unit of its own;
    - **its parts do not choose freely**: at the weakest split, at least one part occurs
      in this phrase in at least BOUND_SHARE of all its occurrences ("York" is almost
      always "New York"; "Mr" goes with every surname, but the surname is the bound part).

    A single word has no split; it is an entity when it is written with a capital where
    no sentence starts in at least CAPITAL_SHARE of its occurrences, keeps varied company,
    and is not a title (followed by a capitalised word in TITLE_SHARE of its occurrences:
    "Mr", "Sir"). Capitals help single words only: phrases need none, so lower-case text,
    Spanish and Turkish are mined alike.

    Counting is vectorised: each n-gram length is counted with one ``numpy.unique`` over
    integer keys (Grams), and so is what each candidate's occurrences share (capitals, the
    words beside them: ``Candidates.company``); only the judging of its figures is per
    candidate. ``grams``, if given (empty), keeps the counts (mined_counts.py).
    """
    tokens = len(corpus.ids)
    if tokens == 0:
        return []
    closed = np.array([closed_word(w) for w in corpus.vocabulary], dtype=bool)
    grams = grams or Grams(corpus.ids, max(len(corpus.vocabulary), 1), {})
    entities: list[Entity] = []
    # Each length's candidates are judged as soon as it is counted: their parts are shorter
    # grams, already counted, and only one length's occurrences are held at a time.
    for n, level in grams.counted(corpus, min(MAX_WORDS, tokens)):
        entities += _judged(corpus, grams, n, level, closed)
        # NOTE: held here, this length's occurrences would sit beside the next length's
        # count, the peak of the graph's worker (138 MB of 17 million tokens at 100 MB).
        del level
    entities.sort(key=lambda e: (-e.count, e.words))
    return entities


def _judged(corpus: Corpus, grams: Grams, n: int, level: Level, closed: np.ndarray) -> list[Entity]:
    """The entities among the n-grams of one length (its arrays die with the call)."""
    tokens, vocabulary = len(corpus.ids), corpus.vocabulary
    unique = grams.words(n)
    wanted = (level.tally >= MIN_COUNT) & ~closed[unique[:, 0]] & ~closed[unique[:, -1]]
    rows = np.flatnonzero(wanted)
    if not len(rows):
        return []
    # The candidates' occurrences grouped by gram: one sort (of theirs alone) instead of a
    # scan per candidate.
    # Positions fit int32: each int64 array of them was 138 MB of single words at 100 MB.
    picked = np.flatnonzero(wanted[level.inverse]).astype(np.int32)
    order = picked[np.argsort(level.inverse[picked], kind="stable")]
    del picked
    bounds = np.searchsorted(level.inverse[order], rows)
    # Each candidate's splits (first k words, the rest), counted for all at once; a part
    # counted once weighs as one occurrence.
    chosen = unique[rows]
    parts = [
        (
            np.maximum(grams.counts_of(chosen[:, :k]), 1),
            np.maximum(grams.counts_of(chosen[:, k:]), 1),
        )
        for k in range(1, n)
    ]
    candidates = Candidates(corpus, n, level.tally[rows].astype(np.int64))
    found: list[Entity] = []
    for low, high in candidates.chunks():
        seen = candidates.company(level.starts, order, bounds, low, high)
        for at in range(low, high):
            count = int(candidates.counts[at])
            splits = [(int(left[at]), int(right[at])) for left, right in parts]
            if not seen.kept(at - low, splits, count, tokens):
                continue
            gram = tuple(unique[rows[at]].tolist())
            words = tuple(vocabulary[i] for i in gram)
            spots = seen.where[seen.first[at - low] : seen.first[at - low] + count]
            found.append(Entity(words, written_name(corpus, spots, n), count))
        del seen  # one chunk's company at a time
    return found


# Occurrences judged at a time: bounds the arrays of one length's candidates.
_OCCURRENCES_AT_ONCE = 1_000_000


@dataclass(frozen=True)
class Candidates:
    """One length's candidates (their counts, in the order judged), read in chunks."""

    corpus: Corpus
    n: int
    counts: np.ndarray  # int64, occurrences of each candidate

    def chunks(self) -> Iterator[tuple[int, int]]:
        """(first, past the last) candidates of each chunk, a candidate at least."""
        ends = np.cumsum(self.counts)
        low = 0
        while low < len(self.counts):
            taken = int(ends[low - 1]) if low else 0
            high = int(np.searchsorted(ends, taken + _OCCURRENCES_AT_ONCE, side="right"))
            high = max(high, low + 1)
            yield low, high
            low = high

    def company(
        self, starts: np.ndarray, order: np.ndarray, bounds: np.ndarray, low: int, high: int
    ) -> Company:
        """Where the occurrences of candidates low..high start (candidate by candidate,
        each one's in text order) and what they share, counted for all at once."""
        corpus, n, tokens = self.corpus, self.n, len(self.corpus.ids)
        counts = self.counts[low:high]
        first = np.r_[0, np.cumsum(counts)[:-1]]
        offsets = np.repeat(bounds[low:high] - first, counts) + np.arange(int(counts.sum()))
        where = starts[order[offsets]].astype(np.int64)
        owner = np.repeat(np.arange(high - low), counts)
        before, after = beside(corpus, owner, where, n, high - low)
        inside = capitals = titled = np.zeros(high - low, dtype=np.int64)
        if n == 1:
            inside = np.add.reduceat((~corpus.opening[where]).astype(np.int64), first)
            capitals = np.add.reduceat(corpus.capital[where].astype(np.int64), first)
            following = np.minimum(where + 1, tokens - 1)
            title = (
                (where + 1 < tokens)
                & corpus.capital[following]
                & (corpus.segment[following] == corpus.segment[following - 1])
            )
            titled = np.add.reduceat(title.astype(np.int64), first)
        return Company(where, first, before, after, inside, capitals, titled, n)


Neighbours = tuple[np.ndarray, np.ndarray]  # counts, and where each candidate's run starts


def beside(
    corpus: Corpus, owner: np.ndarray, where: np.ndarray, n: int, candidates: int
) -> tuple[Neighbours, Neighbours]:
    """The words just before and just after the occurrences of n-grams (``where`` each
    starts, ``owner``: whose it is, candidate by candidate), for each candidate in the
    order of the words' ids, a segment's edge first (``_neighbours``)."""
    tokens = len(corpus.ids)
    before_at = np.maximum(where - 1, 0)
    before = np.where(
        (where > 0) & (corpus.segment[before_at] == corpus.segment[where]),
        corpus.ids[before_at],
        _EDGE,
    )
    ends = where + n - 1
    after_at = np.minimum(ends + 1, tokens - 1)
    after = np.where(
        (ends + 1 < tokens) & (corpus.segment[after_at] == corpus.segment[ends]),
        corpus.ids[after_at],
        _EDGE,
    )
    width = len(corpus.vocabulary) + 1
    return (
        _neighbours(owner, before, width, candidates),
        _neighbours(owner, after, width, candidates),
    )


def counts_beside(neighbours: Neighbours, at: int) -> list[int]:
    """The counts of the words beside candidate ``at``, in the order ``beside`` gives."""
    counts, starts = neighbours
    return counts[starts[at] : starts[at + 1]].tolist()


def _neighbours(
    owner: np.ndarray, words: np.ndarray, width: int, candidates: int
) -> tuple[np.ndarray, np.ndarray]:
    """For each candidate, how often each word stands beside it, in the order of the
    words' ids (an edge first): the counts, and where each candidate's run starts."""
    keys, counts = np.unique(owner * width + (words + 1), return_counts=True)
    starts = np.searchsorted(keys // width, np.arange(candidates + 1))
    return counts, starts


@dataclass(frozen=True)
class Company:
    """The counts one chunk of candidates is judged by, a row each."""

    where: np.ndarray  # where each occurrence starts, candidate by candidate (int64)
    first: np.ndarray  # where each candidate's occurrences start in the chunk
    before: Neighbours  # the words just before
    after: Neighbours  # the words just after
    inside: np.ndarray  # single words: occurrences not opening a segment
    capitals: np.ndarray  # written with a capital where no segment opens
    titled: np.ndarray  # followed by a capitalised word in the same segment
    n: int

    def kept(self, at: int, splits: list[tuple[int, int]], count: int, tokens: int) -> bool:
        inside = int(self.inside[at])
        capitals, titled = int(self.capitals[at]), int(self.titled[at])
        return judged(
            self.n,
            count,
            splits,
            tokens,
            lambda: (counts_beside(self.before, at), counts_beside(self.after, at)),
            (inside, capitals, titled),
        )


def judged(
    n: int,
    count: int,
    splits: Sequence[tuple[int, int]],
    tokens: int,
    company: Callable[[], tuple[Sequence[int], Sequence[int]]],
    written: tuple[int, int, int] = (0, 0, 0),
) -> bool:
    """Is an n-gram an entity, by the counts ``mine_corpus`` names: its ``count``, each
    split's (left, right) counts, the corpus's ``tokens``, how often each word stands
    just before it and just after it (``company()``, asked last: most candidates fall
    before it), and for a single word how often it
    stands inside a segment, is written there with a capital, and is followed by a
    capitalised word (``written``). One rule for a store's own mining, for its mining
    kept up to date as text is added (mined_counts.py), and for a sharded store's, which
    sums the counts of its shards first (archive/shard_entities.py)."""
    return counts_pass(n, count, splits, tokens, written) and keeps_company(*company())


def counts_pass(
    n: int,
    count: int,
    splits: Sequence[tuple[int, int]],
    tokens: int,
    written: tuple[int, int, int] = (0, 0, 0),
) -> bool:
    """``judged``'s first half: the n-gram's counts (and a single word's writing) alone."""
    if n == 1:
        inside, capitals, titled = written
        if not inside or capitals < CAPITAL_SHARE * inside:
            return False
        return titled < TITLE_SHARE * count
    if pmi_weakest_split(count, splits, tokens) < MIN_PMI:
        return False
    # The weakest split has the least PMI: the largest product of its parts' counts.
    weakest = max(range(n - 1), key=lambda k: (splits[k][0] * splits[k][1], -k))
    return count >= BOUND_SHARE * min(splits[weakest])  # else both parts go freely


def keeps_company(before: Sequence[int], after: Sequence[int]) -> bool:
    """``judged``'s second half: varied words before and after (each a count)."""
    return min(entropy(before), entropy(after)) >= MIN_ENTROPY


def closed_word(word: str) -> bool:
    """Words that neither open nor close a candidate: stop words, numbers, letters."""
    return word in _ALL_STOP or word in _NUMBER_WORDS or word.isdigit() or len(word) < 2


def written_name(corpus: Corpus, starts: np.ndarray, n: int) -> str:
    """The entity as it is written most often (ties: the first written), its occurrences
    starting at ``starts`` (in text order): its forms' ids counted at once."""
    if n == 1:
        written, first, counts = np.unique(
            corpus.surface[starts], return_index=True, return_counts=True
        )
        rows = written[:, None]
    else:
        forms = np.stack([corpus.surface[starts + k] for k in range(n)], axis=1)
        rows, first, counts = np.unique(forms, axis=0, return_index=True, return_counts=True)
    best = min(range(len(counts)), key=lambda at: (-int(counts[at]), int(first[at])))
    return " ".join(corpus.forms[i] for i in rows[best].tolist())


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
