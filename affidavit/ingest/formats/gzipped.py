"""gzip-compressed files: how much one unpacks to, counted a piece at a time before it is
read (a few kilobytes may unpack to gigabytes), its first unpacked bytes, and its whole
contents. A file of several gzip members (``cat a.gz b.gz``) unpacks as gunzip does."""

from __future__ import annotations

import gzip
import zlib
from typing import IO

__all__ = ["DAMAGED", "unpacked", "unpacked_head", "unpacked_size"]

# What a damaged or truncated gzip file raises while it is unpacked.
DAMAGED = (gzip.BadGzipFile, EOFError, zlib.error, OSError)
_PIECE = 1 << 20


def unpacked_size(source: IO[bytes], bound: int) -> int:
    """The bytes ``source`` unpacks to, counted up to ``bound`` and one piece past it,
    holding one piece at a time; raises one of ``DAMAGED`` for a damaged file."""
    size = 0
    with gzip.GzipFile(fileobj=source) as unpacking:
        while size <= bound:
            piece = unpacking.read(_PIECE)
            if not piece:
                break
            size += len(piece)
    return size


def unpacked_head(source: IO[bytes], size: int) -> bytes:
    """The first ``size`` unpacked bytes of ``source`` (all of them when fewer); raises
    one of ``DAMAGED`` for a damaged file."""
    with gzip.GzipFile(fileobj=source) as unpacking:
        return unpacking.read(size)


def unpacked(data: bytes) -> bytes:
    """All that ``data`` unpacks to; raises one of ``DAMAGED`` for a damaged file."""
    return gzip.decompress(data)
