"""One store's lines for one question, as ``find`` reads them (index/finding.py): ranked by
the word index under its own statistics, or a whole store's when this store is a shard of
it (Retriever.lines makes them), with what each line found may be, the documents ranked
by words and by meaning, and what a later call reads of them (the lines late interaction
and meaning read in a document, the subsets of the evidence block)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from affidavit.index.document_scope import Scope
from affidavit.index.documents import FUSION_DEPTH, DocumentRanker, word_documents_of
from affidavit.index.finding import CITED, Candidate, Ranked, may_be
from affidavit.index.headings import Headings
from affidavit.index.kinds import with_kinds
from affidavit.index.meaning.late import Reranker
from affidavit.index.subsets import as_evidence, subset
from affidavit.index.words.scoring import Scored
from affidavit.index.words.word_index import WordIndex
from affidavit.results import Evidence
from affidavit.store import Store, StoredLine
from affidavit.text import Reading


@dataclass(frozen=True, slots=True)
class StoreParts:
    """What one store's lines are read through: the store, its word index at this
    generation, its document ranker, the headings its lines stand under, and the trust a
    line must have to be said."""

    store: Store
    index: WordIndex
    ranker: DocumentRanker
    headings: Headings
    speaking_threshold: float

    def may_be(self, line: StoredLine) -> int:
        return may_be(line, self.speaking_threshold)


class StoreLines:
    """One store's lines for a question (a LineSource): ``scored`` ranks them by words,
    ``partition`` holds the partition path's."""

    def __init__(
        self,
        parts: StoreParts,
        reading: Reading,
        scope: Scope | None,
        ranked: list[tuple[int, float]],
        scores: np.ndarray,
        *,
        scored: Scored | None = None,
        documents: bool = False,
    ) -> None:
        self._parts = parts
        self._reading = reading
        self._scope = scope
        self._ids = ranked  # (line id, score), best first
        self.scores = scores  # every index row's word score for the question
        self._scored = scored  # None on the partition path
        self._documents = documents  # rank the documents too
        self._rows: dict[tuple[str, int], StoredLine] = {}  # every line found, by place
        self._ranked: Ranked | None = None

    @classmethod
    def scored(
        cls,
        parts: StoreParts,
        reading: Reading,
        scope: Scope | None,
        scored: Scored,
        depth: int,
        *,
        documents: bool,
    ) -> StoreLines:
        """The lines ``scored`` (the word scores of the lines the question reached, within
        the scope) ranks best, ``depth`` of them; the documents ranked too if asked."""
        ranked = parts.index.top(scored, depth)
        return cls(
            parts, reading, scope, ranked, scored.dense(), scored=scored, documents=documents
        )

    @classmethod
    def partition(
        cls,
        parts: StoreParts,
        reading: Reading,
        scope: Scope | None,
        ranked: list[tuple[int, float]],
    ) -> StoreLines:
        """The partition path's lines (the lines the question's entities share), ranked;
        every other line scores 0."""
        index = parts.index
        scores = np.zeros(index.size, dtype=np.float32)
        scores[np.searchsorted(index.line_ids, [i for i, _ in ranked])] = [s for _, s in ranked]
        return cls(parts, reading, scope, ranked, scores)

    @property
    def reranker(self) -> Reranker | None:
        return self._parts.ranker.reranker

    def ranked(self) -> Ranked:
        if self._ranked is None:
            rows = self._parts.store.lines_by_id([line_id for line_id, _ in self._ids])
            lines = self._found([rows[line_id] for line_id, _ in self._ids], self._ids)
            if self._scored is None:
                self._ranked = Ranked(lines, partitioned=True)
            else:
                ranker = self._parts.ranker
                meaning = ranker.encoder is not None
                by_words: list[tuple[str, float]] = []
                by_meaning: list[tuple[str, float]] = []
                if self._documents:
                    words = word_documents_of(self._parts.index, self._scored)[:FUSION_DEPTH]
                    close = ranker.meaning_documents(self._reading.text) if meaning else []
                    names = self._names([d for d, _ in [*words, *close]])
                    by_words = [(names[d], score) for d, score in words]
                    by_meaning = [(names[d], cosine) for d, cosine in close]
                self._ranked = Ranked(lines, by_words, by_meaning, meaning=meaning)
        return self._ranked

    def _found(
        self, rows: Sequence[StoredLine], scored: Sequence[tuple[int, float]]
    ) -> list[Candidate]:
        """``rows`` as lines found, each with its score and what it may be; each is kept."""
        found = []
        for row, (_, score) in zip(rows, scored, strict=True):
            self._rows[(row.document, row.position)] = row
            found.append((as_evidence(row, score), self._parts.may_be(row)))
        return found

    def _names(self, ids: Sequence[int]) -> dict[int, str]:
        """Document id -> name, from the word index when it holds every id of ``ids`` (a
        store read of every document's row costs milliseconds at a few thousand); meaning
        may rank a document the word index does not hold yet."""
        names = self._parts.index.document_names_by_id()
        if all(d in names for d in ids):
            return names
        return {document_id: name for document_id, name, _ in self._parts.store.documents()}

    def _document_ids(self, names: Sequence[str]) -> dict[str, int]:
        ids = self._parts.index.document_ids_by_name()
        if all(name in ids for name in names):
            return ids
        return {name: document_id for document_id, name, _ in self._parts.store.documents()}

    def coverage(self) -> float:
        return self._parts.ranker.coverage(self._reading)

    def late_texts(self, documents: Sequence[str]) -> list[list[str]]:
        parts, query = self._parts, self._reading.text
        ids = self._document_ids(documents)
        reading = [
            parts.ranker.lines_to_read(parts.index, self.scores, ids[name], query)
            for name in documents
        ]
        rows = parts.store.lines_by_id([line_id for read in reading for line_id in read])
        return [[rows[line_id].text for line_id in read] for read in reading]

    def reading_hashes(self, documents: Sequence[str]) -> dict[str, str]:
        ids = self._document_ids(documents)
        hashes = self._parts.store.reading_hashes(sorted(ids[name] for name in documents))
        return {name: hashes[ids[name]] for name in documents if ids[name] in hashes}

    def proposed(self, documents: Sequence[str]) -> list[list[Candidate]]:
        parts, query = self._parts, self._reading.text
        ids = self._document_ids(documents)
        proposed = []
        for name in documents:
            chosen = parts.ranker.proposed_in(parts.index, self.scores, ids[name], query)
            rows = parts.store.lines_by_id(chosen)
            proposed.append(self._found([rows[i] for i in chosen], [(i, 0.0) for i in chosen]))
        return proposed

    def with_kinds(self, lines: list[Candidate]) -> list[Candidate]:
        rows = {line.id: line for line in self._rows.values()}
        ranked = [(self._rows[(e.document, e.position)].id, e.score) for e, _ in lines]
        seated, rows = with_kinds(self._parts.store, self._reading, ranked, rows, self._scope)
        if seated is ranked:  # no record's kind is named: the lines as they were
            return lines
        return self._found([rows[line_id] for line_id, _ in seated], seated)

    def subsets(
        self,
        blocks: Sequence[Sequence[Evidence]],
        holds_answer: Callable[[str], int] | None = None,
    ) -> list[list[Evidence]]:
        """A subset for each of ``blocks`` (one document's lines of the evidence block, as
        they were found): those lines with their context (index/subsets.py)."""
        parts = self._parts
        return [
            subset(
                parts.store,
                parts.headings,
                lambda line: parts.may_be(line) == CITED,
                [self._rows[(hit.document, hit.position)] for hit in lines],
                self.scores,
                parts.index,
                holds_answer,
            )
            for lines in blocks
        ]
