"""A document made ready for the store: its lines and windows, built before any write.

Everything that can fail (reading, decoding, table rules, sentence splitting) happens
while building one of these, so a write either stores a whole document or nothing.
"""

from __future__ import annotations

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
