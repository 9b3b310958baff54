"""Bytes to checked text, the first step of ingesting any text-like file: one ``str`` safe
to cut into lines, or an IngestError naming the file and what to do (never a raw
``UnicodeDecodeError``)."""

from __future__ import annotations

import codecs
import unicodedata
import warnings
from pathlib import Path

from charset_normalizer import from_bytes

from affidavit.errors import IngestError, IngestWarning

# A line this long is not prose: it is a dump, a minified blob or a file with no newlines.
# Cutting it into evidence lines would be slow and meaningless, so we refuse it up front.
MAX_LINE_CHARS = 100_000

# Binary files almost always show a NUL byte early on; text (other than UTF-16/32) never does.
_SNIFF_BYTES = 8 * 1024

# UTF-32 marks come first: the UTF-32-LE mark begins with the UTF-16-LE one.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_BOM_LABELS = {"utf-32": "UTF-32", "utf-8-sig": "UTF-8", "utf-16": "UTF-16"}

# charset-normalizer's mess ratio (0 = clean, 1 = garbage); above this we do not trust a guess.
_MAX_CHAOS = 0.1

# How close another candidate must be to the best guess to count as "just as plausible".
_TIE_CHAOS = 0.02
_TIE_COHERENCE = 0.1

# Labels that, like browsers (WHATWG encoding standard), we read as windows-1252: it is a
# superset of Latin-1 for printable text and what such files nearly always really are.
_AS_CP1252 = frozenset({"latin_1", "iso8859_1", "ascii", "cp819", "l1", "latin1", "cp1252"})

_UTF8_BOM = "\ufeff"

# Control (except layout ones), private-use, unassigned and surrogate characters: real text
# in a correctly guessed encoding has next to none of them.
_ODD_CATEGORIES = frozenset({"Cc", "Co", "Cn", "Cs"})
_TEXT_CONTROLS = frozenset("\t\n\r\f\v")
_MAX_ODD_SHARE = 0.01
_PLAUSIBILITY_SAMPLE = 64 * 1024


def read_bytes(path: Path) -> bytes:
    """The whole content of ``path``; every way of failing becomes an ``IngestError``."""
    try:
        return path.read_bytes()
    except FileNotFoundError as exc:
        raise IngestError(path, "no such file", hint="check the path and try again") from exc
    except IsADirectoryError as exc:
        raise IngestError(
            path, "is a folder, not a file", hint="ingest the folder's files instead"
        ) from exc
    except PermissionError as exc:
        raise IngestError(
            path, "permission denied", hint="make the file readable and try again"
        ) from exc
    except OSError as exc:
        raise IngestError(
            path, f"cannot read the file: {exc.strerror or exc}", hint="check the file"
        ) from exc


def decode_bytes(data: bytes, *, path: str | Path | None, declared: str | None = None) -> str:
    """Decode a text file's bytes and normalise the result (see ``normalise_text``).

    Order of evidence: a byte-order mark; strict UTF-8 (valid non-ASCII UTF-8 is almost
    never anything else); the encoding the document itself ``declared`` (HTML ``<meta
    charset>``), if Python knows it and it decodes cleanly; charset-normalizer's guess when
    it is confident. Otherwise the file is refused rather than decoded into mojibake.
    """
    text = _decode_by_bom(data, path)
    if text is None:
        _refuse_binary(data, path)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = _decode_legacy(data, path, declared)
    nul = text.find("\x00")
    if nul >= 0:
        # Past the first bytes sniffed for binary: a damaged or spliced file. Storing
        # the NULs would put invisible characters into cited lines; dropping them silently
        # would hide the damage.
        raise IngestError(
            path,
            f"a NUL character at character {nul:,}: the text is damaged or not text",
            hint="remove the NUL characters (e.g. tr -d '\\000') if the rest is text",
        )
    return normalise_text(text)


def _decode_by_bom(data: bytes, path: str | Path | None) -> str | None:
    """The text if ``data`` starts with a byte-order mark, else None."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            label = _BOM_LABELS[encoding]
            try:
                return data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise IngestError(
                    path,
                    f"the file starts with a {label} byte-order mark but is not valid {label} "
                    f"(at byte {exc.start})",
                    hint="save it as UTF-8",
                ) from exc
    return None


def _refuse_binary(data: bytes, path: str | Path | None) -> None:
    if b"\x00" in data[:_SNIFF_BYTES]:
        raise IngestError(
            path,
            "binary file, not text",
            hint="convert it to a supported format (text, CSV, HTML, PDF, DOCX); "
            "UTF-16 text without a byte-order mark must be saved as UTF-8",
        )


def _decode_legacy(data: bytes, path: str | Path | None, declared: str | None) -> str:
    """Non-UTF-8 text: the declared encoding if it fits, else a confident guess."""
    if declared:
        text = _decode_declared(data, declared)
        if text is not None and _plausible_text(text):
            return text
    encoding = guess_encoding(data)
    if encoding is not None:
        try:
            text = data.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            text = None
        if text is not None and _plausible_text(text):
            # A guess, however confident: said, so a garbled line can be traced to it.
            warnings.warn(
                IngestWarning(
                    f"not UTF-8: its encoding was guessed as {encoding} (save it as UTF-8 "
                    "if a line reads wrong)"
                ),
                stacklevel=3,
            )
            return text
    raise IngestError(path, "cannot tell the text encoding", hint="save it as UTF-8")


def _plausible_text(text: str) -> bool:
    """Whether a legacy decoding reads like text: almost no control or unassigned characters.

    A wrong single-byte or CJK decoding of non-text still "succeeds"; this catches it.
    """
    sample = text[:_PLAUSIBILITY_SAMPLE]
    if not sample:
        return True
    odd = sum(
        1
        for char in sample
        if char not in _TEXT_CONTROLS and unicodedata.category(char) in _ODD_CATEGORIES
    )
    return odd <= len(sample) * _MAX_ODD_SHARE


def _decode_declared(data: bytes, declared: str) -> str | None:
    """``data`` decoded with the encoding the document names, or None if that fails."""
    try:
        name = codecs.lookup(declared.strip()).name
    except LookupError:
        return None
    if name.replace("-", "_") in _AS_CP1252:
        name = "cp1252"
    try:
        return data.decode(name)
    except (UnicodeDecodeError, LookupError):
        # LookupError: a codec that is no text encoding ("rot13", "base64"), named by a
        # <meta charset>; the declaration is ignored and the bytes guessed.
        return None


def guess_encoding(data: bytes) -> str | None:
    """charset-normalizer's best guess at a legacy encoding, or None when it is not confident.

    On short Western European text charset-normalizer often ranks a DOS or Central European
    code page first (cp775 for Spanish, cp1250 for Portuguese and German) even though
    windows-1252 decodes it just as cleanly. So among the candidates that are about as
    clean and coherent as the best one, windows-1252 wins: it is by far the most common
    legacy encoding. (The cost: Hungarian cp1250 text that reads cleanly as cp1252 too is
    misread; such files should be saved as UTF-8.)
    """
    # No fallback: ASCII and UTF-8 were ruled out already, so a fallback would be a wrong guess.
    matches = list(from_bytes(data, enable_fallback=False))
    if not matches:
        return None
    best = min(matches, key=lambda m: (m.chaos, -m.coherence))
    if best.chaos > _MAX_CHAOS:
        return None
    for match in matches:
        close = (
            match.chaos <= best.chaos + _TIE_CHAOS
            and match.coherence >= best.coherence - _TIE_COHERENCE
        )
        aliases = {name.replace("-", "_") for name in match.could_be_from_charset}
        if close and aliases & _AS_CP1252:
            return "cp1252"
    encoding = best.encoding.replace("-", "_")
    return "cp1252" if encoding in _AS_CP1252 else best.encoding


def normalise_text(text: str) -> str:
    """Newlines as ``\\n``, a stray leading BOM dropped, characters in NFC form."""
    if text.startswith(_UTF8_BOM):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    # The quick check makes this nearly free for text that is already NFC (most of it).
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text


def check_text(text: str, *, path: str | Path | None) -> None:
    """Refuse text that holds nothing or has a line too long to be prose."""
    if not text.strip():
        raise IngestError(path, "empty document", hint="nothing to ingest")
    long_line = find_long_line(text)
    if long_line is not None:
        number, length = long_line
        raise IngestError(
            path,
            f"line {number} is {length:,} characters long (the limit is {MAX_LINE_CHARS:,})",
            hint="split it into lines or paragraphs",
        )


def looks_binary(text: str) -> bool:
    """Whether a string starts like decoded binary data (a NUL character early on)."""
    return "\x00" in text[:_SNIFF_BYTES]


def find_long_line(text: str) -> tuple[int, int] | None:
    """(line number, length) of the first line over ``MAX_LINE_CHARS``, or None.

    Runs in C-speed string operations, so a 5 MB single line is judged in milliseconds.
    """
    if len(text) <= MAX_LINE_CHARS:
        return None
    lines = text.split("\n")
    if max(map(len, lines)) <= MAX_LINE_CHARS:
        return None
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE_CHARS:
            return number, len(line)
    return None  # Unreachable: the max above found one.
