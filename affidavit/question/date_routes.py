"""Questions of time, read at the door: how many days between two events, how long ago one
was, which came first, how many times, when."""

from __future__ import annotations

import re

from affidavit.question.routes import Need, Route
from affidavit.text import YEAR

_BETWEEN = re.compile(
    r"^\s*how many days\s+(?:passed\s+|elapsed\s+|were there\s+|are there\s+|went by\s+)?"
    r"between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$",
    re.I,
)
_AGO = re.compile(
    r"^\s*how (?:many days|long) ago\s+(?:did|was|were|is|has|have)\s+(?P<a>.+)$", re.I
)
_FIRST = re.compile(
    r"^\s*(?:which|what)\s+(?:came|happened|was|occurred)\s+(?P<way>first|earlier|last|later)"
    r",?\s+(?P<a>.+?)\s+or\s+(?P<b>.+)$",
    re.I,
)
# "Which pet did Jolene adopt first - Susie or Seraphim?": one event, two of its objects.
_WHICH_FIRST = re.compile(
    r"^\s*(?:which|who|what)\b(?:\s+\w+){0,3}?\s+(?:did|does|do|was|were|has|have)\s+"
    r"(?P<event>.+?)\s+(?P<way>first|earlier|last|later|more recently|most recently)"
    r"\s*[-–—,:]?\s+(?P<a>.+?),?\s+or\s+(?P<b>.+)$",
    re.I,
)
_TIMES = re.compile(
    r"^\s*how many times\s+(?:did|has|have|had|does|do|was|were)\s+(?P<a>.+?)"
    rf"(?:\s+in\s+(?P<year>{YEAR}))?$",
    re.I,
)
_WHEN = re.compile(r"^\s*when\s+(?:did|was|were|is|has|have|had)\s+(?P<a>.+)$", re.I)
_THE = re.compile(r"^(?:the|a|an)\s+", re.I)


def read_dates(text: str) -> Route | None:
    """The date arithmetic ``text`` (a question less its mark) asks for, or None.

    Each is date arithmetic over the dates the lines that tell of the events write; the
    asking day is metadata (``ask(asked_at=...)``), never a word of the question, so "how
    long ago" without it has no plan that survives and is refused.
    """
    between = _BETWEEN.match(text)
    if between:
        return Route(
            Need.DAYS_BETWEEN, (_event(between.group("a")), _event(between.group("b"))), ()
        )
    ago = _AGO.match(text)
    if ago:
        return Route(Need.DAYS_AGO, (_event(ago.group("a")),), ())
    times = _TIMES.match(text)
    if times:
        year = (times.group("year"),) if times.group("year") else ()
        return Route(Need.TIMES, (_event(times.group("a")),), year, loose=True)
    when = _WHEN.match(text)
    if when:
        # Only a conversation's turns answer it this way; elsewhere lifting goes on.
        return Route(Need.WHEN, (_event(when.group("a")),), (), loose=True)
    first = _FIRST.match(text)
    if first:
        earliest = first.group("way").lower() in ("first", "earlier")
        pair = (_event(first.group("a")), _event(first.group("b")))
        return Route(Need.FIRST, pair, (), largest=not earliest)
    which = _WHICH_FIRST.match(text)
    if which:
        earliest = which.group("way").lower() in ("first", "earlier")
        event = _event(which.group("event"))
        named = (_event(which.group("a")), _event(which.group("b")))
        pair = (f"{event} {named[0]}", f"{event} {named[1]}")
        return Route(Need.FIRST, pair, (), largest=not earliest, named=named)
    return None


def _event(phrase: str) -> str:
    return _THE.sub("", phrase.strip(" ,.;:?")).strip()
