"""From a question to evidence: ranked lines, and per-document subsets with their context.

The word index is derived from the stored lines and cached in the store under its
generation; it is rebuilt lazily after a write. A subset is one document's lines from the
evidence block (where no document takes more than its share) plus the lines beside them
(so a claim can be read back across a sentence boundary),
each line carrying its own word score; lines below the speaking threshold never enter a
subset, because nothing in a subset may be said as fact without them being citable.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from affidavit.evidence_block import evidence_block
from affidavit.graph.trust import SPEAKING_THRESHOLD
from affidavit.index.text import detect_language
from affidavit.index.words import WordIndex
from affidavit.results import Evidence
from affidavit.store.sqlite import Store, StoredLine

# How many ranked lines a question reads before choosing its evidence block (the census
# counts them all).
RETRIEVE_DEPTH = 50
CONTEXT_REACH = 1


@dataclass(frozen=True, slots=True)
class Retrieved:
    hits: list[Evidence]  # citable lines, best first
    subsets: list[list[Evidence]]  # one per document, best document first
    withheld: int  # lines that matched but sit below the speaking threshold


class Retriever:
    def __init__(self, store: Store, *, speaking_threshold: float = SPEAKING_THRESHOLD) -> None:
        self._store = store
        self.speaking_threshold = speaking_threshold
        self._words: WordIndex | None = None
        self._generation = -1

    def words(self) -> WordIndex:
        generation = self._store.generation()
        if self._words is not None and self._generation == generation:
            return self._words
        payload = self._store.cached("words", generation)
        if payload is not None:
            index = WordIndex.from_bytes(payload)
        else:
            index = WordIndex.build(
                self._store.documents(), self._store.line_rows(), self._store.window_rows()
            )
            self._store.cache("words", generation, index.to_bytes())
        self._words, self._generation = index, generation
        return index

    def forget(self) -> None:
        self._words = None

    @staticmethod
    def _scores(index: WordIndex, query: str) -> np.ndarray:
        # A question too short to show its language is read in the store's own.
        language = detect_language(query, default=index.main_language)
        return index.scores(query, language)

    def search(self, query: str, k: int) -> list[Evidence]:
        index = self.words()
        if index.size == 0 or k <= 0:
            return []
        ranked = index.top(self._scores(index, query), k)
        rows = self._store.lines_by_id([line_id for line_id, _ in ranked])
        return [_evidence(rows[line_id], score) for line_id, score in ranked]

    def retrieve(self, query: str, *, depth: int = RETRIEVE_DEPTH) -> Retrieved:
        index = self.words()
        if index.size == 0:
            return Retrieved([], [], 0)
        scores = self._scores(index, query)
        ranked = index.top(scores, depth)
        rows = self._store.lines_by_id([line_id for line_id, _ in ranked])
        hits: list[Evidence] = []
        stored: dict[tuple[str, int], StoredLine] = {}
        withheld = 0
        for line_id, score in ranked:
            row = rows[line_id]
            if row.trust < self.speaking_threshold:
                withheld += 1
                continue
            hits.append(_evidence(row, score))
            stored[(row.document, row.position)] = row
        # The best lines, no document beyond its share while others hold evidence, then
        # grouped by document (best document first) with their context.
        by_document: dict[str, list[StoredLine]] = {}
        for hit in evidence_block(hits):
            by_document.setdefault(hit.document, []).append(stored[(hit.document, hit.position)])
        subsets = [self._subset(lines, scores, index) for lines in by_document.values()]
        return Retrieved(hits, subsets, withheld)

    def _subset(
        self, best: list[StoredLine], scores: np.ndarray, index: WordIndex
    ) -> list[Evidence]:
        document_id = best[0].document_id
        have = {line.position for line in best}
        wanted = {
            line.position + step
            for line in best
            for step in range(-CONTEXT_REACH, CONTEXT_REACH + 1)
        } - have
        context = self._store.lines_at(document_id, sorted(p for p in wanted if p >= 0))
        members = [*context, *best]
        # Index rows are in line-id order, so one search finds every member's score.
        rows = np.searchsorted(index.line_ids, [line.id for line in members])
        lines = [(line, float(scores[row])) for line, row in zip(members, rows, strict=True)]
        lines.sort(key=lambda pair: (-pair[1], pair[0].position))
        return [_evidence(line, score) for line, score in lines]


def _evidence(line: StoredLine, score: float) -> Evidence:
    return Evidence(
        line.document, line.position, line.text, line.kind, score, line.cells, line.trust
    )
