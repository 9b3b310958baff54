"""Small helpers every format reader shares: length checks, whitespace, column pairing.
Kept apart from ``formats`` so a reader uses them without importing the module that
imports it (an import cycle)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from affidavit.errors import IngestError
from affidavit.ingest.formats.decode import MAX_LINE_CHARS, check_text
from affidavit.ingest.layout import lay_out
from affidavit.ingest.units import Unit

__all__ = ["check_unit_length", "collapse", "lay_out_checked", "pair"]


def lay_out_checked(text: str, source: str | Path) -> list[Unit]:
    check_text(text, path=source)
    return lay_out(text, source=str(source))


def check_unit_length(text: str, path: Path, where: str) -> None:
    """For HTML and DOCX: refuse an extracted block too long to be one evidence line.

    Their raw lines are not checked (minified HTML is legitimately one huge line, a DOCX is
    zipped XML); what must stay short is the text each block becomes.
    """
    if len(text) > MAX_LINE_CHARS:
        raise IngestError(
            path,
            f"{where} is {len(text):,} characters long (the limit is {MAX_LINE_CHARS:,})",
            hint="split it into lines or paragraphs",
        )


def collapse(text: str) -> str:
    """Runs of whitespace (including newlines and no-break spaces) as one space, trimmed."""
    return " ".join(text.split())


def pair(names: Sequence[str], values: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Values under column names; values beyond the named columns get "column N" names."""
    return tuple(
        (names[i] if i < len(names) else f"column {i + 1}", value) for i, value in enumerate(values)
    )
