"""PDF files to units: each page's text set in reading order by rows from pdfminer.six's
character boxes (``pdf_rows``), laid out like a text file; scanned pages read by OCR."""

from __future__ import annotations

import io
import logging
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from affidavit.errors import IngestError, IngestWarning
from affidavit.ingest.formats.checks import lay_out_checked
from affidavit.ingest.formats.decode import normalise_text
from affidavit.ingest.formats.inflation import inflated_beyond
from affidavit.ingest.formats.ocr import OcrRow, ocr_available, ocr_pages, page_text
from affidavit.ingest.formats.pdf_glyphs import page_glyphs
from affidavit.ingest.formats.pdf_references import ReferenceLoop, follow_chains_once
from affidavit.ingest.formats.pdf_rows import page_text as rows_text
from affidavit.ingest.formats.running import left_out_running
from affidavit.ingest.units import Unit

__all__ = ["has_pdf_header", "page_texts", "pdf_text", "read_pdf"]

# PDF readers accept the header anywhere in the first KiB (some files carry leading junk).
_PDF_MAGIC = b"%PDF-"
_PDF_MAGIC_WINDOW = 1024

_Read = TypeVar("_Read")

_PDF_INVALID_HINT = "the file is not a valid PDF or is truncated; download or re-export it"


def has_pdf_header(data: bytes) -> bool:
    return _PDF_MAGIC in data[:_PDF_MAGIC_WINDOW]


def read_pdf(path: Path, data: bytes) -> list[Unit]:
    """A PDF's pages laid out as text; a page with no text layer (a scanned image) read by
    OCR when the ``ocr`` extra is installed, and reported in the warnings otherwise. A
    page OCR cannot read is named in the warnings with the reason; the rest is kept."""
    pages = page_texts(path, data)
    blank = [number for number, page in enumerate(pages) if not page.strip()]
    scanned = ocr_pages(data, blank) if blank and ocr_available() else None
    read = scanned.read if scanned is not None else {}
    if len(blank) == len(pages) and not read:
        if scanned is None:
            raise IngestError(
                path,
                "the PDF has no extractable text (scanned images?)",
                hint="install affidavit[ocr] to read scanned pages, or run OCR on it first",
            )
        raise IngestError(
            path,
            "the PDF has no extractable text, and OCR read none of its pages: "
            + "; ".join(_unread_pages(scanned.unread)),
            hint="check that its pages show text in a PDF viewer; if they do, run another "
            "OCR tool on it first",
        )
    if scanned is None and blank:
        _warn(
            f"{len(blank)} of {len(pages)} pages have no text layer (blank, or scanned "
            f"images) and were not read: pages {_listed(blank)}; install affidavit[ocr] to "
            "read them by OCR"
        )
    if read:
        _warn(f"{len(read)} scanned pages read by OCR (pages {_listed(sorted(read))})")
    if scanned is not None:
        for unread in _unread_pages(scanned.unread):
            _warn(f"{unread}; the rest of the document is kept")
    return _laid_out(path, pages, read)


def _unread_pages(unread: dict[int, str]) -> list[str]:
    """The pages OCR did not read, gathered by the reason: "pages 2, 5 not read by OCR:
    no image and no text on it (blank, or drawings only)"."""
    by_reason: dict[str, list[int]] = {}
    for number in sorted(unread):
        by_reason.setdefault(unread[number], []).append(number)
    return [
        f"{'page' if len(numbers) == 1 else 'pages'} {_listed(numbers)} not read by OCR: {why}"
        for why, numbers in sorted(by_reason.items(), key=lambda item: item[1][0])
    ]


def _laid_out(path: Path, pages: list[str], read: dict[int, list[OcrRow]]) -> list[Unit]:
    """The pages' units in page order: the text pages laid out together (their running
    headers and footers left out), each OCR page alone, every unit of it carrying the
    confidence of the rows it was read from."""
    texts = [page_text(read[n]) if read.get(n) else page for n, page in enumerate(pages)]
    # Page breaks come out as form feeds; they are kept, and read as line breaks by layout.
    kept, running = left_out_running(normalise_text("\f".join(texts)))
    if running is not None:
        shown = "; ".join(repr(example) for example in running.examples[:3])
        _warn(
            f"{running.removed} running header and footer lines left out "
            f"({len(running.examples)} kinds over {running.pages} pages, e.g. {shown})"
        )
    pages = kept.split("\f")
    units: list[Unit] = []
    start = 0
    for number in [*sorted(n for n in read if read[n]), len(pages)]:
        if start < number:
            units += lay_out_checked("\f".join(pages[start:number]), path)
        if number < len(pages):
            rows = read[number]
            units += [_sure(unit, rows) for unit in lay_out_checked(pages[number], path)]
        start = number + 1
    return units


def _sure(unit: Unit, rows: list[OcrRow]) -> Unit:
    """``unit`` with the lowest confidence of the OCR rows it holds."""
    held = [row.confidence for row in rows if row.text in unit.text or unit.text in row.text]
    least = min(held, default=min(row.confidence for row in rows))
    return replace(unit, confidence=round(least, 4))


def _listed(numbers: list[int]) -> str:
    shown = ", ".join(str(n + 1) for n in numbers[:10])
    return shown + (f" and {len(numbers) - 10} more" if len(numbers) > 10 else "")


# The problems pdfminer reports that a warning quotes (the rest are counted).
_COMPLAINTS_KEPT = 5


def _warn(message: str) -> None:
    warnings.warn(IngestWarning(message), stacklevel=3)


def page_texts(path: Path, data: bytes) -> list[str]:
    """The text of each page in reading order by rows (``pdf_rows``): a label and its value
    on one line, columns of prose one after the other; a page with no text is ``""``."""
    # NOTE: on the form-PDF bench (bench/forms_layout.py, 12 real forms and invoices)
    # pdfminer's own text kept 48% / 45% of labels on the line of their value (tune /
    # report), pypdfium2's 68% / 69%, these rows 97% / 63% (chosen on tune; report's
    # boxed forms are not read as pairs), at pdfminer's speed.
    return _guarded(path, data, lambda: [rows_text(page) for page in page_glyphs(data)])


# NOTE: pdfminer is imported only when a PDF is read (it costs ~50 ms).
def pdf_text(path: Path, data: bytes) -> str:
    """pdfminer.six's text with its default layout, as ``pdf2txt.py`` prints it; every way
    it can fail on a damaged, encrypted or restricted file becomes an ``IngestError``."""
    from pdfminer.high_level import extract_text

    return _guarded(path, data, lambda: extract_text(io.BytesIO(data)))


def _guarded(path: Path, data: bytes, read: Callable[[], _Read]) -> _Read:
    """``read()`` of the PDF ``data`` by pdfminer, after the checks that need no parser
    (a PDF header, no decompression bomb), with reference loops named at once and the
    parser's complaints counted in a warning; every way it can fail on a damaged,
    encrypted or restricted file becomes an ``IngestError`` naming ``path``."""
    if not has_pdf_header(data):
        raise IngestError(path, "not a PDF (no %PDF- header)", hint=_PDF_INVALID_HINT)
    inflated = inflated_beyond(data)
    if inflated is not None:
        raise IngestError(
            path,
            f"its streams inflate to more than {inflated / 2**20:,.0f} MB from a "
            f"{len(data) / 2**20:,.1f} MB file: a decompression bomb",
            hint="if the file is genuine, save it again from a PDF tool and ingest that",
        )
    from pdfminer.pdfdocument import PDFEncryptionError, PDFTextExtractionNotAllowed

    follow_chains_once()

    try:
        with _parser_complaints() as heard:
            read_back = read()
        if heard:
            _warn(
                f"the PDF parser reported {len(heard)} problem(s) reading it (the first: "
                f"{heard[0][:120]}); what it could read is kept"
            )
        return read_back
    except PDFTextExtractionNotAllowed as exc:
        raise IngestError(
            path, "the PDF forbids text extraction", hint="export an unrestricted copy"
        ) from exc
    except ReferenceLoop as exc:
        raise IngestError(
            path, f"{exc}: a damaged or hostile file", hint=_PDF_INVALID_HINT
        ) from exc
    except PDFEncryptionError as exc:  # includes PDFPasswordIncorrect
        raise IngestError(
            path, "the PDF is encrypted", hint="save a decrypted copy and ingest that"
        ) from exc
    # Damaged PDFs make pdfminer fail in many ways (PSEOF, PDFSyntaxError, KeyError,
    # TypeError, zlib.error, ...); all of them mean the same thing to the user.
    except MemoryError:
        raise  # the bounded reader reports the memory limit it hit
    except Exception as exc:
        raise IngestError(
            path, f"cannot read the PDF: {type(exc).__name__}: {exc}", hint=_PDF_INVALID_HINT
        ) from exc


class _Heard(logging.Handler):
    """Keeps what pdfminer logs, for the ingest's warnings."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.messages) < _COMPLAINTS_KEPT:
            self.messages.append(record.getMessage())
        else:
            self.messages.append("")  # counted, not kept


@contextmanager
def _parser_complaints() -> Iterator[list[str]]:
    """pdfminer's warnings while it reads, taken from stderr into a list: a damaged PDF
    logs one a page or an object, which would flood a terminal and say nothing a report
    cannot say once, counted."""
    logger = logging.getLogger("pdfminer")
    heard = _Heard()
    before = logger.propagate
    logger.addHandler(heard)
    logger.propagate = False
    try:
        yield heard.messages
    finally:
        logger.removeHandler(heard)
        logger.propagate = before
