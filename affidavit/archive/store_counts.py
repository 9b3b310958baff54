"""The whole store's word counts, held by a sharded store's driver between questions.

Each shard's tallies (index/words/tallies.py) are read once, stamped with the shard's
generation, and summed. A question's terms are then weighed here, and each shard gets
the whole store's statistics with its one call to find lines.

That call carries the generation the driver read. A shard written since (by another
process) answers "stale" instead of lines. The driver then reads that shard's tallies
again and asks once more. The driver's own writes drop their shards' tallies as they
are made (``forget``).

Alongside its tallies, each shard reports its lines and its documents' languages. These
are the facts a question is read by before any line is found."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from affidavit.archive.shard_findings import ShardTallies
from affidavit.index import PhraseQuestion, Statistics, Tallies
from affidavit.text import segments

# The driver's call of some shards: {shard: (part name, args)} -> {shard: reply}.
Calls = Mapping[int, tuple[str, tuple[Any, ...]]]
Asking = Callable[[Calls], dict[int, Any]]

# How often a call is asked again of shards written while it was asked; after that the
# counts are asked with it, unstamped (a store written without pause between questions).
FRESH_TRIES = 3


class StoreCounts:
    """Every shard's tallies, summed (see the module's docstring)."""

    def __init__(self, ask: Asking, shards: int) -> None:
        self._ask = ask
        self._shards = range(shards)
        self._parts: dict[int, ShardTallies] = {}
        self._whole: Tallies | None = None
        self._name_words: frozenset[str] | None = None

    @property
    def shards(self) -> range:
        return self._shards

    def forget(self, shards: Iterable[int]) -> None:
        """Drop what is held of ``shards`` (written since): read again when next asked."""
        for at in shards:
            if self._parts.pop(at, None) is not None:
                self._whole = self._name_words = None

    def stamps(self) -> dict[int, int]:
        """The generation of each shard's tallies held (all read first)."""
        self._read()
        return {at: part.generation for at, part in self._parts.items()}

    def statistics(self, terms: Sequence[str]) -> Statistics:
        """The whole store's counts for ``terms``: from the tallies, or asked of every
        shard when a term's row is unsure."""
        counted = self._read().statistics(terms)
        if counted is not None:
            return counted
        parts = self._ask({at: ("statistics", (list(terms),)) for at in self._shards})
        return Statistics.summed([parts[at] for at in sorted(parts)])

    def whole(self) -> Tallies:
        """Every shard's tallies, summed (each shard's read once)."""
        return self._read()

    def holds(self, term: str) -> bool | None:
        """Does any shard's vocabulary hold ``term`` (None: unsure, ask them)."""
        return self._read().holds(term)

    def facts(self) -> tuple[int, Counter[str], int]:
        """The lines indexed, the documents' languages, and the documents, of every shard."""
        whole = self._read().totals
        languages = Counter(lang for part in self._parts.values() for lang in part.languages)
        return whole.lines, languages, whole.documents

    def name_words(self) -> frozenset[str]:
        """The words of every document's name (``name_words``), read once the shards'
        tallies."""
        self._read()
        if self._name_words is None:
            names = (name for at in self._shards for name in self._parts[at].names)
            self._name_words = name_words(names)
        return self._name_words

    def asked_of(self, phrases: PhraseQuestion | None) -> dict[int, PhraseQuestion | None]:
        """``phrases`` as each shard is asked to count them: without the documents an
        earlier shard holds a copy of (a text on several shards is counted on the first
        alone, as one store mines it once)."""
        if phrases is None:
            return dict.fromkeys(self._shards)
        self._read()
        seen: set[str] = set()
        asked: dict[int, PhraseQuestion | None] = {}
        for at in self._shards:
            held = self._parts[at].hashes
            asked[at] = replace(phrases, counted_elsewhere=frozenset(held & seen))
            seen |= held
        return asked

    def labels(self) -> dict[tuple[str, str], list[str]]:
        """The labels an operator told each shard's store, in shard order."""
        self._read()
        told: dict[tuple[str, str], list[str]] = {}
        for at in self._shards:
            for key, means in self._parts[at].labels.items():
                told.setdefault(key, []).extend(means)
        return told

    def _read(self) -> Tallies:
        missing = [at for at in self._shards if at not in self._parts]
        if missing:
            self._parts.update(self._ask({at: ("tallies", ()) for at in missing}))
            self._whole = self._name_words = None
        if self._whole is None:
            self._whole = Tallies.summed([self._parts[at].tallies for at in self._shards])
        return self._whole


def name_words(document_names: Iterable[str]) -> frozenset[str]:
    """The words the documents' names hold, as HeldGraph.implicit reads them."""
    return frozenset(segments(" ".join(document_names).replace("_", " ")).split())


class Fresh(NamedTuple):
    """Every shard's reply to a call, with what it was asked under: the whole store's
    counts and the generation of each shard's tallies (None: not checked)."""

    replies: dict[int, Any]
    statistics: Statistics
    stamps: dict[int, int | None]


def asked_fresh(
    counts: StoreCounts,
    terms: Sequence[str],
    ask: Asking,
    calls: Callable[[Statistics, dict[int, int | None]], Calls],
    forget: Callable[[list[int]], object] | None = None,
) -> Fresh:
    """Every shard's reply to ``calls(statistics, stamps)``: the whole store's counts
    for ``terms`` and the generation each shard's were read at. A shard written since
    replies None: its tallies are read again, ``forget`` is told the shards that did
    reply (their work is dropped), and all are asked again."""
    for _ in range(FRESH_TRIES):
        stamps: dict[int, int | None] = dict(counts.stamps())
        statistics = counts.statistics(terms)
        replies = ask(calls(statistics, stamps))
        stale = [at for at in sorted(replies) if replies[at] is None]
        if not stale:
            return Fresh(replies, statistics, stamps)
        counts.forget(stale)
        if forget is not None:
            forget([at for at in sorted(replies) if replies[at] is not None])
    parts = ask({at: ("statistics", (list(terms),)) for at in counts.shards})
    summed = Statistics.summed([parts[at] for at in sorted(parts)])
    unchecked: dict[int, int | None] = dict.fromkeys(counts.shards)
    return Fresh(ask(calls(summed, unchecked)), summed, unchecked)
