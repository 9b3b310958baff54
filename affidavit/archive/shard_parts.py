"""A shard's part in answering on the driver: what archive/sharded_archive.py asks of each shard
while the driver composes and gates one answer over them all. Every reply is plain data
(lines, counts, names) that a Ray worker can send back; what a second call needs of the
first (the scores a subset is drawn with) stays here, under the token the driver sent."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from affidavit.archive.census import Census, take_census
from affidavit.archive.document_naming import document_title, names_held
from affidavit.archive.shard_entities import Lines
from affidavit.archive.shard_findings import Finding, ShardTallies, Typed
from affidavit.archive.store_archive import WHOLE_LINES
from affidavit.archive.told_of import ToldOf, told_of_counted
from affidavit.gates import KeyWords
from affidavit.index import (
    FUSION_DEPTH,
    RETRIEVE_DEPTH,
    Candidate,
    CorpusFacts,
    Phrase,
    PhraseQuestion,
    Ranked,
    Retriever,
    Scope,
    Statistics,
    StoreLines,
    Tallies,
    as_evidence,
    covered_terms,
    every_reading_hash,
)
from affidavit.records import Labels
from affidavit.results import Evidence
from affidavit.store import CachedReply, StoredLine, StoredReplies
from affidavit.text import Reading, analyzer_for

# How many questions' findings a shard keeps for their subsets (a driver asks for them
# right after; more are kept only for drivers asking at once).
KEPT_FINDINGS = 16


@dataclass
class _Kept:
    """A finding's lines, as later calls read them (index/store_lines.py), and the store's
    finding put by for the partition path's."""

    lines: StoreLines
    before: _Kept | None = None


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
        """This shard's lines for ``reading`` as one store finds its own (Retriever.
        lines_for), its words weighed by the whole store's ``statistics``, off the
        partition path (the driver takes it for the whole store: ``find_among``); what
        later calls need is kept under ``token``. With ``phrases`` (archive/shard_entities.py
        ``question_phrases``), their facts here come with it. None when the statistics
        were read of it at another ``generation`` than its own now (archive/store_counts.py)."""
        if self._stale(generation):
            return None
        facts = self._facts(phrases)
        lines = self._retriever.lines_for(
            reading,
            depth=depth,
            partitioned=False,
            scope=scope,
            statistics=statistics,
            documents=True,
        )
        if lines is None:
            return Finding(Ranked([]), frozenset(), {}, facts=facts)
        return self._finding(token, reading, _Kept(lines), facts=facts)

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
        its lines the question's entities share (archive/shard_entities.py). Kept under
        ``token`` in place of ``find``'s finding, which is put by (``restore``); an empty
        finding when none of them is in the scope. None when stale (as ``find``)."""
        if self._stale(generation):
            return None
        lines, speaks = self._retriever.lines_among(
            reading, line_ids, scope=scope, statistics=statistics, depth=depth
        )
        kept = _Kept(lines, before=self._found.get(token))
        return self._finding(token, reading, kept, speaks=speaks)

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
        reading: Reading,
        kept: _Kept,
        facts: CorpusFacts | None = None,
        speaks: bool = True,
    ) -> Finding:
        """The finding of the lines ``kept``, which are kept under ``token``: their ranking
        (each document ranking cut to what the fusion reads), the question's terms this
        shard's vocabulary holds, and the reading hash of every document it names."""
        ranked = kept.lines.ranked()
        ranked = replace(ranked, by_meaning=ranked.by_meaning[:FUSION_DEPTH])
        named = {e.document for e, _ in ranked.lines}
        named |= {name for name, _ in [*ranked.by_words, *ranked.by_meaning]}
        hashes = kept.lines.reading_hashes(sorted(named))
        self._keep(token, kept)
        known = covered_terms(self._retriever.words().vocabulary, reading)
        return Finding(ranked, known, hashes, facts=facts, speaks=speaks)

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

    def late_texts(self, token: str, documents: Sequence[str]) -> list[list[str]]:
        """The texts late interaction reads of each of ``documents`` (found under
        ``token``), in their order."""
        return self._found[token].lines.late_texts(documents)

    def proposed(self, token: str, documents: Sequence[str]) -> list[list[Candidate]]:
        """The lines meaning proposes in each of ``documents`` (found under ``token``),
        each with what it may be."""
        return self._found[token].lines.proposed(documents)

    def subsets(
        self, token: str, blocks: Sequence[Sequence[Evidence]], typed: Typed | None
    ) -> list[list[Evidence]]:
        """The subsets of ``blocks`` (lines this shard found under ``token``), their lines
        graded as ``typed`` (None: not graded)."""
        kept = self._found.pop(token)
        return kept.lines.subsets(blocks, typed.grade() if typed is not None else None)

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
        """archive/told_of.py over this shard's turns, the words weighed by the whole
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
