"""A PDF's deflate bomb found before its parser inflates it: the streams the parser would
read (content, fonts, object streams; not images, which text extraction never decodes)
are inflated a piece at a time and counted, and a file whose streams grow past a bound
is refused, having inflated no more than the bound.

pdfminer inflates a stream whole, in one call, when it first reads it: a 1 MB file whose
content stream inflates to 256 MB then parsed for minutes, and one of a gigabyte grew
past the memory bound."""

from __future__ import annotations

import re
import zlib

# The most a PDF's streams may inflate to: this many times the file, and never less than
# the floor (a small file of ordinary pages inflates to a few MB at most).
INFLATION_RATIO = 100
INFLATION_FLOOR = 48 * 2**20
# A stream's dictionary, then its data.
_STREAM = re.compile(rb"<<((?:(?!>>\s*stream).){0,4096}?)>>\s*stream\r?\n", re.S)
_PIECE = 1 << 20


def inflated_beyond(data: bytes) -> int | None:
    """The bytes ``data``'s deflated, non-image streams inflate to once past the bound
    (``INFLATION_RATIO`` times the file, at least ``INFLATION_FLOOR``), or None within it.
    A stream that does not inflate cleanly is left to the parser to judge."""
    bound = max(INFLATION_FLOOR, INFLATION_RATIO * len(data))
    total = 0
    for match in _STREAM.finditer(data):
        dictionary = match.group(1)
        if b"FlateDecode" not in dictionary or re.search(rb"/Subtype\s*/Image", dictionary):
            continue
        end = data.find(b"endstream", match.end())
        total += _inflated(data[match.end() : end if end >= 0 else len(data)], bound - total)
        if total > bound:
            return total
    return None


def _inflated(stream: bytes, room: int) -> int:
    """How many bytes ``stream`` inflates to, counted up to ``room`` plus one piece."""
    inflater = zlib.decompressobj()
    size = 0
    pending = stream
    try:
        while pending and size <= room and not inflater.eof:
            piece = inflater.decompress(pending, _PIECE)
            if not piece and inflater.unconsumed_tail == pending:
                break  # no progress: bytes past the stream's end, or a stalled stream
            size += len(piece)
            pending = inflater.unconsumed_tail
    except zlib.error:
        return size
    return size
