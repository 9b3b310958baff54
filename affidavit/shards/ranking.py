"""The driver's half of a sharded question's retrieval: every shard's finding (shards/
parts.py) merged into the lines one store would find, in one store's order.

Each shard scores its lines with the whole store's word statistics, so a line's score is
the one store's to the bit, and the best lines of all shards hold the whole store's best.
The documents are ranked as DocumentRanker ranks them (index/documents.py), from every
shard's rankings by words and by meaning merged: fused by reciprocal rank, the best
reordered late by the texts each shard reads of them, and meaning's proposed lines asked
of the shards that hold those documents. Then the lines are read as Retriever.find reads
them: withheld below the speaking threshold, reordered late, graded by the kind of answer
wanted, each copied line kept once. A question naming two of the whole store's entities
reads only the lines they share, as one store's partition path does (shards/entities.py
judges them on every shard's counts). Ties between shards break by document name and
position (one store's break by store id: they differ only between equal scores)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from affidavit.index.copies import Place, distinct
from affidavit.index.documents import (
    FUSION_DEPTH,
    MEANING_DOCUMENTS,
    MEANING_FLOOR,
    WORDS_SUFFICE,
    DocumentHit,
)
from affidavit.index.entities.phrases import Phrase
from affidavit.index.fusion import rrf
from affidavit.index.meaning.late import LATE_DEPTH, Reranker, late_lines, late_order
from affidavit.index.retrieval import RETRIEVE_DEPTH
from affidavit.index.scope import Scope
from affidavit.index.words.statistics import Statistics
from affidavit.results import Evidence
from affidavit.shards.counts import FRESH_TRIES, Asking, Calls, Fresh, StoreCounts, asked_fresh
from affidavit.shards.entities import STALE, question_phrases, shared_replies
from affidavit.shards.findings import CITED, WITHHELD, Finding
from affidavit.text.reading import Reading


@dataclass(frozen=True, slots=True)
class Merged:
    """A question's lines found across the shards, as Retriever.find finds one store's."""

    hits: list[Evidence]
    copies: dict[Place, list[Evidence]]
    withheld: int
    ordering: int
    documents: list[DocumentHit]  # the documents ranked (none on the partition path)
    shards: dict[int, Finding]  # each shard's finding


class Ranking:
    """One question's retrieval over the shards (see the module's docstring)."""

    def __init__(
        self, ask: Asking, shards: int, counts: StoreCounts, reranker: Reranker | None
    ) -> None:
        self._ask = ask
        self._shards = range(shards)
        self._counts = counts
        self._reranker = reranker
        self.home: dict[str, int] = {}  # the shard each document named lives on

    def found(
        self,
        token: str,
        reading: Reading,
        scope: Scope | None,
        grade: Callable[[str], int] | None,
        partitioned: bool,
    ) -> Merged:
        """The lines ``reading`` finds, each shard's finding kept under ``token``; those
        ``grade`` ranks best first; on the partition path where it applies."""
        found = self._find(token, reading, scope, partitioned)
        every = [line for at in sorted(found) for line in found[at].lines]
        every.sort(key=lambda pair: (-pair[0].score, pair[0].document, pair[0].position))
        ranked = every[:RETRIEVE_DEPTH]
        covered = _coverage(reading, found)
        documents: list[DocumentHit] = []
        meaning = any(f.meaning for f in found.values())
        if meaning and not any(f.partitioned for f in found.values()):
            documents = self._documents(token, reading, found, covered, scope)
        if documents:
            ranked += self._proposed(token, reading, ranked, documents)
        hits = [line for line, may in ranked if may == CITED]
        withheld = sum(may == WITHHELD for _, may in ranked)
        ordering = len(ranked) - len(hits) - withheld
        if self._reranker is not None and len(hits) > 1:
            hits = late_lines(
                self._reranker, reading.text, hits, follow_words=covered >= WORDS_SUFFICE
            )
        if grade is not None:
            hits.sort(key=lambda hit: grade(hit.text))  # stable: order kept
        hashes = {name: h for f in found.values() for name, h in f.hashes.items()}
        held = Counter(hashes[name] for name in {h.document for h in hits} if name in hashes)
        twins = {
            name: hashes[name]
            for name in {h.document for h in hits}
            if name in hashes and held[hashes[name]] > 1
        }
        hits, copies = distinct(hits, twins)
        return Merged(hits, copies, withheld, ordering, documents, found)

    def documents(self, token: str, reading: Reading) -> list[DocumentHit]:
        """The documents ranked for ``reading``, as DocumentRanker.fused_documents ranks a
        store's (every shard's finding forgotten after)."""
        found = self._find(token, reading, None, False)
        documents = self._documents(token, reading, found, _coverage(reading, found), None)
        self._ask({at: ("forget", (token,)) for at in self._shards})
        return documents

    def _find(
        self, token: str, reading: Reading, scope: Scope | None, partitioned: bool
    ) -> dict[int, Finding]:
        """Every shard's finding for ``reading`` under the whole store's word counts, kept
        on each under ``token`` (on the whole store's partition path where it applies:
        ``_shared``); the shard of each document named is remembered."""
        phrases = question_phrases(reading) if partitioned else None

        def calls(statistics: Statistics, stamps: dict[int, int | None]) -> Calls:
            counted = self._counts.asked_of(phrases)
            return {
                at: ("find", (token, reading, scope, statistics, stamps[at], counted[at]))
                for at in self._shards
            }

        for attempt in range(FRESH_TRIES):
            fresh = asked_fresh(
                self._counts,
                reading.searched,
                self._ask,
                calls,
                lambda shards: self._ask({at: ("forget", (token,)) for at in shards}),
            )
            found: dict[int, Finding] = fresh.replies
            if phrases is not None:
                shared = self._shared(token, reading, scope, phrases.candidates, fresh)
                if shared is None and attempt + 1 < FRESH_TRIES:
                    continue  # a shard was written meanwhile: asked again
                found = shared or found
            break
        for at in sorted(found):
            finding = found[at]
            for name in [e.document for e, _ in finding.lines] + [
                n for n, _ in [*finding.by_words, *finding.by_meaning]
            ]:
                self.home.setdefault(name, at)
        return found

    def _shared(
        self,
        token: str,
        reading: Reading,
        scope: Scope | None,
        candidates: frozenset[Phrase],
        fresh: Fresh,
    ) -> dict[int, Finding] | None:
        """The findings of the whole store's partition path (shards/entities.py), where
        the question takes it, else ``fresh``'s; None when a shard was written since it was
        asked (its tallies are then read again, and each shard keeps ``fresh``'s finding)."""
        found: dict[int, Finding] = fresh.replies
        statistics, stamps = fresh.statistics, fresh.stamps
        replies = shared_replies(
            self._ask,
            self._counts,
            reading,
            candidates,
            {at: found[at].facts for at in sorted(found)},
            stamps,
            lambda lines: {
                at: ("find_among", (token, reading, scope, statistics, lines[at], stamps[at]))
                for at in self._shards
            },
        )
        if replies is None:
            return found
        # As one store's: the store is scored when no line of the partition may be cited.
        if not isinstance(replies, dict) or not any(f.speaks for f in replies.values()):
            self._ask({at: ("restore", (token,)) for at in self._shards})
            return None if replies == STALE else found
        return replies

    def _documents(
        self,
        token: str,
        reading: Reading,
        found: Mapping[int, Finding],
        covered: float,
        scope: Scope | None,
    ) -> list[DocumentHit]:
        """The documents ranked as DocumentRanker.fused_documents ranks one store's."""
        by_words = sorted(
            (pair for at in sorted(found) for pair in found[at].by_words),
            key=lambda pair: (-pair[1], pair[0]),
        )
        by_meaning = sorted(
            (pair for at in sorted(found) for pair in found[at].by_meaning),
            key=lambda pair: (-pair[1], pair[0]),
        )
        words_order = [name for name, _ in by_words[:FUSION_DEPTH]]
        words_rank = {name: r for r, name in enumerate(words_order, start=1)}
        closeness = dict(by_meaning)
        meaning_order = [name for name, _ in by_meaning[:FUSION_DEPTH]]
        meaning_rank = {name: r for r, name in enumerate(meaning_order, start=1)}
        known = covered >= WORDS_SUFFICE and bool(words_order)
        if known or not meaning_rank:
            fused = rrf([words_order])
        else:
            fused = rrf([words_order, meaning_order])
        if self._reranker is not None and len(fused) > 1:
            fused = self._late(token, reading.text, fused, found, known)
        ranked = [
            DocumentHit(
                name, score, words_rank.get(name), meaning_rank.get(name), closeness.get(name)
            )
            for name, score in fused
        ]
        return [hit for hit in ranked if scope is None or scope.keeps(hit.document)]

    def _late(
        self,
        token: str,
        query: str,
        fused: list[tuple[str, float]],
        found: Mapping[int, Finding],
        known: bool,
    ) -> list[tuple[str, float]]:
        """``fused`` with its head reordered by late interaction over each document's
        lines to read (a copy, by reading hash, scoring as its original)."""
        assert self._reranker is not None
        top = [name for name, _ in fused[:LATE_DEPTH]]
        hashes = {name: h for f in found.values() for name, h in f.hashes.items()}
        first: dict[str, str] = {}
        same = {name: first.setdefault(hashes.get(name, name), name) for name in top}
        late = dict.fromkeys(top, 0.0)
        originals = [name for name in top if same[name] == name]
        if len(originals) > 1:
            wanted: dict[int, list[str]] = {}
            for name in originals:
                wanted.setdefault(self.home[name], []).append(name)
            calls = {at: ("late_texts", (token, names, query)) for at, names in wanted.items()}
            read: dict[str, list[str]] = {}
            for at, texts in self._ask(calls).items():
                read.update(zip(wanted[at], texts, strict=True))
            every = [text for name in originals for text in read[name]]
            scores = np.asarray(self._reranker.scores(query, every))
            start = 0
            for name in originals:
                mine = scores[start : start + len(read[name])]
                late[name] = float(np.max(mine)) if len(mine) else 0.0
                start += len(read[name])
            late.update({name: late[same[name]] for name in top if same[name] != name})
        return late_order(fused, late, follow_words=known)

    def _proposed(
        self,
        token: str,
        reading: Reading,
        ranked: Sequence[tuple[Evidence, int]],
        documents: Sequence[DocumentHit],
    ) -> list[tuple[Evidence, int]]:
        """The lines meaning proposes in the best documents no ranked line is of."""
        reached = {line.document for line, _ in ranked}
        chosen = [
            hit.document
            for hit in documents[:MEANING_DOCUMENTS]
            if hit.document not in reached and (hit.closeness or 0.0) >= MEANING_FLOOR
        ]
        wanted: dict[int, list[str]] = {}
        for name in chosen:
            wanted.setdefault(self.home[name], []).append(name)
        calls = {at: ("proposed", (token, names, reading.text)) for at, names in wanted.items()}
        proposed: dict[str, list[tuple[Evidence, int]]] = {}
        for at, lines in self._ask(calls).items():
            proposed.update(zip(wanted[at], lines, strict=True))
        return [line for name in chosen for line in proposed[name]]


def _coverage(reading: Reading, found: Mapping[int, Finding]) -> float:
    """The share of ``reading``'s terms some shard's vocabulary holds (as
    DocumentRanker.coverage reads one store's; 1.0 for none asked)."""
    terms = set(reading.terms)
    known = set().union(*(f.known for f in found.values()))
    return len(terms & known) / len(terms) if terms else 1.0
