"""The lines of every shard for one question, as ``find`` reads them (index/finding.py):
the driver's half of a sharded question's retrieval.

Each shard finds its lines as one store does (archive/shard_parts.py, Retriever.lines_for), its
words weighed by the whole store's statistics, so a line's score is the one store's to the
bit and the best lines of all shards hold the whole store's best. Here their findings are
merged into the ranking one store holding them all would give: the lines by score, the
documents by their best line and by meaning; ``find`` then fuses, proposes, reorders and
keeps each copy once, as it does for one store, asking the shards that hold a document
for the texts it reads in it. A question naming two of the whole store's entities reads
only the lines they share, as one store's partition path does (archive/shard_entities.py judges
them on every shard's counts). Ties between shards break by document name and position
(one store's break by store id: they differ only between equal scores)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar

from affidavit.archive.shard_entities import STALE, question_phrases, shared_replies
from affidavit.archive.shard_findings import Finding
from affidavit.archive.store_counts import (
    FRESH_TRIES,
    Asking,
    Calls,
    Fresh,
    StoreCounts,
    asked_fresh,
)
from affidavit.index import (
    RETRIEVE_DEPTH,
    Candidate,
    Phrase,
    Ranked,
    Reranker,
    Scope,
    Statistics,
    Steps,
)
from affidavit.text import Reading

R = TypeVar("R")
T = TypeVar("T")


def driven(steps: Generator[R, Any, T], reply: Callable[[R], Any]) -> T:
    """What ``steps`` come to (a finding's, index/finding.py; a reading across languages',
    records/gloss.py), each of their requests answered by ``reply``. The steps are driven
    from this room, which asks the shards: the rooms below that wrote them never call up
    into it (a driver written in theirs would)."""
    answer: Any = None
    while True:
        try:
            request = steps.send(answer)
        except StopIteration as done:
            return done.value
        answer = reply(request)


class ShardLines:
    """Every shard's lines for one question (a LineSource), each shard's finding kept on
    it under ``token`` for the calls that follow; ``home`` learns the shard each document
    named lives on."""

    def __init__(
        self,
        ask: Asking,
        counts: StoreCounts,
        reranker: Reranker | None,
        token: str,
        reading: Reading,
        scope: Scope | None,
        *,
        partitioned: bool,
        home: dict[str, int],
    ) -> None:
        self._ask = ask
        self._counts = counts
        self._reranker = reranker
        self._token = token
        self._reading = reading
        self._scope = scope
        self._partitioned = partitioned
        self.home = home
        self._found: dict[int, Finding] | None = None
        self._ranked: Ranked | None = None

    @property
    def reranker(self) -> Reranker | None:
        return self._reranker

    def answer(self, steps: Steps[T]) -> T:
        """What ``steps`` (index/finding.py's ``finding_steps`` or ``fusing_steps``) find, each of
        their requests answered by this source's call of that name. The steps are driven
        from here, not from index/: a finding never calls up into the room that asks the
        shards."""
        return driven(steps, lambda request: getattr(self, request[0])(*request[1]))

    @property
    def shards(self) -> list[int]:
        """The shards that keep a finding under the token."""
        return sorted(self._findings())

    def ranked(self) -> Ranked:
        if self._ranked is None:
            found = self._findings()
            every = [line for at in sorted(found) for line in found[at].ranked.lines]
            every.sort(key=lambda pair: (-pair[0].score, pair[0].document, pair[0].position))
            self._ranked = Ranked(
                every[:RETRIEVE_DEPTH],
                _merged([found[at].ranked.by_words for at in sorted(found)]),
                _merged([found[at].ranked.by_meaning for at in sorted(found)]),
                partitioned=any(f.ranked.partitioned for f in found.values()),
                meaning=any(f.ranked.meaning for f in found.values()),
            )
        return self._ranked

    def coverage(self) -> float:
        """The share of the question's terms some shard's vocabulary holds."""
        terms = set(self._reading.terms)
        known = set().union(*(f.known for f in self._findings().values()))
        return len(terms & known) / len(terms) if terms else 1.0

    def late_texts(self, documents: Sequence[str]) -> list[list[str]]:
        read = self._of_documents("late_texts", documents)
        return [read[name] for name in documents]

    def reading_hashes(self, documents: Sequence[str]) -> dict[str, str]:
        hashes = {name: h for f in self._findings().values() for name, h in f.hashes.items()}
        return {name: hashes[name] for name in documents if name in hashes}

    def proposed(self, documents: Sequence[str]) -> list[list[Candidate]]:
        proposed = self._of_documents("proposed", documents)
        return [proposed[name] for name in documents]

    def with_kinds(self, lines: list[Candidate]) -> list[Candidate]:
        return lines  # no record is told to a sharded store, so none names a kind

    def _of_documents(self, call: str, documents: Sequence[str]) -> dict[str, list]:
        """``call`` asked of the shards that hold ``documents``, each of its own; the
        reply for each document, by name."""
        wanted: dict[int, list[str]] = {}
        for name in documents:
            wanted.setdefault(self.home[name], []).append(name)
        calls = {at: (call, (self._token, names)) for at, names in wanted.items()}
        replied: dict[str, list] = {}
        for at, replies in self._ask(calls).items():
            replied.update(zip(wanted[at], replies, strict=True))
        return replied

    def _findings(self) -> dict[int, Finding]:
        """Every shard's finding for the question under the whole store's word counts, kept
        on each under the token (on the whole store's partition path where it applies:
        ``_shared``); the shard of each document named is remembered."""
        if self._found is not None:
            return self._found
        token, reading, scope = self._token, self._reading, self._scope
        phrases = question_phrases(reading) if self._partitioned else None

        def calls(statistics: Statistics, stamps: dict[int, int | None]) -> Calls:
            counted = self._counts.asked_of(phrases)
            return {
                at: ("find", (token, reading, scope, statistics, stamps[at], counted[at]))
                for at in self._counts.shards
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
                shared = self._shared(phrases.candidates, fresh)
                if shared is None and attempt + 1 < FRESH_TRIES:
                    continue  # a shard was written meanwhile: asked again
                found = shared or found
            break
        for at in sorted(found):
            ranked = found[at].ranked
            named = [e.document for e, _ in ranked.lines]
            for name in named + [n for n, _ in [*ranked.by_words, *ranked.by_meaning]]:
                self.home.setdefault(name, at)
        self._found = found
        return found

    def _shared(self, candidates: frozenset[Phrase], fresh: Fresh) -> dict[int, Finding] | None:
        """The findings of the whole store's partition path (archive/shard_entities.py), where
        the question takes it, else ``fresh``'s; None when a shard was written since it was
        asked (its tallies are then read again, and each shard keeps ``fresh``'s finding)."""
        token, reading, scope = self._token, self._reading, self._scope
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
                for at in self._counts.shards
            },
        )
        if replies is None:
            return found
        # As one store's: the store is scored when no line of the partition may be cited.
        if not isinstance(replies, dict) or not any(f.speaks for f in replies.values()):
            self._ask({at: ("restore", (token,)) for at in self._counts.shards})
            return None if replies == STALE else found
        return replies


def _merged(rankings: Sequence[Sequence[tuple[str, float]]]) -> list[tuple[str, float]]:
    """Every shard's ranking of its documents as one: best first, ties by name."""
    return sorted((pair for ranking in rankings for pair in ranking), key=lambda p: (-p[1], p[0]))
