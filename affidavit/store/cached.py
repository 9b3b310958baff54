"""The store's cache of derived indexes (the word index, the meaning vectors, the entity
graph, each under the store generation it was built at), and the cache writes a read
snapshot puts off until it ends: a read never holds the writer's lock. Store inherits it."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager

from affidavit.errors import StoreError


class CachedIndexes:
    """The cache calls of Store (store/sqlite.py), over its connection."""

    path: str | None
    read_only: bool
    _reading: int  # depth of nested read snapshots
    _pending: list[Callable[[], None]]  # cache writes made inside a snapshot

    @property
    def conn(self) -> sqlite3.Connection:
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def cached(self, name: str, generation: int) -> bytes | None:
        row = self.conn.execute(
            "SELECT payload FROM index_cache WHERE name = ? AND generation = ?",
            (name, generation),
        ).fetchone()
        return bytes(row[0]) if row else None

    def has_cached(self, name: str, generation: int) -> bool:
        query = "SELECT 1 FROM index_cache WHERE name = ? AND generation = ?"
        return self.conn.execute(query, (name, generation)).fetchone() is not None

    def cached_latest(self, name: str) -> bytes | None:
        """The payload cached under ``name`` at whatever generation it was made."""
        query = "SELECT payload FROM index_cache WHERE name = ?"
        row = self.conn.execute(query, (name,)).fetchone()
        return bytes(row[0]) if row else None

    def cache(self, name: str, generation: int, payload: bytes) -> None:
        if self.path is None or self.read_only:
            return  # an in-memory store lives no longer than the index itself
        self.write_after_read(functools.partial(self._write_cache, name, generation, payload))

    def _write_cache(self, name: str, generation: int, payload: bytes) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO index_cache (name, generation, payload) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET generation = excluded.generation, "
                "payload = excluded.payload",
                (name, generation, payload),
            )

    def write_after_read(self, write: Callable[[], None]) -> None:
        """Run a cache ``write`` (one that opens its own transaction) now, or, inside a
        read snapshot, once the snapshot ends: a read never holds the writer's lock."""
        if self._reading:
            self._pending.append(write)
        else:
            write()

    def _flush_caches(self) -> None:
        """Write the caches a read built; a busy store only means they are built again."""
        pending, self._pending = self._pending, []
        for write in pending:
            try:
                write()
            except StoreError:
                return
