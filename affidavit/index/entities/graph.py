"""The entity graph: where each mined entity is mentioned, and which are mentioned together
(the lines that witness an edge), for the partition path and ``Memory.neighbours``."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import ahocorasick
import numpy as np

from affidavit.index.entities.corpus import Corpus, KeptWords, extended_arrays, read_after
from affidavit.index.entities.graph_storage import graph_bytes, read_graph
from affidavit.index.entities.linking import Row, lines_naming, matched, maximal, mentions_in
from affidavit.index.entities.mined_counts import MinedCounts
from affidavit.index.entities.mining import Entity, llr, mine_corpus
from affidavit.index.meaning.profiles import text_digest
from affidavit.index.packing import typed_numbers
from affidavit.text import segments


@dataclass(frozen=True, slots=True)
class Edge:
    other: int  # the neighbour's entity number
    weight: float
    witnesses: np.ndarray  # line ids, ascending


@dataclass
class EntityGraph:
    """Each entity's posting list (the sorted ids of the lines that mention it, including
    mentions inside a longer entity: "Casaubon" in "Mr Casaubon") and the edges between
    them.

    Two entities with mentions that do not overlap, in one line, are mentioned together
    there ("Mr Brooke met Casaubon" witnesses Brooke and Casaubon, not Brooke and Mr
    Brooke): that line *witnesses* their edge. An edge exists only with a witness (it is
    an observation, never an inference); its weight is ``weight``'s.
    """

    entities: list[Entity]
    postings: list[np.ndarray]  # per entity: line ids, ascending
    pairs: dict[tuple[int, int], np.ndarray]  # (a, b) with a < b: witnessing line ids
    lines: int  # lines in the store, for the weights
    # The lines as read, kept so an addition is read alone: a Corpus, or (loaded from the
    # cache) its compact arrays, which an addition extends as they are (decoded to mine).
    kept: Corpus | dict[str, np.ndarray] | None = None
    line_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    digests: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    mined: int = 0  # tokens of the text when its entities were last mined
    document_keys: list[str] = field(default_factory=list)  # the versions it was built from
    # The kept corpus's words decoded, handed to the graph grown from this one (which
    # extends them in place: this one then decodes its own again if grown twice).
    words: KeptWords | None = field(default=None, repr=False, compare=False)
    # The mining's counts, kept once the graph has grown (mined_counts.py), handed to the
    # graph grown from this one, which grows them in place.
    counts: MinedCounts | None = field(default=None, repr=False, compare=False)
    settled: bool = True  # False: recounted by growth and not yet put in order (``settle``)

    @classmethod
    def build(
        cls, lines: Iterable[tuple[int, str, str]], mined: Sequence[Row] | None = None
    ) -> EntityGraph:
        """``lines``: (line id, text, language) of every line of the store, in id order;
        ``mined``: those the entities are mined from, when not all (the lines of a
        document that repeats another whole are not: see ``read``)."""
        rows = list(lines)
        return cls.read(lambda: rows, None if mined is None else lambda: mined)

    @classmethod
    def read(
        cls, lines: Callable[[], Iterable[Row]], mined: Callable[[], Iterable[Row]] | None = None
    ) -> EntityGraph:
        """As ``build``, reading the lines twice through ``lines()`` (once for the corpus,
        once to match the entities found), so no list of the store's lines need be held
        while the entities are mined. NOTE: at 100 MB of text such a list was 480 MB of
        the graph's 2.2 GB peak.

        The corpus is read through ``mined()`` when given: a store's copies of one text
        (index/growth.py) are mined once, as one text. Twelve copies are not twelve
        witnesses that a phrase is a name, and mining them all cost twelve times one."""
        corpus = Corpus.read((mined or lines)())
        graph = cls(mine_corpus(corpus), [], {}, 0, corpus)
        graph.mined = len(corpus.ids)
        ids, digests = array("q"), array("q")

        def fingerprinted() -> Iterator[tuple[int, str, str]]:
            for row in lines():
                ids.append(row[0])
                digests.append(_digest(row))
                yield row

        graph._link(fingerprinted())
        graph.line_ids, graph.digests = typed_numbers(ids), typed_numbers(digests)
        graph.lines = len(ids)
        return graph

    def updated(
        self, lines: Iterable[tuple[int, str, str]], mined: Sequence[Row] | None = None
    ) -> EntityGraph:
        """The graph of ``lines`` (every line of the store, in id order), built from this
        one when the store only gained lines after it: the new lines are read alone.

        The new lines are matched against the known entities, and their n-grams added to
        the mining's counts (mined_counts.py, counted from the kept corpus at the first
        growth), which judges again only the phrases whose figures changed; the lines
        that may mention an entity found first are read again: ``build(lines)`` exactly.
        A document replaced or removed is a full build. ``mined``: as ``build``'s (of
        every line, not only the new)."""
        rows = list(lines)
        line_ids, digests = _fingerprints(rows)
        known = len(self.line_ids)
        added = (
            self.kept is not None
            and known <= len(rows)
            and np.array_equal(line_ids[:known], self.line_ids)
            and np.array_equal(digests[:known], self.digests)
        )
        if not added:
            return EntityGraph.build(rows, mined)
        fresh_mined = None
        if mined is not None:
            last = int(self.line_ids[-1]) if known else -1
            fresh_mined = [row for row in mined if row[0] > last]

        def read(ids: np.ndarray) -> list[Row]:
            wanted = set(ids.tolist())
            return [row for row in rows if row[0] in wanted]

        graph = self._grown(rows[known:], line_ids, digests, read, fresh_mined)
        graph.settle()
        return graph

    def grown(
        self,
        fresh: list[tuple[int, str, str]],
        keys: list[str],
        read: Callable[[np.ndarray], list[Row]],
        fresh_mined: Sequence[Row] | None = None,
    ) -> EntityGraph:
        """As ``updated``, with the new lines given alone (the versions ``keys`` of the
        documents now held, ``fresh``: their lines, ids above all known, and
        ``fresh_mined`` those of them mined, when not all); ``read(ids)`` reads the lines
        with these ids, in id order, when a mining finds new entities. The entities are
        put in order by their reader (``settle``)."""
        line_ids, digests = _fingerprints(fresh)
        graph = self._grown(
            fresh,
            np.concatenate([self.line_ids, line_ids]),
            np.concatenate([self.digests, digests]),
            read,
            fresh_mined,
        )
        graph.document_keys = list(keys)
        return graph

    def _grown(
        self,
        fresh: list[tuple[int, str, str]],
        line_ids: np.ndarray,
        digests: np.ndarray,
        read: Callable[[np.ndarray], list[Row]],
        fresh_mined: Sequence[Row] | None = None,
    ) -> EntityGraph:
        # The counts and the decoded words grow in place: held by the new graph alone.
        counts, self.counts = self.counts, None
        words, self.words = self.words, None
        spelled: dict[int, str] = {}  # read once: the corpus's words, then the matcher's
        mined = fresh if fresh_mined is None else fresh_mined
        if counts is not None:
            words = words or KeptWords.of_corpus(counts.corpus)
            counts.add(read_after(counts.corpus, mined, words, spelled))
            corpus, entities = counts.corpus, counts.entity_list
        else:  # the first growth: the kept corpus grows in its compact form, then is counted
            kept = self.kept.to_arrays() if isinstance(self.kept, Corpus) else self.kept
            assert kept is not None
            grown, _ = extended_arrays(kept, mined, words, spelled)
            corpus = Corpus.from_arrays(grown)
            del grown  # NOTE: the compact arrays and the decoded corpus held at once were
            # the peak of a mining at 100 MB of text.
            counts = MinedCounts.mine(corpus)
            entities = mine_corpus(corpus) if counts is None else counts.entity_list
            words = None  # the decoded corpus's own lists, made again when next grown
        graph = self._with_entities(entities, corpus, counts, read)
        graph.lines, graph.line_ids, graph.digests, graph.words = (
            len(line_ids), line_ids, digests, words
        )  # fmt: skip
        # The new lines read once, against every entity, after the old ones.
        graph._link(fresh, extend=True, spelled=spelled)
        return graph

    def _with_entities(
        self,
        entities: list[Entity],
        corpus: Corpus,
        counts: MinedCounts | None,
        read: Callable[[np.ndarray], list[Row]],
    ) -> EntityGraph:
        """The graph of this one's lines with the ``entities`` mined from ``corpus`` (its
        kept corpus, grown). An entity kept keeps its lines and its edges with the others
        kept: whether a line mentions it, and whether two mentions stand apart, depends on
        no third entity. The new ones are matched on the lines that may mention them
        (``lines_naming``) and on the copies of those lines."""
        graph = EntityGraph(entities, [], {}, self.lines, corpus, self.line_ids, self.digests)
        graph.mined, graph.counts = len(corpus.ids), counts
        before = {entity.words: number for number, entity in enumerate(self.entities)}
        was = [before.get(entity.words) for entity in entities]
        if was == list(range(len(self.entities))) and "_automaton" in self.__dict__:
            graph._automaton = self._automaton  # the same entities, in the same order
        now = {old: new for new, old in enumerate(was) if old is not None}
        empty = np.zeros(0, dtype=np.int64)
        graph.postings = [empty if old is None else self.postings[old] for old in was]
        for (a, b), witnesses in self.pairs.items():
            if a in now and b in now:
                x, y = sorted((now[a], now[b]))
                graph.pairs[(x, y)] = witnesses
        new = [number for number, old in enumerate(was) if old is None]
        if new and len(self.line_ids):
            found = [entities[number] for number in new]
            naming = counts.lines_naming(found) if counts else lines_naming(corpus, found)
            if naming is None:
                ids = self.line_ids
            else:  # and every line with the same text (a copy's lines are not in the corpus)
                naming = naming[naming <= self.line_ids[-1]]
                texts = self.digests[np.searchsorted(self.line_ids, naming)]
                ids = self.line_ids[np.isin(self.digests, texts)]
            graph._link(read(ids), extend=True, only=set(new))
        return graph

    def settle(self) -> bool:
        """Put the entities most frequent first again (ties by their words), their postings
        and edges renumbered with them, after growth recounted them (``grown`` leaves
        that to the reader: renumbering every edge at each ``ingest_text`` call was most
        of the graph's time in it). Whether any entity moved."""
        if self.settled:
            return False
        self.settled = True
        entities = self.entities
        order = sorted(range(len(entities)), key=lambda i: (-entities[i].count, entities[i].words))
        if order == list(range(len(order))):
            return False
        self.entities = [entities[old] for old in order]
        self.postings, self.pairs = self._renumbered(order)
        self.__dict__.pop("_automaton", None)
        return True

    def _renumbered(
        self, order: list[int]
    ) -> tuple[list[np.ndarray], dict[tuple[int, int], np.ndarray]]:
        """The postings and edges with entity ``order[k]`` numbered k."""
        number = {old: new for new, old in enumerate(order)}
        pairs: dict[tuple[int, int], np.ndarray] = {}
        for (a, b), witnesses in self.pairs.items():
            x, y = sorted((number[a], number[b]))
            pairs[(x, y)] = witnesses
        return [self.postings[old] for old in order], pairs

    def _link(
        self,
        rows: Iterable[tuple[int, str, str]],
        *,
        extend: bool = False,
        counted: set[int] | None = None,
        only: set[int] | None = None,
        spelled: dict[int, str] | None = None,
    ) -> np.ndarray:
        """Match ``rows`` (replacing the postings and edges, or extending them with later
        lines); how many mentions of each entity they hold (of the ``counted`` line ids
        only, if given: the mined ones). ``only``: the lines and edges of these entities
        alone (linking.py ``matched``)."""
        mentioned, postings, pairs = matched(
            self.automaton, len(self.entities), rows, counted=counted, only=only, spelled=spelled
        )
        if not extend:
            empty = np.zeros(0, dtype=np.int64)
            self.postings = [postings.get(entity, empty) for entity in range(len(self.entities))]
            self.pairs = pairs
            return mentioned
        # Later lines have larger ids: appending keeps every list ascending.
        self.postings = list(self.postings)
        for entity, ids in postings.items():
            held = self.postings[entity]
            self.postings[entity] = np.concatenate([held, ids]) if len(held) else ids
        for pair, ids in pairs.items():
            witnessed = self.pairs.get(pair)
            self.pairs[pair] = ids if witnessed is None else np.concatenate([witnessed, ids])
        return mentioned

    @property
    def corpus(self) -> Corpus | None:
        if isinstance(self.kept, dict):
            self.kept = Corpus.from_arrays(self.kept)
        return self.kept

    # -- reading --

    @property
    def automaton(self) -> ahocorasick.Automaton:
        """An Aho–Corasick automaton (pyahocorasick) over the entities' folded words: it
        finds every mention in a line or a question in one pass. Text is matched as its
        segments (``segments``), each padded with spaces, so a mention never spans
        punctuation and never starts or ends inside a word."""
        cached = getattr(self, "_automaton", None)
        if cached is None:
            cached = ahocorasick.Automaton()
            for number, entity in enumerate(self.entities):
                key = " " + " ".join(entity.words) + " "
                cached.add_word(key, (number, len(key)))
            if self.entities:
                cached.make_automaton()
            self._automaton = cached
        return cached

    def find(self, text: str, language: str = "en") -> list[int]:
        """The entities ``text`` names, outermost mentions only, in order of first mention."""
        if not self.entities:
            return []
        mentions = mentions_in(self.automaton, segments(text, language))
        seen: list[int] = []
        for entity, start, end in sorted(mentions, key=lambda m: (m[1], -m[2])):
            if maximal(mentions, start, end) and entity not in seen:
                seen.append(entity)
        return seen

    def weight(self, a: int, b: int) -> float:
        """The edge's weight: Dunning's log-likelihood ratio G² over the store's lines, 2 Σ
        k·ln(k·N / (row·column)) for the 2x2 table of lines mentioning both, one, the
        other, or neither (``llr``), and 0 when they meet less often than chance (or never
        in one line); an entity named in every line is independent of everything, and its
        edges weigh nothing."""
        witnesses = self.pairs.get((min(a, b), max(a, b)))
        if witnesses is None:
            return 0.0
        both = len(witnesses)
        only_a = len(self.postings[a]) - both
        only_b = len(self.postings[b]) - both
        return llr(both, only_a, only_b, self.lines - both - only_a - only_b)

    def neighbours(self, entity: int) -> list[Edge]:
        """Every entity mentioned with ``entity``, heaviest first (ties by entity number)."""
        edges = [
            Edge(b if a == entity else a, self.weight(a, b), witnesses)
            for (a, b), witnesses in self.pairs.items()
            if entity in (a, b)
        ]
        edges.sort(key=lambda e: (-e.weight, e.other))
        return edges

    def together(self, entities: list[int]) -> np.ndarray:
        """Line ids mentioning every one of ``entities``: the intersection of their postings
        (for two, their edge's witnesses), which the partition path reads instead of
        scoring the store."""
        if len(entities) == 2:
            a, b = sorted(entities)
            witnesses = self.pairs.get((a, b))
            if witnesses is not None:
                return witnesses
        ids = self.postings[entities[0]]
        for entity in entities[1:]:
            ids = np.intersect1d(ids, self.postings[entity], assume_unique=True)
        return ids

    def named(self, name: str, languages: Sequence[str] = ("en",)) -> int | None:
        """The entity ``name`` refers to (its words, any case, any of ``languages``' folding;
        punctuation ignored), or else the first entity it mentions."""
        for language in languages:
            wanted = " ".join(segments(name, language).replace("|", " ").split())
            for number, entity in enumerate(self.entities):
                if " ".join(entity.words) == wanted:
                    return number
        for language in languages:
            found = self.find(name, language)
            if found:
                return found[0]
        return None

    # -- persistence --

    def to_bytes(self) -> bytes:
        """The graph as one payload of arrays (graph_storage.py), put in order first."""
        self.settle()
        return graph_bytes(self)

    @classmethod
    def from_bytes(cls, payload: bytes) -> EntityGraph:
        g = read_graph(payload)
        graph = cls(g.entities, g.postings, g.pairs, g.lines, g.kept, g.line_ids, g.digests)
        graph.mined, graph.document_keys = g.mined, g.document_keys
        if g.kept is not None and g.counts:
            corpus = Corpus.from_arrays(g.kept)
            graph.counts = MinedCounts.restored(corpus, g.counts, g.entities)
            graph.kept = corpus if graph.counts is not None else g.kept
        return graph


def _fingerprints(rows: list[tuple[int, str, str]]) -> tuple[np.ndarray, np.ndarray]:
    """Line ids and a digest of each line's text (a replaced line may keep its id)."""
    ids = np.asarray([row[0] for row in rows], dtype=np.int64)
    digests = np.asarray([_digest(row) for row in rows], dtype=np.int64)
    return ids, digests


def _digest(row: tuple[int, str, str]) -> int:
    _, text, language = row
    return text_digest(f"{language}\0{text}")
