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


_COLUMNS = (
    "r.id, r.subject, r.predicate, r.value, r.source, r.trust, r.told_at, r.true_at, "
    "r.state, d.name, r.witness"
)
# A store before schema 7, opened read-only, has no ended_at column: none of its records
# ended.
_ENDED = ", r.ended_at"
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
) -> int:
    """Write one record; its id."""
    cursor = conn.execute(
        "INSERT INTO records (subject, predicate, value, subject_key, predicate_key, source, "
        "trust, told_at, true_at, state, document_id, witness) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
        ),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def has_endings(conn: sqlite3.Connection) -> bool:
    """Does the records table hold the day a fact ended (schema 7 on)?"""
    return any(row[1] == "ended_at" for row in conn.execute("PRAGMA table_info(records)"))


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
    return _COLUMNS + _ENDED if has_endings(conn) else _COLUMNS


def _row(found: tuple) -> RecordRow:
    witness = tuple((str(d), int(p)) for d, p in json.loads(found[10])) if found[10] else ()
    record_id, subject, predicate, value, source, trust, told_at, true_at, state, name = found[:10]
    ended_at = found[11] if len(found) > 11 else None
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
    )
