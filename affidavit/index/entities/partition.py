"""The partition path: a question naming two or more entities reads their shared lines only."""

from __future__ import annotations

import numpy as np

from affidavit.index.entities.graph import EntityGraph
from affidavit.index.words.scoring import WINDOW_GAIN
from affidavit.index.words.statistics import Statistics
from affidavit.index.words.word_index import WordIndex
from affidavit.text import Reading


def partition(
    graph: EntityGraph,
    index: WordIndex,
    question: Reading,
    implicit: frozenset[int] = frozenset(),
    statistics: Statistics | None = None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """(index rows, their word scores) of the lines shared by the question's entities,
    best first (ties by line id); None when it names fewer than two or they share none
    (the caller then scores the store).

    The entity graph's posting lists already say which lines mention each entity; their
    intersection is the part of the store such a question can be about (``shared``).
    Those lines and their neighbours are ranked by the question's words among themselves
    (``ranked_among``) and nothing else is scored.
    """
    line_ids = shared(graph, question, implicit)
    return None if line_ids is None else ranked_among(index, question, line_ids, statistics)


def shared(graph: EntityGraph, question: Reading, implicit: frozenset[int]) -> np.ndarray | None:
    """The ids of the lines the question's entities share, or None when it names fewer
    than two or they share none.

    Entities in ``implicit`` (those a document's name carries: every line of
    "Jacksonville,_Florida.txt" is about Jacksonville without saying so) do not
    partition, since their posting lists miss the lines that take them as read.
    """
    named = [
        entity for entity in graph.find(question.text, question.language) if entity not in implicit
    ]
    if len(named) < 2:
        return None
    # Rarest first; an entity that would empty the intersection is left out ("the King"
    # of a question about Rollo and France), as long as two still partition.
    named.sort(key=lambda entity: (len(graph.postings[entity]), entity))
    line_ids = graph.together(named[:2])
    for entity in named[2:]:
        narrower = np.intersect1d(line_ids, graph.postings[entity], assume_unique=True)
        if len(narrower):
            line_ids = narrower
    return line_ids if len(line_ids) else None


def ranked_among(
    index: WordIndex, question: Reading, line_ids: np.ndarray, statistics: Statistics | None
) -> tuple[np.ndarray, np.ndarray] | None:
    """(index rows, their word scores) of ``line_ids`` and their neighbours, best first
    (ties by line id); None when the index holds none of them. ``statistics``: the whole
    store's word counts, ``index`` being a shard's."""
    if not len(line_ids) or index.size == 0:
        return None
    rows = np.searchsorted(index.line_ids, line_ids)
    known = (rows < index.size) & (index.line_ids[np.minimum(rows, index.size - 1)] == line_ids)
    core = rows[known]
    if not len(core):
        return None
    # A line beside a shared line may be the one that answers ("He ordered Isaac to
    # release the prisoners" after the line naming Richard and Limassol): the partition
    # holds the shared lines and their neighbours in the same document, and a line also
    # earns WINDOW_GAIN of its best neighbour's score, as windows give it in the store.
    near = np.concatenate([core - 1, core, core + 1])
    near = near[(near >= 0) & (near < index.size)]
    near = np.unique(near)
    near = near[np.isin(index.line_documents[near], index.line_documents[core])]
    base = index.scores_among(question.terms, near, statistics)
    beside = np.zeros_like(base)
    for step in (-1, 1):
        at = np.searchsorted(near, near + step)
        inside = at < len(near)
        same = np.zeros(len(near), dtype=bool)
        same[inside] = (near[at[inside]] == near[inside] + step) & (
            index.line_documents[near[at[inside]]] == index.line_documents[near[inside]]
        )
        beside[same] = np.maximum(beside[same], base[at[same]])
    scores = base + WINDOW_GAIN * np.maximum(base, beside)
    order = np.lexsort((index.line_ids[near], -scores))
    return near[order], scores[order]
