"""The document formats affidavit reads, in one table: each format's suffixes, the
signature that tells it by its bytes, its reader, and the check it passes before it is
read. Dispatch (``reader_for``), the suffixes a folder's walk picks up
(``SUPPORTED_SUFFIXES``), why a folder's other files are left out (``skipped_because``),
the checks before reading (``check_before_reading``) and the hint that names the formats
(``supported_formats_hint``) are read off the table: a new format is one row.

A document's name says nothing of its format to the index: the extensions that end it are
left out of its terms by their shape (text/filenames.py), which covers every suffix here
and any a sniffed file carries, and keeps the text room from importing this one."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import IO

from affidavit.errors import IngestError
from affidavit.ingest.formats.checks import lay_out_checked
from affidavit.ingest.formats.decode import decode_bytes
from affidavit.ingest.formats.delimited import read_csv, read_tsv
from affidavit.ingest.formats.docx import read_docx
from affidavit.ingest.formats.gzipped import DAMAGED, unpacked, unpacked_head, unpacked_size
from affidavit.ingest.formats.html import read_html
from affidavit.ingest.formats.markdown import lay_out_markdown
from affidavit.ingest.formats.pdf import read_pdf
from affidavit.ingest.formats.sniff import (
    SNIFF_BYTES,
    is_docx,
    is_gzip,
    is_html,
    is_pdf,
    is_zip,
    why_not_text,
)
from affidavit.ingest.units import Unit
from affidavit.text import last_extension

__all__ = [
    "FORMATS",
    "SUPPORTED_SUFFIXES",
    "DocumentFormat",
    "FormatKind",
    "check_before_reading",
    "format_by_suffix",
    "reader_for",
    "skipped_because",
    "supported_formats_hint",
]

Reader = Callable[[Path, bytes], list[Unit]]
# A format's signature: its first bytes, and the whole file (seekable, at its start) for
# a format told by more than its first bytes (a DOCX by its zip directory, at the end).
Signature = Callable[[bytes, IO[bytes]], bool]
# A check before reading: an IngestError naming the file when it would unpack to more
# than ``IngestLimits.unpacked_mb`` megabytes (the file read a piece at a time, not whole).
Check = Callable[[Path, int], None]


class FormatKind(StrEnum):
    TEXT = "text"
    MARKDOWN = "markdown"
    CSV = "csv"
    TSV = "tsv"
    HTML = "html"
    PDF = "pdf"
    DOCX = "docx"
    GZIP = "gzip"


@dataclass(frozen=True, slots=True)
class DocumentFormat:
    """One format: the suffixes that name it (the first is how hints name it), how it is
    read, how it is told by its bytes under another name (None: by name only; text,
    which has no signature, is what decodes as text), and the check a container passes
    before it is opened (None: nothing to unpack)."""

    kind: FormatKind
    suffixes: tuple[str, ...]
    reader: Reader
    signature: Signature | None = None
    check: Check | None = None


def _read_text(path: Path, data: bytes) -> list[Unit]:
    return lay_out_checked(decode_bytes(data, path=path), path)


def _read_markdown(path: Path, data: bytes) -> list[Unit]:
    return lay_out_markdown(decode_bytes(data, path=path), path)


def _check_docx(path: Path, unpacked_mb: int) -> None:
    """A DOCX is measured by its zip directory before it is opened."""
    if not zipfile.is_zipfile(path):
        return
    try:
        with zipfile.ZipFile(path) as archive:
            size = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, NotImplementedError, ValueError, EOFError):
        # A damaged directory (NotImplementedError: a "version" no zip has): the DOCX
        # reader, in its bounded worker, says what is wrong with it.
        return
    if size > unpacked_mb * 2**20:
        raise IngestError(
            path,
            f"it unpacks to {size / 2**20:.0f} MB, more than the {unpacked_mb} MB limit",
            _RAISE_UNPACKED,
        )


def _check_gzip(path: Path, unpacked_mb: int) -> None:
    """A gzip file is unpacked a piece at a time and counted, up to the bound, before
    it is read whole."""
    try:
        with path.open("rb") as source:
            size = unpacked_size(source, unpacked_mb * 2**20)
    except DAMAGED:
        return  # the reader says what is wrong with it
    if size > unpacked_mb * 2**20:
        raise IngestError(
            path, f"it unpacks to more than the {unpacked_mb} MB limit", _RAISE_UNPACKED
        )


def _read_gzip(path: Path, data: bytes) -> list[Unit]:
    """What a gzip file holds, read as its name without ".gz" (or its bytes) say; a
    container inside it (a DOCX, another gzip file) is not opened."""
    try:
        inner = unpacked(data)
    except DAMAGED as exc:
        raise IngestError(
            path,
            f"a damaged gzip file ({type(exc).__name__}: {exc})",
            "check that gunzip unpacks it",
        ) from exc
    name = _inner_name(path.name)
    found = format_by_suffix(name) or _judged(name, inner, io.BytesIO(inner), any_text=True)
    if isinstance(found, str):
        found = _TEXT  # the text reader says why the bytes are not text
    if found.check is not None:
        raise IngestError(
            path,
            f"a {found.kind.value} file compressed with gzip",
            "unpack it with gunzip and ingest what it holds",
        )
    return found.reader(path, inner)


_RAISE_UNPACKED = (
    "raise the limit with Memory.ingest(..., limits=IngestLimits(unpacked_mb=...)) if you "
    "trust the file"
)
_TEXT = DocumentFormat(FormatKind.TEXT, (".txt", ".text", ".rst"), _read_text)
FORMATS: tuple[DocumentFormat, ...] = (
    _TEXT,
    DocumentFormat(FormatKind.MARKDOWN, (".md", ".markdown"), _read_markdown),
    DocumentFormat(FormatKind.CSV, (".csv",), read_csv),
    DocumentFormat(FormatKind.TSV, (".tsv",), read_tsv),
    DocumentFormat(FormatKind.HTML, (".html", ".htm"), read_html, lambda head, _: is_html(head)),
    DocumentFormat(FormatKind.PDF, (".pdf",), read_pdf, lambda head, _: is_pdf(head)),
    DocumentFormat(
        FormatKind.DOCX,
        (".docx",),
        read_docx,
        lambda head, whole: is_zip(head) and is_docx(whole),
        _check_docx,
    ),
    DocumentFormat(
        FormatKind.GZIP, (".gz",), _read_gzip, lambda head, _: is_gzip(head), _check_gzip
    ),
)
_BY_SUFFIX = {suffix: form for form in FORMATS for suffix in form.suffixes}
# The suffixes a folder's walk reads by name (``read_document`` reads any file its bytes
# tell); public, under this name, since the first release.
SUPPORTED_SUFFIXES = frozenset(_BY_SUFFIX)


def supported_formats_hint() -> str:
    """What to point an ingest at, for an error's hint: "point at .txt, .md, ... files"."""
    named = [form.suffixes[0] for form in FORMATS]
    return (
        f"point at {', '.join(named[:-1])} or {named[-1]} files, or at files named without "
        "an extension (README, copyright) that hold text"
    )


def format_by_suffix(name: str) -> DocumentFormat | None:
    """The format ``name``'s suffix says (case aside), or None."""
    return _BY_SUFFIX.get(Path(name).suffix.lower())


def reader_for(path: Path, data: bytes) -> Reader:
    """The reader of a file given by name: its suffix's, else its bytes' (text of any
    name is read as text); bytes that are no format go to the text reader, which says
    why they are not text."""
    found = format_by_suffix(path.name) or _judged(path.name, data, io.BytesIO(data), any_text=True)
    return found.reader if isinstance(found, DocumentFormat) else _TEXT.reader


def check_before_reading(path: Path, unpacked_mb: int) -> None:
    """The check of ``path``'s format (its suffix's, else its bytes'), run before it is
    read: an IngestError naming the file when it would unpack past ``unpacked_mb``."""
    found = format_by_suffix(path.name)
    if found is None:
        try:
            with path.open("rb") as source:
                judged = _judged(path.name, source.read(SNIFF_BYTES), source, any_text=True)
        except OSError:
            return  # the reader says why the file cannot be read
        found = judged if isinstance(judged, DocumentFormat) else None
    if found is not None and found.check is not None:
        found.check(path, unpacked_mb)


def skipped_because(file: Path) -> str | None:
    """None when a folder's walk reads the regular file ``file``; else why it is left
    out, as its warning says. A file named by a format's suffix is read; another is read
    when its bytes are a PDF, DOCX, HTML page or gzip file, or text under a name with no
    extension (README, copyright, changelog.Debian): a .json or .py file holding text is
    left out, and said. A gzip file is read when what it holds would be."""
    found = format_by_suffix(file.name)
    if found is not None and found.kind is not FormatKind.GZIP:
        return None
    try:
        with file.open("rb") as source:
            head = source.read(SNIFF_BYTES)
            judged = found or _judged(file.name, head, source, any_text=False)
    except OSError as exc:
        return f"it cannot be read ({exc.strerror or exc})"
    if isinstance(judged, str) or judged.kind is not FormatKind.GZIP:
        return judged if isinstance(judged, str) else None
    return _gzip_skipped_because(file)


def _gzip_skipped_because(file: Path) -> str | None:
    """Why a folder's walk leaves out the gzip file ``file``, judged by the first bytes
    it unpacks to, or None."""
    try:
        with file.open("rb") as source:
            inner = unpacked_head(source, SNIFF_BYTES)
    except DAMAGED as exc:  # a read error too: the file cannot be read as gzip
        return f"a damaged gzip file ({type(exc).__name__}: {exc})"
    name = _inner_name(file.name)
    held = format_by_suffix(name) or _judged(name, inner, io.BytesIO(inner), any_text=False)
    if isinstance(held, str):
        return f"compressed with gzip: {held}"
    if held.check is not None:
        return f"a {held.kind.value} file compressed with gzip (unpack it to ingest it)"
    return None


def _judged(name: str, data: bytes, whole: IO[bytes], *, any_text: bool) -> DocumentFormat | str:
    """The format ``data`` (a file's first bytes, or all of them) is by its signature,
    else text when it decodes as text (with ``any_text`` False, only under a name with no
    extension), else why it is none."""
    head = data[:SNIFF_BYTES]
    for form in FORMATS:
        if form.signature is not None and form.signature(head, whole):
            return form
    if is_zip(head):
        return "a zip archive, not a DOCX document"
    why = why_not_text(head, whole=len(data) < SNIFF_BYTES)
    if why is not None:
        return why
    extension = last_extension(name)
    if extension and not any_text:
        return (
            f"a {extension} file: text, but not a document format affidavit reads (ingest "
            "it by name to read it as text)"
        )
    return _TEXT


def _inner_name(name: str) -> str:
    """The name of what a gzip file holds: its own without ".gz"."""
    return name[: -len(".gz")] if name.lower().endswith(".gz") else name
