"""Scanned PDF pages read by OCR, from the optional ``ocr`` extra (RapidOCR's ONNX models
ship inside its wheel; pypdfium2 renders a page to pixels). A page is read into rows of
text, each with the recogniser's confidence: boxes side by side on one row are a table's
cells (joined by " | ", so the layout reads them as a row), and a wide gap between rows
ends a paragraph. Without the extra, no page is read by OCR and the reader says so."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

# Pages are rendered at 150 dots an inch: a scan's usual resolution, where the recogniser
# reads 0.99 of the Senate page's header cells (a higher one took as long and read no more).
_DPI = 150
# A gap between rows wider than this many row heights ends a paragraph.
_PARAGRAPH_GAP = 1.2
# The recogniser (trained mostly on Chinese) often leaves out the spaces of English:
# "AIRFAREFORSENHAWLEY". A run of at least this many Latin letters is cut into the words
# wordninja (English word frequencies, from the same extra) finds in it; shorter runs are
# more often one name ("CITIBANK") than two words.
_RUN_TO_CUT = 9
_LATIN_RUN = re.compile(rf"[A-Za-z]{{{_RUN_TO_CUT},}}")


@dataclass(frozen=True, slots=True)
class OcrRow:
    """One row of a page as read: its text and the lowest confidence among its boxes."""

    text: str
    confidence: float
    top: float
    bottom: float


def ocr_available() -> bool:
    """Is the ``ocr`` extra installed?"""
    try:
        import pypdfium2  # noqa: F401
        import rapidocr_onnxruntime  # noqa: F401
        import wordninja  # noqa: F401
    except ImportError:
        return False
    return True


@lru_cache(maxsize=1)
def _engine() -> Any:
    from rapidocr_onnxruntime import RapidOCR

    return RapidOCR()


def ocr_pages(data: bytes, pages: list[int]) -> dict[int, list[OcrRow]]:
    """The rows OCR reads on each of ``pages`` (0-based) of the PDF ``data``."""
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:
        read = {}
        for number in pages:
            pixels = document[number].render(scale=_DPI / 72, grayscale=True).to_numpy()
            read[number] = _rows(_engine()(np.ascontiguousarray(pixels))[0] or [])
        return read
    finally:
        document.close()


def page_text(rows: list[OcrRow]) -> str:
    """A page's rows as text: a line a row, a blank line where a wide gap ends a
    paragraph."""
    if not rows:
        return ""
    height = float(np.median([row.bottom - row.top for row in rows])) or 1.0
    lines = [rows[0].text]
    for above, row in zip(rows, rows[1:], strict=False):
        if row.top - above.bottom > _PARAGRAPH_GAP * height:
            lines.append("")
        lines.append(row.text)
    return "\n".join(lines)


def _rows(boxes: list[Any]) -> list[OcrRow]:
    """The recogniser's boxes ([corners], text, score) gathered into rows, top to bottom:
    a box joins a row when its middle lies between the row's top and bottom."""
    placed = sorted(
        (
            (min(p[1] for p in corners), max(p[1] for p in corners), min(p[0] for p in corners))
            + (str(text).strip(), float(score))
            for corners, text, score in boxes
            if str(text).strip()
        ),
        key=lambda box: (box[0] + box[1]) / 2,
    )
    rows: list[list[tuple[float, float, float, str, float]]] = []
    for box in placed:
        middle = (box[0] + box[1]) / 2
        if rows and rows[-1][0][0] <= middle <= rows[-1][0][1]:
            rows[-1].append(box)
        else:
            rows.append([box])
    found = []
    for row in rows:
        cells = sorted(row, key=lambda box: box[2])
        found.append(
            OcrRow(
                text=" | ".join(_spaced(cell[3]) for cell in cells),
                confidence=min(cell[4] for cell in cells),
                top=min(cell[0] for cell in cells),
                bottom=max(cell[1] for cell in cells),
            )
        )
    return found


def _spaced(text: str) -> str:
    """``text`` with its long runs of Latin letters cut into words, each keeping the
    letters (and their case) as read."""
    import wordninja

    def cut(found: re.Match[str]) -> str:
        run = found.group(0)
        words, at = [], 0
        for word in wordninja.split(run.lower()):
            words.append(run[at : at + len(word)])
            at += len(word)
        return " ".join(words) if at == len(run) else run

    return _LATIN_RUN.sub(cut, text)
