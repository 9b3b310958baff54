"""Files to units: the front door of ingest, choosing a reader for each document format
(``read_document``; ``read_text`` for a string), and the files of a folder to ingest."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from affidavit.errors import IngestError
from affidavit.ingest.readers.checks import lay_out_checked
from affidavit.ingest.readers.decode import (
    MAX_LINE_CHARS,
    decode_bytes,
    looks_binary,
    normalise_text,
    read_bytes,
)
from affidavit.ingest.readers.delimited import read_csv, read_tsv
from affidavit.ingest.readers.docx import read_docx
from affidavit.ingest.readers.html import read_html
from affidavit.ingest.readers.markdown import is_markdown, lay_out_markdown
from affidavit.ingest.readers.pdf import has_pdf_header, pdf_text, read_pdf
from affidavit.ingest.units import Unit

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

Reader = Callable[[Path, bytes], list[Unit]]

# NOTE: kept under its pre-split name; the reader tests call the PDF text extractor directly.
_pdf_text = pdf_text


# --- public entry points --------------------------------------------------------------------


def read_document(path: str | Path) -> list[Unit]:
    """Read one file into units (prose, headings, table rows) in document order, which the
    line splitter cuts into verbatim evidence lines.

    Every failure (unreadable file, wrong encoding, malformed table, broken or encrypted
    PDF, empty document, absurdly long line) is an ``IngestError`` that names the file and
    says what to do; no parser's own exception escapes.
    """
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
    return _laid_out(text, name)


def iter_document_files(folder: str | Path, skipped: list[str] | None = None) -> list[Path]:
    """Every file under ``folder`` (recursively) whose suffix is in ``SUPPORTED_SUFFIXES``.

    Skipped: hidden files and folders (``.git``, ``.DS_Store``), Office lock files
    (``~$report.docx``), and files with other suffixes — a folder of documents often holds
    code, images and data that were never meant as evidence; pass such a file to
    ``read_document`` explicitly to read it as text. Sorted by path components, so the
    order is the same on every machine. A folder that cannot be listed is an error rather
    than a silently partial result. Special files (FIFOs, devices, sockets) and links
    that lead out of the folder or to no regular file are skipped, each with a warning
    appended to ``skipped``: reading them could block forever or read without end.
    """
    root = Path(folder)
    if not root.is_dir():
        raise IngestError(root, "not a folder", hint="pass a folder of documents")

    def fail(exc: OSError) -> None:
        raise IngestError(
            exc.filename or root, "cannot list this folder", hint="make it readable"
        ) from exc

    found: list[Path] = []
    unsafe: list[tuple[Path, str]] = []
    for dirpath, dirnames, filenames in os.walk(root, onerror=fail):
        dirnames[:] = [name for name in dirnames if not name.startswith(".")]
        for name in filenames:
            if _is_document_name(name):
                file = Path(dirpath) / name
                why = _unsafe(file, root)
                if why is None:
                    found.append(file)
                else:
                    unsafe.append((file, why))
    if skipped is not None:
        unsafe.sort(key=lambda pair: pair[0].relative_to(root).parts)
        skipped.extend(f"{storable_path(str(f))}: skipped, {why}" for f, why in unsafe)
    return sorted(found, key=lambda p: p.relative_to(root).parts)


def storable_path(path: str) -> str:
    """A path as text the store can keep: bytes that are not UTF-8 written as escapes
    ("caf\\xe9.txt"), so one such file name never fails a whole folder."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _unsafe(file: Path, root: Path) -> str | None:
    """Why ``file`` must not be read as a document of ``root``, or None."""
    try:
        if file.is_symlink():
            target = file.resolve(strict=True)
            if not target.is_relative_to(root.resolve()):
                return f"a link out of the folder (to {target})"
        if not file.is_file():
            return "not a regular file (a FIFO, device or socket)"
    except (OSError, RuntimeError):
        return "a broken or looping link"
    return None


def _is_document_name(name: str) -> bool:
    if name.startswith((".", "~$")):
        return False
    return Path(name).suffix.lower() in SUPPORTED_SUFFIXES


def _reader_for(path: Path, data: bytes) -> Reader:
    """Text-like files are decoded (``decode``) and laid out (``lay_out``); CSV/TSV, HTML,
    PDF and DOCX have readers of their own, so tables keep their rows and column names."""
    suffix = path.suffix.lower()
    if suffix in _TEXT_SUFFIXES:
        return _read_plain
    readers: dict[str, Reader] = {
        ".csv": read_csv,
        ".tsv": read_tsv,
        ".html": read_html,
        ".htm": read_html,
        ".pdf": read_pdf,
        ".docx": read_docx,
    }
    if suffix in readers:
        return readers[suffix]
    # An unknown suffix is read as text, unless the bytes plainly say it is a PDF.
    return read_pdf if has_pdf_header(data) else _read_plain


def _read_plain(path: Path, data: bytes) -> list[Unit]:
    return _laid_out(decode_bytes(data, path=path), path)


def _laid_out(text: str, source: str | Path) -> list[Unit]:
    """Text laid out as units; Markdown's front matter and inline marks read first."""
    return lay_out_markdown(text, source) if is_markdown(source) else lay_out_checked(text, source)
