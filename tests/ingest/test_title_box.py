"""A plain-text licence opens on its title in capitals over its subtitle, set apart like
two short cells: it is read as the document's heading and a line under it, not as a table
(the title lines are what a question names the document by: archive/document_naming.py)."""

from __future__ import annotations

from pathlib import Path

from affidavit import Memory

CORPORA = Path(__file__).resolve().parents[2] / "corpora"


def test_a_licences_title_box_is_its_heading_and_subtitle() -> None:
    memory = Memory(dense=False)
    memory.ingest(CORPORA / "compliance" / "gpl-2.0.txt")
    title, subtitle = memory.line("gpl-2.0.txt", 0), memory.line("gpl-2.0.txt", 1)
    assert (title.kind, title.text) == ("heading", "GNU GENERAL PUBLIC LICENSE")
    assert (subtitle.kind, subtitle.text) == ("sentence", "Version 2, June 1991")
