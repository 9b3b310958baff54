"""What holds now. A line may say a fact that a later line superseded ("I live in Lisbon",
then months later "I live in Porto now") or that ended ("I cancelled my subscription"): the
records distilled from the lines know which. A question asked in the present is answered
first from a line whose record still holds; a candidate drawn only from a record that no
longer holds gives way, is not taken for the store disagreeing with itself, and the audit
says which record replaced it. A question asked of the past ("Where did Ana live before?")
is left as the gates ranked it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from affidavit.engine import Candidate
from affidavit.results import Evidence
from affidavit.store import RecordRow, Store, drawn_from, record_by_id, superseders
from affidavit.text import Analyzer, content_terms


class Drawn(Protocol):
    """A candidate that passed, as currency reads it: the candidate and its cited lines."""

    @property
    def candidate(self) -> Candidate: ...

    @property
    def cited(self) -> list[Evidence]: ...


Passed = TypeVar("Passed", bound=Drawn)


@dataclass(frozen=True, slots=True)
class Stale:
    """A candidate drawn from a record that no longer holds, and why."""

    candidate: str
    record: int  # the record its line says
    state: str  # superseded or ended
    replaced_by: int | None  # the record that superseded it, where one did
    now: str | None = None  # that record's value
    since: str | None = None  # the day it stopped holding, where known

    def to_dict(self) -> dict[str, Any]:
        return {
            "candidate": self.candidate,
            "record": self.record,
            "state": self.state,
            "replaced_by": self.replaced_by,
            "now": self.now,
            "since": self.since,
        }

    @property
    def note(self) -> str:
        """What the census says of an answer that no longer holds."""
        when = f" on {self.since}" if self.since else ""
        if self.state == "ended":
            return f"That no longer holds: it ended{when} (record {self.record})."
        if self.now is not None:
            return f"That no longer holds: record {self.replaced_by} says {self.now!r}{when}."
        return f"That no longer holds (record {self.record} is {self.state})."


def current_first(
    passed: list[Passed], store: Store, analyzer: Analyzer
) -> tuple[list[Passed], list[Stale]]:
    """``passed`` (each with its candidate and cited lines) with the candidates drawn
    only from records that no longer hold moved after the rest,
    the order otherwise kept; and those candidates, for the audit."""
    cited = sorted({(line.document, line.position) for p in passed for line in p.cited})
    with store.reading():
        rows = drawn_from(store.conn, cited)
        replaced = superseders(store.conn, [row.id for row in rows if row.state == "superseded"])
        newer = {i: record_by_id(store.conn, i) for i in sorted(set(replaced.values()))}
    if not rows:
        return passed, []
    stale: list[Stale] = []
    fresh, behind = [], []
    for entry in passed:
        found = _stale(entry.candidate, entry.cited, rows, replaced, newer, analyzer)
        if found is None:
            fresh.append(entry)
        else:
            stale.append(found)
            behind.append(entry)
    # Only a candidate drawn from what replaced it makes one give way: a question worded in
    # the present may still ask of a past moment, and then nothing that holds answers it.
    current = {s.replaced_by for s in stale if s.replaced_by is not None}
    answering = [entry for entry in fresh if _drawn_from(entry.cited, rows, current)]
    if not answering:
        return passed, [s for s in stale if s.state == "ended"]
    return [*fresh, *behind], stale


def _stale(
    candidate: Candidate,
    lines: Sequence[Evidence],
    rows: list[RecordRow],
    replaced: dict[int, int],
    newer: dict[int, RecordRow | None],
    analyzer: Analyzer,
) -> Stale | None:
    """The record that no longer holds this candidate is drawn from: when every record its
    lines say no longer holds, the first of them (the line is history, whatever part of it
    is lifted); else one that no longer holds whose value shares a word with the
    candidate (a line may say one fact that ended beside one that holds)."""
    places = {(line.document, line.position) for line in lines}
    said_there = [row for row in rows if places & set(row.witness)]
    gone = [row for row in said_there if not _holds(row)]
    if not gone:
        return None
    if len(gone) < len(said_there):
        said = content_terms(candidate.text, analyzer)
        gone = [row for row in gone if said & content_terms(row.value, analyzer)]
        if not gone:
            return None
    row = gone[0]
    if row.ended_at is not None and row.state == "live":
        return Stale(candidate.text, row.id, "ended", None, since=row.ended_at)
    now = newer.get(replaced.get(row.id, -1))
    if now is None:
        return Stale(candidate.text, row.id, row.state, None)
    return Stale(candidate.text, row.id, row.state, now.id, now.value, now.true_at)


def _drawn_from(lines: Sequence[Evidence], rows: list[RecordRow], ids: set[int]) -> bool:
    """Does one of ``lines`` witness one of the records ``ids``?"""
    places = {(line.document, line.position) for line in lines}
    return any(row.id in ids and places & set(row.witness) for row in rows)


def _holds(row: RecordRow) -> bool:
    return row.state == "live" and row.ended_at is None
