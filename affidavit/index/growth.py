"""Bringing the entity graph and the meaning index up to date with the store when it has
only gained documents: their lines alone are read, and the known ones are neither read nor
hashed again."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from affidavit.index.entities.graph import EntityGraph
from affidavit.index.meaning.build import build_meaning
from affidavit.index.meaning.encoder import Encoder
from affidavit.index.meaning.profiles import MeaningIndex
from affidavit.store.parts import document_keys
from affidavit.store.sqlite import Store

Versions = list[tuple[int, str, str, str]]


def current_graph(store: Store, previous: EntityGraph | None) -> EntityGraph:
    """The graph of the store's lines, from ``previous`` when there is one."""
    languages = {document_id: language for document_id, _, language in store.documents()}

    def lines_of(ids: list[int] | None = None) -> list[tuple[int, str, str]]:
        return [
            (line_id, text, languages[document_id])
            for line_id, document_id, _, _, text in store.line_rows(ids)
        ]

    versions = document_keys(store)
    keys = [key for *_, key in versions]
    if previous is not None and previous.kept is not None:
        added = _added(versions, previous.document_keys)
        if added is not None:
            fresh = lines_of(added)
            if _after(fresh, previous.line_ids):
                return previous.grown(fresh, keys, lines_of)
    if previous is None:
        # Read twice from the store (EntityGraph.read), never held whole, both times in
        # one snapshot: a write between them would give the corpus and the matches
        # different lines.
        with store.reading():
            graph = EntityGraph.read(
                lambda: (
                    (line_id, text, languages[document_id])
                    for line_id, document_id, _, _, text in store.each_line_row()
                )
            )
    else:
        graph = previous.updated(lines_of())
    graph.document_keys = keys
    return graph


def added_meaning(
    store: Store,
    encoder: Encoder,
    previous: MeaningIndex | None,
    progress: Callable[[int, int], None] | None,
) -> MeaningIndex | None:
    """The index of the documents added since ``previous`` (their lines alone read,
    encoded and profiled), to be joined after it, when that is all that changed; None
    otherwise (the caller reads every line)."""
    if previous is None:
        return None
    versions = document_keys(store)
    added = _added(versions, previous.document_keys)
    if added is None:
        return None
    fresh = store.line_rows(added)
    if not _after(fresh, previous.line_ids):
        return None
    piece = build_meaning(encoder, lambda: fresh, None, progress)
    piece.document_keys = [key for *_, key in versions[len(previous.document_keys) :]]
    return piece


def _added(versions: Versions, held: list[str]) -> list[int] | None:
    """The ids of the documents after the ``held`` versions, when the store still holds
    those first and unchanged; None otherwise.

    Which documents are new is told by their versions (store/parts.py: id, content hash
    and lines), which each index keeps beside itself. Anything else (a document replaced
    or removed, an index from an older version without its versions) is None: the caller
    takes the path that reads every line and compares it with what the index holds.
    """
    if not held or [key for *_, key in versions[: len(held)]] != held:
        return None
    return [doc_id for doc_id, *_ in versions[len(held) :]]


def _after(fresh: Sequence[tuple[Any, ...]], known: np.ndarray) -> bool:
    """Whether the new lines all come after every known one (line ids only grow)."""
    return not fresh or not len(known) or fresh[0][0] > int(known[-1])
