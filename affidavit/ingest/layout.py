"""Plain text to units: paragraphs, headings and table rows (minimal first version)."""

from __future__ import annotations

import re

from affidavit.ingest.units import Unit, UnitKind

_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")


def lay_out(text: str, *, source: str | None = None) -> list[Unit]:
    """Cut ``text`` into prose paragraphs and headings, in document order."""
    units: list[Unit] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            units.append(Unit(UnitKind.PROSE, " ".join(p.strip() for p in paragraph)))
            paragraph.clear()

    for raw in text.splitlines():
        if not raw.strip():
            flush()
        elif _MD_HEADING.match(raw):
            flush()
            units.append(Unit(UnitKind.HEADING, raw.strip()))
        else:
            paragraph.append(raw)
    flush()
    return units
