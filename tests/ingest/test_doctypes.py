"""A DOCTYPE that declares entities, where no DOCX or web page needs one, is taken out:
nothing is fetched, no text around an entity reference is lost, nothing of the
declaration is stored as a line, and the ingest's warnings say what was left out."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from affidavit import Memory

OFFICE = Path(__file__).resolve().parents[2] / "corpora" / "office"
DOCX = OFFICE / "nics-firearm-checks-2015-11.docx"
DECLARATION = b'<!DOCTYPE w [<!ENTITY x SYSTEM "file:///etc/passwd">]>'


def _lines(memory: Memory, name: str) -> list[str]:
    lines: list[str] = []
    while (line := memory.line(name, len(lines))) is not None:
        lines.append(line.text)
    return lines


def _with_entities(folder: Path) -> Path:
    """The real DOCX with a declaration and a reference at the head of its first 3 runs."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(DOCX) as original, zipfile.ZipFile(buffer, "w") as copy:
        for item in original.infolist():
            data = original.read(item.filename)
            if item.filename == "word/document.xml":
                data = data.replace(b"?>", b"?>" + DECLARATION, 1)
                data = re.sub(rb"(<w:t[^>]*>)", rb"\1&x;", data, count=3)
            copy.writestr(item, data)
    path = folder / "entity.docx"
    path.write_bytes(buffer.getvalue())
    return path


def test_a_docx_entity_reference_loses_no_text_and_is_warned_of(tmp_path: Path) -> None:
    plain, hostile = Memory(dense=False), Memory(dense=False)
    plain.ingest(DOCX)
    report = hostile.ingest(_with_entities(tmp_path))
    assert _lines(hostile, "entity.docx") == _lines(plain, DOCX.name)
    assert any("3 reference(s)" in warning for warning in report.warnings)
    assert not any("root:" in line for line in _lines(hostile, "entity.docx"))


def test_a_docx_without_a_doctype_is_read_as_it_was(tmp_path: Path) -> None:
    report = Memory(dense=False).ingest(DOCX)
    assert not any("entities" in warning for warning in report.warnings)


def test_an_html_doctype_declaring_entities_leaves_no_line_behind(tmp_path: Path) -> None:
    page = tmp_path / "xxe.html"
    page.write_text(
        '<!DOCTYPE html [<!ENTITY x SYSTEM "file:///etc/passwd">]><p>Visible text.</p>',
        encoding="utf-8",
    )
    memory = Memory(dense=False)
    report = memory.ingest(page)
    assert _lines(memory, "xxe.html") == ["Visible text."]
    assert any("declares 1 entit" in warning for warning in report.warnings)
