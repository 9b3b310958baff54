"""HTML pages to units: headings, prose blocks and table rows, in document order."""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lxml import etree, html

from affidavit.errors import IngestError, IngestWarning
from affidavit.ingest.formats.checks import check_unit_length, collapse, pair
from affidavit.ingest.formats.decode import decode_bytes
from affidavit.ingest.formats.doctypes import html_without_internal_subset
from affidavit.ingest.formats.hidden import hidden_elements
from affidavit.ingest.units import Unit, UnitKind

__all__ = ["read_html"]

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


_PARSER = html.HTMLParser(huge_tree=True)
MAX_COLUMNS = 1000  # wider than any table a person reads


def _attached(element: Any, root: Any) -> bool:
    """Whether ``element`` is still in the page under ``root`` (not dropped with another)."""
    while element is not None:
        if element is root:
            return True
        element = element.getparent()
    return False


def read_html(path: Path, data: bytes) -> list[Unit]:
    """Scripts, styles, navigation and other non-content parts are dropped first, then what
    the page hides; tables keep their rows and take column names from their header row."""
    match = _META_CHARSET.search(data[:4096])
    text = decode_bytes(data, path=path, declared=match.group(1).decode() if match else None)
    if not text.strip():
        raise IngestError(path, "empty document", hint="nothing to ingest")
    # lxml refuses a str that still carries an XML encoding declaration (XHTML files do).
    text = html_without_internal_subset(_XML_DECLARATION.sub("", text, count=1))
    try:
        # huge_tree: libxml2 otherwise stops 256 elements deep and drops what lies below.
        root = html.document_fromstring(text, parser=_PARSER)
    except (etree.ParserError, ValueError) as exc:
        raise IngestError(path, f"cannot parse the HTML: {exc}", hint="check the file") from exc
    hidden = hidden_elements(root)  # read while the page's <style> blocks are there
    for element in list(root.iter(*_HTML_DROP)):
        element.drop_tree()  # keeps the tail text, which belongs to the parent
    dropped: dict[str, int] = {}
    for element, why in hidden:
        if not _attached(element, root):
            continue  # inside an element dropped already
        if _html_flat_text(element):
            dropped[why] = dropped.get(why, 0) + 1
        element.drop_tree()  # text no reader of the page sees is no evidence
    if dropped:
        how = ", ".join(f"{n} by {why}" for why, n in sorted(dropped.items()))
        warnings.warn(
            IngestWarning(
                f"{sum(dropped.values())} hidden element(s) left out ({how}): text no "
                "reader of the page sees is not evidence"
            ),
            stacklevel=2,
        )
    etree.strip_elements(root, etree.Comment, etree.ProcessingInstruction, with_tail=False)
    try:
        return _HtmlWalker(path).walk(root)
    except IngestError as error:
        if error.path is not None:
            raise
        raise IngestError(path, error.problem, error.hint) from error


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
        text = collapse("".join(pieces))
        pieces.clear()
        if text:
            check_unit_length(text, self.path, f"the text block at line {line}")
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
        check_unit_length(text, path, f"the table row at line {line}")
        pairs = None
        if names is not None and not is_head:
            pairs = pair(names, _spread(cells, fill_with_copy=False))
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
        if len(out) > MAX_COLUMNS:
            # 20 cells of colspan=1000 make a row 20,000 columns wide: every row of the
            # table would carry 20,000 named cells (gigabytes for a 1 MB page).
            raise IngestError(
                None,
                f"a table row spans more than {MAX_COLUMNS:,} columns",
                "check the colspan values, or save the table as CSV",
            )
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
    return collapse("".join(pieces))
