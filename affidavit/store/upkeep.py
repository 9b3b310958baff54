"""The store's upkeep half of the front door: what it holds (``stats``, ``documents``,
``catalogue``, ``fingerprint``), reclaiming the room removed documents left (``vacuum``)
and forgetting a model's cached replies; written here so the facade stays one screen of
calls (one store's Memory inherits them: memory/one_store.py)."""

from __future__ import annotations

import os
from typing import Any

from affidavit.results import StoredDocument
from affidavit.store.call_guards import reads, store_errors
from affidavit.store.replies import StoredReplies
from affidavit.store.sqlite import Store


class UpkeepCalls:
    """What a store holds, and its upkeep."""

    _store: Store
    _replies: StoredReplies

    @reads
    def stats(self) -> dict[str, Any]:
        """Counts of what the store holds (documents, lines, windows, table rows), its
        schema version, generation and path, the model replies it caches, and its
        documents and lines per source (``by_source``)."""
        stats: dict[str, Any] = dict(self._store.stats())
        stats["path"] = self._store.path
        stats["engine_replies"] = len(self._replies)
        stats["by_source"] = _by_source(self._store)
        return stats

    @reads
    def documents(self) -> list[str]:
        """The names of the documents the store holds, in the order stored."""
        return self._store.document_names()

    @reads
    def catalogue(self) -> list[StoredDocument]:
        """Every document the store holds, oldest stored first: its name, when it was
        stored, its date, source, trust and number of lines."""
        return [
            StoredDocument(
                name=name, stored_at=at, date=date, source=source, trust=trust, lines=lines
            )
            for name, at, date, source, trust, lines in _catalogue(self._store)
        ]

    @reads
    def fingerprint(self) -> str:
        """A digest of the documents the store holds (names, contents, trust): two stores
        with the same fingerprint answer alike; a report names the store by it."""
        return self._store.fingerprint()

    @store_errors
    def vacuum(self) -> dict[str, int]:
        """Give back to the file system the room removed documents left in the store file:
        SQLite rebuilds the file aside and swaps it in under its journal, so a crash
        leaves the store as it was. Nothing the store holds changes. Returns the file's
        bytes (with its write-ahead log) ``before`` and ``after``. Another process
        reading or writing the store meanwhile makes it a StoreError; run it alone."""
        before, after = _vacuum(self._store)
        return {"before": before, "after": after}

    @store_errors
    def forget_replies(self) -> int:
        """Forget every model reply cached in the store (the next ask asks the model
        again); returns how many there were."""
        return self._replies.clear()


def _catalogue(store: Store) -> list[tuple[str, str, str | None, str, float, int]]:
    """(name, stored at, date, source, trust, lines) of every document, oldest stored
    first (ties by id)."""
    return list(
        store.conn.execute(
            "SELECT d.name, d.ingested_at, d.date, d.source, d.trust, "
            "(SELECT COUNT(*) FROM lines l WHERE l.document_id = d.id) "
            "FROM documents d ORDER BY d.ingested_at, d.id"
        )
    )


def _by_source(store: Store) -> dict[str, dict[str, int]]:
    """Documents and lines per source, sources in name order."""
    rows = store.conn.execute(
        "SELECT d.source, COUNT(DISTINCT d.id), COUNT(l.id) FROM documents d "
        "LEFT JOIN lines l ON l.document_id = d.id GROUP BY d.source ORDER BY d.source"
    )
    return {str(source): {"documents": n, "lines": m} for source, n, m in rows}


def _vacuum(store: Store) -> tuple[int, int]:
    """Rebuild the file without the pages removed documents left free (SQLite's VACUUM:
    written aside and swapped in under its journal, so a crash leaves the store as it
    was); the file's bytes (with its write-ahead log) before and after."""
    before = _size(store)
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.conn.execute("VACUUM")
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return before, _size(store)


def _size(store: Store) -> int:
    """The store file's bytes, with its write-ahead log (0 in memory)."""
    if store.path is None:
        return 0
    paths = (store.path, f"{store.path}-wal")
    return sum(os.path.getsize(p) for p in paths if os.path.exists(p))
