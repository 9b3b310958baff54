"""A name the entity graph did not mine, read from the lines that write it: mining keeps
the phrases a store's text treats as names often enough to judge (mining.py), so "Acme
Corp" in three lines may be none of them, yet its lines still say what the store knows
of it. They are found through the word index and matched as the graph matches a mention;
the mined entities they name are its neighbours, weighed as the graph weighs an edge."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from affidavit.index.entities.graph import Edge, EntityGraph
from affidavit.index.entities.mining import llr
from affidavit.index.words.word_index import WordIndex
from affidavit.text import analyzer_for, segments

# A line of text and the language its document is read in: (line id, text, language).
Written = tuple[int, str, str]


def lines_writing(
    name: str, index: WordIndex, texts: Callable[[list[int]], dict[int, str]]
) -> list[Written]:
    """The lines of ``index`` that write ``name``: its words together, in its order, any
    case, never across punctuation (as the graph matches a mention), in store order.
    ``texts`` reads lines' texts by id. Only the lines holding every index term of the
    name are read; a name of stop words alone ("The Who") has no term to find it by."""
    found: dict[int, Written] = {}
    for language in sorted(set(index.document_languages)):
        rows = _rows_holding(analyzer_for(language).terms(name), index)
        if rows is None or not rows.size:
            continue
        rows = rows[np.asarray(index.document_languages)[index.line_documents[rows]] == language]
        wanted = _as_matched(name, language)
        ids = [int(i) for i in index.line_ids[rows]]
        for line_id, text in texts(ids).items():
            if line_id not in found and wanted in segments(text, language):
                found[line_id] = (line_id, text, language)
    return [found[line_id] for line_id in sorted(found)]


def neighbours_in(graph: EntityGraph, written: Sequence[Written]) -> list[Edge]:
    """The mined entities the lines ``written`` (those writing one name) mention, heaviest
    first (ties by entity number), each with the lines that witness it; weighed as the
    graph weighs an edge (Dunning's G² over the store's lines, ``EntityGraph.weight``),
    the name's lines standing for its posting list."""
    witnesses: dict[int, list[int]] = {}
    for line_id, text, language in written:
        for entity in graph.find(text, language):
            witnesses.setdefault(entity, []).append(line_id)
    edges = []
    for entity, ids in witnesses.items():
        both = len(ids)
        only_name = len(written) - both
        only_entity = max(len(graph.postings[entity]) - both, 0)
        neither = max(graph.lines - both - only_name - only_entity, 0)
        weight = llr(both, only_name, only_entity, neither)
        edges.append(Edge(entity, weight, np.asarray(ids, dtype=np.int64)))
    edges.sort(key=lambda e: (-e.weight, e.other))
    return edges


def _rows_holding(terms: Iterable[str], index: WordIndex) -> np.ndarray | None:
    """The index rows holding every one of ``terms`` (None for no terms)."""
    postings = index.line_counts
    held: np.ndarray | None = None
    for term in sorted(set(terms)):
        column = index.vocabulary.get(term)
        if column is None:
            return np.zeros(0, dtype=np.int64)
        rows = postings.indices[postings.indptr[column] : postings.indptr[column + 1]]
        held = rows if held is None else np.intersect1d(held, rows, assume_unique=True)
    return held


def _as_matched(name: str, language: str) -> str:
    """The name's words as ``segments`` writes a line's, padded: " acme corp "."""
    return " " + " ".join(segments(name, language).replace("|", " ").split()) + " "
