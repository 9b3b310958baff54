"""Records told to the store and read back: a fact is (subject, predicate, value), stamped
with its source, trust, when told and when true. A newer telling of a subject's predicate
supersedes the older one (a knowledge update: the old one leaves answers but stays as
history, with its citations); a telling of lower trust does not overwrite a record of
higher trust, the two are linked as contradicting; forgetting writes a tombstone, and
neither a forgotten nor a superseded record comes back, across reopen too. Each telling is
one transaction: a crash leaves the store as before it or as after it.

A live record is also a line ("Maya lives in Porto.") of a one-line document named for its
telling ("told by the operator on 2026-12-04 (record 7)"), at its source's trust: asked
and verified through the same gates as any document line, and cited as told. The line
leaves the store when its record is superseded or forgotten."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime

from affidavit.errors import InputError, readable, short_text
from affidavit.records.inference import infer
from affidavit.records.labels import inflection_key
from affidavit.records.record_entry import entry
from affidavit.records.settle import record_key, settle, told_document, told_name
from affidavit.results import Inferred, Record, RecordState
from affidavit.store import (
    RecordRow,
    Store,
    end,
    insert_document,
    insert_record,
    links_of,
    mark,
    mark_distilled,
    record_by_id,
    records_with,
    subject_keys_from,
    undistilled,
)
from affidavit.text import analyzer_for, fold
from affidavit.trust import Source, trust_of

# A subject, predicate or value is a short statement, not a document: tell a document by
# ingesting it.
MAX_PART_CHARS = 2_000
# A subject's inflections differ from it in its last letters only ("norman", "normans",
# "norman's"; "city", "cities"), and no more keys than this are read to find them.
INFLECTION_CHARS = 3
CONCEPT_KEYS = 200
# A kind is a few words ("magazine subscription").
MAX_KIND_CHARS = 80


def record_keys(subject: str, predicate: str) -> tuple[str, str]:
    """How a subject and a predicate are matched across tellings (settle.record_key)."""
    return record_key(subject), record_key(predicate)


class Records:
    """The records of one store: tell, read, forget."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def tell(
        self,
        subject: str,
        predicate: str,
        value: str,
        *,
        source: str = "operator",
        at: str | None = None,
        witness: tuple[str, int] | None = None,
        kind: str | None = None,
        adds: bool = False,
    ) -> Record:
        """Store the fact and return its Record (the live one already saying it, when the
        same value is told again). ``source`` is a rung of the trust ladder; ``at`` is the
        day the fact holds from (ISO), when known. With ``witness`` (document, position),
        the record is drawn from that stored line: it enters only if the line says it
        (records/record_entry.py), belongs to that document (``remove`` takes it too) and is
        cited by the line itself, not by a told line. ``kind`` is what sort of thing the
        value is ("pottery class"): an index key a question may find the record by. With
        ``adds`` the record is an event that happened ("Maya went to Porto"): it stands
        beside the other values of its subject and predicate, replacing none."""
        parts = [_part(subject, "the subject"), _part(predicate, "the predicate")]
        said = _part(value, "the value")
        ladder = _source(source)
        true_at = _day(at)
        sort = _kind(kind)
        document_id, speaker = self._witnessed(parts, said, witness)
        keys = record_keys(*parts)
        trust = trust_of(ladder)
        told_at = datetime.now(UTC).isoformat(timespec="seconds")
        with self._store.transaction() as conn:
            live = records_with(conn, *keys)
            # A value told again is the record already saying it, unless that one ended:
            # told again, it holds again (a new record); drawn again from the same line, it
            # is the same telling.
            again = [
                r.id
                for r in live
                if fold(r.value) == fold(said)
                and r.trust >= trust
                and (r.ended_at is None or (witness is not None and witness in r.witness))
            ]
            if again:
                return_id = again[0]  # told again: the record already says it
            else:
                return_id = insert_record(
                    conn,
                    subject=parts[0],
                    predicate=parts[1],
                    value=said,
                    keys=keys,
                    source=ladder.value,
                    trust=trust,
                    told_at=told_at,
                    true_at=true_at,
                    document_id=document_id,
                    witness=[witness] if witness is not None else (),
                    kind=sort,
                )
                drawn = (witness[0], speaker) if witness is not None else None
                if not adds:
                    settle(conn, return_id, trust, true_at, live, drawn, (keys[1], said))
                self._lines(conn, return_id, live)
        return self._record(return_id)

    def read(
        self,
        subject: str | None = None,
        predicate: str | None = None,
        *,
        include_history: bool = False,
    ) -> list[Record]:
        """The live records of ``subject`` and ``predicate`` (either None: any), in the
        order told; with ``include_history``, the superseded and forgotten ones too."""
        for given, what in ((subject, "subject"), (predicate, "predicate")):
            if given is not None:
                readable(given, what)
        subject_key = record_keys(subject, "")[0] if subject is not None else None
        predicate_key = record_keys("", predicate)[1] if predicate is not None else None
        states = [s.value for s in RecordState] if include_history else [RecordState.LIVE.value]
        with self._store.reading():
            rows = [
                row
                for key in self._keys_of(subject_key)
                for row in records_with(self._store.conn, key, predicate_key, states=states)
            ]
            rows.sort(key=lambda row: row.id)
            if not include_history:
                rows = [r for r in rows if r.ended_at is None]  # what holds now
            return self._linked(rows)

    def _keys_of(self, subject_key: str | None) -> list[str | None]:
        """The subject keys of one concept: ``subject_key`` and the keys told of its
        inflections ("normans" and "norman's" for "norman"), by the English stems."""
        if subject_key is None:
            return [None]
        stems = inflection_key(subject_key)
        if not stems:
            return [subject_key]
        # An inflection changes a word's last letters ("norman's", "cities" of "city"):
        # only the keys that share the rest are read, and no more than a bounded number.
        kept = max(len(subject_key) - INFLECTION_CHARS, min(len(subject_key), 3))
        prefix = subject_key[:kept]
        alike = [
            key
            for key in subject_keys_from(self._store.conn, prefix, CONCEPT_KEYS)
            if key != subject_key and inflection_key(key) == stems
        ]
        return [subject_key, *alike]

    def end(self, record_id: int, at: str | None = None) -> Record:
        """Say that a live record's fact stopped holding on ``at`` (ISO; default today):
        it stays, as history that says so ("Maya subscribes to Wired until 2024-05-01."),
        and leaves every read of what holds now. Ending an ended record again returns it."""
        day = _day(at) or datetime.now(UTC).date().isoformat()
        with self._store.transaction() as conn:
            found = _stored(conn, record_id)
            if found.state != RecordState.LIVE.value:
                raise InputError(
                    "record_id",
                    f"record {record_id} is {found.state}: only a live fact can end",
                    "end the record that holds now",
                )
            if found.ended_at is None:
                self._end(conn, found, day)
        return self._record(record_id)

    def _end(self, conn: sqlite3.Connection, found: RecordRow, day: str) -> None:
        """Stamp the day ``found`` stopped holding, and say so in its told line."""
        if found.true_at is not None and day < found.true_at:
            raise InputError(
                "at", f"{day} is before the fact began ({found.true_at})", "check the day"
            )
        end(conn, found.id, day)
        if found.document is None:
            # The told line says the fact ended; a drawn record's line is its document's.
            conn.execute("DELETE FROM documents WHERE name = ?", (told_name(found),))
            ended = record_by_id(conn, found.id)
            assert ended is not None
            insert_document(conn, told_document(ended), ended.told_at)
        self._store.changed(conn)

    def forget(self, record_id: int) -> Record:
        """Take a record back: it stays as a tombstone (``state`` forgotten), leaves every
        read of live records, and does not bring back the record it superseded."""
        with self._store.transaction() as conn:
            found = _stored(conn, record_id)
            mark(conn, record_id, RecordState.FORGOTTEN.value)
            conn.execute("DELETE FROM documents WHERE name = ?", (told_name(found),))
            self._store.changed(conn)
        return self._record(record_id)

    def _lines(self, conn: sqlite3.Connection, new: int, live: list[RecordRow]) -> None:
        """The told lines after a telling: the new record's, if it stands, and none of the
        records it superseded."""
        now = record_by_id(conn, new)
        assert now is not None
        for old in live:
            row = record_by_id(conn, old.id)
            if row is not None and row.state != RecordState.LIVE.value:
                conn.execute("DELETE FROM documents WHERE name = ?", (told_name(row),))
        if now.state == RecordState.LIVE.value and now.document is None:
            # A record drawn from a line is cited by that line; a told one by its own.
            insert_document(conn, told_document(now), now.told_at)
        self._store.changed(conn)

    def _witnessed(
        self, parts: list[str], value: str, witness: tuple[str, int] | None
    ) -> tuple[int | None, str | None]:
        """The id of the witnessing line's document and who spoke the line, once the entry
        gate admits the record on it; (None, None) without a witness. An InputError when
        the line is not stored or does not say the record."""
        if witness is None:
            return None, None
        if (
            not isinstance(witness, tuple | list)
            or len(witness) != 2
            or not isinstance(witness[0], str)
            or not isinstance(witness[1], int)
        ):
            raise InputError("witness", f"{witness!r} is not a line", "pass (document, position)")
        document, position = witness
        with self._store.reading():
            line = self._store.line_at(document, position)
            title = self._store.line_at(document, 0)
        if line is None:
            raise InputError(
                "witness", f"no line {position} in a document {document!r}", "cite a stored line"
            )
        named = f"{document} {title.text if title is not None else ''}"
        admitted = entry(parts[0], parts[1], value, line.text, named)
        if not admitted.admitted:
            raise InputError("witness", admitted.detail, "tell only what the line says")
        return line.document_id, line.speaker

    def told_by_name(self, document: str) -> Record | None:
        """The record whose told line ``document`` is, or None for any other document."""
        head, _, tail = document.rpartition(" (record ")
        if not head.startswith("told by the ") or not tail.endswith(")"):
            return None
        number = tail[:-1]
        if not number.isdigit():
            return None
        with self._store.reading():
            row = record_by_id(self._store.conn, int(number))
        return self._record(row.id) if row is not None and told_name(row) == document else None

    def undistilled(self) -> list[str]:
        """The documents not yet distilled, in the order stored."""
        with self._store.reading():
            return undistilled(self._store.conn)

    def distilled(self, document: str) -> None:
        """Write ``document`` into the ledger of documents distilled."""
        with self._store.transaction() as conn:
            mark_distilled(conn, document, datetime.now(UTC).isoformat(timespec="seconds"))

    def infer(self) -> Inferred:
        """Learn the transitive predicates and derive what their chains imply
        (records/inference.py)."""
        transitive, made = infer(self._store)
        return Inferred(transitive=transitive, records=tuple(self._record(i) for i in made))

    def record(self, record_id: int) -> Record:
        """The record ``record_id`` as it stands now (an InputError for no such record)."""
        with self._store.reading():
            _stored(self._store.conn, record_id)
        return self._record(record_id)

    def _record(self, record_id: int) -> Record:
        with self._store.reading():
            found = record_by_id(self._store.conn, record_id)
            assert found is not None
            return self._linked([found])[0]

    def _linked(self, rows: list[RecordRow]) -> list[Record]:
        """The rows as Records, with the links that tie each to the others."""
        links = links_of(self._store.conn, [r.id for r in rows])
        made = []
        for row in rows:
            supersedes = tuple(t for f, t, k in links if f == row.id and k == "supersedes")
            by = [f for f, t, k in links if t == row.id and k == "supersedes"]
            against = {t for f, t, k in links if f == row.id and k == "contradicts"}
            against |= {f for f, t, k in links if t == row.id and k == "contradicts"}
            because = tuple(f for f, t, k in links if t == row.id and k == "cause")
            state = RecordState(row.state)
            if state is RecordState.LIVE and row.ended_at is not None:
                state = RecordState.ENDED
            made.append(
                Record(
                    id=row.id,
                    subject=row.subject,
                    predicate=row.predicate,
                    value=row.value,
                    source=row.source,
                    trust=row.trust,
                    told_at=row.told_at,
                    true_at=row.true_at,
                    state=state,
                    document=row.document,
                    witness=row.witness,
                    supersedes=supersedes,
                    superseded_by=max(by) if by else None,
                    contradicts=tuple(sorted(against)),
                    ended_at=row.ended_at,
                    kind=row.kind,
                    because=because,
                )
            )
        return made


def _stored(conn: sqlite3.Connection, record_id: int) -> RecordRow:
    """The stored record ``record_id``; an InputError naming it when it is no record id or
    the store never gave it."""
    if not isinstance(record_id, int) or isinstance(record_id, bool):
        raise InputError("record_id", f"{record_id!r} is not a record id", "pass Record.id")
    found = record_by_id(conn, record_id)
    if found is None:
        raise InputError(
            "record_id",
            f"no record {record_id} in the store",
            "list them with records(include_history=True)",
        )
    return found


def _part(text: str, what: str) -> str:
    """A subject, predicate or value: text, not empty, not a document's length."""
    return short_text(
        text,
        what,
        longest=MAX_PART_CHARS,
        empty_hint="say what the record is about",
        long_hint="ingest long text as a document",
    )


def _kind(kind: str | None) -> tuple[str, str] | None:
    """(the kind as told, the word a question names it by: its last word's stem), or
    None for no kind."""
    if kind is None:
        return None
    told = short_text(
        kind,
        "the kind",
        longest=MAX_KIND_CHARS,
        empty_hint="name a sort of thing",
        long_hint="name the sort of thing in a few words",
    )
    terms = analyzer_for("en").terms(told)
    return (told, terms[-1]) if terms else None


def _source(source: str) -> Source:
    try:
        return Source(source)
    except ValueError:
        rungs = ", ".join(s.value for s in Source)
        raise InputError("source", f"{source!r} is not a source", f"one of {rungs}") from None


def _day(at: str | None) -> str | None:
    """``at`` as an ISO day (a full timestamp keeps its day), or None."""
    if at is None:
        return None
    try:
        return date.fromisoformat(str(at)[:10]).isoformat()
    except ValueError:
        raise InputError("at", f"{at!r} is not an ISO date", "write it as 2024-05-01") from None
