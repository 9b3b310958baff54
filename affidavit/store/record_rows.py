"""The records tables as SQL: rows in and out, each call inside the caller's transaction or
snapshot. What a telling means (which record supersedes which) is decided in
affidavit/records/; here records are only written, marked, linked and read."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from affidavit.store.schema import has_table


@dataclass(frozen=True, slots=True)
class RecordRow:
    """A records row as stored, with its document's name (None for a told record)."""

    id: int
    subject: str
    predicate: str
    value: str
    source: str
    trust: float
    told_at: str
    true_at: str | None
    state: str
    document: str | None
    witness: tuple[tuple[str, int], ...]
    ended_at: str | None = None
    kind: str | None = None


_COLUMNS = (
    "r.id, r.subject, r.predicate, r.value, r.source, r.trust, r.told_at, r.true_at, "
    "r.state, d.name, r.witness"
)
# A store before schema 7 (8), opened read-only, has no ended_at (kind) column: none of
# its records ended (has a kind).
_LATER_COLUMNS = ("ended_at", "kind")
_FROM = "FROM records r LEFT JOIN documents d ON d.id = r.document_id"


def has_records(conn: sqlite3.Connection) -> bool:
    """Does the store hold the records tables (a store written before schema 5, opened
    read-only, does not: it holds no records)?"""
    return has_table(conn, "records")


def insert_record(
    conn: sqlite3.Connection,
    *,
    subject: str,
    predicate: str,
    value: str,
    keys: tuple[str, str],
    source: str,
    trust: float,
    told_at: str,
    true_at: str | None,
    state: str = "live",
    document_id: int | None = None,
    witness: Sequence[tuple[str, int]] = (),
    kind: tuple[str, str] | None = None,
) -> int:
    """Write one record; its id. ``kind`` is (what sort of thing its value is, the word
    a question may name it by)."""
    cursor = conn.execute(
        "INSERT INTO records (subject, predicate, value, subject_key, predicate_key, source, "
        "trust, told_at, true_at, state, document_id, witness, kind, kind_key) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            subject,
            predicate,
            value,
            keys[0],
            keys[1],
            source,
            trust,
            told_at,
            true_at,
            state,
            document_id,
            json.dumps([list(w) for w in witness]) if witness else None,
            kind[0] if kind else None,
            kind[1] if kind else None,
        ),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def _later_columns(conn: sqlite3.Connection) -> tuple[str, ...]:
    """The columns added after schema 5 that this store's records table holds."""
    held = {row[1] for row in conn.execute("PRAGMA table_info(records)")}
    return tuple(c for c in _LATER_COLUMNS if c in held)


def witnesses_of_kinds(
    conn: sqlite3.Connection, keys: Sequence[str], limit: int
) -> list[tuple[str, int, str]]:
    """The witnessing lines (document, position, the kind key named) of the live records
    whose kind a question names by one of ``keys``, at most ``limit``, oldest first."""
    if not keys or "kind" not in (_later_columns(conn) if has_records(conn) else ()):
        return []
    marks = ", ".join("?" for _ in keys)
    query = (
        f"SELECT witness, kind_key FROM records WHERE kind_key IN ({marks}) "
        "AND state = 'live' AND witness IS NOT NULL ORDER BY id LIMIT ?"
    )
    found: list[tuple[str, int, str]] = []
    for witness, key in conn.execute(query, [*keys, limit]):
        found.extend((str(d), int(p), str(key)) for d, p in json.loads(witness))
    return found


def end(conn: sqlite3.Connection, record_id: int, day: str) -> None:
    conn.execute("UPDATE records SET ended_at = ? WHERE id = ?", (day, record_id))


def mark(conn: sqlite3.Connection, record_id: int, state: str) -> None:
    conn.execute("UPDATE records SET state = ? WHERE id = ?", (state, record_id))


def link(conn: sqlite3.Connection, from_id: int, to_id: int, kind: str) -> None:
    conn.execute(
        "INSERT OR IGNORE INTO record_links (from_id, to_id, kind) VALUES (?, ?, ?)",
        (from_id, to_id, kind),
    )


def records_with(
    conn: sqlite3.Connection,
    subject_key: str | None = None,
    predicate_key: str | None = None,
    *,
    states: Sequence[str] = ("live",),
) -> list[RecordRow]:
    """The records of a subject and predicate (either may be None: any), in the given
    states, in the order they were told."""
    if not has_records(conn):
        return []
    where = [f"r.state IN ({', '.join('?' for _ in states)})"]
    params: list[object] = list(states)
    if subject_key is not None:
        where.append("r.subject_key = ?")
        params.append(subject_key)
    if predicate_key is not None:
        where.append("r.predicate_key = ?")
        params.append(predicate_key)
    query = f"SELECT {_columns(conn)} {_FROM} WHERE {' AND '.join(where)} ORDER BY r.id"
    return [_row(found) for found in conn.execute(query, params)]


def drawn_from(conn: sqlite3.Connection, lines: Sequence[tuple[str, int]]) -> list[RecordRow]:
    """The records, in any state, drawn from one of ``lines`` (document, position), in the
    order told."""
    if not lines or not has_records(conn):
        return []
    names = sorted({document for document, _ in lines})
    marks = ", ".join("?" for _ in names)
    query = f"SELECT {_columns(conn)} {_FROM} WHERE d.name IN ({marks}) ORDER BY r.id"
    wanted = set(lines)
    rows = (_row(found) for found in conn.execute(query, names))
    return [row for row in rows if wanted & set(row.witness)]


def superseders(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, int]:
    """For each of ``ids`` that was superseded, the newest record that superseded it."""
    if not ids or not has_records(conn):
        return {}
    marks = ", ".join("?" for _ in ids)
    query = (
        "SELECT to_id, MAX(from_id) FROM record_links "
        f"WHERE kind = 'supersedes' AND to_id IN ({marks}) GROUP BY to_id"
    )
    return {int(old): int(new) for old, new in conn.execute(query, list(ids))}


def subject_keys_from(conn: sqlite3.Connection, prefix: str, limit: int) -> list[str]:
    """The first ``limit`` subject keys the records table holds that begin with
    ``prefix``, in order (read off the subject index by range, not by scanning)."""
    if not prefix or not has_records(conn):
        return []
    query = (
        "SELECT DISTINCT subject_key FROM records "
        "WHERE subject_key >= ? AND subject_key < ? ORDER BY subject_key LIMIT ?"
    )
    return [row[0] for row in conn.execute(query, (prefix, prefix + "\uffff", limit))]


def record_by_id(conn: sqlite3.Connection, record_id: int) -> RecordRow | None:
    if not has_records(conn):
        return None
    found = conn.execute(f"SELECT {_columns(conn)} {_FROM} WHERE r.id = ?", (record_id,)).fetchone()
    return _row(found) if found is not None else None


def links_of(conn: sqlite3.Connection, ids: Sequence[int]) -> list[tuple[int, int, str]]:
    """Every link from or to one of ``ids``: (from, to, kind), sorted."""
    if not ids or not has_records(conn):
        return []
    marks = ", ".join("?" for _ in ids)
    query = (
        "SELECT from_id, to_id, kind FROM record_links "
        f"WHERE from_id IN ({marks}) OR to_id IN ({marks}) ORDER BY from_id, to_id, kind"
    )
    return list(conn.execute(query, [*ids, *ids]))


def _columns(conn: sqlite3.Connection) -> str:
    return _COLUMNS + "".join(f", r.{c}" for c in _later_columns(conn))


def _row(found: tuple) -> RecordRow:
    witness = tuple((str(d), int(p)) for d, p in json.loads(found[10])) if found[10] else ()
    record_id, subject, predicate, value, source, trust, told_at, true_at, state, name = found[:10]
    ended_at = found[11] if len(found) > 11 else None
    kind = found[12] if len(found) > 12 else None
    return RecordRow(
        record_id,
        subject,
        predicate,
        value,
        source,
        trust,
        told_at,
        true_at,
        state,
        name,
        witness,
        ended_at,
        kind,
    )


def undistilled(conn: sqlite3.Connection) -> list[str]:
    """The names of the documents the ledger does not hold as distilled, in the order
    stored (every document, in a store without the ledger)."""
    if not has_table(conn, "distilled"):
        return [row[0] for row in conn.execute("SELECT name FROM documents ORDER BY id")]
    query = (
        "SELECT d.name FROM documents d LEFT JOIN distilled l ON l.document_id = d.id "
        "WHERE l.document_id IS NULL ORDER BY d.id"
    )
    return [row[0] for row in conn.execute(query)]


def mark_distilled(conn: sqlite3.Connection, document: str, now: str) -> None:
    """Write ``document`` into the ledger of documents distilled."""
    conn.execute(
        "INSERT OR REPLACE INTO distilled (document_id, distilled_at) "
        "SELECT id, ? FROM documents WHERE name = ?",
        (now, document),
    )
