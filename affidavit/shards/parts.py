"""A shard's part in answering on the driver: what shards/archive.py asks of each shard
while the driver composes and gates one answer over them all. Every reply is plain data
(lines, counts, names) that a Ray worker can send back; what a second call needs of the
first (the scores a subset is drawn with) stays here, under the token the driver sent."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from affidavit.answer.census import Census, take_census
from affidavit.answer.last_organ import WHOLE_LINES
from affidavit.answer.naming import document_title, names_held
from affidavit.answer.told_of import ToldOf, told_of_counted
from affidavit.gates.support import KeyWords
from affidavit.index.copies import every_reading_hash
from affidavit.index.documents import FUSION_DEPTH, covered_terms, word_documents_of
from affidavit.index.entities.phrases import CorpusFacts, Phrase, PhraseQuestion
from affidavit.index.evidence_block import Found
from affidavit.index.retrieval import RETRIEVE_DEPTH, Retriever, within
from affidavit.index.scope import Scope
from affidavit.index.subsets import as_evidence
from affidavit.index.words.statistics import Statistics
from affidavit.index.words.tallies import Tallies
from affidavit.index.words.word_index import WordIndex
from affidavit.records.labels import Labels
from affidavit.results import Evidence
from affidavit.shards.entities import Lines
from affidavit.shards.findings import CITED, ORDERS, WITHHELD, Finding, ShardTallies, Typed
from affidavit.store.replies import CachedReply, StoredReplies
from affidavit.store.sqlite import StoredLine
from affidavit.text.addressing import addresses_a_model
from affidavit.text.analyzer import analyzer_for
from affidavit.text.reading import Reading

# How many questions' findings a shard keeps for their subsets (a driver asks for them
# right after; more are kept only for drivers asking at once).
KEPT_FINDINGS = 16


@dataclass
class _Kept:
    """What the driver's later calls read of a finding: the word index it was made on,
    every row's score, and the lines found, as stored."""

    index: WordIndex
    scores: np.ndarray
    stored: dict[tuple[str, int], StoredLine]
    ids: dict[str, int]  # document name -> store id
    before: _Kept | None = None  # the store's scoring, put by for the partition path's


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
        store = self._retriever.store
        labels = Labels(store).operator()
        names = store.document_names()
        hashes = frozenset(every_reading_hash(store).values())
        languages = list(index.document_languages)
        return ShardTallies(generation, Tallies.of(index), languages, labels, names, hashes)

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
        generation: int | None = None,
        phrases: PhraseQuestion | None = None,
        depth: int = RETRIEVE_DEPTH,
    ) -> Finding | None:
        """This shard's part of Retriever.find for ``reading``, its words weighed by the
        whole store's ``statistics``, off the partition path (the driver takes it for the
        whole store: ``find_among``); what later calls need is kept under ``token``. With
        ``phrases`` (shards/entities.py ``question_phrases``), their facts here come with
        it. None when the statistics were read of it at another ``generation`` than its own
        now (shards/counts.py)."""
        if self._stale(generation):
            return None
        retriever = self._retriever
        index = retriever.words()
        facts = self._facts(phrases)
        if index.size == 0:
            return Finding([], [], [], frozenset(), {}, facts=facts)
        allowed = retriever.rows_in(scope)
        words: list[tuple[int, float]] = []  # (document id, its best line's score)
        meaning: list[tuple[int, float]] = []  # (document id, its closest profile's cosine)
        scored = index.scored(reading.searched, statistics)
        if allowed is not None:
            scored = within(scored, allowed)
        ranked = index.top(scored, depth)
        rows = retriever.store.lines_by_id([line_id for line_id, _ in ranked])
        words = word_documents_of(index, scored)[:FUSION_DEPTH]
        if retriever.encoder is not None:
            meaning = retriever.ranker.meaning_documents(reading.text)[:FUSION_DEPTH]
        return self._finding(
            token, index, reading, (ranked, rows, False), scored.dense(), words, meaning, facts
        )

    def find_among(
        self,
        token: str,
        reading: Reading,
        scope: Scope | None,
        statistics: Statistics,
        line_ids: np.ndarray,
        generation: int | None = None,
        depth: int = RETRIEVE_DEPTH,
    ) -> Finding | None:
        """This shard's part of the partition path of the whole store: ``line_ids`` are
        its lines the question's entities share (shards/entities.py). Kept under
        ``token`` in place of ``find``'s finding, which is put by (``restore``); an empty
        finding when none of them is in the scope. None when stale (as ``find``)."""
        if self._stale(generation):
            return None
        index = self._retriever.words()
        ranked, rows, speaks = self._among(reading, scope, statistics, line_ids, depth)
        before = self._found.get(token)
        finding = self._finding(token, index, reading, (ranked, rows, True), speaks=speaks)
        self._found[token].before = before
        return finding

    def restore(self, token: str) -> None:
        """Keep ``find``'s finding under ``token`` again, the partition path not taken."""
        kept = self._found.get(token)
        if kept is not None and kept.before is not None:
            self._found[token] = kept.before

    def entity_lines(
        self, phrases: Sequence[Phrase], generation: int | None = None
    ) -> Lines | None:
        """The lines here that mention each of ``phrases`` (entities of the whole store)
        and each pair's witnesses (Retriever.entity_lines); None when stale."""
        if self._stale(generation):
            return None
        return self._retriever.entity_lines(list(phrases))

    def ready(self, asked: PhraseQuestion | None) -> None:
        """Read now what the partition path reads of this shard at its first question:
        the lines ``asked`` leaves to other shards, and the lines of its copies."""
        if asked is not None:
            self._retriever.phrase_facts(asked)
            self._retriever.entity_lines([])

    def _facts(self, phrases: PhraseQuestion | None) -> CorpusFacts | None:
        return None if phrases is None else self._retriever.phrase_facts(phrases)

    def _finding(
        self,
        token: str,
        index: WordIndex,
        reading: Reading,
        chosen: tuple[list[tuple[int, float]], dict[int, StoredLine], bool],
        dense: np.ndarray | None = None,
        words: Sequence[tuple[int, float]] = (),
        meaning: Sequence[tuple[int, float]] = (),
        facts: CorpusFacts | None = None,
        speaks: bool = True,
    ) -> Finding:
        """The finding of the lines ``chosen`` (ranked, their rows, and whether on the
        partition path), kept under ``token`` with every row's score (``dense``, else the
        partition's lines' alone)."""
        ranked, rows, partition = chosen
        store = self._retriever.store
        if dense is None:
            dense = np.zeros(index.size, dtype=np.float32)
            dense[np.searchsorted(index.line_ids, [i for i, _ in ranked])] = [s for _, s in ranked]
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
        self._keep(token, _Kept(index, dense, stored, ids))
        return Finding(
            lines,
            by_words,
            by_meaning,
            covered_terms(index.vocabulary, reading),
            hashes,
            partitioned=partition,
            meaning=self._retriever.encoder is not None,
            facts=facts,
            speaks=speaks,
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
        phrases: PhraseQuestion | None = None,
    ) -> tuple[list[Evidence], CorpusFacts | None] | None:
        """This shard's ``k`` best lines, weighed by the whole store's ``statistics``, off
        the partition path (the driver takes it for the whole store), with the facts of
        ``phrases`` (as ``find``); None when stale (as ``find``)."""
        if self._stale(generation):
            return None
        lines = self._retriever.search(reading, k, scope, statistics, partitioned=False)
        return lines, self._facts(phrases)

    def search_among(
        self,
        reading: Reading,
        k: int,
        scope: Scope | None,
        statistics: Statistics,
        line_ids: np.ndarray,
        generation: int | None = None,
    ) -> tuple[list[Evidence], bool] | None:
        """The ``k`` best lines of this shard's part of the whole store's partition path
        (as ``find_among``), and whether any of its lines may be cited."""
        if self._stale(generation):
            return None
        ranked, rows, speaks = self._among(reading, scope, statistics, line_ids, k)
        return [as_evidence(rows[line_id], score) for line_id, score in ranked], speaks

    def _among(
        self,
        reading: Reading,
        scope: Scope | None,
        statistics: Statistics,
        line_ids: np.ndarray,
        depth: int,
    ) -> tuple[list[tuple[int, float]], dict[int, StoredLine], bool]:
        """The best ``depth`` of this shard's part of the partition (Retriever.
        partitioned_among): none, and none citable, when none of it is in the scope."""
        retriever = self._retriever
        index, allowed = retriever.words(), retriever.rows_in(scope)
        shared = retriever.partitioned_among(index, reading, line_ids, allowed, depth, statistics)
        return shared if shared is not None else ([], {}, False)

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
        self,
        terms: frozenset[str],
        speakers: set[str],
        language: str,
        scope: Scope | None,
        weights: dict[str, float],
    ) -> tuple[ToldOf | None, int]:
        """answer/told_of.py over this shard's turns, the words weighed by the whole
        store's ``weights``, with the number of its turns holding them."""
        analyzer = analyzer_for(language)
        idf = weights.__getitem__
        return told_of_counted(self._retriever, terms, speakers, analyzer, scope, idf)

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

    def names_held(self, naming: tuple[frozenset[str], frozenset[str]]) -> list[tuple[int, str]]:
        return names_held(self._retriever, naming)

    def title(self, document: str) -> str:
        return document_title(self._retriever, document)
