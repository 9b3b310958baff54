"""Word (.docx) files to units via python-docx: headings, paragraphs and table rows in order."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from affidavit.errors import IngestError
from affidavit.ingest.formats.checks import check_unit_length, collapse, pair
from affidavit.ingest.formats.doctypes import docx_without_entities
from affidavit.ingest.units import Unit, UnitKind
from affidavit.text import is_figure_only

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument
    from docx.table import Table, _Row
    from docx.text.paragraph import Paragraph

__all__ = ["read_docx"]

_DOCX_INVALID_HINT = "the file is not a valid .docx; open it in Word and save it again"


def read_docx(path: Path, data: bytes) -> list[Unit]:
    document = _open_docx(path, docx_without_entities(path, data))
    try:
        return _docx_units(path, document)
    except IngestError:
        raise
    # python-docx walks the XML lazily, so a damaged part can still fail here.
    except MemoryError:
        raise  # the bounded reader reports the memory limit it hit
    except Exception as exc:
        raise IngestError(
            path,
            f"cannot read the .docx content: {type(exc).__name__}: {exc}",
            hint=_DOCX_INVALID_HINT,
        ) from exc


# NOTE: python-docx is imported only when a .docx is read (it costs ~50 ms).
def _open_docx(path: Path, data: bytes) -> DocxDocument:
    # The library, not this module: imports are absolute, so affidavit.ingest.formats.docx
    # never shadows it.
    from docx import Document

    # Not a zip, a missing part, bad XML, a .doc renamed .docx: python-docx raises
    # BadZipFile, KeyError, PackageNotFoundError, XMLSyntaxError or ValueError.
    try:
        return Document(io.BytesIO(data))
    except MemoryError:
        raise  # the bounded reader reports the memory limit it hit
    except Exception as exc:
        raise IngestError(
            path, f"cannot open the .docx: {type(exc).__name__}: {exc}", hint=_DOCX_INVALID_HINT
        ) from exc


def _docx_units(path: Path, document: DocxDocument) -> list[Unit]:
    from docx.table import Table

    units: list[Unit] = []
    tables = 0
    paragraphs = 0
    for block in _docx_blocks(document):
        if isinstance(block, Table):
            rows = _docx_table_rows(path, block, tables)
            if rows:
                units.extend(rows)
                tables += 1
            continue
        paragraphs += 1
        text = collapse(block.text)
        if not text:
            continue
        check_unit_length(text, path, f"paragraph {paragraphs}")
        units.append(Unit(_docx_kind(block), text))
    return units


def _docx_blocks(document: DocxDocument) -> Iterator[Paragraph | Table]:
    """Body paragraphs and tables in document order, looking inside content controls."""
    from docx.oxml.ns import qn
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    p_tag, tbl_tag, sdt_tag, content_tag = qn("w:p"), qn("w:tbl"), qn("w:sdt"), qn("w:sdtContent")

    def walk(container: Iterable[etree._Element]) -> Iterator[Paragraph | Table]:
        for child in container:
            if child.tag == p_tag:
                yield Paragraph(child, document)  # child is a CT_P
            elif child.tag == tbl_tag:
                yield Table(child, document)  # child is a CT_Tbl
            elif child.tag == sdt_tag:
                content = child.find(content_tag)
                if content is not None:
                    yield from walk(content)

    return walk(document.element.body)


def _docx_kind(paragraph: Paragraph) -> UnitKind:
    style = paragraph.style
    # Built-in style names are English ("Heading 1") whatever the Word UI language.
    name = (style.name or "").lower() if style is not None else ""
    return UnitKind.HEADING if name.startswith("heading") or name == "title" else UnitKind.PROSE


def _docx_table_rows(path: Path, table: Table, table_id: int) -> list[Unit]:
    """One ROW per non-empty row; the first row names the columns if it looks like labels."""
    grid = [_docx_row_values(row) for row in table.rows]
    names = _docx_header(grid[0]) if grid else None
    units: list[Unit] = []
    for index, cells in enumerate(grid):
        values = ["" if repeat else value for value, repeat in cells]
        text = " | ".join(value for value in values if value)
        if not text:
            continue
        check_unit_length(text, path, f"row {index + 1} of table {table_id + 1}")
        pairs = pair(names, values) if names is not None and index > 0 else None
        units.append(Unit(UnitKind.ROW, text, cells=pairs, table=table_id))
    return units


def _docx_row_values(row: _Row) -> list[tuple[str, bool]]:
    """(text, repeats the cell before) for each grid column of a table row.

    python-docx yields a horizontally merged cell once per grid column it spans, as the
    same object; the repeats are flagged so one value is not read as several.
    """
    values: list[tuple[str, bool]] = []
    previous = None
    for cell in row.cells:
        repeat = cell is previous
        values.append(("" if repeat else collapse(cell.text), repeat))
        previous = cell
    return values


def _docx_header(first_row: Sequence[tuple[str, bool]]) -> list[str] | None:
    """Column names from the first row when its cells are distinct, non-empty, non-numeric."""
    labels = [value for value, repeat in first_row if not repeat]
    if not labels or not all(labels) or len(set(labels)) != len(labels):
        return None
    # A header cell looks like a label, not a figure: "2015", "$1,200.50", "12%" are data.
    if any(is_figure_only(label) for label in labels):
        return None
    # A merged header cell names every column it spans.
    names: list[str] = []
    for value, repeat in first_row:
        names.append(names[-1] if repeat else value)
    return names
