"""distil: the events a passage reports, written as records. The engine lists them (who
did what, the kind of thing, the words that say when); each enters only through the
records' entry gate on its own line, at extraction trust, drawn from and cited by that
line; the rest are refused with the reason. An event that says an earlier fact stopped
holding ("I cancelled my subscription") ends the live records of its subject that it names.
Distilling a passage again writes nothing new: a value told again is the record already
saying it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from affidavit.errors import InputError
from affidavit.records.told import Records
from affidavit.results import Distilled, Evidence, Record, RecordState
from affidavit.text import analyzer_for, content_terms, when_told
from affidavit.trust import Source

# Two words that share this many first letters name one thing for an ending's match.
SHARED_LETTERS = 6


class Event(Protocol):
    """An event as an engine lists it (engine.protocol.ProposedEvent), read only."""

    @property
    def subject(self) -> str: ...
    @property
    def predicate(self) -> str: ...
    @property
    def value(self) -> str: ...
    @property
    def position(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def when(self) -> str: ...
    @property
    def ends(self) -> bool: ...
    @property
    def lasting(self) -> bool: ...


def distil(
    records: Records, document: str, lines: Sequence[Evidence], events: Sequence[Event]
) -> Distilled:
    """Write the ``events`` listed of ``document`` (whose ``lines`` they cite by position)
    as records, in line order; what entered, what it ended and what was refused."""
    at_position = {line.position: line for line in lines}
    written: list[Record] = []
    ended: list[Record] = []
    refused: list[tuple[str, str]] = []
    for event in sorted(events, key=_order):
        listed = _listed(event)
        line = at_position.get(event.position) if isinstance(event.position, int) else None
        if line is None:
            refused.append((listed, f"{document!r} has no line {event.position!r}"))
            continue
        try:
            record = records.tell(
                event.subject,
                event.predicate,
                event.value,
                source=Source.EXTRACTION.value,
                at=_day(event, line),
                witness=(document, line.position),
                kind=event.kind or None,
                adds=not event.lasting,
            )
        except InputError as exc:
            refused.append((listed, exc.problem))
            continue
        if record.state is RecordState.LIVE and all(r.id != record.id for r in written):
            written.append(record)
        if event.ends and record.state is RecordState.LIVE:
            ended.extend(_end_named(records, record))
    # A record may have been superseded or ended by a later line of the same passage.
    return Distilled(
        document=document,
        records=tuple(records.record(r.id) for r in written),
        ended=tuple(ended),
        refused=tuple(refused),
    )


def _end_named(records: Records, ending: Record) -> list[Record]:
    """End the live records of the ending record's subject that name what it says stopped
    ("cancelled | subscription to Wired magazine" ends "subscribed to | Wired magazine"),
    told before it: those whose value, kind or predicate shares a word with the ending's
    value (a word's first letters, for "subscription" and "subscribed"). The ended ones."""
    stopped = _stems(ending.value)
    day = ending.true_at
    ended = []
    for earlier in records.read(ending.subject):
        if earlier.id >= ending.id or (day and earlier.true_at and day < earlier.true_at):
            continue
        named = _stems(f"{earlier.value} {earlier.kind or ''} {earlier.predicate}")
        if stopped & named:
            ended.append(records.end(earlier.id, day))
    return ended


def _stems(text: str) -> set[str]:
    """The content words of ``text`` cut to their first letters: a word and its kin
    ("subscription", "subscribed") share them."""
    return {term[:SHARED_LETTERS] for term in content_terms(text, analyzer_for("en"))}


def _day(event: Event, line: Evidence) -> str | None:
    """The day the event happened: the day its words of time name ("yesterday", read
    from the day the line was said), else the day the line was said; None for a line of
    no day."""
    if not line.date:
        return None
    if event.when and event.when.lower() in line.text.lower():
        told = when_told(line.text, line.date, near=[event.when], fast=True)
        if told is not None and told.precision == "day":
            return told.day
    return line.date[:10]


def _order(event: Event) -> tuple[int, str, str, str]:
    position = event.position if isinstance(event.position, int) else -1
    return position, str(event.subject), str(event.predicate), str(event.value)


def _listed(event: Event) -> str:
    return f"{event.subject} | {event.predicate} | {event.value} (line {event.position})"
