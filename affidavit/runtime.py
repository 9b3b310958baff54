"""The process's own resources: the cores it may run on, and the heap it hands back."""

from __future__ import annotations

import ctypes
import functools
import os


@functools.cache
def _trim() -> object | None:
    """glibc's ``malloc_trim``, from the C library this process already runs on."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):  # not glibc, or no C library by name
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


# NOTE: glibc's malloc keeps freed memory for the process to reuse: after building a large
# index (thousands of arrays of a few MB, freed in no particular order) it kept 185 MB
# of a 100 MB store's word index build that nothing held any more (measured with
# /proc/self/status). While the entity graph is mined in a forked worker, what this
# process keeps adds to what the two hold together, so each build stage hands the freed
# pages back. On a C library without ``malloc_trim`` (macOS, musl) nothing is done.
def give_back_freed_memory() -> bool:
    """Return the C heap's free pages to the system; whether the C library could."""
    trim = _trim()
    if trim is None:
        return False
    trim(0)  # type: ignore[operator]
    return True


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the system tells it): what
    the ingest's readers and the batch's workers are sized by too."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
