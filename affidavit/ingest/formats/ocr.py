"""Scanned PDF pages read by OCR, from the optional ``ocr`` extra (RapidOCR's ONNX models
ship inside its wheel; pypdfium2 renders a page to pixels). A page is read into rows of
text, each with the recogniser's confidence: boxes side by side on one row are a table's
cells (joined by " | ", so the layout reads them as a row), and a wide gap between rows
ends a paragraph. A page OCR cannot read (blank, too small, a failed model call) is
returned with the reason, never raised, so the rest of the document is kept. Without the
extra, no page is read by OCR and the reader says so."""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from affidavit.ingest.formats.pacing import ask_for_time

# The modules of the ``ocr`` extra.
OCR_MODULES = ("pypdfium2", "rapidocr_onnxruntime", "wordninja")
# Pages are rendered at 150 dots an inch: a scan's usual resolution, where the recogniser
# reads 0.99 of the Senate page's header cells (a higher one took as long and read no more).
_DPI = 150
# A page rendered with a longer side than this is rendered smaller: the detector scales
# every image to at most 2,000 pixels a side anyway, and a poster-sized page at 150 dpi
# would be a gigabyte of pixels.
_MAX_SIDE_PIXELS = 4000
# A page whose shorter side renders to fewer pixels than this (15 points at 150 dpi)
# cannot hold a line of text the recogniser reads; it is not sent to it.
_MIN_SIDE_PIXELS = 32
# The part of a failed model call's message a warning quotes.
_FAILURE_CHARS = 160
# The time a page sent to the recogniser asks for, beyond its file's size's (pacing.py).
# NOTE: the Senate page (221 text boxes) took 50-124 s on 2 cores shared with other work
# (load 7-8), of which 90% recognising its boxes; ~10 s on an idle machine. A scan is few
# bytes a page (30-300 KB), so its size's bound (120 s a MB) stopped it at 58 s.
OCR_SECONDS_PER_PAGE = 180.0
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


@dataclass(frozen=True, slots=True)
class OcrPages:
    """What OCR made of a PDF's pages without a text layer (0-based page numbers): the
    rows of each page it read, and why it read nothing on each of the others."""

    read: dict[int, list[OcrRow]]
    unread: dict[int, str]


def ocr_available() -> bool:
    """Is the ``ocr`` extra installed? Asked of the import system, which finds the
    modules without loading them (the ONNX runtime costs a second and its threads)."""
    return all(importlib.util.find_spec(name) is not None for name in OCR_MODULES)


@lru_cache(maxsize=1)
def _engine() -> Any:
    from rapidocr_onnxruntime import RapidOCR

    return RapidOCR()


def ocr_pages(data: bytes, pages: list[int]) -> OcrPages:
    """The rows OCR reads on each of ``pages`` (0-based) of the PDF ``data``, and why it
    read none on the others: a page with no image and no text object (blank, or only
    drawings) never goes to the recogniser, nor does one too small to hold a line."""
    try:
        import pypdfium2
    except ImportError as exc:
        return OcrPages({}, dict.fromkeys(pages, f"the ocr extra did not load ({_said(exc)})"))
    try:
        document = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError as exc:
        why = f"the page renderer could not open the PDF ({_said(exc)})"
        return OcrPages({}, dict.fromkeys(pages, why))
    read: dict[int, list[OcrRow]] = {}
    unread: dict[int, str] = {}
    try:
        for number in pages:
            rows = _page_rows(document, number)
            if isinstance(rows, str):
                unread[number] = rows
            else:
                read[number] = rows
    finally:
        document.close()
    return OcrPages(read, unread)


def _page_rows(document: Any, number: int) -> list[OcrRow] | str:
    """The rows OCR reads on page ``number``, or why it reads none."""
    import pypdfium2.raw as pdfium_c

    try:
        page = document[number]
        shown = page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_TEXT])
        if next(shown, None) is None:  # the first image or text object ends the look
            return "no image and no text on it (blank, or drawings only)"
        width, height = page.get_size()
        scale = min(_DPI / 72, _MAX_SIDE_PIXELS / max(width, height, 1.0))
        if min(width, height) * scale < _MIN_SIDE_PIXELS:
            return f"too small to read ({width:.0f} x {height:.0f} points)"
        ask_for_time(OCR_SECONDS_PER_PAGE, "each page read by OCR")
        pixels = page.render(scale=scale, grayscale=True).to_numpy()
        boxes = _engine()(np.ascontiguousarray(pixels))[0] or []
    except MemoryError:
        raise  # the bounded reader reports the memory limit it hit
    except Exception as exc:  # noqa: BLE001 — a damaged page or a failed model call
        return f"OCR failed ({type(exc).__name__}: {_said(exc)})"
    return _rows(boxes) or "OCR found no text on it"


def _said(exc: BaseException) -> str:
    """The last line of an exception's message, cut short: the model runtime's messages
    carry a whole traceback."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    last = lines[-1] if lines else "no message"
    return last if len(last) <= _FAILURE_CHARS else last[: _FAILURE_CHARS - 1] + "…"


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
