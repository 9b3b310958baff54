"""PDF files to units via pdfminer.six: its extracted text, laid out like a text file."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

from affidavit.errors import IngestError, IngestWarning
from affidavit.ingest.readers.checks import lay_out_checked
from affidavit.ingest.readers.decode import normalise_text
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
    text = pdf_text(path, data)
    if not text.strip():
        raise IngestError(
            path,
            "the PDF has no extractable text; it is probably scanned images",
            hint="run OCR on it first, e.g. with ocrmypdf, and ingest the result",
        )
    # Page breaks come out as form feeds; they are kept, and read as line breaks by layout.
    text, running = left_out_running(normalise_text(text))
    if running is not None:
        shown = "; ".join(repr(example) for example in running.examples[:3])
        warnings.warn(
            IngestWarning(
                f"{running.removed} running header and footer lines left out "
                f"({len(running.examples)} kinds over {running.pages} pages, e.g. {shown})"
            ),
            stacklevel=2,
        )
    return lay_out_checked(text, path)


# NOTE: pdfminer is imported only when a PDF is read (it costs ~50 ms).
def pdf_text(path: Path, data: bytes) -> str:
    """pdfminer.six's text with its default layout, as ``pdf2txt.py`` prints it; every way
    it can fail on a damaged, encrypted or restricted file becomes an ``IngestError``."""
    if not has_pdf_header(data):
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
    except MemoryError:
        raise  # the bounded reader reports the memory limit it hit
    except Exception as exc:
        raise IngestError(
            path, f"cannot read the PDF: {type(exc).__name__}: {exc}", hint=_PDF_INVALID_HINT
        ) from exc
