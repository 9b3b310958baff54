"""What a file is by its bytes, whatever its name: a PDF, a gzip file, a zip archive or an
HTML page by its first bytes (a DOCX by its zip directory), text by first bytes that
decode as text; anything else is binary. Pure judges over bytes, for the format table."""

from __future__ import annotations

import codecs
import re
import zipfile
from typing import IO

from affidavit.ingest.formats.decode import guess_encoding
from affidavit.ingest.formats.pdf import has_pdf_header

__all__ = ["SNIFF_BYTES", "is_docx", "is_gzip", "is_html", "is_pdf", "is_zip", "why_not_text"]

# The bytes a file is judged by (the whole file when it is shorter).
SNIFF_BYTES = 8 * 1024

_GZIP_MAGIC = b"\x1f\x8b"
_ZIP_MAGIC = b"PK\x03\x04"
_DOCX_BODY = "word/document.xml"
# A page, after a byte-order mark, white space, an XML declaration and comments: WHATWG's
# sniffing rule for the tags only a page starts with.
_HTML_START = re.compile(
    rb"\A(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]{0,200}>\s*)?(?:<!--.*?-->\s*){0,8}"
    rb"<(?:!doctype\s+html|html|head|body)[\s>]",
    re.IGNORECASE | re.DOTALL,
)
_UNICODE_MARKS = (
    codecs.BOM_UTF8,
    codecs.BOM_UTF16_LE,  # UTF-32-LE's mark begins with it
    codecs.BOM_UTF16_BE,
    codecs.BOM_UTF32_BE,
)
# Control bytes text never holds: all below a space but tab, line feed, vertical tab,
# form feed, carriage return and escape (ANSI colours in logs), and delete.
_CONTROLS = bytes([*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])
# The share of control bytes past which bytes are binary, as decode.py judges a decoding.
_MAX_CONTROL_SHARE = 0.01
# A UTF-8 character is at most four bytes: a head cut inside one ends in up to three.
_CUT_CHARACTER = 3


def is_pdf(head: bytes) -> bool:
    return has_pdf_header(head)


def is_gzip(head: bytes) -> bool:
    return head.startswith(_GZIP_MAGIC)


def is_zip(head: bytes) -> bool:
    return head.startswith(_ZIP_MAGIC)


def is_html(head: bytes) -> bool:
    return _HTML_START.match(head[:SNIFF_BYTES]) is not None


def is_docx(source: IO[bytes]) -> bool:
    """Whether the zip archive ``source`` (seekable, from its start) is a Word document:
    its directory, at the archive's end, names the document body."""
    try:
        with zipfile.ZipFile(source) as archive:
            return _DOCX_BODY in archive.namelist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        return False


def why_not_text(head: bytes, *, whole: bool) -> str | None:
    """None when ``head`` (a file's first bytes, or all of them when ``whole``) reads as
    text; else why not, as a warning says it."""
    if not head.strip():
        return "empty"
    if head.startswith(_UNICODE_MARKS):
        return None  # decode.py reads the text the mark announces, or says why not
    controls = len(head) - len(head.translate(None, _CONTROLS))
    if b"\x00" in head or controls > len(head) * _MAX_CONTROL_SHARE:
        return "binary data, not a document format affidavit reads"
    try:
        head.decode("utf-8")
        return None
    except UnicodeDecodeError as exc:
        if not whole and exc.start >= len(head) - _CUT_CHARACTER:
            return None  # valid UTF-8 cut inside its last character
    if guess_encoding(head) is not None:
        return None
    return "bytes that decode in no text encoding affidavit can tell"
