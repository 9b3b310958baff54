"""The organs of time: how many days between two events, how long ago one was, which came
first. Each is date arithmetic over the dates the lines that tell of the events write; the
asking day is metadata (``ask(asked_at=...)``), never a word of the question, so "how long
ago" without it has no plan that survives and is refused.
"""

from __future__ import annotations

import re

from affidavit.composer.plan import Plan, Step
from affidavit.organs.routes import Need, Route

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
_WHEN = re.compile(r"^\s*when\s+(?:did|was|were|is|has|have|had)\s+(?P<a>.+)$", re.I)
_THE = re.compile(r"^(?:the|a|an)\s+", re.I)


def read_dates(text: str) -> Route | None:
    """The date arithmetic ``text`` (a question less its mark) asks for, or None."""
    between = _BETWEEN.match(text)
    if between:
        return Route(
            Need.DAYS_BETWEEN, (_event(between.group("a")), _event(between.group("b"))), ()
        )
    ago = _AGO.match(text)
    if ago:
        return Route(Need.DAYS_AGO, (_event(ago.group("a")),), ())
    when = _WHEN.match(text)
    if when:
        # Only a conversation's turns answer it this way; elsewhere lifting goes on.
        return Route(Need.WHEN, (_event(when.group("a")),), (), loose=True)
    first = _FIRST.match(text)
    if first:
        earliest = first.group("way").lower() in ("first", "earlier")
        pair = (_event(first.group("a")), _event(first.group("b")))
        return Route(Need.FIRST, pair, (), largest=not earliest)
    return None


def _event(phrase: str) -> str:
    return _THE.sub("", phrase.strip(" ,.;:?")).strip()


def date_plans(found: Route) -> list[Plan] | None:
    """The plans for a date route; None when the route is not one."""
    dated = [
        Step("anchor", {"phrase": event, "as": "date"}, f"e{i}")
        for i, event in enumerate(found.rows)
    ]
    if found.need == Need.DAYS_BETWEEN:
        span = Step("days_between", {"from": "e0", "to": "e1"}, "answer")
        return [Plan((*dated, span), note="the days between the dates the two lines write")]
    if found.need == Need.DAYS_AGO:
        span = Step("days_between", {"from": "e0", "to": "now"}, "answer")
        return [Plan((*dated, span), note="the days from the event's date to the asking day")]
    if found.need == Need.WHEN:
        told = Step("anchor", {"phrase": found.rows[0], "as": "date", "told": True}, "answer")
        return [Plan((told,), note="the day a turn tells the event happened, read from its stamp")]
    if found.need == Need.FIRST:
        both = Step("gather", {"of": ["e0", "e1"]}, "both")
        chosen = Step(
            "latest" if found.largest else "first", {"of": "both", "say": "row"}, "answer"
        )
        return [Plan((*dated, both, chosen), note="the event of the earlier (or later) date")]
    return None
