"""Bringing the entity graph and the meaning index up to date with the store when it has
only gained documents: their lines alone are read, and the known ones are neither read nor
hashed again."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from affidavit.index.copies import copied_among, copied_documents
from affidavit.index.entities.graph import EntityGraph
from affidavit.index.meaning.build import build_meaning
from affidavit.index.meaning.encoder import Encoder
from affidavit.index.meaning.profiles import MeaningIndex
from affidavit.store import Store, document_keys, version_keys


def current_graph(store: Store, previous: EntityGraph | None) -> EntityGraph:
    """The graph of the store's lines, from ``previous`` when there is one. Its entities
    are mined from each text once: a document that repeats an earlier one whole (the same
    reading hash) is matched, not mined (EntityGraph.read).

    Read in one snapshot, the documents' versions and their lines alike: a write between
    them (another process replacing a document) would give lines of documents the
    versions do not hold, or the corpus and the matches different lines."""
    with store.reading():
        read = _GraphLines(store)
        if previous is not None:
            graph = added_graph(store, previous, read)
            if graph is not None:
                return graph
        if previous is None:  # read twice (EntityGraph.read), never held whole
            graph = EntityGraph.read(lambda: read.each(False), lambda: read.each(True))
        else:
            graph = previous.updated(*read.with_mined())
    graph.document_keys = read.keys
    return graph


def added_graph(
    store: Store, previous: EntityGraph, read: _GraphLines | None = None
) -> EntityGraph | None:
    """``previous`` grown by the documents added to the store since it, when they are all
    that changed: their lines are matched against the entities it knows and added to its
    mining's counts, which judge again the phrases whose figures changed, and the lines
    that may name an entity found first are read (EntityGraph.grown), in time near their
    size. None otherwise: the caller reads every line. Read in one snapshot, as
    ``current_graph``."""
    with store.reading():
        read = read or _GraphLines(store)
        if previous.kept is None:
            return None
        added = _added(read.store, previous.document_keys)
        if added is None:
            return None
        fresh, mined = read.with_mined(added)
        if not _after(fresh, previous.line_ids):
            return None
        return previous.grown(fresh, read.keys, read.by_id, mined)


class _GraphLines:
    """The store's lines as the graph reads them ((line id, text, language)), all of them
    or those mined: not those of a document that repeats an earlier one whole."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.versions = document_keys(store)
        self.keys = version_keys(store)

    @functools.cached_property
    def languages(self) -> dict[int, str]:
        """Each document's language (read for the lines read: of every document once a
        line of an old one is read, else of the documents added alone)."""
        return {document_id: language for document_id, _, language, _ in self.versions}

    def _languages_of(self, ids: list[int] | None) -> dict[int, str]:
        if ids is None or "languages" in self.__dict__:
            return self.languages
        wanted = set(ids)
        tail = self.versions[len(self.versions) - len(ids) :]
        if {version[0] for version in tail} != wanted:
            return self.languages
        return {document_id: language for document_id, _, language, _ in tail}

    @functools.cached_property
    def copies(self) -> set[int]:
        """The documents that repeat an earlier one whole (not mined)."""
        return copied_documents(self.store, [doc_id for doc_id, *_ in self.versions])

    def lines(self, ids: list[int] | None = None) -> list[tuple[int, str, str]]:
        languages = self._languages_of(ids)
        return [
            (line_id, text, languages[document_id])
            for line_id, document_id, _, _, text in self.store.line_rows(ids)
        ]

    def by_id(self, ids: np.ndarray) -> list[tuple[int, str, str]]:
        """The lines with these ids, in id order."""
        found = self.store.lines_by_id(ids.tolist())
        languages = self.languages
        return [
            (line_id, line.text, languages[line.document_id])
            for line_id, line in sorted(found.items())
        ]

    def with_mined(
        self, ids: list[int] | None = None
    ) -> tuple[list[tuple[int, str, str]], list[tuple[int, str, str]] | None]:
        """As ``lines(ids)``, and those of them mined (None when they are all), read once."""
        # Of a few documents added, their copies are told apart in time in their number.
        copies = self.copies if ids is None else copied_among(self.store, ids)
        if not copies:
            return self.lines(ids), None
        lines: list[tuple[int, str, str]] = []
        mined: list[tuple[int, str, str]] = []
        languages = self._languages_of(ids)
        for line_id, document_id, _, _, text in self.store.line_rows(ids):
            row = (line_id, text, languages[document_id])
            lines.append(row)
            if document_id not in copies:
                mined.append(row)
        return lines, mined

    def each(self, mined: bool) -> Iterator[tuple[int, str, str]]:
        """As ``lines()`` (or the lines mined), one at a time, never in a list."""
        for line_id, document_id, _, _, text in self.store.each_line_row():
            if not (mined and document_id in self.copies):
                yield line_id, text, self.languages[document_id]


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
    added = _added(store, previous.document_keys)
    if added is None:
        return None
    fresh = store.line_rows(added)
    if not _after(fresh, previous.line_ids):
        return None
    piece = build_meaning(encoder, lambda: fresh, None, progress)
    piece.document_keys = version_keys(store)[len(previous.document_keys) :]
    return piece


def _added(store: Store, held: list[str]) -> list[int] | None:
    """The ids of the documents after the ``held`` versions, when the store still holds
    those first and unchanged; None otherwise.

    Which documents are new is told by their versions (store/index_parts.py: id, content hash
    and lines), which each index keeps beside itself. Anything else (a document replaced
    or removed, an index from an older version without its versions) is None: the caller
    takes the path that reads every line and compares it with what the index holds.
    """
    keys = version_keys(store)
    if not held or keys[: len(held)] != held:
        return None
    return [doc_id for doc_id, *_ in document_keys(store)[len(held) :]]


def _after(fresh: Sequence[tuple[Any, ...]], known: np.ndarray) -> bool:
    """Whether the new lines all come after every known one (line ids only grow)."""
    return not fresh or not len(known) or fresh[0][0] > int(known[-1])
