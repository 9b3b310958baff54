"""A document's lines on their way into the store (built before any write) and as read
back out of it (StoredLine)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, field, fields
from operator import attrgetter

from affidavit.results import LineKind
from affidavit.store.resemblance import keep_signature
from affidavit.store.schema import has_table
from affidavit.trust import DOCUMENT_TRUST


@dataclass(frozen=True, slots=True)
class PreparedLine:
    position: int
    kind: LineKind
    text: str
    cells: tuple[tuple[str, str], ...] | None = None
    table: int | None = None
    speaker: str | None = None
    date: str | None = None
    confidence: float | None = None  # OCR's, for a line read off a scanned page

    def __reduce__(self) -> tuple[type[PreparedLine], tuple[object, ...]]:
        # NOTE: a slotted dataclass pickles through a dict of its fields, built and read
        # per line, and an ingest's readers send every line to the writer: for the lines
        # of a 3 MB pass, pickling 0.09 -> 0.04 s and unpickling 0.18 -> 0.14 s as a tuple.
        # The fields are read from the class, so one added later travels too.
        return PreparedLine, _line_fields(self)


_line_fields = attrgetter(*(f.name for f in fields(PreparedLine)))


@dataclass(frozen=True, slots=True)
class PreparedDocument:
    """A document ready to write. Everything that can fail (reading, decoding, table rules,
    sentence splitting) happens while building one, so a write stores a whole document or
    nothing."""

    name: str
    content_hash: str
    language: str
    lines: tuple[PreparedLine, ...]
    # (scale, start, end) pointer ranges over line positions, inclusive.
    windows: tuple[tuple[int, int, int], ...] = field(default=())
    path: str | None = None  # the file as it was given
    date: str | None = None
    source: str = "document"
    trust: float = DOCUMENT_TRUST
    origin: str | None = None  # the file's absolute path: where the document comes from
    # A document stored under another name that this one takes the place of (the same file,
    # named before documents were named by their folder: Store.legacy_files).
    replaces: str | None = None


@dataclass(frozen=True, slots=True)
class StoredLine:
    id: int
    document: str
    document_id: int
    position: int
    kind: LineKind
    text: str
    cells: dict[str, str] | None
    trust: float
    speaker: str | None = None  # a dialogue turn's speaker
    date: str | None = None  # a dialogue turn's session day
    confidence: float | None = None  # OCR's, for a line read off a scanned page


def reading_hash(doc: PreparedDocument) -> str:
    """What a question reads of ``doc``, but for its name and path: its language, source,
    trust and date and every field of every line. Two documents with the same hash are
    copies a reader cannot tell apart (index/copies.py). Not the content hash: the same
    bytes named ``a.md`` and ``b.txt`` are read by different readers into different lines."""
    digest = hashlib.sha256(f"{doc.language}\0{doc.source}\0{doc.trust!r}\0{doc.date}\n".encode())
    for line in doc.lines:
        said = "\0".join(repr(value) for value in _line_fields(line))
        digest.update(said.encode("utf-8", "surrogatepass") + b"\n")
    return digest.hexdigest()


def line_select(has_confidence: bool = True) -> str:
    """The query of a stored line's fields; a store older than the OCR confidence column
    (schema 4, read by a process that may not migrate it) holds no OCR line: NULL."""
    confidence = "l.confidence" if has_confidence else "NULL"
    return (
        "SELECT l.id, d.name, d.id, l.position, l.kind, l.text, l.cells, d.trust, l.speaker, "
        f"l.date, {confidence} FROM lines l JOIN documents d ON d.id = l.document_id"
    )


def stored_line(row: tuple) -> StoredLine:
    cells = {name: value for name, value in json.loads(row[6])} if row[6] else None
    kind = LineKind(row[4])
    return StoredLine(row[0], row[1], row[2], row[3], kind, row[5], cells, *row[7:11])


def insert_document(conn: sqlite3.Connection, doc: PreparedDocument, now: str) -> None:
    """Write ``doc`` (its row, lines and windows) in the open transaction of ``conn``,
    in place of any stored document of the same name (its lines go with it)."""
    conn.execute("DELETE FROM documents WHERE name = ?", (doc.name,))
    if doc.replaces is not None:
        conn.execute("DELETE FROM documents WHERE name = ?", (doc.replaces,))
    cursor = conn.execute(
        "INSERT INTO documents (name, path, content_hash, language, date, source, "
        "trust, ingested_at, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            doc.name,
            doc.path,
            doc.content_hash,
            doc.language,
            doc.date,
            doc.source,
            doc.trust,
            now,
            doc.origin,
        ),
    )
    doc_id = cursor.lastrowid
    conn.executemany(
        "INSERT INTO lines (document_id, position, kind, text, cells, table_no, "
        "speaker, date, confidence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (
                doc_id,
                ln.position,
                ln.kind,
                ln.text,
                json.dumps(ln.cells, ensure_ascii=False) if ln.cells else None,
                ln.table,
                ln.speaker,
                ln.date,
                ln.confidence,
            )
            for ln in doc.lines
        ),
    )
    conn.execute(  # a store that may be written is at the current schema
        "UPDATE documents SET line_count = ?, reading_hash = ?, "
        "first_line = (SELECT MIN(id) FROM lines WHERE document_id = ?), "
        # the generation this write makes (Store.changed moves it on as the write ends)
        "written = 1 + COALESCE((SELECT CAST(value AS INTEGER) FROM meta "
        "WHERE key = 'generation'), 0) WHERE id = ?",
        (len(doc.lines), reading_hash(doc), doc_id, doc_id),
    )
    conn.executemany(
        "INSERT INTO windows (document_id, scale, start, end) VALUES (?, ?, ?, ?)",
        ((doc_id, scale, start, end) for scale, start, end in doc.windows),
    )
    if has_table(conn, "signatures"):
        assert doc_id is not None
        keep_signature(conn, doc_id, [line.text for line in doc.lines])
