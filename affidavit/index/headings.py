"""The headings a line stands under (its section's and its document's title), read from
the store once a generation: the support tier and the census read them for every line."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from affidavit.store import Store, StoredLine


class DocumentHeadings(NamedTuple):
    """A document's heading positions, in order, and the headings read whole so far."""

    starts: list[int]
    lines: dict[int, StoredLine]


def headings_above(starts: list[int], positions: list[int]) -> list[int]:
    """Of a document's heading positions ``starts``, those lines at ``positions`` stand
    under: the nearest above each, and the document's title (its first heading) when it
    is above one of them; each once, in order."""
    found: set[int] = set()
    for position in positions:
        above = bisect_left(starts, position)  # starts[:above] stand above it
        if above:
            found.update((starts[0], starts[above - 1]))
    return sorted(found)


class Headings:
    """A store's documents' heading positions, and the headings read whole so far, kept
    for one generation of the store (one look at the generation a call)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._known: tuple[int, dict[int, DocumentHeadings]] = (-1, {})

    def at(self, places: Sequence[tuple[int, int]]) -> list[list[StoredLine]]:
        """The headings each (document id, position) stands under (its section's, its
        document's title), in ``places`` order; each document's heading positions are read
        once a generation of the store, and only the headings some place stands under are
        read whole (a novel's hundred chapter titles are not, for one line of it)."""
        over: dict[int, list[int]] = {}
        for document_id, position in places:
            over.setdefault(document_id, []).append(position)
        headings = self.over(over)
        return [[headings[d][h] for h in headings_above(self.starts(d), [p])] for d, p in places]

    def starts(self, document_id: int) -> list[int]:
        """The positions of a document's headings (read by ``over`` or ``at`` first)."""
        return self._known[1][document_id].starts

    def over(self, positions: dict[int, list[int]]) -> dict[int, dict[int, StoredLine]]:
        """Each document's headings that lines at ``positions`` (by document id) stand
        under, by position: read from the store once a generation, the rest from memory."""
        known = self._of(positions)
        for document_id, at in positions.items():
            headings = known[document_id]
            wanted = headings_above(headings.starts, at)
            missing = [p for p in wanted if p not in headings.lines]
            for line in self._store.lines_at(document_id, missing):
                headings.lines[line.position] = line
        return {document_id: known[document_id].lines for document_id in positions}

    def _of(self, document_ids: Iterable[int]) -> dict[int, DocumentHeadings]:
        """Each document's heading positions (of at least ``document_ids``), read once a
        generation of the store (one look at the generation a call), with the headings
        read whole so far."""
        generation = self._store.generation()
        if self._known[0] != generation:
            self._known = (generation, {})
        known = self._known[1]
        unread = sorted({d for d in document_ids if d not in known})
        if unread:
            for document_id, starts in self._store.heading_positions(unread).items():
                known[document_id] = DocumentHeadings(starts, {})
        return known
