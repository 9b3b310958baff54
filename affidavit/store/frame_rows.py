"""Each line's clause frames, kept in the store: made the first time a judge reads the
line, read back after (a line's frames never change while the frame reader does not). A
store opened read-only, or one from before the table (schema 17), keeps none: its frames
are read again each time."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping

from affidavit.store.schema import has_table
from affidavit.store.sqlite import Store


def frames_key(version: int, text: str) -> str:
    """The key a line's frames are kept under: the reader's version and the line's text."""
    return hashlib.sha1(f"{version}\0{text}".encode()).hexdigest()


class StoredFrames:
    """One store's kept frames, as the frame codec writes them (frames/codec.py)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def get(self, keys: Iterable[str]) -> dict[str, str]:
        """The kept frames of those of ``keys`` that have them."""
        wanted = sorted(set(keys))
        if not wanted or not has_table(self._store.conn, "line_frames"):
            return {}
        found: dict[str, str] = {}
        for start in range(0, len(wanted), 500):  # SQLite's bound on parameters
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT key, frames FROM line_frames WHERE key IN ({marks})"
            found.update((str(k), str(f)) for k, f in self._store.conn.execute(query, chunk))
        return found

    def put(self, frames: Mapping[str, str]) -> None:
        """Keep ``frames`` (key to text); inside a read, once the read ends. A read-only
        store is not written, and a busy one only means they are read again next time."""
        if not frames or self._store.read_only:
            return
        self._store.write_after_read(functools.partial(self._write, dict(frames)))

    def _write(self, frames: dict[str, str]) -> None:
        with self._store.transaction() as conn:
            conn.executemany(
                "INSERT INTO line_frames (key, frames) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                sorted(frames.items()),
            )
