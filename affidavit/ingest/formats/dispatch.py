"""Files to units: the front door of ingest, choosing a reader for each document format
(``read_document``; ``read_text`` for a string), and the files of a folder to ingest."""

from __future__ import annotations

import os
from pathlib import Path

from affidavit.errors import IngestError
from affidavit.ingest.formats.checks import lay_out_checked
from affidavit.ingest.formats.decode import MAX_LINE_CHARS, looks_binary, normalise_text, read_bytes
from affidavit.ingest.formats.format_table import (
    SUPPORTED_SUFFIXES,
    FormatKind,
    format_by_suffix,
    reader_for,
    skipped_because,
)
from affidavit.ingest.formats.markdown import lay_out_markdown
from affidavit.ingest.formats.pdf import pdf_text
from affidavit.ingest.units import Unit

__all__ = [
    "MAX_LINE_CHARS",
    "SUPPORTED_SUFFIXES",
    "iter_document_files",
    "read_document",
    "read_text",
]

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
    units = reader_for(path, data)(path, data)
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
    """Every file under ``folder`` (recursively) that reads as a document: its suffix is
    in ``SUPPORTED_SUFFIXES``, or its bytes say what it is (registry.skipped_because: a
    PDF, DOCX, HTML page or gzip file of any name, text under a name with no extension,
    as README, copyright and changelog.Debian.gz are).

    Left out without a word: hidden files and folders (``.git``, ``.DS_Store``) and Office
    lock files (``~$report.docx``). Left out and said in ``skipped``, each with why:
    files that are no document (binary data, an image, a zip archive), text under an
    extension that is no document format (code and data, ``.py``, ``.json``: pass such a
    file to ``read_document`` by name to read it as text), special files (FIFOs, devices,
    sockets) and links that lead out of the folder or to no regular file (reading them
    could block forever or read without end). Sorted by path components, so the order
    is the same on every machine. A folder that cannot be listed is an error rather than
    a silently partial result.
    """
    root = Path(folder)
    if not root.is_dir():
        raise IngestError(root, "not a folder", hint="pass a folder of documents")

    def fail(exc: OSError) -> None:
        raise IngestError(
            exc.filename or root, "cannot list this folder", hint="make it readable"
        ) from exc

    found: list[Path] = []
    left_out: list[tuple[Path, str]] = []
    for dirpath, dirnames, filenames in os.walk(root, onerror=fail):
        dirnames[:] = [name for name in dirnames if not name.startswith(".")]
        for name in filenames:
            if name.startswith((".", "~$")):
                continue
            file = Path(dirpath) / name
            why = _unsafe(file, root) or skipped_because(file)
            if why is None:
                found.append(file)
            else:
                left_out.append((file, why))
    if skipped is not None:
        left_out.sort(key=lambda pair: pair[0].relative_to(root).parts)
        skipped.extend(f"{storable_path(str(f))}: skipped, {why}" for f, why in left_out)
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


def _laid_out(text: str, source: str | Path) -> list[Unit]:
    """Text laid out as units; Markdown's front matter and inline marks read first."""
    named = format_by_suffix(Path(str(source)).name)
    if named is not None and named.kind is FormatKind.MARKDOWN:
        return lay_out_markdown(text, source)
    return lay_out_checked(text, source)
