"""The single-file SQLite store: documents, verbatim lines, windows, cached indexes."""

from __future__ import annotations

import hashlib
import itertools
import os
import sqlite3
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from affidavit.errors import StoreError
from affidavit.store.cached import CachedIndexes
from affidavit.store.guard import store_failure, writer_note
from affidavit.store.prepared import (
    PreparedDocument,
    StoredLine,
    insert_document,
    line_select,
    stored_line,
)
from affidavit.store.schema import current_version, has_column, opened_schema

# NOTE: SQLite's default page cache (2 MiB) could not keep the lines table's inner pages
# while a question's lines were read across a 100 MB store (bench/scale.py): each of ten
# lines cost a walk down the tree through the OS, 0.35 ms for the ten. 16 MiB keeps them
# (0.04 ms), and is only filled as far as pages are read.
PAGE_CACHE_KIB = 16_384


class Store(CachedIndexes):
    """The lines are the ledger: every index is derived from them and cached here under
    the store's *generation*, a counter bumped by every write, so a stale cache is never
    read. Files run in WAL mode; every write goes through ``transaction()``."""

    def __init__(
        self, path: str | Path | None = None, *, timeout: float = 5.0, read_only: bool = False
    ) -> None:
        """Open (or create) the store at ``path``; in memory when None. A writer waits up
        to ``timeout`` seconds for another to finish before raising StoreError. A file
        this process may not write, or any file with ``read_only``, is opened read-only:
        searched and asked, never written (``read_only`` needs an existing store).
        """
        self.path = str(path) if path is not None else None
        self.timeout = timeout
        self.read_only = False
        self._conn: sqlite3.Connection | None = None
        self._reading = 0  # depth of nested read snapshots
        self._pending: list[Callable[[], None]] = []  # cache writes made inside a snapshot
        self._line_select = line_select()  # as the store's lines table has its columns
        self._hashes_readings = True
        target = self.path if self.path is not None else ":memory:"
        if self.path is not None:
            file = Path(self.path).expanduser().resolve()
            if not file.parent.is_dir():
                raise StoreError(self.path, "folder does not exist", "create it first")
            if file.is_dir():
                raise StoreError(self.path, "is a folder, not a store file", "name a file")
            if read_only and not file.is_file():
                raise StoreError(self.path, "no store to open read-only", "check the path")
            self.read_only = read_only or (
                file.exists() and not (os.access(file, os.W_OK) and os.access(file.parent, os.W_OK))
            )
            if self.read_only:
                target = f"{file.as_uri()}?mode=ro"
        try:
            self._conn = sqlite3.connect(
                target,
                isolation_level=None,
                check_same_thread=False,
                uri=self.read_only,
                timeout=timeout,
            )
            self._configure()
            opened_schema(self.conn, self.path, read_only=self.read_only)
            columns = {row[1] for row in self.conn.execute("PRAGMA table_info(lines)")}
            self._line_select = line_select(has_confidence="confidence" in columns)
            # A store older than schema 14, opened read-only, keeps no reading hashes.
            self._hashes_readings = has_column(self.conn, "documents", "reading_hash")
        except StoreError:
            self._abandon()
            raise
        except sqlite3.Error as exc:
            self._abandon()
            raise store_failure(self.path, exc, timeout) from exc

    def _abandon(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _configure(self) -> None:
        conn = self.conn
        if self.path is not None and not self.read_only:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
        conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(self.path, "store is closed", "open a new Memory")
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write, all or nothing (BEGIN IMMEDIATE: a failure leaves the store exactly as
        it was); it waits up to ``timeout`` for another writer."""
        if self.read_only:
            raise StoreError(
                self.path, "the store file is read-only", "make it writable to ingest into it"
            )
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise store_failure(self.path, exc, self.timeout) from exc
        with writer_note(self.path):
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @contextmanager
    def reading(self) -> Iterator[None]:
        """One snapshot for a whole read (a search, an ask, a verify): what a writer
        commits meanwhile is seen by the next read, never by half of this one. Caches
        built inside are written once it ends."""
        if self._reading:
            self._reading += 1
            try:
                yield
            finally:
                self._reading -= 1
            return
        conn = self.conn
        conn.execute("BEGIN")
        self._reading = 1
        try:
            yield
        finally:
            self._reading = 0
            if self._conn is not None and conn.in_transaction:
                conn.execute("COMMIT")
        self._flush_caches()

    # -- generation: bumped by every write so cached indexes know they are stale --

    def generation(self) -> int:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0

    def changed(self, conn: sqlite3.Connection) -> None:
        """Say, inside a write's transaction, that the lines changed: the generation moves
        on, and cached indexes built at the old one are stale."""
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('generation', '1') ON CONFLICT (key) "
            "DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)"
        )

    # -- documents --

    def document_hash(self, name: str) -> str | None:
        row = self.conn.execute(
            "SELECT content_hash FROM documents WHERE name = ?", (name,)
        ).fetchone()
        return row[0] if row else None

    def fingerprint(self) -> str:
        """A digest of what the store holds: every document's name, content hash and
        trust, in name order. Equal stores have equal fingerprints; any added, replaced or
        forgotten document changes it."""
        digest = hashlib.sha256()
        rows = self.conn.execute("SELECT name, content_hash, trust FROM documents ORDER BY name")
        for name, content, trust in rows:
            digest.update(f"{name}\0{content}\0{trust!r}\n".encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def line_at(self, document: str, position: int) -> StoredLine | None:
        """The line at ``position`` of the document named ``document``, or None."""
        row = self.conn.execute(
            f"{self._line_select} WHERE d.name = ? AND l.position = ?", (document, position)
        ).fetchone()
        return stored_line(row) if row else None

    def reading_hashes(self, ids: Sequence[int]) -> dict[int, str]:
        """The reading hash of each of the documents ``ids`` (store/prepared.py): equal for
        documents a question reads alike. A missing id, and a document stored before the
        hash was kept, is left out."""
        if not self._hashes_readings:
            return {}
        found = self._of_documents("reading_hash", ids).items()
        return {i: str(h) for i, h in found if h is not None}

    def first_readings(self, hashes: Iterable[str]) -> dict[str, int]:
        """The smallest id of a document with each of these reading hashes (a hash no
        document has is left out)."""
        wanted, found = sorted(set(hashes)), {}
        for start in range(0, len(wanted), 900):
            chunk = wanted[start : start + 900]
            marks = ",".join("?" * len(chunk))
            query = (
                "SELECT reading_hash, MIN(id) FROM documents"
                f" WHERE reading_hash IN ({marks}) GROUP BY reading_hash"
            )
            found.update({str(h): int(i) for h, i in self.conn.execute(query, chunk)})
        return found

    def trust_of(self, ids: Sequence[int]) -> dict[int, float]:
        """The trust of each of the documents ``ids`` (a missing id is left out)."""
        return {i: float(t) for i, t in self._of_documents("trust", ids).items()}

    def _of_documents(self, column: str, ids: Sequence[int]) -> dict[int, Any]:
        """``column`` (a name of this module's, never the caller's text) of each document
        of ``ids``, 900 ids a query (SQLite's bound on a query's parameters)."""
        found: dict[int, Any] = {}
        ids = list(ids)
        for start in range(0, len(ids), 900):
            chunk = ids[start : start + 900]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT id, {column} FROM documents WHERE id IN ({marks})"
            found.update({int(i): value for i, value in self.conn.execute(query, chunk)})
        return found

    def document_lines(self, name: str) -> list[StoredLine]:
        """Every line of the document named ``name``, in position order (none when no
        document has the name)."""
        rows = self.conn.execute(
            f"{self._line_select} WHERE d.name = ? ORDER BY l.position", (name,)
        )
        return [stored_line(row) for row in rows]

    def document_source(self, name: str) -> tuple[str, float] | None:
        """The source and trust a stored document was ingested under, or None."""
        row = self.conn.execute(
            "SELECT source, trust FROM documents WHERE name = ?", (name,)
        ).fetchone()
        return (str(row[0]), float(row[1])) if row else None

    def document_origin(self, name: str) -> tuple[str | None, str | None] | None:
        """Where the stored document ``name`` was read from: (its file's absolute path,
        the path as given), each None where unknown (a text, or a store before schema 16
        for the first), or None when no document has the name."""
        row = self.conn.execute(
            "SELECT origin, path FROM documents WHERE name = ?", (name,)
        ).fetchone()
        return (row[0], row[1]) if row else None

    def legacy_files(self) -> list[tuple[str, str]]:
        """(name, path as given) of each document read from a file before documents were
        named by their folder (schema 16): they have a path and no origin."""
        return list(
            self.conn.execute(
                "SELECT name, path FROM documents WHERE origin IS NULL AND path IS NOT NULL "
                "ORDER BY id"
            )
        )

    def write_documents(self, documents: Iterable[PreparedDocument]) -> int:
        """Store each document, replacing an older version of the same name (and the one
        it ``replaces`` under another name), all or nothing; how many were stored. The
        documents may be made as they are taken: the transaction opens with the first and
        commits after the last (an error raised by the iterable in between rolls it back)."""
        pending = iter(documents)
        first = next(pending, None)
        if first is None:
            return 0
        now = datetime.now(UTC).isoformat(timespec="seconds")
        written = 0
        with self.transaction() as conn:
            for doc in itertools.chain((first,), pending):
                written += 1
                insert_document(conn, doc, now)
            self.changed(conn)
        return written

    def remove_document(self, name: str) -> int | None:
        """Delete the document ``name`` with its lines, windows and the records drawn from
        it, in one transaction; how many lines went, or None when no document has the name."""
        with self.transaction() as conn:
            row = conn.execute("SELECT id FROM documents WHERE name = ?", (name,)).fetchone()
            if row is None:
                return None
            query = "SELECT COUNT(*) FROM lines WHERE document_id = ?"
            removed = int(conn.execute(query, (row[0],)).fetchone()[0])
            conn.execute("DELETE FROM documents WHERE id = ?", (row[0],))
            self.changed(conn)
        return removed

    def document_names(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM documents ORDER BY id")]

    def document_facts(self) -> list[tuple[str, str, float, str | None]]:
        """(name, source, trust, date) of every document, in id order."""
        return list(
            self.conn.execute("SELECT name, source, trust, date FROM documents ORDER BY id")
        )

    def documents(self) -> list[tuple[int, str, str]]:
        """(id, name, language) of every document, in id order."""
        return list(self.conn.execute("SELECT id, name, language FROM documents ORDER BY id"))

    # -- lines --

    def line_rows(
        self, documents: Sequence[int] | None = None
    ) -> list[tuple[int, int, int, str, str]]:
        """(line id, document id, position, kind, text) of every line (of these documents
        only, if given), in id order."""
        return list(
            self.conn.execute(
                "SELECT id, document_id, position, kind, text FROM lines"
                f"{among(documents)} ORDER BY id"
            )
        )

    def line_places(self, documents: Sequence[int]) -> tuple[array[int], array[int], array[int]]:
        """The line ids, document ids and positions of the lines of ``documents``, in id
        order, as typed arrays (read a row at a time: no list of every row)."""
        ids, owners, places = array("q"), array("q"), array("q")
        query = f"SELECT id, document_id, position FROM lines{among(documents)} ORDER BY id"
        for line_id, document_id, position in self.conn.execute(query):
            ids.append(line_id)
            owners.append(document_id)
            places.append(position)
        return ids, owners, places

    def each_line_row(self) -> Iterator[tuple[int, int, int, str, str]]:
        """As ``line_rows()``, one row at a time from one statement, never all in a list:
        for a reader of every line that keeps little of each."""
        rows = self.conn.execute(
            "SELECT id, document_id, position, kind, text FROM lines ORDER BY id"
        )
        # NOTE: a loop, not ``yield from``: a reader left unfinished (an interrupted index
        # build) is closed when it is collected, after the store may be; ``yield from``
        # would close the cursor then and fail on the closed connection.
        for row in rows:  # noqa: UP028
            yield row

    def lines_by_id(self, ids: Sequence[int]) -> dict[int, StoredLine]:
        """The stored lines with these ids (missing ids are left out)."""
        found: dict[int, StoredLine] = {}
        ids = list(ids)
        for chunk_start in range(0, len(ids), 900):
            chunk = ids[chunk_start : chunk_start + 900]
            marks = ",".join("?" * len(chunk))
            for row in self.conn.execute(f"{self._line_select} WHERE l.id IN ({marks})", chunk):
                found[row[0]] = stored_line(row)
        return found

    def heading_positions(self, document_ids: Sequence[int]) -> dict[int, list[int]]:
        """The positions of each document's headings, in order (an empty list for a
        document with none)."""
        found: dict[int, list[int]] = {document_id: [] for document_id in document_ids}
        ids = list(found)
        for chunk_start in range(0, len(ids), 900):
            chunk = ids[chunk_start : chunk_start + 900]
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT document_id, position FROM lines WHERE document_id IN ({marks}) "
                "AND kind = 'heading' ORDER BY document_id, position",
                chunk,
            )
            for document_id, position in rows:
                found[document_id].append(position)
        return found

    def lines_at(self, document_id: int, positions: Sequence[int]) -> list[StoredLine]:
        """The lines of one document at these positions, in position order."""
        positions = sorted(set(positions))
        if not positions:
            return []
        marks = ",".join("?" * len(positions))
        rows = self.conn.execute(
            f"{self._line_select} WHERE l.document_id = ? AND l.position IN ({marks}) "
            "ORDER BY l.position",
            (document_id, *positions),
        )
        return [stored_line(row) for row in rows]

    def stats(self) -> dict[str, int]:
        conn = self.conn
        return {
            "documents": conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0],
            "lines": conn.execute("SELECT COUNT(*) FROM lines").fetchone()[0],
            "windows": conn.execute("SELECT COUNT(*) FROM windows").fetchone()[0],
            "rows": conn.execute("SELECT COUNT(*) FROM lines WHERE kind = 'row'").fetchone()[0],
            "schema_version": current_version(conn),
            "generation": self.generation(),
        }


def among(documents: Sequence[int] | None) -> str:
    """A WHERE clause keeping the rows of these document ids (integers, never text)."""
    if documents is None:
        return ""
    return f" WHERE document_id IN ({','.join(str(int(d)) for d in documents) or 'NULL'})"
