"""The glyphs of a PDF's pages as pdfminer.six places them: each character with its box,
in page order, for ``pdf_rows`` to set in reading order. pdfminer's own layout analysis is
not run (its text boxes put a column of labels before the column of their values)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["Glyph", "page_glyphs"]


@dataclass(frozen=True, slots=True)
class Glyph:
    """One character drawn on a page, with its box in PDF points (y grows upwards).

    ``upright`` is False for text set at an angle (rotated labels, vertical captions),
    which rows cannot hold; ``size`` is the glyph's height on the page; ``font`` its font and
    fill colour (a form sets its labels in a type of their own)."""

    text: str
    x0: float
    x1: float
    y0: float
    y1: float
    size: float
    upright: bool = True
    font: str = ""

    @property
    def middle(self) -> float:
        return (self.y0 + self.y1) / 2


def page_glyphs(data: bytes) -> Iterator[list[Glyph]]:
    """The glyphs of each page of the PDF ``data``, page by page, in the order the page
    draws them. Whitespace glyphs are left out: spaces are read from the gaps between
    glyphs, which every PDF has and not every PDF fills with a space character."""
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage

    resources = PDFResourceManager(caching=True)
    device = PDFPageAggregator(resources, laparams=None)
    interpreter = PDFPageInterpreter(resources, device)
    # NOTE: the pages are opened as pdfminer's extract_text opens them (same password,
    # caching and checks), so a file it refuses is refused here in the same way.
    for page in PDFPage.get_pages(io.BytesIO(data), caching=True):
        interpreter.process_page(page)
        glyphs: list[Glyph] = []
        _collect(device.get_result(), glyphs)
        yield glyphs


def _collect(container: Any, into: list[Glyph]) -> None:
    """The characters of ``container`` and of the figures (form XObjects) inside it."""
    from pdfminer.layout import LTChar, LTContainer

    for item in container:
        if isinstance(item, LTChar):
            text = item.get_text()
            if text.strip() and item.x1 > item.x0:
                a, b, c, d = item.matrix[:4]
                # Upright: drawn along the x axis, not mirrored (a rotated or vertical
                # glyph has b or c set).
                upright = a > 0 and d > 0 and abs(b) < 1e-3 * a and abs(c) < 1e-3 * d
                height = item.y1 - item.y0
                # The type a glyph is set in: its font and its fill colour (grey labels).
                style = f"{item.fontname} {item.graphicstate.ncolor}"
                into.append(Glyph(text, item.x0, item.x1, item.y0, item.y1, height, upright, style))
        elif isinstance(item, LTContainer):
            _collect(item, into)
