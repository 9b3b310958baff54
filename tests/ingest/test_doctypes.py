"""A DOCTYPE that declares entities, where no DOCX or web page needs one, is taken out:
nothing is fetched, no text around an entity reference is lost, nothing of the
declaration is stored as a line, and the ingest's warnings say what was left out."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from affidavit import Memory

OFFICE = Path(__file__).resolve().parents[2] / "corpora" / "office"
DOCX = OFFICE / "nics-firearm-checks-2015-11.docx"
DECLARATION = b'<!DOCTYPE w [<!ENTITY x SYSTEM "file:///etc/passwd">]>'


@pytest.fixture(scope="module")
def plain() -> list[str]:
    """The real DOCX's lines, read as it is."""
    memory = Memory(dense=False)
    memory.ingest(DOCX)
    return _lines(memory, DOCX.name)


def _lines(memory: Memory, name: str) -> list[str]:
    lines: list[str] = []
    while (line := memory.line(name, len(lines))) is not None:
        lines.append(line.text)
    return lines


def _with_entities(
    folder: Path,
    declaration: bytes = DECLARATION,
    extra: tuple[str, bytes] | None = None,
    attribute: bool = False,
) -> Path:
    """The real DOCX with ``declaration`` and a reference at the head of its first 3 runs
    (or, with ``attribute``, in an attribute of each run's text), and an ``extra`` part
    (name, bytes) stored uncompressed at its end."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(DOCX) as original, zipfile.ZipFile(buffer, "w") as copy:
        for item in original.infolist():
            data = original.read(item.filename)
            if item.filename == "word/document.xml":
                data = data.replace(b"?>", b"?>" + declaration, 1)
                if attribute:
                    data = re.sub(rb"<w:t>", rb'<w:t xml:space="&s;">', data)
                else:
                    data = re.sub(rb"(<w:t[^>]*>)", rb"\1&x;", data, count=3)
            copy.writestr(item, data)
        if extra is not None:
            copy.writestr(extra[0], extra[1], compress_type=zipfile.ZIP_STORED)
    path = folder / "entity.docx"
    path.write_bytes(buffer.getvalue())
    return path


def test_a_docx_entity_reference_loses_no_text_and_is_warned_of(
    tmp_path: Path, plain: list[str]
) -> None:
    hostile = Memory(dense=False)
    report = hostile.ingest(_with_entities(tmp_path))
    assert _lines(hostile, "entity.docx") == plain
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


def test_a_declaration_behind_a_long_comment_is_found(tmp_path: Path, plain: list[str]) -> None:
    """A DOCTYPE may follow comments of any length: the whole prolog is read."""
    hostile = Memory(dense=False)
    padded = b"<!--" + b" padding" * 2000 + b" -->" + DECLARATION
    report = hostile.ingest(_with_entities(tmp_path, padded))
    assert _lines(hostile, "entity.docx") == plain
    assert any("3 reference(s)" in warning for warning in report.warnings)


def test_a_damaged_part_no_reader_opens_does_not_fail_the_file(
    tmp_path: Path, plain: list[str]
) -> None:
    """An unused picture whose checksum is wrong is left out, with a warning, and the
    document's text is read as it is without it."""
    picture = b"PICTURE-" * 64
    path = _with_entities(tmp_path, extra=("word/media/unused.bin", picture))
    data = bytearray(path.read_bytes())
    at = data.rindex(picture)
    data[at] ^= 0xFF  # the stored bytes no longer match the CRC the zip records
    path.write_bytes(bytes(data))
    hostile = Memory(dense=False)
    report = hostile.ingest(path)
    assert _lines(hostile, "entity.docx") == plain
    assert any("word/media/unused.bin" in warning for warning in report.warnings)


def test_an_entity_in_an_attribute_value_is_read_as_its_text(
    tmp_path: Path, plain: list[str]
) -> None:
    hostile = Memory(dense=False)
    declaration = b'<!DOCTYPE w [<!ENTITY s "preserve">]>'
    hostile.ingest(_with_entities(tmp_path, declaration, attribute=True))
    assert _lines(hostile, "entity.docx") == plain


def test_an_html_subset_ends_at_its_own_close_not_at_the_first(tmp_path: Path) -> None:
    """A quoted entity value, a comment or a processing instruction in the subset may
    write "]>": the subset runs on to the "]>" that closes it."""
    page = tmp_path / "quoted.html"
    page.write_text(
        "<!DOCTYPE html [<!ENTITY x \"a]>b\"> <!-- c ]> --> <?p ]> ?> <!ENTITY y 'q>'>]>"
        "<p>Visible text.</p>",
        encoding="utf-8",
    )
    memory = Memory(dense=False)
    report = memory.ingest(page)
    assert _lines(memory, "quoted.html") == ["Visible text."]
    assert any("declares 2 entit" in warning for warning in report.warnings)


def test_a_subset_never_closed_is_given_up_in_linear_time() -> None:
    """Each item of a subset is matched one way only: a page of 60,000 comments that
    never closes its subset is read as a page with no subset. It runs in a process of its
    own, stopped at 120 s: a backtracking pattern took minutes on this input (the regex
    engine holds the interpreter, so no thread could stop it)."""
    script = (
        "from affidavit.ingest.formats.doctypes import html_without_internal_subset as cut\n"
        "page = '<!DOCTYPE html [' + '<!-- a -->' * 60_000 + ' ' * 100_000 + '<p>x</p>'\n"
        "assert cut(page) == page\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
