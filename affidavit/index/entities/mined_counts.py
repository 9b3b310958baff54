"""Entity mining kept up to date as text is added: the n-gram counts of the mined text
are kept, an addition's counts are added to them, and only the phrases whose figures
changed are judged again by mining.py's rule. The entities after each addition are those
a mining of the whole text gives, word for word and count for count, in time near the
addition's size.

A phrase is judged by its count, its parts' counts, the text's tokens, the words beside
its occurrences and, for a single word, how it is written: all sums over occurrences, so
an addition changes them only for the phrases it holds and for the longer phrases those
are part of. The tokens change with every addition, but only make a phrase's PMI grow: a
phrase kept stays kept, and one turned away on its PMI alone is judged again once its PMI
may have reached the bar."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from affidavit.index.entities.corpus import Corpus, joined_runs
from affidavit.index.entities.grams import Grams, within_segments
from affidavit.index.entities.mining import (
    BOUND_SHARE,
    MAX_WORDS,
    MIN_COUNT,
    MIN_PMI,
    Entity,
    beside,
    closed_word,
    counts_beside,
    counts_pass,
    keeps_company,
    mine_corpus,
    written_name,
)

# An n-gram's key: the rank of its first n-1 words among the (n-1)-grams times this, plus
# its last word's id (grams.py); fixed, so a key does not change as the vocabulary grows.
KEY_WIDTH = 1 << 24
# How far a PMI worked out with numpy may stand from the one mining.py works out (its
# last bits may differ): within it, a phrase is judged again by the rule itself.
_PMI_SLACK = 1e-9

WordIds = tuple[int, ...]


@dataclass
class MinedCounts:
    """The mined text (``corpus``, decoded), every n-gram's count (``keys`` and
    ``tallies`` per length, keys ascending as grams.py makes them), and the entities they
    make, by their words' ids. ``add`` grows all of it by an addition, in place."""

    corpus: Corpus
    keys: list[np.ndarray]  # per length n (at n - 1): int64, ascending
    tallies: list[np.ndarray]  # per length: int64, the count of each key's n-gram
    entities: dict[WordIds, Entity]
    # Made when first wanted (from the corpus), then grown with it: each single word's
    # (occurrences inside a segment, written there with a capital, followed by a
    # capitalised word), by its rank; and where each word stands (``_Places``).
    _written: np.ndarray | None = field(default=None, repr=False)
    _places: _Places | None = field(default=None, repr=False)
    _closed: np.ndarray | None = field(default=None, repr=False)

    @classmethod
    def mine(cls, corpus: Corpus) -> MinedCounts | None:
        """The counts and entities of ``corpus``, mined whole (mining.py); None when its
        vocabulary outgrows the keys (the graph is then mined whole at each addition)."""
        if len(corpus.vocabulary) >= KEY_WIDTH:
            return None
        grams = Grams(corpus.ids, KEY_WIDTH, {})
        found = mine_corpus(corpus, grams)
        keys, tallies = [], []
        for n in range(1, MAX_WORDS + 1):
            level = grams.levels.get(n)
            keys.append(level.keys if level is not None else np.zeros(0, dtype=np.int64))
            tallies.append(
                level.tally.astype(np.int64) if level is not None else np.zeros(0, np.int64)
            )
        return cls(corpus, keys, tallies, _by_ids(corpus, found))

    @classmethod
    def restored(
        cls, corpus: Corpus, arrays: dict[str, np.ndarray], entities: list[Entity]
    ) -> MinedCounts | None:
        """The counts ``to_arrays`` wrote, over the corpus they were kept with (None when
        some are missing or they do not add up to it)."""
        lengths = range(1, MAX_WORDS + 1)
        if any(f"m_keys{n}" not in arrays or f"m_tallies{n}" not in arrays for n in lengths):
            return None
        keys = [np.cumsum(arrays[f"m_keys{n}"]).astype(np.int64) for n in lengths]
        tallies = [arrays[f"m_tallies{n}"].astype(np.int64) for n in lengths]
        if int(tallies[0].sum()) != len(corpus.ids):
            return None
        return cls(corpus, keys, tallies, _by_ids(corpus, entities))

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The counts as arrays (keys as their steps: small numbers, compressed well)."""
        arrays = {}
        for n in range(1, MAX_WORDS + 1):
            arrays[f"m_keys{n}"] = np.diff(self.keys[n - 1], prepend=0)
            arrays[f"m_tallies{n}"] = self.tallies[n - 1]
        return arrays

    @property
    def entity_list(self) -> list[Entity]:
        """The entities, most frequent first (ties by their words), as mining.py orders
        them."""
        return sorted(self.entities.values(), key=lambda e: (-e.count, e.words))

    def add(self, fresh: Corpus) -> None:
        """Take in ``fresh``: lines read after the corpus's (corpus.py ``read_after``,
        its words numbered on from the corpus's, its segments after its last). Their
        n-grams are counted and added, and the phrases whose figures changed judged
        again."""
        before = len(self.corpus.ids)
        if not len(fresh.ids):
            return
        self._grow_corpus(fresh)
        changed = self._count(fresh)
        hit = _hits(changed, [len(t) for t in self.tallies])
        wanted = [self._judge_words(changed[0])]  # (n, places, words): their company next
        turned_away: list[np.ndarray] = []  # a row of word ids each
        for n in range(2, MAX_WORDS + 1):
            passed, failed = self._judge_phrases(n, hit, before)
            wanted.append(passed)
            turned_away.append(failed)
        judged = self._judge_company(wanted)
        for words, kept in judged.items():
            if not kept:
                self.entities.pop(words, None)
        for failed in turned_away:
            for words in self._among_entities(failed):
                del self.entities[words]

    # -- counting --

    def _grow_corpus(self, fresh: Corpus) -> None:
        held = self.corpus
        start = len(held.ids)
        self.corpus = Corpus(
            held.vocabulary,
            np.concatenate([held.ids, fresh.ids]),
            np.concatenate([held.segment, fresh.segment]),
            joined_runs(held.line_runs, fresh.line_runs),
            np.concatenate([held.capital, fresh.capital]),
            np.concatenate([held.opening, fresh.opening]),
            held.forms,
            np.concatenate([held.surface, fresh.surface]),
        )
        if self._places is not None:
            self._places = self._places.grown(fresh.ids, start, len(held.vocabulary))
        if self._closed is not None:
            self._closed = _closed_words(held.vocabulary, self._closed)

    def _count(self, fresh: Corpus) -> list[np.ndarray]:
        """Add the n-grams of ``fresh`` to the tallies; per length, where the grams it
        holds stand in the table as it now is."""
        changed: list[np.ndarray] = []
        ranks = np.zeros(0, dtype=np.int64)
        moved: np.ndarray | None = None  # the old ranks of the last length -> the new
        for n in range(1, MAX_WORDS + 1):
            keys, tallies = self.keys[n - 1], self.tallies[n - 1]
            if moved is not None and len(keys):
                keys = moved[keys // KEY_WIDTH] * KEY_WIDTH + keys % KEY_WIDTH
            starts = within_segments(fresh.segment, n)
            if n == 1:
                key = fresh.ids[starts].astype(np.int64)
            else:
                key = ranks[starts] * KEY_WIDTH + fresh.ids[starts + n - 1]
            added, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
            at = np.searchsorted(keys, added)
            known = np.zeros(len(added), dtype=bool)
            if len(keys):
                known = keys[np.minimum(at, len(keys) - 1)] == added
            slots = at[~known]
            moved = None
            if len(slots):
                # A key inserted before an old one moves it up a place: the next length's
                # keys name their first words by these places.
                moved = (
                    np.arange(len(keys))
                    + np.cumsum(np.bincount(slots, minlength=len(keys)))[: len(keys)]
                )
                keys = np.insert(keys, slots, added[~known])
                tallies = np.insert(tallies, slots, 0)
                if n == 1 and self._written is not None:
                    self._written = np.insert(self._written, slots, 0, axis=1)
            places = np.searchsorted(keys, added)
            tallies[places] += counts
            self.keys[n - 1], self.tallies[n - 1] = keys, tallies
            ranks = np.full(len(fresh.ids), -1, dtype=np.int64)
            ranks[starts] = places[inverse]
            changed.append(places)
            if n == 1 and self._written is not None:
                self._written += _written_of(fresh, ranks, len(keys))
        return changed

    # -- judging --

    def _judge_words(self, changed: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
        """The single words the addition holds, judged again by how they are written: the
        places and words of those that pass (their company is judged next); the others
        are no entity (removed from ``entities``)."""
        tokens = len(self.corpus.ids)
        keys, tallies = self.keys[0], self.tallies[0]
        places = changed[(tallies[changed] >= MIN_COUNT) & ~self._closed_words()[keys[changed]]]
        written = self._single_written()
        passed = []
        for place in places.tolist():
            inside, capitals, titled = (int(v) for v in written[:, place])
            if counts_pass(1, int(tallies[place]), [], tokens, (inside, capitals, titled)):
                passed.append(place)
            else:
                self.entities.pop((int(keys[place]),), None)
        chosen = np.asarray(passed, dtype=np.int64)
        return 1, chosen, keys[chosen][:, None]

    def _judge_phrases(
        self, n: int, hit: list[np.ndarray], before: int
    ) -> tuple[tuple[int, np.ndarray, np.ndarray], np.ndarray]:
        """The n-grams (n of two or more) judged again by their counts: those whose own
        count or a part's changed, or whose PMI may have crossed the bar as the text grew
        from ``before`` tokens. Returns those that pass (n, places, words: their company
        is judged next) and the words of those that fail."""
        tokens = len(self.corpus.ids)
        candidates, words, prefixes = self._candidates(n, self._closed_words())
        counts = self.tallies[n - 1][candidates]
        rights_at = [self._ranks_of(words[:, k:]) for k in range(1, n)]
        lefts = [self.tallies[k - 1][prefixes[k]] for k in range(1, n)]
        rights = [self.tallies[n - k - 1][at] for k, at in enumerate(rights_at, start=1)]
        splits = [
            (np.maximum(left, 1), np.maximum(right, 1))
            for left, right in zip(lefts, rights, strict=True)
        ]
        now = _weakest_pmi(counts, splits, tokens)
        again = hit[n - 1][candidates]
        for k in range(1, n):
            again |= hit[k - 1][prefixes[k]] | hit[n - k - 1][rights_at[k - 1]]
        if before:
            again |= (_weakest_pmi(counts, splits, before) < MIN_PMI + _PMI_SLACK) & (
                now >= MIN_PMI - _PMI_SLACK
            )
        else:
            again[:] = True
        hopeful = again & (now >= MIN_PMI - _PMI_SLACK) & _bound(counts, splits)
        failed = [np.flatnonzero(again & ~hopeful)]
        passed = []
        for row in np.flatnonzero(hopeful).tolist():
            split = [(int(left[row]), int(right[row])) for left, right in splits]
            if counts_pass(n, int(counts[row]), split, tokens):
                passed.append(row)
            else:
                failed.append(np.array([row]))
        rows = np.asarray(passed, dtype=np.int64)
        return (n, candidates[rows], words[rows]), words[np.concatenate(failed)]

    def _among_entities(self, words: np.ndarray) -> list[WordIds]:
        """The rows of ``words`` that are entities, found from a hash of each row: a tuple
        is made only of a row whose hash an entity has (a call turns away many more
        phrases than there are entities)."""
        if not len(words):
            return []
        n = words.shape[1]
        held = [ids for ids in self.entities if len(ids) == n]
        if not held:
            return []
        wanted = _row_hashes(np.asarray(held, dtype=np.int64))
        rows = np.flatnonzero(np.isin(_row_hashes(words), wanted))
        return [ids for ids in map(tuple, words[rows].tolist()) if ids in self.entities]

    def _candidates(
        self, n: int, closed: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[int, np.ndarray]]:
        """The places of the n-grams counted often enough and opened and closed by open
        words (mining.py's candidates), their words' ids (a row each), and the ranks of
        their first k words, for each k below n."""
        keys, tallies = self.keys[n - 1], self.tallies[n - 1]
        often = np.flatnonzero(tallies >= MIN_COUNT)
        last = keys[often] % KEY_WIDTH
        often = often[~closed[last]]
        words = np.empty((len(often), n), dtype=np.int64)
        prefixes: dict[int, np.ndarray] = {}
        rank = often
        for k in range(n, 1, -1):
            key = self.keys[k - 1][rank]
            words[:, k - 1] = key % KEY_WIDTH
            rank = key // KEY_WIDTH
            prefixes[k - 1] = rank
        words[:, 0] = self.keys[0][rank]
        opened = ~closed[words[:, 0]]
        prefixes = {k: ranks[opened] for k, ranks in prefixes.items()}
        return often[opened], words[opened], prefixes

    def _ranks_of(self, words: np.ndarray) -> np.ndarray:
        """The place of each row of word ids among the n-grams of its length (each row an
        n-gram counted: a part of one)."""
        rank = np.searchsorted(self.keys[0], words[:, 0])
        for k in range(1, words.shape[1]):
            rank = np.searchsorted(self.keys[k], rank * KEY_WIDTH + words[:, k])
        return rank

    def _judge_company(
        self, wanted: list[tuple[int, np.ndarray, np.ndarray]]
    ) -> dict[WordIds, bool]:
        """Judge by the words beside their occurrences the n-grams that passed by their
        counts; those kept are entities again, with their counts and names. Whether each
        was kept."""
        judged: dict[WordIds, bool] = {}
        for n, places, words in wanted:
            if not len(places):
                continue
            owner, where = self._places_of().occurrences(words, self.corpus)
            tallies = self.tallies[n - 1][places]
            firsts = np.searchsorted(owner, np.arange(len(places) + 1))
            assert (np.diff(firsts) == tallies).all(), "an n-gram's occurrences and count differ"
            before, after = beside(self.corpus, owner, where, n, len(places))
            for row in range(len(places)):
                ids = tuple(words[row].tolist())
                kept = keeps_company(counts_beside(before, row), counts_beside(after, row))
                judged[ids] = kept
                count = int(tallies[row])
                held = self.entities.get(ids)
                if kept and (held is None or held.count != count):  # else as it was written
                    spots = where[firsts[row] : firsts[row + 1]]
                    name = written_name(self.corpus, spots, n)
                    spelled = tuple(self.corpus.vocabulary[w] for w in ids)
                    self.entities[ids] = Entity(spelled, name, count)
        return judged

    # -- what the judging reads --

    def _closed_words(self) -> np.ndarray:
        if self._closed is None or len(self._closed) < len(self.corpus.vocabulary):
            self._closed = _closed_words(self.corpus.vocabulary, self._closed)
        return self._closed

    def _single_written(self) -> np.ndarray:
        if self._written is None:
            ranks = np.searchsorted(self.keys[0], self.corpus.ids)
            self._written = _written_of(self.corpus, ranks, len(self.keys[0]))
        return self._written

    def _places_of(self) -> _Places:
        if self._places is None:
            self._places = _Places.of(self.corpus.ids, len(self.corpus.vocabulary))
        return self._places

    def lines_naming(self, entities: list[Entity]) -> np.ndarray | None:
        """The ids of the lines that may mention any of ``entities``: those holding each
        one's rarest word (linking.py ``lines_naming``, read off where each word stands);
        None, meaning every line, for a word the corpus never read."""
        number = {word: at for at, word in enumerate(self.corpus.vocabulary)}
        places = self._places_of()
        rarest = set()
        for entity in entities:
            ids = [number.get(word) for word in entity.words]
            if any(word is None for word in ids):
                return None
            rarest.add(min((places.count(w), w) for w in ids if w is not None)[1])
        held = np.concatenate(
            [places.of_word(w) for w in sorted(rarest)] or [np.zeros(0, np.int64)]
        )
        values, counts = self.corpus.line_runs
        runs = np.searchsorted(np.cumsum(counts, dtype=np.int64), held, side="right")
        return np.unique(values[runs])


@dataclass
class _Places:
    """Where each word stands: its positions, ascending, word after word (``starts``:
    where each word's run starts, one more than the words)."""

    starts: np.ndarray  # int64
    positions: np.ndarray  # int64

    @classmethod
    def of(cls, ids: np.ndarray, words: int) -> _Places:
        order = np.argsort(ids, kind="stable").astype(np.int64)
        starts = np.zeros(words + 1, dtype=np.int64)
        np.cumsum(np.bincount(ids, minlength=words), out=starts[1:])
        return cls(starts, order)

    def grown(self, fresh: np.ndarray, start: int, words: int) -> _Places:
        """With ``fresh``'s tokens, standing from ``start`` on, after every other."""
        order = np.argsort(fresh, kind="stable")
        held = np.r_[self.starts, np.full(words + 1 - len(self.starts), self.starts[-1])]
        slots = held[fresh[order].astype(np.int64) + 1]
        positions = np.insert(self.positions, slots, order + start)
        starts = held.copy()
        starts[1:] += np.cumsum(np.bincount(fresh, minlength=words))
        return _Places(starts, positions)

    def count(self, word: int) -> int:
        return int(self.starts[word + 1] - self.starts[word])

    def of_word(self, word: int) -> np.ndarray:
        return self.positions[self.starts[word] : self.starts[word + 1]]

    def occurrences(self, words: np.ndarray, corpus: Corpus) -> tuple[np.ndarray, np.ndarray]:
        """(which row, where it starts) of every occurrence of each row of word ids
        inside one segment, row by row, each row's in text order: found from the rarest
        of its words (the first of the rarest)."""
        rows, n = words.shape
        counts = self.starts[words + 1] - self.starts[words]
        anchor_at = np.argmin(counts, axis=1)
        anchor = words[np.arange(rows), anchor_at]
        lengths = counts[np.arange(rows), anchor_at]
        owner = np.repeat(np.arange(rows), lengths)
        begun = np.repeat(self.starts[anchor] - np.r_[0, np.cumsum(lengths)[:-1]], lengths)
        where = self.positions[begun + np.arange(len(owner))] - anchor_at[owner]
        tokens = len(corpus.ids)
        keep = (where >= 0) & (where + n <= tokens)
        owner, where = owner[keep], where[keep]
        for k in range(n):
            keep = corpus.ids[where + k] == words[owner, k]
            owner, where = owner[keep], where[keep]
        keep = corpus.segment[where] == corpus.segment[where + n - 1]
        return owner[keep], where[keep]


def _by_ids(corpus: Corpus, entities: list[Entity]) -> dict[WordIds, Entity]:
    number = {word: at for at, word in enumerate(corpus.vocabulary)}
    return {tuple(number[w] for w in entity.words): entity for entity in entities}


def _closed_words(vocabulary: list[str], known: np.ndarray | None) -> np.ndarray:
    """``closed_word`` of each word, those of ``known`` (the first words') kept."""
    start = 0 if known is None else len(known)
    more = np.array([closed_word(w) for w in vocabulary[start:]], dtype=bool)
    return more if known is None else np.concatenate([known, more])


def _written_of(corpus: Corpus, ranks: np.ndarray, words: int) -> np.ndarray:
    """Each single word's (inside a segment, capitalised there, followed by a capital in
    its segment) counted over ``corpus``'s tokens, by their ranks."""
    tokens = len(corpus.ids)
    following = np.minimum(np.arange(tokens) + 1, max(tokens - 1, 0))
    titled = (
        (np.arange(tokens) + 1 < tokens)
        & corpus.capital[following]
        & (corpus.segment[following] == corpus.segment)
    )
    return np.stack(
        [
            np.bincount(ranks[~corpus.opening], minlength=words),
            np.bincount(ranks[corpus.capital], minlength=words),
            np.bincount(ranks[titled], minlength=words),
        ]
    ).astype(np.int64)


def _hits(changed: list[np.ndarray], sizes: list[int]) -> list[np.ndarray]:
    """Per length, a mark on each n-gram whose count changed."""
    hits = []
    for places, size in zip(changed, sizes, strict=True):
        hit = np.zeros(size, dtype=bool)
        hit[places] = True
        hits.append(hit)
    return hits


def _bound(counts: np.ndarray, splits: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """mining.py's test of the weakest split (the largest product of its parts' counts,
    the first of the largest): the phrase holds at least BOUND_SHARE of its rarer part's
    occurrences. Whole numbers: the same answer as mining.py's, to the last."""
    products = np.stack([left * right for left, right in splits])
    weakest = np.argmax(products, axis=0)
    at = np.arange(len(counts))
    least = np.minimum(
        np.stack([left for left, _ in splits])[weakest, at],
        np.stack([right for _, right in splits])[weakest, at],
    )
    return ~(counts < BOUND_SHARE * least)


def _row_hashes(words: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each row of word ids (rows that differ may share one)."""
    total = np.zeros(len(words), dtype=np.uint64)
    for k in range(words.shape[1]):
        total = total * np.uint64(1_000_003) + words[:, k].astype(np.uint64)
    return total


def _weakest_pmi(
    counts: np.ndarray, splits: list[tuple[np.ndarray, np.ndarray]], tokens: int
) -> np.ndarray:
    """mining.py's ``pmi_weakest_split`` of each n-gram, worked out with numpy (its last
    bits may differ: a bar is crossed only beyond ``_PMI_SLACK``)."""
    phrase = counts / tokens
    values = [np.log2(phrase / ((left / tokens) * (right / tokens))) for left, right in splits]
    return np.min(np.stack(values), axis=0)
