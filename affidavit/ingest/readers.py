"""Files to units: the one place that knows how each document format stores its text.

``read_document`` turns one file into ordered ``Unit``s (prose, headings, table rows) that
the line splitter cuts into verbatim evidence lines; ``read_text`` does the same for a
string. Text-like files are decoded (see ``decode``) and handed to ``lay_out``; CSV/TSV,
HTML, PDF and DOCX are read with their own parsers so tables keep their rows and column
names. Every failure — unreadable file, wrong encoding, malformed table, broken or
encrypted PDF, empty document, absurdly long line — is an ``IngestError`` that names the
file and says what to do; no parser's own exception escapes.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree, html

from affidavit.errors import IngestError
from affidavit.ingest.decode import (
    MAX_LINE_CHARS,
    check_text,
    decode_bytes,
    looks_binary,
    normalise_text,
    read_bytes,
)
from affidavit.ingest.layout import lay_out
from affidavit.ingest.units import Unit, UnitKind

if TYPE_CHECKING:
    # pdfminer and python-docx cost ~50 ms each to import; only PDF and DOCX files need them.
    from docx.document import Document as DocxDocument
    from docx.table import Table, _Row
    from docx.text.paragraph import Paragraph

__all__ = [
    "MAX_LINE_CHARS",
    "SUPPORTED_SUFFIXES",
    "iter_document_files",
    "read_document",
    "read_text",
]

_TEXT_SUFFIXES = frozenset({".txt", ".text", ".md", ".markdown", ".rst"})
_HTML_SUFFIXES = frozenset({".html", ".htm"})

# Suffixes ``iter_document_files`` picks up. ``read_document`` also accepts other suffixes
# and reads them as text when they decode as text.
SUPPORTED_SUFFIXES = _TEXT_SUFFIXES | _HTML_SUFFIXES | {".csv", ".tsv", ".pdf", ".docx"}

# PDF readers accept the header anywhere in the first KiB (some files carry leading junk).
_PDF_MAGIC = b"%PDF-"
_PDF_MAGIC_WINDOW = 1024

Reader = Callable[[Path, bytes], list[Unit]]


# --- public entry points --------------------------------------------------------------------


def read_document(path: str | Path) -> list[Unit]:
    """Read one file into units in document order; raise ``IngestError`` if it cannot be."""
    path = Path(path)
    data = read_bytes(path)
    if not data.strip():
        raise IngestError(path, "empty document", hint="nothing to ingest")
    units = _reader_for(path, data)(path, data)
    if not units:
        raise IngestError(path, "empty document", hint="nothing to ingest")
    return units


def read_text(text: str, *, name: str) -> list[Unit]:
    """Lay out a string as if it were a text file called ``name`` (used in errors)."""
    text = normalise_text(text)
    if looks_binary(text):
        raise IngestError(name, "binary data, not text", hint="pass text, not binary content")
    return _lay_out_checked(text, name)


def iter_document_files(folder: str | Path) -> list[Path]:
    """Every file under ``folder`` (recursively) whose suffix is in ``SUPPORTED_SUFFIXES``.

    Skipped: hidden files and folders (``.git``, ``.DS_Store``), Office lock files
    (``~$report.docx``), and files with other suffixes — a folder of documents often holds
    code, images and data that were never meant as evidence; pass such a file to
    ``read_document`` explicitly to read it as text. Sorted by path components, so the
    order is the same on every machine. A folder that cannot be listed is an error rather
    than a silently partial result.
    """
    root = Path(folder)
    if not root.is_dir():
        raise IngestError(root, "not a folder", hint="pass a folder of documents")

    def fail(exc: OSError) -> None:
        raise IngestError(
            exc.filename or root, "cannot list this folder", hint="make it readable"
        ) from exc

    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, onerror=fail):
        dirnames[:] = [name for name in dirnames if not name.startswith(".")]
        for name in filenames:
            if _is_document_name(name):
                found.append(Path(dirpath) / name)
    return sorted(found, key=lambda p: p.relative_to(root).parts)


def _is_document_name(name: str) -> bool:
    if name.startswith((".", "~$")):
        return False
    return Path(name).suffix.lower() in SUPPORTED_SUFFIXES


def _reader_for(path: Path, data: bytes) -> Reader:
    suffix = path.suffix.lower()
    if suffix in _TEXT_SUFFIXES:
        return _read_plain
    readers: dict[str, Reader] = {
        ".csv": _read_csv,
        ".tsv": _read_tsv,
        ".html": _read_html,
        ".htm": _read_html,
        ".pdf": _read_pdf,
        ".docx": _read_docx,
    }
    if suffix in readers:
        return readers[suffix]
    # An unknown suffix is read as text, unless the bytes plainly say it is a PDF.
    return _read_pdf if _PDF_MAGIC in data[:_PDF_MAGIC_WINDOW] else _read_plain


def _lay_out_checked(text: str, source: str | Path) -> list[Unit]:
    check_text(text, path=source)
    return lay_out(text, source=str(source))


def _check_unit_length(text: str, path: Path, where: str) -> None:
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


def _collapse(text: str) -> str:
    """Runs of whitespace (including newlines and no-break spaces) as one space, trimmed."""
    return " ".join(text.split())


# --- plain text -----------------------------------------------------------------------------


def _read_plain(path: Path, data: bytes) -> list[Unit]:
    return _lay_out_checked(decode_bytes(data, path=path), path)


# --- CSV / TSV ------------------------------------------------------------------------------


def _read_csv(path: Path, data: bytes) -> list[Unit]:
    return _read_delimited(path, data, ",")


def _read_tsv(path: Path, data: bytes) -> list[Unit]:
    return _read_delimited(path, data, "\t")


def _read_delimited(path: Path, data: bytes, delimiter: str) -> list[Unit]:
    text = decode_bytes(data, path=path)
    check_text(text, path=path)
    # Physical lines are fed to the csv reader one at a time so that, after each record,
    # ``line_num`` tells exactly which lines it spanned: the row's text is those lines as
    # written, and errors can name the line where the bad record starts.
    lines = [line + "\n" for line in text.split("\n")]
    if delimiter == ",":
        delimiter = _sniff_delimiter(lines)
    return _table_units(path, lines, delimiter)


def _sniff_delimiter(lines: Sequence[str]) -> str:
    """',' unless the header has no comma and another delimiter clearly splits it.

    Spreadsheet programs in many locales write ``;``-separated files with a .csv suffix.
    """
    header = next((line for line in lines if line.strip()), "")
    if "," in header:
        return ","
    sample = "".join(lines[:50])
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=";\t|")
    except csv.Error:
        return ","
    return dialect.delimiter if dialect.delimiter in header else ","


def _table_units(path: Path, lines: Sequence[str], delimiter: str) -> list[Unit]:
    source = iter(lines)
    reader = csv.reader(source, delimiter=delimiter, strict=True)
    units: list[Unit] = []
    names: list[str] | None = None
    header_line = 0
    consumed = 0  # physical lines read so far; the next record starts on line consumed + 1
    while True:
        start = consumed + 1
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise _csv_error(path, start, exc) from exc
        consumed = reader.line_num
        if not any(field.strip() for field in fields):
            continue  # blank line (or a row of empty fields): nothing to say
        raw = "".join(lines[start - 1 : consumed]).strip()
        if names is None:
            names = [name.strip() or f"column {i}" for i, name in enumerate(fields, start=1)]
            header_line = start
            units.append(Unit(UnitKind.ROW, raw, cells=None, table=0))
            continue
        if len(fields) != len(names):
            raise IngestError(
                path,
                f"malformed table: line {start} has {len(fields)} fields but the header "
                f"(line {header_line}) names {len(names)} columns",
                hint=f"give every row {len(names)} fields; quote any field that contains "
                f"{_delimiter_name(delimiter)} or a line break",
            )
        cells = tuple(zip(names, (field.strip() for field in fields), strict=True))
        units.append(Unit(UnitKind.ROW, raw, cells=cells, table=0))
    return units


def _csv_error(path: Path, line: int, exc: csv.Error) -> IngestError:
    message = str(exc)
    if "unexpected end of data" in message:
        problem = f"malformed table: the quoted field on line {line} is never closed"
    else:
        problem = f"malformed table: line {line}: {message}"
    return IngestError(
        path,
        problem,
        hint='close every quoted field and write a quote inside one as two quotes ("")',
    )


def _delimiter_name(delimiter: str) -> str:
    return {"\t": "a tab", ",": "a comma", ";": "a semicolon"}.get(delimiter, repr(delimiter))


# --- HTML -----------------------------------------------------------------------------------

# Parts of a page that are not its content: code, styling, navigation, metadata, graphics.
_HTML_DROP = ("script", "style", "nav", "head", "noscript", "template", "svg", "iframe", "object")
_HTML_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Elements whose inline content forms one prose block; a nested block ends it.
_HTML_BLOCKS = frozenset(
    {
        "p", "li", "blockquote", "dd", "dt", "pre", "figcaption",
        "html", "body", "div", "section", "article", "main", "aside", "header", "footer",
        "ul", "ol", "dl", "menu", "figure", "address", "details", "summary", "dialog",
        "fieldset", "legend", "form", "hgroup", "center", "hr", "caption",
        "table", "thead", "tbody", "tfoot", "tr", "td", "th",
    }
)  # fmt: skip
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.I)


def _read_html(path: Path, data: bytes) -> list[Unit]:
    match = _META_CHARSET.search(data[:4096])
    text = decode_bytes(data, path=path, declared=match.group(1).decode() if match else None)
    if not text.strip():
        raise IngestError(path, "empty document", hint="nothing to ingest")
    # lxml refuses a str that still carries an XML encoding declaration (XHTML files do).
    text = _XML_DECLARATION.sub("", text, count=1)
    try:
        root = html.document_fromstring(text)
    except (etree.ParserError, ValueError) as exc:
        raise IngestError(path, f"cannot parse the HTML: {exc}", hint="check the file") from exc
    for element in list(root.iter(*_HTML_DROP)):
        element.drop_tree()  # keeps the tail text, which belongs to the parent
    etree.strip_elements(root, etree.Comment, etree.ProcessingInstruction, with_tail=False)
    return _HtmlWalker(path).walk(root)


class _HtmlWalker:
    """Walks a parsed page once, in document order, turning blocks into units.

    Inline content (text, links, emphasis) accumulates into the innermost open block; a
    nested block closes the current run first, so ``<li>Fruit<ul><li>Apple</li></ul></li>``
    gives "Fruit" then "Apple", never both twice. Iterative (``iterwalk``), so deeply
    nested markup cannot exhaust the recursion limit.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.units: list[Unit] = []
        self.tables = 0
        # Open blocks: (kind of the text they hold, its pieces, source line of the block).
        self.stack: list[tuple[UnitKind, list[str], int]] = []

    def walk(self, root: html.HtmlElement) -> list[Unit]:
        walker = etree.iterwalk(root, events=("start", "end"))
        for event, element in walker:
            tag = element.tag
            if event == "start":
                if tag == "table":
                    self._flush()
                    self._emit_table(element)
                    walker.skip_subtree()
                    continue
                if tag in _HTML_HEADINGS or tag in _HTML_BLOCKS:
                    self._flush()
                    kind = UnitKind.HEADING if tag in _HTML_HEADINGS else UnitKind.PROSE
                    self.stack.append((kind, [], element.sourceline or 0))
                elif tag == "br":
                    self._add(" ")
                self._add(element.text)
            else:
                if tag != "table" and (tag in _HTML_HEADINGS or tag in _HTML_BLOCKS):
                    self._flush()
                    self.stack.pop()
                if element is not root:
                    self._add(element.tail)
        return self.units

    def _add(self, text: str | None) -> None:
        if text and self.stack:
            self.stack[-1][1].append(text)

    def _flush(self) -> None:
        if not self.stack:
            return
        kind, pieces, line = self.stack[-1]
        text = _collapse("".join(pieces))
        pieces.clear()
        if text:
            _check_unit_length(text, self.path, f"the text block at line {line}")
            self.units.append(Unit(kind, text))

    def _emit_table(self, table: html.HtmlElement) -> None:
        caption = table.find("caption")
        if caption is not None:
            text = _html_flat_text(caption)
            if text:
                self.units.append(Unit(UnitKind.HEADING, text))
        rows = table.xpath("./tr|./thead/tr|./tbody/tr|./tfoot/tr")
        units = _html_table_rows(rows, self.tables, self.path)
        if units:
            self.units.extend(units)
            self.tables += 1


def _html_table_rows(rows: Sequence[html.HtmlElement], table_id: int, path: Path) -> list[Unit]:
    """One ROW per non-empty ``<tr>``; column names from the header row, if there is one.

    The header row is the first row of ``<thead>``, else the first row when all its cells
    are ``<th>``. Every ``<thead>`` row is emitted as a header row (``cells=None``).
    """
    parsed = [(row, row.xpath("./td|./th")) for row in rows]
    parsed = [(row, cells) for row, cells in parsed if cells]
    in_head = [row.getparent().tag == "thead" for row, _ in parsed]
    names: list[str] | None = None
    if any(in_head):
        names = _spread(parsed[in_head.index(True)][1], fill_with_copy=True)
    elif parsed and all(cell.tag == "th" for cell in parsed[0][1]):
        names = _spread(parsed[0][1], fill_with_copy=True)
        in_head[0] = True
    if names is not None:
        names = [name or f"column {i}" for i, name in enumerate(names, start=1)]
    units: list[Unit] = []
    for (row, cells), is_head in zip(parsed, in_head, strict=True):
        texts = [_html_flat_text(cell) for cell in cells]
        text = " | ".join(t for t in texts if t)
        if not text:
            continue
        line = row.sourceline or 0
        _check_unit_length(text, path, f"the table row at line {line}")
        pairs = None
        if names is not None and not is_head:
            pairs = _pair(names, _spread(cells, fill_with_copy=False))
        units.append(Unit(UnitKind.ROW, text, cells=pairs, table=table_id))
    return units


def _spread(cells: Sequence[html.HtmlElement], *, fill_with_copy: bool) -> list[str]:
    """Cell texts laid on the column grid: a ``colspan=n`` cell covers n columns.

    A spanning header names every column it covers; a spanning data cell's value goes under
    its first column only, so one value is not counted n times.
    """
    out: list[str] = []
    for cell in cells:
        text = _html_flat_text(cell)
        try:
            span = max(1, min(int(cell.get("colspan", "1")), 1000))
        except ValueError:
            span = 1
        out.append(text)
        out.extend([text if fill_with_copy else ""] * (span - 1))
    return out


def _html_flat_text(element: html.HtmlElement) -> str:
    """An element's text with block edges and ``<br>`` read as spaces, whitespace collapsed."""
    pieces: list[str] = []
    for event, node in etree.iterwalk(element, events=("start", "end")):
        breaks = node.tag in _HTML_BLOCKS or node.tag in _HTML_HEADINGS or node.tag == "br"
        if event == "start":
            if breaks:
                pieces.append(" ")
            pieces.append(node.text or "")
        else:
            if breaks:
                pieces.append(" ")
            if node is not element:
                pieces.append(node.tail or "")
    return _collapse("".join(pieces))


def _pair(names: Sequence[str], values: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Values under column names; values beyond the named columns get "column N" names."""
    return tuple(
        (names[i] if i < len(names) else f"column {i + 1}", value) for i, value in enumerate(values)
    )


# --- PDF ------------------------------------------------------------------------------------


def _read_pdf(path: Path, data: bytes) -> list[Unit]:
    text = _pdf_text(path, data)
    if not text.strip():
        raise IngestError(
            path,
            "the PDF has no extractable text; it is probably scanned images",
            hint="run OCR on it first, e.g. with ocrmypdf, and ingest the result",
        )
    # Page breaks come out as form feeds; they are kept, and read as line breaks by layout.
    return _lay_out_checked(normalise_text(text), path)


def _pdf_text(path: Path, data: bytes) -> str:
    """pdfminer.six's text with its default layout, as ``pdf2txt.py`` prints it."""
    if _PDF_MAGIC not in data[:_PDF_MAGIC_WINDOW]:
        raise IngestError(path, "not a PDF (no %PDF- header)", hint=_PDF_INVALID_HINT)
    from pdfminer.high_level import extract_text
    from pdfminer.pdfdocument import PDFEncryptionError, PDFTextExtractionNotAllowed

    try:
        return extract_text(io.BytesIO(data))
    except PDFTextExtractionNotAllowed as exc:
        raise IngestError(
            path, "the PDF forbids text extraction", hint="export an unrestricted copy"
        ) from exc
    except PDFEncryptionError as exc:  # includes PDFPasswordIncorrect
        raise IngestError(
            path, "the PDF is encrypted", hint="save a decrypted copy and ingest that"
        ) from exc
    # Damaged PDFs make pdfminer fail in many ways (PSEOF, PDFSyntaxError, KeyError,
    # TypeError, zlib.error, ...); all of them mean the same thing to the user.
    except Exception as exc:
        raise IngestError(
            path, f"cannot read the PDF: {type(exc).__name__}: {exc}", hint=_PDF_INVALID_HINT
        ) from exc


_PDF_INVALID_HINT = "the file is not a valid PDF or is truncated; download or re-export it"


# --- DOCX -----------------------------------------------------------------------------------

# A header cell looks like a label, not a figure: "2015", "$1,200.50", "12%" are data.
_NUMERIC = re.compile(r"^[\s$€£¥%+\-−–.,()0-9]*[0-9][\s$€£¥%+\-−–.,()0-9]*$")


def _read_docx(path: Path, data: bytes) -> list[Unit]:
    document = _open_docx(path, data)
    try:
        return _docx_units(path, document)
    except IngestError:
        raise
    # python-docx walks the XML lazily, so a damaged part can still fail here.
    except Exception as exc:
        raise IngestError(
            path,
            f"cannot read the .docx content: {type(exc).__name__}: {exc}",
            hint=_DOCX_INVALID_HINT,
        ) from exc


_DOCX_INVALID_HINT = "the file is not a valid .docx; open it in Word and save it again"


def _open_docx(path: Path, data: bytes) -> DocxDocument:
    from docx import Document

    # Not a zip, a missing part, bad XML, a .doc renamed .docx: python-docx raises
    # BadZipFile, KeyError, PackageNotFoundError, XMLSyntaxError or ValueError.
    try:
        return Document(io.BytesIO(data))
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
        text = _collapse(block.text)
        if not text:
            continue
        _check_unit_length(text, path, f"paragraph {paragraphs}")
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
        _check_unit_length(text, path, f"row {index + 1} of table {table_id + 1}")
        pairs = _pair(names, values) if names is not None and index > 0 else None
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
        values.append(("" if repeat else _collapse(cell.text), repeat))
        previous = cell
    return values


def _docx_header(first_row: Sequence[tuple[str, bool]]) -> list[str] | None:
    """Column names from the first row when its cells are distinct, non-empty, non-numeric."""
    labels = [value for value, repeat in first_row if not repeat]
    if not labels or not all(labels) or len(set(labels)) != len(labels):
        return None
    if any(_NUMERIC.match(label) for label in labels):
        return None
    # A merged header cell names every column it spans.
    names: list[str] = []
    for value, repeat in first_row:
        names.append(names[-1] if repeat else value)
    return names
