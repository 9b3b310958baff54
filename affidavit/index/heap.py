"""Giving the memory a finished index build freed back to the system.

glibc's malloc keeps freed memory for the process to reuse: after building a large
index (thousands of arrays of a few MB, freed in no particular order) it kept 185 MB
of a 100 MB store's word index build that nothing held any more (measured with
/proc/self/status). While the entity graph is mined in a forked worker, what this
process keeps adds to what the two hold together, so each build stage hands the freed
pages back. On a C library without ``malloc_trim`` (macOS, musl) nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools


@functools.cache
def _trim() -> object | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None


def give_back_freed_memory() -> bool:
    """Return the C heap's free pages to the system; whether the C library could."""
    trim = _trim()
    if trim is None:
        return False
    trim(0)  # type: ignore[operator]
    return True
