"""What a store says when something goes wrong beneath it: the store named, what happened
and what to do, and who holds the write lock another writer waits for."""

from __future__ import annotations

import os
import socket
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from affidavit.errors import StoreError

_T = TypeVar("_T")
RECOVER = (
    "recover it with `sqlite3 STORE .recover | sqlite3 NEW` and open NEW, or ingest the "
    "documents again into a new store"
)


def store_failure(path: str | None, error: sqlite3.Error, waited_s: float) -> StoreError:
    """The StoreError a raw SQLite error stands for (a lock held by another writer, a
    damaged or read-only file), naming the store and the way out."""
    said = str(error)
    if "locked" in said or "busy" in said:
        return StoreError(
            path,
            f"the store is locked by another writer{lock_holder(path)}; waited {waited_s:g} s",
            "wait for that writer to finish, or open the store with a longer timeout=",
        )
    if "readonly" in said or "read-only" in said:
        return StoreError(
            path,
            "the store file is read-only",
            "search and ask it as it is, or make the file and its folder writable to ingest",
        )
    if "not a database" in said:
        return StoreError(path, f"not a usable affidavit store ({said})", "pass a new file name")
    return StoreError(path, f"the store is damaged or unreadable ({said})", RECOVER)


def _note_path(path: str) -> Path:
    return Path(f"{path}-writer")


@contextmanager
def writer_note(path: str | None) -> Iterator[None]:
    """Leave a note naming this process beside the store while it holds the write lock
    (``<store>-writer``: its process id, host and start time), so a writer that waits in
    vain can say who holds it."""
    if path is None:
        yield
        return
    note = _note_path(path)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    with suppress(OSError):  # a note that cannot be written only loses the holder's name
        note.write_text(f"{os.getpid()} {socket.gethostname()} {started}\n", encoding="utf-8")
    try:
        yield
    finally:
        with suppress(OSError):
            note.unlink()


def lock_holder(path: str | None) -> str:
    """ " (process 1234 on host, since 2026-12-01T03:00:00+00:00)", or "" unknown."""
    if path is None:
        return ""
    try:
        pid, host, since = _note_path(path).read_text(encoding="utf-8").split()[:3]
    except (OSError, ValueError):
        return ""
    return f" (process {pid} on {host}, writing since {since})"


def decoded(payload: bytes | None, read: Callable[[bytes], _T]) -> _T | None:
    """A cached index read back, or None when the cache cannot be read (a damaged or
    foreign payload): the caller rebuilds it from the lines, and caching the rebuilt
    index replaces the damaged one."""
    if payload is None:
        return None
    try:
        return read(payload)
    except Exception:  # noqa: BLE001 — any failure to decode a derived cache means rebuild
        return None
