"""A document's lines on their way into the store (built before any write) and as read
back out of it (StoredLine).

Everything that can fail (reading, decoding, table rules, sentence splitting) happens
while building one of these, so a write either stores a whole document or nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class PreparedLine:
    position: int
    kind: str
    text: str
    cells: tuple[tuple[str, str], ...] | None = None
    table: int | None = None
    speaker: str | None = None
    date: str | None = None


@dataclass(frozen=True, slots=True)
class PreparedDocument:
    name: str
    content_hash: str
    language: str
    lines: tuple[PreparedLine, ...]
    # (scale, start, end) pointer ranges over line positions, inclusive.
    windows: tuple[tuple[int, int, int], ...] = field(default=())
    path: str | None = None
    date: str | None = None
    source: str = "document"
    trust: float = 0.6


@dataclass(frozen=True, slots=True)
class StoredLine:
    id: int
    document: str
    document_id: int
    position: int
    kind: str
    text: str
    cells: dict[str, str] | None
    trust: float
    speaker: str | None = None  # a dialogue turn's speaker
    date: str | None = None  # a dialogue turn's session day


LINE_SELECT = (
    "SELECT l.id, d.name, d.id, l.position, l.kind, l.text, l.cells, d.trust, l.speaker, l.date "
    "FROM lines l JOIN documents d ON d.id = l.document_id"
)


def stored_line(row: tuple) -> StoredLine:
    cells = {name: value for name, value in json.loads(row[6])} if row[6] else None
    return StoredLine(row[0], row[1], row[2], row[3], row[4], row[5], cells, row[7], row[8], row[9])
