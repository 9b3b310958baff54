"""A sharded store's archive: ask() and verify() run once, on the driver, over every
shard's lines.

Each shard finds its own lines for the question as one store does, under the whole
store's word statistics (archive/shard_parts.py); the driver merges them (archive/
shard_lines.py) and reads them as one store reads its own (index/finding.py ``find``),
draws the one evidence block from the merged top, and has each shard that holds a
document of the block draw that document's subset. The engine proposes and the gate
judges once, over the whole store's evidence, as in one store: no shard answers alone.

The other reads of the store, and how exactly each equals one store's:

- **term weights** from the lines of every shard counted together: exact;
- **the partition path**, the question's entities judged on its phrases' counts summed
  over the shards (archive/shard_entities.py): exact;
- **the naming** of a document, its title read on its shard: exact;
- **the cross-language reading** over the merged evidence, every shard's vocabulary and
  labels: exact;
- **the census** summed, each shard counting its own documents by the same keys (a copy
  on another shard is counted there, as itself);
- **told_of**, the best turn of every shard's, its words weighed by the whole store's
  counts, read when the whole store holds few enough such turns: exact but for ties;
  **the last organ**, every shard's dated lines when the store is small enough, merged
  by day (equal days in shard order, where one store orders them by store id);
- **currency** reads told records, which a sharded store does not hold."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from affidavit.archive.census import Census
from affidavit.archive.currency import Stale
from affidavit.archive.document_naming import DocumentNaming, the_one_named
from affidavit.archive.line_frames import kept_frames
from affidavit.archive.nearby_tables import ROW_REACH, ROWS_READ
from affidavit.archive.shard_entities import question_phrases, shared_replies
from affidavit.archive.shard_findings import Typed
from affidavit.archive.shard_lines import ShardLines, driven
from affidavit.archive.store_archive import WHOLE_LINES, Naming, Passed
from affidavit.archive.store_counts import Asking, Calls, Fresh, StoreCounts, asked_fresh
from affidavit.archive.told_of import LINES_READ, ToldOf
from affidavit.frames import Frame
from affidavit.gates import KeyWords
from affidavit.index import (
    DocumentHit,
    Phrase,
    Reranker,
    Retrieved,
    Scope,
    Statistics,
    SummedVocabulary,
    SummedWeights,
    by_document,
    evidence_block,
    finding_steps,
    fusing_steps,
    line_idf,
)
from affidavit.question import Question
from affidavit.records import EVIDENCE_LINES, Gloss, ToldLabels, reading_across
from affidavit.results import Evidence, LineKind
from affidavit.text import Analyzer, Reading, analyzer_for, detect_language, read_for_search

_tokens = itertools.count()


class ShardedArchive:
    """The documents of every shard, for one question (see the module's docstring)."""

    def __init__(
        self, ask: Asking, shards: int, counts: StoreCounts, reranker: Reranker | None
    ) -> None:
        self._ask = ask
        self._shards = range(shards)
        self._counts = counts
        self._weights: dict[str, float] = {}
        self._reranker = reranker
        self._home: dict[str, int] = {}  # the shard each document found lives on
        self._held: dict[str, bool] = {}

    def _every(self, name: str, *args: Any, only: Sequence[int] | None = None) -> dict[int, Any]:
        chosen = self._shards if only is None else sorted(set(only))
        return self._ask({at: (name, args) for at in chosen})

    @functools.cached_property
    def _facts(self) -> tuple[int, Counter[str], int]:
        """The lines indexed, the documents' languages and the documents, of every shard
        (as the driver's tallies hold them: archive/store_counts.py)."""
        return self._counts.facts()

    @property
    def size(self) -> int:
        return self._facts[0]

    @property
    def main_language(self) -> str:
        languages = self._facts[1]
        if not languages:
            return "en"
        return max(sorted(languages), key=languages.__getitem__)

    @property
    def term_weight(self) -> Callable[[str], float]:
        # Read from the summed tallies by an index-room value: the judges call no code of
        # this room to weigh a word (tests/package/test_call_path.py).
        return SummedWeights(self._counts.whole(), self._weights, self.weigh)

    def weigh(self, terms: Sequence[str]) -> None:
        """Learn the weight of each of ``terms`` in one call of every shard."""
        wanted = sorted({t for t in terms if t not in self._weights})
        if not wanted:
            return
        counted = self._counts.statistics(wanted)
        for term in wanted:
            self._weights[term] = line_idf(counted.lines, counted.line_frequency.get(term, 0))

    def across_languages(self, text: str, language: str, scope: Scope | None) -> Gloss | None:
        # The reading's steps are driven here (records/gloss.py's reading_across): the
        # lines each asks for are every shard's, found by this room, so the reading calls
        # nothing back up; the vocabulary and the labels are read from the summed tallies.
        vocabulary = SummedVocabulary(self._counts.whole(), self._held, self._learn_held)
        labels = ToldLabels(self._counts.labels())
        steps = reading_across(text, language, self.main_language, vocabulary, labels)
        return driven(steps, lambda asked: self._evidence(asked, scope))

    def _evidence(self, asked: str, scope: Scope | None) -> list[str]:
        """The best EVIDENCE_LINES lines ``asked`` finds in every shard (within ``scope``)."""
        token = f"{id(self)}-{next(_tokens)}"
        reading = self._read(asked)
        lines = self._lines(token, reading, scope, partitioned=True)
        found = lines.answer(finding_steps(reading.text, lines.reranker, scope=scope))
        self._forget(token, lines.shards)
        return [hit.text for hit in found.hits[:EVIDENCE_LINES]]

    def holds(self, term: str) -> bool:
        """Does any shard's vocabulary hold ``term``?"""
        return term in SummedVocabulary(self._counts.whole(), self._held, self._learn_held)

    def _learn_held(self, term: str) -> bool:
        """Does any shard's vocabulary hold ``term``, asked of the shards themselves."""
        return any(self._every("held_terms", [term]).values())

    def naming(self, asked: Question | None, analyzer: Analyzer) -> Naming:
        return _ShardedNaming(self, asked, analyzer)

    def named(self, naming: tuple[frozenset[str], frozenset[str]]) -> str | None:
        if self._facts[2] < 2 or not any(naming):
            return None  # one document, or no words to name one by: nothing to ask
        held = self._every("names_held", naming)
        return the_one_named([found for at in sorted(held) for found in held[at]])

    def title(self, document: str) -> str:
        at = self._home.get(document)
        replies = self._every("title", document, only=None if at is None else [at])
        return next((t for _, t in sorted(replies.items()) if t), "")

    def retrieve(
        self,
        query: str | Reading,
        *,
        asked: Question | None,
        scope: Scope | None,
        partitioned: bool = True,
    ) -> Retrieved:
        token = f"{id(self)}-{next(_tokens)}"
        grade = asked.holds_answer if asked is not None else None
        reading = self._read(query)
        lines = self._lines(token, reading, scope, partitioned=partitioned)
        found = lines.answer(
            finding_steps(reading.text, lines.reranker, scope=scope, holds_answer=grade)
        )
        blocks = by_document(evidence_block(found.hits), found.fused)
        wanted: dict[int, list[str]] = {}
        for name in blocks:
            wanted.setdefault(self._home[name], []).append(name)
        typed = Typed(asked.shape.answer_type, asked.text) if asked is not None else None
        # One round: the shards holding the block draw their subsets, the others forget.
        calls: dict[int, tuple[str, tuple[Any, ...]]] = {
            at: ("forget", (token,)) for at in lines.shards if at not in wanted
        }
        for at, names in wanted.items():
            calls[at] = ("subsets", (token, [blocks[n] for n in names], typed))
        drawn: dict[str, list[Evidence]] = {}
        replies = self._ask(calls)
        for at, names in wanted.items():
            drawn.update(zip(names, replies[at], strict=True))
        subsets = [drawn[name] for name in blocks]
        analyzer = asked.analyzer if asked is not None else analyzer_for(self.main_language)
        self.weigh(_terms_of([*found.hits, *(e for s in subsets for e in s)], analyzer))
        return Retrieved(found.hits, subsets, found.withheld, found.copies, found.ordering)

    def search(self, query: str, k: int, scope: Scope | None) -> list[Evidence]:
        """The ``k`` best lines of every shard, each weighed by the whole store's counts,
        merged by score (ties by document and place); on the whole store's partition path
        where it applies (archive/shard_entities.py)."""
        reading = self._read(query)
        phrases = question_phrases(reading)

        def calls(statistics: Statistics, stamps: dict[int, int | None]) -> Calls:
            counted = self._counts.asked_of(phrases)
            return {
                at: ("search", (reading, k, scope, statistics, stamps[at], counted[at]))
                for at in self._shards
            }

        fresh = asked_fresh(self._counts, reading.searched, self._ask, calls)
        lines = {at: reply[0] for at, reply in fresh.replies.items()}
        among = self._searched_among(reading, k, scope, phrases.candidates, fresh)
        if among is not None:
            lines = among
        every = [line for at in sorted(lines) for line in lines[at]]
        every.sort(key=lambda line: (-line.score, line.document, line.position))
        return every[:k]

    def _searched_among(
        self,
        reading: Reading,
        k: int,
        scope: Scope | None,
        candidates: frozenset[Phrase],
        fresh: Fresh,
    ) -> dict[int, list[Evidence]] | None:
        """Each shard's best lines of the whole store's partition path, or None when the
        question does not take it (or a shard was written meanwhile: it is read again
        at the next question)."""
        statistics, stamps = fresh.statistics, fresh.stamps
        replies = shared_replies(
            self._ask,
            self._counts,
            reading,
            candidates,
            {at: reply[1] for at, reply in sorted(fresh.replies.items())},
            stamps,
            lambda lines: {
                at: ("search_among", (reading, k, scope, statistics, lines[at], stamps[at]))
                for at in self._shards
            },
        )
        if not isinstance(replies, dict) or not any(speaks for _, speaks in replies.values()):
            return None  # as one store: no line of the partition may be cited
        return {at: lines for at, (lines, _) in replies.items()}

    def documents(self, query: str, k: int) -> list[DocumentHit]:
        """The ``k`` documents ranked best for ``query`` (Memory.search_documents)."""
        token = f"{id(self)}-{next(_tokens)}"
        reading = self._read(query)
        lines = self._lines(token, reading, None, partitioned=False)
        ranked = lines.answer(
            fusing_steps(reading.text, lines.ranked(), lines.coverage(), lines.reranker)
        )
        self._forget(token, list(self._shards))
        return ranked[:k]

    def _lines(
        self, token: str, reading: Reading, scope: Scope | None, *, partitioned: bool
    ) -> ShardLines:
        """Every shard's lines for ``reading``, each shard's finding kept under ``token``
        (archive/shard_lines.py)."""
        return ShardLines(
            self._ask,
            self._counts,
            self._reranker,
            token,
            reading,
            scope,
            partitioned=partitioned,
            home=self._home,
        )

    def _read(self, query: str | Reading) -> Reading:
        """``query`` as the whole store reads it (a shard's own language may differ)."""
        if isinstance(query, Reading):
            return query
        shown = detect_language(query, default="")
        if shown:
            return read_for_search(query, language=shown)
        return read_for_search(query, default=self.main_language)

    def _forget(self, token: str, shards: Sequence[int]) -> None:
        if shards:
            self._every("forget", token, only=shards)

    def frames_of(self, texts: Sequence[str]) -> list[tuple[Frame, ...]]:
        # NOTE: a sharded store keeps no frames: its lines are read on the driver, whose
        # parse cache (frames/parse.py) holds the lines read in this process.
        return kept_frames(None, texts)

    def tables_around(self, hits: list[Evidence]) -> list[Evidence]:
        rows = [e for e in hits if e.kind == LineKind.ROW][:ROWS_READ]
        by_shard: dict[int, list[Evidence]] = {}
        for row in rows:
            by_shard.setdefault(self._home[row.document], []).append(row)
        calls = {at: ("around", (lines, ROW_REACH)) for at, lines in by_shard.items()}
        return [line for _, lines in sorted(self._ask(calls).items()) for line in lines]

    def census(self, keys: KeyWords, analyzer: Analyzer, scope: Scope | None) -> Census:
        counted: dict[str, int] = {}
        complete = True
        for census in self._every("census", keys, analyzer.language, scope).values():
            counted.update(census.documents)
            complete = complete and census.complete
        ordered = dict(sorted(counted.items(), key=lambda item: (-item[1], item[0])))
        return Census(ordered, keys.rarest_word, complete)

    def told_of(
        self,
        terms: frozenset[str],
        speakers: set[str],
        analyzer: Analyzer,
        scope: Scope | None,
    ) -> ToldOf | None:
        # Each shard weighs the words by the whole store's counts, and the turns holding
        # them are read only when the whole store holds few enough, as in one store.
        self.weigh(sorted(terms))
        weights = {term: self._weights[term] for term in terms}
        replies = self._every("told_of", terms, speakers, analyzer.language, scope, weights)
        if sum(held for _, held in replies.values()) > LINES_READ:
            return None
        told = [t for _, (t, _) in sorted(replies.items()) if t is not None]
        if not told:
            return None
        rival = max(told, key=lambda t: t.rival_share)  # max keeps the first among equals
        return ToldOf(
            speaker=told[0].speaker,
            share=max(t.share for t in told),
            rival=rival.rival,
            rival_share=rival.rival_share,
            rival_line=rival.rival_line,
        )

    def whole_telling(self, scope: Scope | None) -> list[Evidence] | None:
        if self.size == 0 or self.size > WHOLE_LINES:
            return None
        told = self._every("telling", scope)
        if any(t is None or not t[1] for t in told.values()):
            return None
        lines = [line for at in sorted(told) for line in told[at][0]]
        lines.sort(key=lambda line: line.date or "")  # stable: each shard's order kept
        return lines or None

    def current_first(
        self, passed: list[Passed], analyzer: Analyzer
    ) -> tuple[list[Passed], list[Stale]]:
        return passed, []  # no records are told to a sharded store


class _ShardedNaming(DocumentNaming):
    """DocumentNaming whose two reads of the store are asked of the shards."""

    def __init__(self, archive: ShardedArchive, asked: Question | None, analyzer: Analyzer) -> None:
        self._archive = archive
        self._question = asked
        self._terms = asked.key_terms if asked is not None else frozenset()
        self._analyzer = analyzer
        self._asked = {}

    def _named(self) -> str | None:
        if self._question is None:
            return None
        return self._archive.named(self._question.naming)

    def _title(self, document: str) -> str:
        return self._archive.title(document)


def _terms_of(lines: Sequence[Evidence], analyzer: Analyzer) -> list[str]:
    return [term for line in lines for term in analyzer.terms(line.text)]
