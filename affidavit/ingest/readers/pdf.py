"""PDF files to units via pdfminer.six: its extracted text, laid out like a text file."""

from __future__ import annotations

import io
import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from affidavit.errors import IngestError, IngestWarning
from affidavit.ingest.readers.checks import lay_out_checked
from affidavit.ingest.readers.decode import normalise_text
from affidavit.ingest.readers.inflation import inflated_beyond
from affidavit.ingest.readers.ocr import OcrRow, ocr_available, ocr_pages, page_text
from affidavit.ingest.readers.pdf_references import ReferenceLoop, follow_chains_once
from affidavit.ingest.readers.running import left_out_running
from affidavit.ingest.units import Unit

__all__ = ["has_pdf_header", "pdf_text", "read_pdf"]

# PDF readers accept the header anywhere in the first KiB (some files carry leading junk).
_PDF_MAGIC = b"%PDF-"
_PDF_MAGIC_WINDOW = 1024

_PDF_INVALID_HINT = "the file is not a valid PDF or is truncated; download or re-export it"


def has_pdf_header(data: bytes) -> bool:
    return _PDF_MAGIC in data[:_PDF_MAGIC_WINDOW]


def read_pdf(path: Path, data: bytes) -> list[Unit]:
    """A PDF's pages laid out as text; a page with no text layer (a scanned image) read by
    OCR when the ``ocr`` extra is installed, and reported in the warnings otherwise."""
    pages = pdf_text(path, data).split("\f")
    if pages and not pages[-1].strip():
        pages.pop()  # pdfminer ends every page, the last too, with a form feed
    blank = [number for number, page in enumerate(pages) if not page.strip()]
    read: dict[int, list[OcrRow]] = {}
    if blank and ocr_available():
        read = _read_by_ocr(path, data, blank)
    unread = [number for number in blank if not read.get(number)]
    if len(unread) == len(pages):
        hint = "install affidavit[ocr] to read scanned pages, or run OCR on it first"
        if read:  # OCR ran and found nothing either
            hint = "OCR found no text on its pages either"
        raise IngestError(path, "the PDF has no extractable text (scanned images?)", hint=hint)
    if unread and not read:
        _warn(
            f"{len(unread)} of {len(pages)} pages have no text layer (blank, or scanned "
            f"images) and were not read: pages {_listed(unread)}; install affidavit[ocr] to "
            "read them by OCR"
        )
    if read:
        said = [number for number in blank if read.get(number)]
        _warn(f"{len(said)} scanned pages read by OCR (pages {_listed(said)})")
    return _laid_out(path, pages, read)


def _read_by_ocr(path: Path, data: bytes, pages: list[int]) -> dict[int, list[OcrRow]]:
    """OCR's rows of ``pages``; every way the renderer or the recogniser fails on a
    damaged page becomes an ``IngestError`` naming the file, as pdfminer's do."""
    try:
        return ocr_pages(data, pages)
    except MemoryError:
        raise  # the bounded reader reports the memory limit it hit
    except Exception as exc:
        raise IngestError(
            path,
            f"OCR could not read its scanned pages: {type(exc).__name__}: {exc}",
            hint="check the PDF opens in a viewer, or ingest it without the ocr extra",
        ) from exc


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


# NOTE: pdfminer is imported only when a PDF is read (it costs ~50 ms).
def pdf_text(path: Path, data: bytes) -> str:
    """pdfminer.six's text with its default layout, as ``pdf2txt.py`` prints it; every way
    it can fail on a damaged, encrypted or restricted file becomes an ``IngestError``."""
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
    from pdfminer.high_level import extract_text
    from pdfminer.pdfdocument import PDFEncryptionError, PDFTextExtractionNotAllowed

    follow_chains_once()

    try:
        with _parser_complaints() as heard:
            text = extract_text(io.BytesIO(data))
        if heard:
            _warn(
                f"the PDF parser reported {len(heard)} problem(s) reading it (the first: "
                f"{heard[0][:120]}); what it could read is kept"
            )
        return text
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
