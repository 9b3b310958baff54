"""The entity graph's half of the retriever (index/retrieval.py inherits it): the
entities a user asks after by name, their neighbours and the lines that mention two,
and the partition path a question naming two entities takes."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from affidavit.errors import AffidavitError
from affidavit.index.entities.background_build import GraphBuild
from affidavit.index.entities.graph import EntityGraph
from affidavit.index.entities.held_graph import HeldGraph
from affidavit.index.entities.partition import ranked_among, shared
from affidavit.index.entities.shard_phrases import CorpusFacts, Phrase, PhraseIndex, PhraseQuestion
from affidavit.index.entities.unmined import lines_writing, neighbours_in
from affidavit.index.subsets import as_evidence
from affidavit.index.words.statistics import Statistics
from affidavit.index.words.word_index import WordIndex
from affidavit.results import EntityCount, Evidence, Neighbour
from affidavit.store import Store, StoredLine
from affidavit.text import Reading

# The lines an entity's page shows of those that mention it (the first, in store order).
MENTIONS_SHOWN = 20


@dataclass(frozen=True, slots=True)
class Mentions:
    """Where the store mentions a name: how many lines, the first of them, and the
    entities mentioned with it, heaviest first."""

    count: int
    lines: list[Evidence]
    neighbours: list[Neighbour]


class EntityCalls:
    """The entity graph's calls of a retriever over ``_store``."""

    _store: Store
    _held: HeldGraph
    speaking_threshold: float

    def graph(self, pending: GraphBuild | None = None) -> EntityGraph:
        """The store's entity graph, cached in the store under its generation (the one
        ``pending`` builds elsewhere, when one does)."""
        return self._held.current(pending)

    def grow_graph(self) -> None:
        """After documents are added one call at a time: the graph grown now when that
        takes only their lines (index/entities/held_graph.py)."""
        self._held.grow()

    def lines(self, line_ids: list[int]) -> list[Evidence]:
        """Stored lines by id, in the order given, as Evidence (score 0)."""
        rows = self._store.lines_by_id(line_ids)
        return [as_evidence(rows[line_id]) for line_id in line_ids]

    def entity(self, name: str) -> int:
        """The number of the entity ``name`` refers to in the graph (any of the store's
        languages' folding), or an AffidavitError saying where the names are."""
        languages = sorted({language for _, _, language in self._store.documents()}) or ["en"]
        if (number := self.graph().named(name, languages)) is None:
            raise AffidavitError(f"no entity named {name!r}; Memory.entities() lists them")
        return number

    def entity_counts(self, top: int) -> list[EntityCount]:
        """The ``top`` entities, most mentioned first (ties by name)."""
        entities = self.graph().entities[: max(top, 0)]
        return [EntityCount(name=e.name, count=e.count) for e in entities]

    def neighbours(self, entity: str, top: int) -> list[Neighbour]:
        """The ``top`` entities mentioned with ``entity``, heaviest edge first, each with
        the lines that witness it."""
        graph = self.graph()
        found = []
        for edge in graph.neighbours(self.entity(entity))[: max(top, 0)]:
            witnesses = self.lines(edge.witnesses.tolist())
            name = graph.entities[edge.other].name
            found.append(Neighbour(name=name, weight=edge.weight, witnesses=witnesses))
        return found

    def mentions(self, name: str, index: WordIndex, top: int) -> Mentions:
        """Where the store (its word index ``index``) mentions ``name``, with the ``top``
        entities mentioned with it. An entity of the graph is read off the graph; a name
        the graph did not mine ("Acme Corp" in three lines), off the lines that write it
        (entities/unmined.py): a name its lines say is never "mentioned nowhere"."""
        if index.size == 0:
            return Mentions(0, [], [])
        try:
            number = self.entity(name)
        except AffidavitError as exc:
            if type(exc) is not AffidavitError:
                raise  # a store's failure is said, never taken for "no such entity"
            return self._unmined(name, index, top)
        postings = self.graph().postings[number]
        shown = self.lines(postings[:MENTIONS_SHOWN].tolist())
        return Mentions(len(postings), shown, self.neighbours(name, top))

    def _unmined(self, name: str, index: WordIndex, top: int) -> Mentions:
        def texts(ids: list[int]) -> dict[int, str]:
            return {i: line.text for i, line in self._store.lines_by_id(ids).items()}

        written = lines_writing(name, index, texts)
        graph = self.graph()
        neighbours = [
            Neighbour(
                name=graph.entities[edge.other].name,
                weight=edge.weight,
                witnesses=self.lines(edge.witnesses.tolist()),
            )
            for edge in neighbours_in(graph, written)[: max(top, 0)]
        ]
        shown = self.lines([line_id for line_id, _, _ in written[:MENTIONS_SHOWN]])
        return Mentions(len(written), shown, neighbours)

    def cooccurrences(self, a: str, b: str) -> list[Evidence]:
        """The lines that mention both entities, in store order."""
        both = [self.entity(a), self.entity(b)]
        return self.lines(self.graph().together(both).tolist())

    def partitioned(
        self,
        index: WordIndex,
        query: Reading,
        allowed: np.ndarray | None,
        depth: int,
        statistics: Statistics | None = None,
    ) -> tuple[list[tuple[int, float]], dict[int, StoredLine]] | None:
        """The partition path's best ``depth`` (line id, score) and their stored lines, or
        None to score the store.

        The partition path (index/entities/partition.py) comes first: a question naming two
        or more of the store's entities (index/entities/graph.py) reads only the lines they
        share and their neighbours, unless none of those may be cited. ``statistics``: the
        whole store's word counts, this store being a shard.
        """
        line_ids = shared(self.graph(), query, self._held.implicit)
        if line_ids is None:
            return None
        found = self.partitioned_among(index, query, line_ids, allowed, depth, statistics)
        if found is None or not found[2]:
            return None
        return found[0], found[1]

    def partitioned_among(
        self,
        index: WordIndex,
        query: Reading,
        line_ids: np.ndarray,
        allowed: np.ndarray | None,
        depth: int,
        statistics: Statistics | None = None,
    ) -> tuple[list[tuple[int, float]], dict[int, StoredLine], bool] | None:
        """The best ``depth`` (line id, score) of the partition of ``line_ids`` (the lines
        a question's entities share) and their stored lines, with whether any line of it
        may be cited; None when none of it is in the scope (or the index).

        Lines nothing may be said from must not decide what is read: when no line of the
        partition can be cited, the caller scores the whole store. A line's trust is its
        document's, so the documents are read, not every line.
        """
        found = ranked_among(index, query, line_ids, statistics)
        if found is None:
            return None
        rows, scores = found
        if allowed is not None:  # the lines they share in the scope's documents only
            keep = allowed[rows]
            rows, scores = rows[keep], scores[keep]
            if not rows.size:
                return None
        documents = index.document_ids[np.unique(index.line_documents[rows])]
        trusts = self._store.trust_of(documents.tolist())
        speaks = any(trust >= self.speaking_threshold for trust in trusts.values())
        top = zip(rows[:depth].tolist(), scores[:depth].tolist(), strict=True)
        ranked = [(int(index.line_ids[r]), s) for r, s in top]
        return ranked, self._store.lines_by_id([line_id for line_id, _ in ranked]), speaks

    def phrases(self) -> PhraseIndex | None:
        """Where the words of the graph's kept corpus stand (index/entities/shard_phrases.py), for
        a sharded store's driver; None when the graph keeps no corpus."""
        return self._held.phrases(self.graph())

    def phrase_facts(self, asked: PhraseQuestion) -> CorpusFacts | None:
        """The facts of the phrases ``asked`` in the kept corpus, the documents another
        shard counts left out; None when the graph keeps no corpus."""
        index = self.phrases()
        if index is None:
            return None
        uncounted = None
        if asked.counted_elsewhere:
            uncounted = self._held.uncounted(self._store, index, asked.counted_elsewhere)
        return index.facts(asked.wanted, asked.candidates, uncounted)

    def entity_lines(
        self, phrases: list[Phrase]
    ) -> tuple[list[np.ndarray], dict[tuple[int, int], np.ndarray]]:
        """The lines that mention each of ``phrases`` and each pair's witnesses, as the
        graph's postings and edges would hold them were they its entities: a copy's lines
        (not in the kept corpus, which reads a text once) mention what its original's do."""
        index = self.phrases()
        if index is None:
            return [np.zeros(0, dtype=np.int64) for _ in phrases], {}
        postings, pairs = index.lines(phrases)
        copied = self._held.copied_lines(self._store)
        if copied is None:
            return postings, pairs
        return [copied(ids) for ids in postings], {pair: copied(ids) for pair, ids in pairs.items()}
