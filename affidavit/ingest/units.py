"""What readers and the layout step hand to the line splitter: typed units of a document."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class UnitKind(StrEnum):
    PROSE = "prose"
    HEADING = "heading"
    ROW = "row"
    # The date a document gives itself (a Markdown front matter's): the document's date
    # where the caller gives none; not a line.
    DATE = "date"


@dataclass(frozen=True, slots=True)
class Unit:
    """Prose (to be cut into sentences), a heading, or a table row. A row carries the table
    it belongs to, so no window can join two rows."""

    kind: UnitKind
    text: str
    # Column name -> cell value, in column order; only for rows of a table that names columns.
    cells: tuple[tuple[str, str], ...] | None = None
    # Table number within the document (rows of one table share it); None outside tables.
    table: int | None = None
    # How sure OCR was of the text (its lowest box score), for a unit read off a scanned
    # page; None for text the document itself holds.
    confidence: float | None = None
