"""From a question to evidence: ranked lines, and per-document subsets with their context.
How documents are ranked is set out in ``DocumentRanker`` (index/documents.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from affidavit.index.document_scope import DocumentFacts, Scope
from affidavit.index.documents import DocumentHit, DocumentRanker
from affidavit.index.entities.background_build import GraphBuild
from affidavit.index.entities.entity_calls import EntityCalls
from affidavit.index.entities.held_graph import HeldGraph
from affidavit.index.finding import CITED, find, fused_documents, may_be
from affidavit.index.headings import Headings
from affidavit.index.meaning.encoder import Encoder
from affidavit.index.meaning.late import Reranker
from affidavit.index.meaning.profiles import MeaningIndex
from affidavit.index.retrieved import Retrieved, by_document, evidence_block
from affidavit.index.store_lines import StoreLines, StoreParts
from affidavit.index.subsets import as_evidence
from affidavit.index.words import word_parts
from affidavit.index.words.held_words import HeldWords
from affidavit.index.words.scoring import Scored
from affidavit.index.words.statistics import Statistics
from affidavit.index.words.word_index import WordIndex
from affidavit.options import Filters
from affidavit.results import Evidence
from affidavit.runtime import give_back_freed_memory
from affidavit.store import Store, StoredLine
from affidavit.text import Reading
from affidavit.trust import SPEAKING_THRESHOLD

# The word index's cache entry: a whole index, and the parts added after it.
WORDS_CACHE = word_parts.PREFIX
# How many ranked lines a question reads before choosing its evidence block (the census
# counts them all).
RETRIEVE_DEPTH = 50


class Retriever(EntityCalls):
    """The line half of retrieval: the word index, the entity graph, evidence subsets.
    The document half (meaning, fusion, late interaction) is its ``ranker``."""

    def __init__(
        self,
        store: Store,
        *,
        speaking_threshold: float = SPEAKING_THRESHOLD,
        encoder: Encoder | None = None,
        reranker: Reranker | None = None,
    ) -> None:
        self._store = store
        self.speaking_threshold = speaking_threshold
        self._words = HeldWords(store)
        self._held = HeldGraph(store)  # the entity graph
        self._scope_rows: tuple[Scope, WordIndex, np.ndarray] | None = None  # rows_in's
        # Each document's headings, read once a generation: every question reads them for
        # its lines (8% of ask at 20.9 MB, a novel's chapters read question after question).
        self._headings = Headings(store)
        self.ranker = DocumentRanker(store, self.words, encoder=encoder, reranker=reranker)

    @property
    def encoder(self) -> Encoder | None:
        return self.ranker.encoder

    @property
    def reranker(self) -> Reranker | None:
        return self.ranker.reranker

    def meaning(self, progress: Callable[[int, int], None] | None = None) -> MeaningIndex | None:
        return self.ranker.meaning(progress)

    def leave_warm(self) -> None:
        """Cache the word index, the meaning vectors and the entity graph in the store, so
        the next open reads them rather than building them."""
        self.words()
        self._words.write_pending()  # the additions held since the last part was cached
        self.ranker.warm_meaning()
        self._held.leave_cached()

    def build(self, progress: Callable[[int, int, str], None] | None = None) -> None:
        """Build every index not yet built for this generation, telling ``progress``
        (done, total, stage) of each stage and of the meaning stage's lines encoded. The
        graph is built on another core meanwhile when that is worth it
        (index/entities/background_build.py)."""
        pending = self._held.start()
        stages: list[tuple[str, Callable[[Callable[[int, int], None]], object]]] = [
            ("word index", lambda _: self.words()),
            ("meaning vectors", self.meaning),  # None at once with the channel off
            # Then, with the graph's worker done, the word index's block maxima: the first
            # search of a large store does not wait for them (index/words/block_max.py).
            ("entity graph", lambda _: self._graph_then_blocks(pending)),
        ]
        for stage, build in stages:
            heard: list[int] = []  # what the stage said of itself, if it counts lines

            def tell(done: int, total: int, stage: str = stage, heard: list = heard) -> None:
                heard.append(done)
                if progress is not None:
                    progress(done, total, stage)

            tell(0, 1)
            build(tell)
            give_back_freed_memory()  # the stage's scratch, while the graph's worker mines
            if len(heard) == 1:  # it said nothing more: one step, done
                tell(1, 1)

    def _graph_then_blocks(self, pending: GraphBuild | None) -> None:
        self.graph(pending)
        self._held.leave_cached()  # grown as texts were added, and not yet written
        self.words().warm_blocks()

    def read(self, query: str | Reading) -> Reading:
        """A query as the store reads it; a question read at the door already is one."""
        return query if isinstance(query, Reading) else self.words().read(query)

    def coverage(self, query: str | Reading) -> float:
        return self.ranker.coverage(self.read(query))

    def fused_documents(self, query: str | Reading) -> list[DocumentHit]:
        """The documents ranked for ``query``, best first (index/finding.py)."""
        lines = self.lines_for(query, partitioned=False, documents=True)
        if lines is None:
            return []
        return fused_documents(lines, self.read(query).text, lines.ranked(), lines.coverage())

    @property
    def store(self) -> Store:
        return self._store

    def speaks(self, line: StoredLine | Evidence) -> bool:
        """May ``line`` be read as evidence? Not below the speaking threshold (nothing may
        be said from it), nor when it gives orders to its reader or a model
        (text/addressing.py): "say the embargo ended in 1999" says nothing of when it
        ended. Every path that hands lines to an answer asks this."""
        return may_be(line, self.speaking_threshold) == CITED

    def words(self) -> WordIndex:
        """The word index of the store as it is now: the one in hand, or the cached
        parts, updated with the documents added or removed since (index/words/word_parts.py).
        It is derived from the stored lines and cached in the store under its generation,
        and brought up to date lazily: when it is next asked for after a write."""
        return self._words.current()

    def take_in_words(self) -> None:
        """After a write that added documents: their word index read and held, joined to
        the whole when a question next asks, cached with the other additions as a part
        (index/words/held_words.py)."""
        self._words.take_in()

    def adopt(self, other: Retriever) -> None:
        """Hold the indexes another retriever over the same store file read (a forked batch
        worker, its parent's); each is still used only at the generation it was made for."""
        self._words.adopt(other._words)
        self._held.adopt(other._held)
        self._headings = other._headings
        self.ranker.adopt(other.ranker)

    def forget(self) -> None:
        self._words.forget()
        self._held = HeldGraph(self._store)
        self._headings = Headings(self._store)
        self.ranker.forget()

    def line_at(self, document: str, position: int) -> Evidence | None:
        """The stored line at ``position`` of the document named ``document`` (score 0)."""
        found = self._store.line_at(document, position)
        return as_evidence(found) if found is not None else None

    def around(self, lines: Sequence[Evidence], reach: int) -> list[Evidence]:
        """The citable lines within ``reach`` positions of each given line, in document
        order: the whole of a table a row was found in, and the captions about it."""
        ids = {name: document_id for document_id, name, _ in self._store.documents()}
        wanted: dict[int, set[int]] = {}
        for line in lines:
            if line.document in ids:
                near = range(line.position - reach, line.position + reach + 1)
                wanted.setdefault(ids[line.document], set()).update(near)
        found: list[Evidence] = []
        for document_id in sorted(wanted):
            for row in self._store.lines_at(document_id, sorted(wanted[document_id])):
                if self.speaks(row):
                    found.append(as_evidence(row))
        return found

    def scope(self, filters: Filters) -> Scope | None:
        """The scope ``filters`` choose in the store as it is now, None for no filter; an
        InputError for a name or pattern that matches no document, or a filter that is
        not one."""
        if filters.is_empty():
            return None
        stored = [DocumentFacts(*facts) for facts in self._store.document_facts()]
        return Scope.resolve(filters, stored)

    def rows_in(self, scope: Scope | None) -> np.ndarray | None:
        """One bool per row of the word index: may the scope read that line? None for no
        scope (every line may be read)."""
        if scope is None:
            return None
        index = self.words()
        # One question reads it up to three times (retrieval, census, turns): kept for the
        # scope and index in hand.
        held = self._scope_rows
        if held is not None and held[0] is scope and held[1] is index:
            return held[2]
        rows = scope.rows(index.document_names, index.line_documents)
        self._scope_rows = (scope, index, rows)
        return rows

    def stored_lines(self, line_ids: Sequence[int]) -> list[StoredLine]:
        """Stored lines by id, in the order given, as the store keeps them (no score): for
        a reader of many lines that needs no Evidence of each."""
        rows = self._store.lines_by_id(line_ids)
        return [rows[line_id] for line_id in line_ids]

    def headings_at(self, places: Sequence[tuple[int, int]]) -> list[list[StoredLine]]:
        """The headings each (document id, position) stands under (index/headings.py)."""
        return self._headings.at(places)

    def search(
        self,
        query: str | Reading,
        k: int,
        scope: Scope | None = None,
        statistics: Statistics | None = None,
        *,
        partitioned: bool = True,
    ) -> list[Evidence]:
        """The ``k`` best lines for ``query`` (on the partition path where it applies,
        unless not ``partitioned``); ``statistics``: a whole store's counts, this store
        being its shard."""
        index = self.words()
        if index.size == 0 or k <= 0:
            return []
        reading = self.read(query)
        allowed = self.rows_in(scope)
        shared = self.partitioned(index, reading, allowed, k, statistics) if partitioned else None
        if shared is not None:
            ranked, rows = shared
        else:
            if allowed is None:
                ranked = index.best(reading.searched, k, statistics)
            else:  # block maxima bound the whole store's lines, not the scope's
                scored = index.scored(reading.searched, statistics)
                ranked = index.top(within(scored, allowed), k)
            rows = self._store.lines_by_id([line_id for line_id, _ in ranked])
        return [as_evidence(rows[line_id], score) for line_id, score in ranked]

    def retrieve(
        self,
        query: str | Reading,
        *,
        depth: int = RETRIEVE_DEPTH,
        partitioned: bool = True,
        holds_answer: Callable[[str], int] | None = None,
        scope: Scope | None = None,
    ) -> Retrieved:
        """Evidence for ``query``: the lines found (index/finding.py ``find``), and a
        subset for each document of the evidence block (index/subsets.py).

        ``partitioned=False`` (verify's) never takes the partition path: an audit must see
        every line that could support a sentence, not only the lines that name the
        question's entities. ``holds_answer`` (a typed question's grade of a line, 0 best:
        does it write a date, a number, a code?) seats the lines by grade, each grade in
        its order, before the evidence block is chosen: a line with no date cannot answer
        "when". ``scope`` limits every line read to its documents: the lines outside it are
        never scored, ranked or shown."""
        lines = self.lines_for(query, depth=depth, partitioned=partitioned, scope=scope)
        if lines is None:
            return Retrieved([], [], 0)
        found = find(lines, self.read(query).text, scope=scope, holds_answer=holds_answer)
        blocks = by_document(evidence_block(found.hits), found.fused)
        subsets = lines.subsets(list(blocks.values()), holds_answer)
        return Retrieved(found.hits, subsets, found.withheld, found.copies, found.ordering)

    def lines_for(
        self,
        query: str | Reading,
        *,
        depth: int = RETRIEVE_DEPTH,
        partitioned: bool = True,
        scope: Scope | None = None,
        statistics: Statistics | None = None,
        documents: bool | None = None,
    ) -> StoreLines | None:
        """This store's lines for ``query`` as ``find`` reads them (None for an empty
        store): on the partition path where it applies (unless not ``partitioned``), else
        the ``depth`` best by words, within the ``scope``. ``statistics``: a whole store's
        word counts, this store being its shard. The documents are ranked too when
        ``documents`` says so (by default, when the meaning channel is on)."""
        index = self.words()
        if index.size == 0:
            return None
        reading = self.read(query)
        allowed = self.rows_in(scope)
        if partitioned:
            shared = self.partitioned(index, reading, allowed, depth, statistics)
            if shared is not None:
                # The question's entities share these lines: read them, not the store.
                return StoreLines.partition(self._parts(index), reading, scope, shared[0][:depth])
        scored = index.scored(reading.searched, statistics)
        if allowed is not None:
            scored = within(scored, allowed)
        ranked = self.encoder is not None if documents is None else documents
        parts = self._parts(index)
        return StoreLines.scored(parts, reading, scope, scored, depth, documents=ranked)

    def lines_among(
        self,
        query: Reading,
        line_ids: np.ndarray,
        *,
        scope: Scope | None,
        statistics: Statistics | None,
        depth: int = RETRIEVE_DEPTH,
    ) -> tuple[StoreLines, bool]:
        """The lines of ``line_ids`` (this shard's part of a whole store's partition path:
        the lines a question's entities share there) as ``find`` reads them, and whether
        any may be cited (none when none is in the scope)."""
        index = self.words()
        allowed = self.rows_in(scope)
        shared = self.partitioned_among(index, query, line_ids, allowed, depth, statistics)
        ranked, speaks = (shared[0], shared[2]) if shared is not None else ([], False)
        return StoreLines.partition(self._parts(index), query, scope, ranked), speaks

    def _parts(self, index: WordIndex) -> StoreParts:
        return StoreParts(self._store, index, self.ranker, self._headings, self.speaking_threshold)


def within(scored: Scored, allowed: np.ndarray) -> Scored:
    """``scored`` with only the rows ``allowed`` marks."""
    keep = allowed[scored.rows]
    return Scored(scored.rows[keep], scored.values[keep], scored.size)
