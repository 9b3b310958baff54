"""The store's SQLite schema and its additive migrations."""

from __future__ import annotations

import sqlite3

from affidavit.errors import StoreError
from affidavit.store.guard import RECOVER
from affidavit.trust import DOCUMENT_TRUST

# Migrations only add (tables, columns, indexes): a file written by an older version always
# opens.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: documents, their verbatim lines, window pointer ranges, cached derived indexes.
    (
        """CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)""",
        f"""CREATE TABLE documents (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            path TEXT,
            content_hash TEXT NOT NULL,
            language TEXT NOT NULL,
            date TEXT,
            source TEXT NOT NULL DEFAULT 'document',
            trust REAL NOT NULL DEFAULT {DOCUMENT_TRUST},
            ingested_at TEXT NOT NULL
        )""",
        """CREATE TABLE lines (
            id INTEGER PRIMARY KEY,
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            cells TEXT,
            table_no INTEGER,
            speaker TEXT,
            date TEXT,
            UNIQUE (document_id, position)
        )""",
        """CREATE TABLE windows (
            id INTEGER PRIMARY KEY,
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            scale INTEGER NOT NULL,
            start INTEGER NOT NULL,
            end INTEGER NOT NULL,
            CHECK (start <= end)
        )""",
        """CREATE INDEX windows_by_document ON windows (document_id, start)""",
        """CREATE TABLE index_cache (
            name TEXT PRIMARY KEY,
            generation INTEGER NOT NULL,
            payload BLOB NOT NULL
        )""",
    ),
    # 2: a language model's replies, so a question set asked again costs no calls.
    (
        """CREATE TABLE engine_replies (
            key TEXT PRIMARY KEY,
            model TEXT NOT NULL,
            prompt_version TEXT NOT NULL,
            reply TEXT NOT NULL,
            prompt_tokens INTEGER,
            completion_tokens INTEGER,
            created_at TEXT NOT NULL
        )""",
    ),
    # 3: each document's headings found without reading its other lines.
    # NOTE: every question reads the headings its lines stand under; at 100 MB a document's
    # heading positions took 27 µs a document through the (document, position) key, which
    # walks all of its lines, and 1.2 µs through this index (1,800 documents, 48 → 2.2 ms).
    (
        """CREATE INDEX headings_by_document ON lines (document_id, position)
            WHERE kind = 'heading'""",
    ),
    # 4: how sure OCR was of a line read off a scanned page (NULL for a document's text).
    ("ALTER TABLE lines ADD COLUMN confidence REAL",),
    # 5: records (subject, predicate, value), told or drawn from a document, each stamped
    # with its source, trust, when told and when true; superseded and forgotten ones stay
    # as history, and links say which supersedes, contradicts, causes or follows which.
    (
        """CREATE TABLE records (
            id INTEGER PRIMARY KEY,
            subject TEXT NOT NULL,
            predicate TEXT NOT NULL,
            value TEXT NOT NULL,
            subject_key TEXT NOT NULL,
            predicate_key TEXT NOT NULL,
            source TEXT NOT NULL,
            trust REAL NOT NULL,
            told_at TEXT NOT NULL,
            true_at TEXT,
            state TEXT NOT NULL DEFAULT 'live'
                CHECK (state IN ('live', 'superseded', 'forgotten')),
            document_id INTEGER REFERENCES documents(id) ON DELETE CASCADE,
            witness TEXT
        )""",
        """CREATE INDEX records_by_key ON records (subject_key, predicate_key, state)""",
        """CREATE TABLE record_links (
            from_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
            to_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('cause', 'then', 'contradicts', 'supersedes')),
            PRIMARY KEY (from_id, to_id, kind)
        )""",
        """CREATE INDEX record_links_to ON record_links (to_id)""",
    ),
    # 6: labels the operator gave: a word of a language that names the same concept as a
    # word of the store's language ("cuota" in Spanish means "fee").
    (
        """CREATE TABLE labels (
            word TEXT NOT NULL,
            language TEXT NOT NULL,
            means TEXT NOT NULL,
            told_at TEXT NOT NULL,
            PRIMARY KEY (word, language, means)
        )""",
    ),
    # 7: the day a fact stopped holding ("I cancelled my subscription"): an ended record
    # stays live, saying so.
    ("ALTER TABLE records ADD COLUMN ended_at TEXT",),
    # 8: what sort of thing a distilled record's value is ("pottery class"), and the word
    # a question may name it by: an index key that widens what a question finds.
    (
        "ALTER TABLE records ADD COLUMN kind TEXT",
        "ALTER TABLE records ADD COLUMN kind_key TEXT",
        """CREATE INDEX records_by_kind ON records (kind_key, state)
            WHERE kind_key IS NOT NULL""",
        # An answer's lines are looked up for the records drawn from them (what holds now).
        "CREATE INDEX records_by_document ON records (document_id) WHERE document_id IS NOT NULL",
    ),
    # 9: the ledger of documents already distilled, so distilling the store again folds in
    # only what is new (a document stored again is a new row: distilled again).
    (
        """CREATE TABLE distilled (
            document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
            distilled_at TEXT NOT NULL
        )""",
    ),
    # 10: each document's signature (store/resemblance.py), so a near-duplicate is named
    # at ingest without reading the store's lines.
    (
        """CREATE TABLE signatures (
            document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
            signature BLOB NOT NULL
        )""",
    ),
    # 11: retrieval's health: a frozen canary set (a query and the line that answers it)
    # and what each measure of it found, so a collapse is seen across ingests.
    (
        """CREATE TABLE canaries (
            id INTEGER PRIMARY KEY,
            document TEXT NOT NULL,
            position INTEGER NOT NULL,
            query TEXT NOT NULL
        )""",
        """CREATE TABLE health (
            id INTEGER PRIMARY KEY,
            measured_at TEXT NOT NULL,
            documents INTEGER NOT NULL,
            lines INTEGER NOT NULL,
            canaries INTEGER NOT NULL,
            recall REAL NOT NULL,
            mrr REAL NOT NULL,
            ndcg REAL NOT NULL,
            distinct_share REAL NOT NULL
        )""",
    ),
    # 12: each document's first line id and line count, which with its id and content hash
    # name the stored version (store/index_parts.py). NOTE: read from the lines table by a join,
    # they cost every ingest 2.4 µs a stored line (12 ms at 5,000 documents), so adding a
    # document grew with the store.
    (
        "ALTER TABLE documents ADD COLUMN first_line INTEGER",
        "ALTER TABLE documents ADD COLUMN line_count INTEGER",
        """UPDATE documents SET
            first_line = (SELECT MIN(id) FROM lines WHERE document_id = documents.id),
            line_count = (SELECT COUNT(*) FROM lines WHERE document_id = documents.id)""",
    ),
    # 13: each signature cut into bands (store/resemblance.py), so the documents a new one
    # may repeat are found through an index, not by reading every signature (NOTE: 10 ms
    # of each ingest_text at 5,000 documents, growing with the store).
    (
        """CREATE TABLE signature_bands (
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            band INTEGER NOT NULL,
            value BLOB NOT NULL
        )""",
        "CREATE INDEX signature_bands_by_value ON signature_bands (band, value)",
        "CREATE INDEX signature_bands_by_document ON signature_bands (document_id)",
        """WITH RECURSIVE bands(band) AS (SELECT 0 UNION ALL SELECT band + 1 FROM bands
            WHERE band < 15)
        INSERT INTO signature_bands (document_id, band, value)
        SELECT s.document_id, b.band, substr(s.signature, 1 + 32 * b.band, 32)
        FROM signatures s, bands b ORDER BY s.document_id, b.band""",
    ),
    # 14: what a question reads of each document, hashed (store/prepared.py reading_hash):
    # the documents that copy each other whole. A document stored before it has none
    # (NULL): it is taken for no one's copy until it is ingested again.
    ("ALTER TABLE documents ADD COLUMN reading_hash TEXT",),
    # 15: the generation each document was written at (the one its write makes): the
    # documents a write added are read alone, not every document (store/index_parts.py
    # document_keys, at every ingest_text). A document stored before it has none.
    (
        "ALTER TABLE documents ADD COLUMN written INTEGER",
        "CREATE INDEX documents_by_written ON documents (written)",
    ),
    # 16: the absolute path of the file a document was read from. A folder's documents are
    # named by the folder and their path inside it since this version (ingest/naming.py);
    # a document stored before it has none (NULL) and takes its new name when its file is
    # ingested again (Store.legacy_names), so no store holds one file twice.
    ("ALTER TABLE documents ADD COLUMN origin TEXT",),
    # 17: each line's clause frames, made the first time a judge reads the line
    # (store/frame_rows.py), keyed by the frame reader's version and the line's text.
    ("CREATE TABLE IF NOT EXISTS line_frames (key TEXT PRIMARY KEY, frames TEXT NOT NULL)",),
    # 18: the documents by their reading hash: a document added one call at a time is told
    # a copy or not by the first document with its hash (index/copies.py copied_among),
    # looked up, not found by reading every document's row.
    ("CREATE INDEX IF NOT EXISTS documents_by_reading ON documents (reading_hash)",),
)

SCHEMA_VERSION = len(MIGRATIONS)
# The oldest version a read-only process can still read: the migrations after it add
# indexes (a query without them is slower, never wrong), the OCR confidence column (a
# store without it holds no OCR lines: Store reads it as NULL), each document's first line
# and line count (store/index_parts.py reads them from the lines) and the records tables (a
# store without them holds no records: they read as none; nor labels).
READABLE_FROM = 2
# The tables a store at the current version holds; one missing is a damaged store.
TABLES = frozenset({"meta", "documents", "lines", "windows", "index_cache", "engine_replies"})


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    """Does the store hold the table ``name`` (a store before the migration that adds it,
    opened read-only, does not)?"""
    query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
    return conn.execute(query, (name,)).fetchone() is not None


def has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    """Does ``table`` have ``column`` (a store opened read-only before the migration that
    adds it does not)?"""
    return any(row[1] == column for row in conn.execute(f"PRAGMA table_info({table})"))


def current_version(conn: sqlite3.Connection) -> int:
    if not has_table(conn, "meta"):
        return 0
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: sqlite3.Connection) -> int:
    """Bring ``conn`` up to ``SCHEMA_VERSION``; returns the version it started from. Each
    migration is applied once, in order, inside one transaction; ``schema_version`` in the
    meta table records how far a file has come."""
    start = current_version(conn)
    for version in range(start, SCHEMA_VERSION):
        # The connection runs in autocommit mode, so DDL is made transactional by hand.
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(version + 1),),
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return start


def opened_schema(conn: sqlite3.Connection, path: str | None, *, read_only: bool) -> None:
    """Check that a newly opened file is a store this version can use, migrating it
    when it may be written; a StoreError naming ``path`` and what to do otherwise."""
    try:
        version = current_version(conn)
    except ValueError as exc:
        problem = f"its schema version is not a number ({exc})"
        raise StoreError(path, problem, RECOVER) from exc
    if version == 0 and _has_foreign_tables(conn):
        raise StoreError(
            path,
            "this SQLite database is not an affidavit store",
            "pass a new file name; affidavit will not add its tables to another database",
        )
    if version > SCHEMA_VERSION:
        raise StoreError(
            path,
            f"store schema version {version} is newer than this affidavit "
            f"understands ({SCHEMA_VERSION})",
            "upgrade affidavit",
        )
    if read_only and version < READABLE_FROM:
        raise StoreError(
            path,
            f"a read-only store at schema version {version} needs upgrading to {SCHEMA_VERSION}",
            "open it once from a process that may write it",
        )
    if not read_only:
        migrate(conn)
    query = "SELECT name FROM sqlite_master WHERE type = 'table'"
    missing = sorted(TABLES - {row[0] for row in conn.execute(query)})
    if missing:
        raise StoreError(
            path, f"the store is damaged: missing tables {', '.join(missing)}", RECOVER
        )


def _has_foreign_tables(conn: sqlite3.Connection) -> bool:
    query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' LIMIT 1"
    return conn.execute(query).fetchone() is not None
