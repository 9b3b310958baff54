"""A shard's part in answering on the driver: what shards/archive.py asks of each shard
while the driver composes and gates one answer over them all. Every reply is plain data
(lines, counts, names) that a Ray worker can send back; what a second call needs of the
first (the scores a subset is drawn with) stays here, under the token the driver sent."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from affidavit.answer.census import Census, take_census
from affidavit.answer.last_organ import WHOLE_LINES
from affidavit.answer.naming import document_title, names_held
from affidavit.answer.told_of import ToldOf, told_of
from affidavit.gates.support import KeyWords
from affidavit.index.documents import FUSION_DEPTH, covered_terms, word_documents_of
from affidavit.index.evidence_block import Found
from affidavit.index.retrieval import RETRIEVE_DEPTH, Retriever, within
from affidavit.index.scope import Scope
from affidavit.index.subsets import as_evidence
from affidavit.index.words.statistics import Statistics
from affidavit.index.words.tallies import Tallies
from affidavit.index.words.word_index import WordIndex
from affidavit.question.shape import AnswerType
from affidavit.question.typed_lines import holds_answer
from affidavit.records.labels import Labels
from affidavit.results import Evidence
from affidavit.store.replies import CachedReply, StoredReplies
from affidavit.store.sqlite import StoredLine
from affidavit.text.addressing import addresses_a_model
from affidavit.text.analyzer import analyzer_for
from affidavit.text.reading import Reading

# How many questions' findings a shard keeps for their subsets (a driver asks for them
# right after; more are kept only for drivers asking at once).
KEPT_FINDINGS = 16


# What a line found may be: cited, withheld (below the speaking threshold), or an order to
# a model (text/addressing.py); the driver counts the last two as one store does.
CITED, WITHHELD, ORDERS = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Finding:
    """One shard's part of a question's retrieval, as the driver merges it (shards/
    ranking.py): its best lines by word score (or by the partition path), each with what
    it may be; its documents ranked by their best line and by meaning; the question's
    terms its vocabulary holds; and the reading hash of each document it names."""

    lines: list[tuple[Evidence, int]]
    by_words: list[tuple[str, float]]
    by_meaning: list[tuple[str, float]]
    known: frozenset[str]
    hashes: dict[str, str]
    partitioned: bool = False
    meaning: bool = False  # is the meaning channel on (documents are then fused)


@dataclass(frozen=True)
class ShardTallies:
    """A shard's tallies (index/words/tallies.py) as its driver holds them, with the
    shard's store generation they were read at, its documents' languages and the labels
    its operator told."""

    generation: int
    tallies: Tallies
    languages: list[str]  # each document's language
    labels: dict[tuple[str, str], list[str]]  # the labels an operator told it


@dataclass
class _Kept:
    """What the driver's later calls read of a finding: the word index it was made on,
    every row's score, and the lines found, as stored."""

    index: WordIndex
    scores: np.ndarray
    stored: dict[tuple[str, int], StoredLine]
    ids: dict[str, int]  # document name -> store id


@dataclass(frozen=True, slots=True)
class Typed:
    """What a question wants of a line (its answer type) and the question's text: enough
    for a shard to grade its lines as the driver's question does (question/typed_lines)."""

    answer_type: AnswerType
    text: str

    def grade(self) -> Callable[[str], int] | None:
        return holds_answer(self.answer_type, self.text)


class ShardParts:
    """The calls of one shard's store that a driver's archive makes."""

    def __init__(self, retriever: Retriever, replies: StoredReplies) -> None:
        self._retriever = retriever
        self._replies = replies
        self._found: OrderedDict[str, _Kept] = OrderedDict()

    def tallies(self) -> ShardTallies:
        """Every term's counts in this shard, at the store's generation now."""
        generation = self._retriever.store.generation()  # first: a write after it shows
        index = self._retriever.words()
        labels = Labels(self._retriever.store).operator()
        return ShardTallies(generation, Tallies.of(index), list(index.document_languages), labels)

    def _stale(self, generation: int | None) -> bool:
        """Has this shard been written since the driver read ``generation``?"""
        return generation is not None and generation != self._retriever.store.generation()

    def document_facts(self) -> list[tuple[str, str, float, str | None]]:
        """(name, source, trust, date) of every document, as a scope reads them."""
        return self._retriever.store.document_facts()

    def statistics(self, terms: Sequence[str]) -> Statistics:
        """This shard's counts for ``terms`` (index/words/statistics.py)."""
        return self._retriever.words().statistics(terms)

    def find(
        self,
        token: str,
        reading: Reading,
        scope: Scope | None,
        statistics: Statistics,
        partitioned: bool = True,
        generation: int | None = None,
        depth: int = RETRIEVE_DEPTH,
    ) -> Finding | None:
        """This shard's part of Retriever.find for ``reading``, its words weighed by the
        whole store's ``statistics`` (``partitioned``: may it take the partition path);
        what later calls need is kept under ``token``. None when the statistics were
        read of it at another ``generation`` than its own now (shards/counts.py)."""
        if self._stale(generation):
            return None
        retriever = self._retriever
        index = retriever.words()
        if index.size == 0:
            return Finding([], [], [], frozenset(), {})
        allowed = retriever.rows_in(scope)
        shared = None
        if partitioned:
            shared = retriever.partitioned(index, reading, allowed, depth, statistics)
        store = retriever.store
        words: list[tuple[int, float]] = []  # (document id, its best line's score)
        meaning: list[tuple[int, float]] = []  # (document id, its closest profile's cosine)
        if shared is not None:
            ranked, rows = shared[0][:depth], shared[1]
            scores = np.zeros(index.size, dtype=np.float32)
            scores[np.searchsorted(index.line_ids, [i for i, _ in ranked])] = [s for _, s in ranked]
        else:
            scored = index.scored(reading.searched, statistics)
            if allowed is not None:
                scored = within(scored, allowed)
            scores = scored.dense()
            ranked = index.top(scored, depth)
            rows = store.lines_by_id([line_id for line_id, _ in ranked])
            words = word_documents_of(index, scored)[:FUSION_DEPTH]
            if retriever.encoder is not None:
                meaning = retriever.ranker.meaning_documents(reading.text)[:FUSION_DEPTH]
        # The word index names its documents (read once an index); the store's own table
        # only when meaning ranks a document the index does not hold yet.
        names, ids = index.document_names_by_id(), index.document_ids_by_name()
        if any(d not in names for d, _ in meaning):
            names = {d: name for d, name, _ in store.documents()}
            ids = {name: d for d, name in names.items()}
        by_words = [(names[d], s) for d, s in words]
        by_meaning = [(names[d], c) for d, c in meaning]
        lines, stored = [], {}
        for line_id, score in ranked:
            row = rows[line_id]
            lines.append((as_evidence(row, score), self._may(row)))
            stored[(row.document, row.position)] = row
        named = {e.document for e, _ in lines} | {n for n, _ in [*by_words, *by_meaning]}
        read = store.reading_hashes(sorted(ids[n] for n in named))
        hashes = {n: read[ids[n]] for n in sorted(named) if ids[n] in read}
        self._keep(token, _Kept(index, scores, stored, ids))
        return Finding(
            lines,
            by_words,
            by_meaning,
            covered_terms(index.vocabulary, reading),
            hashes,
            partitioned=shared is not None,
            meaning=retriever.encoder is not None,
        )

    def _may(self, row: StoredLine) -> int:
        if row.trust < self._retriever.speaking_threshold:
            return WITHHELD
        return ORDERS if addresses_a_model(row.text) else CITED

    def _keep(self, token: str, kept: _Kept) -> None:
        self._found[token] = kept
        while len(self._found) > KEPT_FINDINGS:
            self._found.popitem(last=False)

    def search(
        self,
        reading: Reading,
        k: int,
        scope: Scope | None,
        statistics: Statistics,
        generation: int | None = None,
    ) -> list[Evidence] | None:
        """This shard's ``k`` best lines, weighed by the whole store's ``statistics``; None
        when they were read of it at another ``generation`` (as ``find``)."""
        if self._stale(generation):
            return None
        return self._retriever.search(reading, k, scope, statistics)

    def late_texts(self, token: str, documents: Sequence[str], query: str) -> list[list[str]]:
        """The texts late interaction reads of each of ``documents`` (DocumentRanker's
        lines to read), in their order."""
        kept = self._found[token]
        ranker, store = self._retriever.ranker, self._retriever.store
        texts = []
        for name in documents:
            read = ranker.lines_to_read(kept.index, kept.scores, kept.ids[name], query)
            rows = store.lines_by_id(read)
            texts.append([rows[i].text for i in read])
        return texts

    def proposed(
        self, token: str, documents: Sequence[str], query: str
    ) -> list[list[tuple[Evidence, int]]]:
        """The lines meaning proposes in each of ``documents`` (DocumentRanker.proposed_in),
        each with what it may be."""
        kept = self._found[token]
        ranker, store = self._retriever.ranker, self._retriever.store
        found = []
        for name in documents:
            chosen = ranker.proposed_in(kept.index, kept.scores, kept.ids[name], query)
            rows = store.lines_by_id(chosen)
            found.append([(as_evidence(rows[i], 0.0), self._may(rows[i])) for i in chosen])
            kept.stored.update({(rows[i].document, rows[i].position): rows[i] for i in chosen})
        return found

    def subsets(
        self, token: str, blocks: Sequence[Sequence[Evidence]], typed: Typed | None
    ) -> list[list[Evidence]]:
        """The subsets of ``blocks`` (lines this shard found under ``token``), their lines
        graded as ``typed`` (None: not graded)."""
        kept = self._found.pop(token)
        found = Found([], {}, 0, 0, [], kept.stored, kept.scores)
        grade = typed.grade() if typed is not None else None
        return self._retriever.subsets_of(found, blocks, grade)

    def forget(self, token: str) -> None:
        self._found.pop(token, None)

    def reply(self, key: str) -> CachedReply | None:
        """A model's reply kept in this shard's store (the first shard keeps them all)."""
        return self._replies.get(key)

    def keep_reply(self, key: str, model: str, prompt_version: str, reply: CachedReply) -> None:
        self._replies.put(key, model, prompt_version, reply)

    def held_terms(self, terms: Sequence[str]) -> list[str]:
        """Which of ``terms`` the word index's vocabulary holds."""
        vocabulary = self._retriever.words().vocabulary
        return [term for term in terms if term in vocabulary]

    def around(self, lines: Sequence[Evidence], reach: int) -> list[Evidence]:
        return self._retriever.around(lines, reach)

    def census(self, keys: KeyWords, language: str, scope: Scope | None) -> Census:
        return take_census(self._retriever, keys, analyzer_for(language), scope)

    def told_of(
        self, terms: frozenset[str], speakers: set[str], language: str, scope: Scope | None
    ) -> ToldOf | None:
        return told_of(self._retriever, terms, speakers, analyzer_for(language), scope)

    def telling(self, scope: Scope | None) -> tuple[list[Evidence], bool] | None:
        """Every citable line of the scope's documents, oldest told first, and whether
        each is dated; None when this shard alone holds more than the last organ reads."""
        index = self._retriever.words()
        if index.size > WHOLE_LINES:
            return None
        store = self._retriever.store
        with store.reading():
            ids = [row[0] for row in store.line_rows()]
            lines = list(store.lines_by_id(ids).values())
        if scope is not None:
            lines = [line for line in lines if scope.keeps(line.document)]
        lines = [line for line in lines if self._retriever.speaks(line)]
        dated = all(line.date for line in lines)
        lines.sort(key=lambda line: (line.date or "", line.document_id, line.position))
        return [as_evidence(line) for line in lines], dated

    def names_held(
        self, question: str, terms: frozenset[str], language: str
    ) -> list[tuple[int, str]]:
        return names_held(self._retriever, question, terms, analyzer_for(language))

    def title(self, document: str) -> str:
        return document_title(self._retriever, document)
