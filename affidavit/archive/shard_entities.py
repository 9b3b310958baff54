"""A sharded store's entities, its driver's half: the entities a question names, judged
on the counts of its phrases summed over every shard's kept corpus (index/entities/
shard_phrases.py), and the lines the partition path reads on each shard, as one store's graph
gives them (index/entities/partition.py). Each shard mines its own graph, and those do
not hold the whole store's entities: a name written twice on one shard and once on
another is one store's entity and neither shard's."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from affidavit.archive.store_counts import Asking, Calls, StoreCounts
from affidavit.index import (
    MAX_WORDS,
    MIN_COUNT,
    CorpusFacts,
    Entity,
    EntityGraph,
    Phrase,
    PhraseQuestion,
    closed_word,
    counts_pass,
    keeps_company,
)
from affidavit.text import Reading, segments

# What a shard tells of the lines that mention a question's entities: each one's line
# ids, and each pair's witnesses (shard_phrases.py ``PhraseIndex.lines``).
Lines = tuple[list[np.ndarray], dict[tuple[int, int], np.ndarray]]


def question_phrases(question: Reading) -> PhraseQuestion:
    """The phrases of a question that may be entities (1 to MAX_WORDS words inside one of
    its segments, neither opening nor closing with a closed word: the candidates), and
    with them every part their splits weigh (all to count, sorted)."""
    candidates: set[Phrase] = set()
    wanted: set[Phrase] = set()
    for segment in segments(question.text, question.language).split("|"):
        words = segment.split()
        for n in range(1, MAX_WORDS + 1):
            for at in range(len(words) - n + 1):
                phrase = tuple(words[at : at + n])
                if closed_word(phrase[0]) or closed_word(phrase[-1]):
                    continue
                candidates.add(phrase)
                wanted.add(phrase)
                for k in range(1, n):
                    wanted.update((phrase[:k], phrase[k:]))
    return PhraseQuestion(sorted(wanted), frozenset(candidates))


def judged_entities(facts: CorpusFacts, candidates: frozenset[Phrase]) -> list[Entity]:
    """The candidates that are entities of the store the facts were summed over, most
    frequent first (ties by their words), as mining.py would number them."""
    entities = []
    for phrase in sorted(candidates):
        fact = facts.phrases.get(phrase)
        if fact is None or fact.count < MIN_COUNT:
            continue
        n = len(phrase)
        splits = [
            (max(facts.phrases[phrase[:k]].count, 1), max(facts.phrases[phrase[k:]].count, 1))
            for k in range(1, n)
        ]
        # mining.py's ``judged``, its two halves asked here in its order (the words around
        # last: most candidates fall before), so the mining rule calls nothing back up.
        # The words around in the order of the words (mining.py reads them in the order of
        # their ids): one order, whatever the shards.
        if counts_pass(n, fact.count, splits, facts.tokens, fact.written) and keeps_company(
            _in_order(fact.before), _in_order(fact.after)
        ):
            entities.append(Entity(phrase, " ".join(phrase), fact.count))
    entities.sort(key=lambda e: (-e.count, e.words))
    return entities


def named_entities(
    question: Reading, entities: Sequence[Entity], named_words: frozenset[str]
) -> list[int]:
    """The numbers (in ``entities``) of those the question names, outermost mentions
    only, in order of first mention, without those a document's name carries (their
    words all among ``named_words``: EntityGraph.find and HeldGraph.implicit, over these
    entities alone)."""
    if not entities:
        return []
    graph = EntityGraph(list(entities), [], {}, 0)
    return [
        number
        for number in graph.find(question.text, question.language)
        if not set(entities[number].words) <= named_words
    ]


def shared_lines(named: Sequence[int], lines: Mapping[int, Lines]) -> dict[int, np.ndarray] | None:
    """Each shard's lines shared by the ``named`` entities (numbers ascending as one
    store's; ``lines``: each shard's postings and witnesses of them, in that order), as
    partition.py ``shared`` draws them of one store's graph; None where it would be.

    A line lives on one shard: the whole store's posting list of an entity is the shards'
    lists together, and an intersection is empty when it is empty on every shard."""
    if len(named) < 2:
        return None
    size = {at: sum(len(held[0][at]) for held in lines.values()) for at in range(len(named))}
    order = sorted(range(len(named)), key=lambda at: (size[at], named[at]))
    first, second = sorted(order[:2])
    # Two entities share their edge's witnesses when the store holds any (graph.together).
    witnessed = any((first, second) in pairs for _, pairs in lines.values())
    shared: dict[int, np.ndarray] = {}
    for shard, (postings, pairs) in lines.items():
        if witnessed:
            shared[shard] = pairs.get((first, second), np.zeros(0, dtype=np.int64))
        else:
            shared[shard] = np.intersect1d(postings[first], postings[second], assume_unique=True)
    for at in order[2:]:
        narrower = {
            shard: np.intersect1d(shared[shard], lines[shard][0][at], assume_unique=True)
            for shard in shared
        }
        if any(len(ids) for ids in narrower.values()):
            shared = narrower
    return shared if any(len(ids) for ids in shared.values()) else None


def partition_lines(
    question: Reading,
    candidates: frozenset[Phrase],
    facts: Mapping[int, CorpusFacts | None],
    named_words: frozenset[str],
    lines_of: Callable[[list[Phrase]], Mapping[int, Lines] | None],
) -> dict[int, np.ndarray] | None:
    """Each shard's lines the question's entities share, judged on every shard's
    ``facts`` of its phrases summed (None: the question names fewer than two entities,
    or they share no line, or a shard's graph keeps no corpus to count); ``named_words``:
    those of the documents' names (counts.py ``name_words``). ``lines_of``
    asks every shard for the lines that mention the entities named (None: a shard was
    written since, and the partition is not drawn)."""
    if not facts or any(fact is None for fact in facts.values()):
        return None
    summed = CorpusFacts.summed([fact for _, fact in sorted(facts.items()) if fact is not None])
    entities = judged_entities(summed, candidates)
    named = named_entities(question, entities, named_words)
    if len(named) < 2:
        return None
    lines = lines_of([entities[number].words for number in named])
    return None if lines is None else shared_lines(named, lines)


# What ``shared_replies`` gives when a shard was written since it was asked.
STALE = "stale"


def shared_replies(
    ask: Asking,
    counts: StoreCounts,
    question: Reading,
    candidates: frozenset[Phrase],
    facts: Mapping[int, CorpusFacts | None],
    stamps: Mapping[int, int | None],
    among: Callable[[dict[int, np.ndarray]], Calls],
) -> dict[int, Any] | str | None:
    """Every shard's reply to ``among(lines)`` (each shard's lines the question's entities
    share), when the question takes the whole store's partition path; None when it does
    not; STALE when a shard was written since ``stamps`` (its tallies are forgotten, to be
    read again)."""
    stale: list[int] = []

    def lines_of(phrases: list[Phrase]) -> dict[int, Lines] | None:
        replies = ask({at: ("entity_lines", (phrases, stamps[at])) for at in counts.shards})
        stale.extend(at for at in sorted(replies) if replies[at] is None)
        return None if stale else replies

    lines = partition_lines(question, candidates, facts, counts.name_words(), lines_of)
    replies = ask(among(lines)) if lines is not None else None
    if replies is not None:
        stale.extend(at for at in sorted(replies) if replies[at] is None)
    if stale:
        counts.forget(sorted(set(stale)))
        return STALE
    return replies


def _in_order(counts: Mapping[str, int]) -> list[int]:
    return [counts[word] for word in sorted(counts)]
