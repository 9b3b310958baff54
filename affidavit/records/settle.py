"""Where a new record stands against the live ones of its subject and predicate
(supersedes them, is history under them, or disagrees with them), and the one-line
document a told record's line stands in, named for its telling."""

from __future__ import annotations

import sqlite3
from hashlib import sha256

from affidavit.results import LineKind, RecordState
from affidavit.store import PreparedDocument, PreparedLine, RecordRow, link, mark, records_with
from affidavit.text import detect_language, fold


def settle(
    conn: sqlite3.Connection,
    new: int,
    trust: float,
    true_at: str | None,
    live: list[RecordRow],
    drawn: tuple[str, str | None] | None = None,
    said: tuple[str, str] | None = None,
) -> None:
    """Where the new record stands against the live ones of its subject and predicate:
    a telling updates what was told (supersedes it), but two documents that say different
    values disagree, and neither overwrites the other, unless one speaker says both on
    different days (a conversation's later session updates what its speaker said). Two
    values the predicate itself links ("Paris is in France", "Paris is in Europe" beside
    "France is in Europe": ``said`` is the new record's predicate key and value) are one
    chain, not an update: both stand."""
    for old in live:
        if said is not None and _chained(conn, said[0], old.value, said[1]):
            continue
        other_document = drawn and old.document and old.document != drawn[0]
        if other_document and drawn and drawn[1] and true_at and old.true_at:
            other_document = true_at == old.true_at or _speaker(conn, old) != drawn[1]
        if trust < old.trust or other_document:
            # Said by a source below the standing record's, or by another document: both
            # stand, linked, and an answer from either says the store disagrees.
            link(conn, new, old.id, "contradicts")
        elif true_at and old.true_at and true_at < old.true_at:
            # An older truth told later: history under the record that holds now.
            mark(conn, new, RecordState.SUPERSEDED.value)
            link(conn, old.id, new, "supersedes")
        else:
            mark(conn, old.id, RecordState.SUPERSEDED.value)
            link(conn, new, old.id, "supersedes")


def _chained(conn: sqlite3.Connection, predicate_key: str, one: str, other: str) -> bool:
    """Does a live record say ``one`` has the predicate with value ``other``, or the
    other way round?"""
    a, b = record_key(one), record_key(other)
    for subject, value in ((a, b), (b, a)):
        if any(record_key(r.value) == value for r in records_with(conn, subject, predicate_key)):
            return True
    return False


def record_key(text: str) -> str:
    """How a subject, predicate or value is matched across tellings: folded (case and
    accents aside), whitespace collapsed ("Maya's  Phone" is "maya's phone")."""
    return " ".join(fold(text).split())


def _speaker(conn: sqlite3.Connection, row: RecordRow) -> str | None:
    """Who spoke the line a drawn record was drawn from (None for a document's line)."""
    if not row.witness:
        return None
    document, position = row.witness[0]
    found = conn.execute(
        "SELECT l.speaker FROM lines l JOIN documents d ON d.id = l.document_id "
        "WHERE d.name = ? AND l.position = ?",
        (document, position),
    ).fetchone()
    return found[0] if found else None


def told_name(row: RecordRow) -> str:
    """The name of the document a told record's line stands in: how it is cited."""
    return f"told by the {row.source} on {row.told_at[:10]} (record {row.id})"


def told_sentence(row: RecordRow) -> str:
    """The record said as a sentence: subject, predicate and value, in that order, and
    the day it ended, for an ended one."""
    said = f"{row.subject} {row.predicate} {row.value}".strip()
    if row.ended_at:
        return f"{said.rstrip('.!?')} until {row.ended_at}."
    return said if said.endswith((".", "!", "?")) else f"{said}."


def told_document(row: RecordRow) -> PreparedDocument:
    """The one-line document of a told record, at its source's trust, dated the day it
    holds from where known, else the day it was told."""
    sentence = told_sentence(row)
    return PreparedDocument(
        name=told_name(row),
        content_hash=sha256(sentence.encode("utf-8")).hexdigest(),
        language=detect_language(sentence),
        lines=(PreparedLine(0, LineKind.SENTENCE, sentence),),
        date=row.true_at or row.told_at[:10],
        source=row.source,
        trust=row.trust,
    )
