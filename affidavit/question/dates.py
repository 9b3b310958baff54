"""The organs of time: how many days between two events, how long ago one was, which came
first. Each is date arithmetic over the dates the lines that tell of the events write; the
asking day is metadata (``ask(asked_at=...)``), never a word of the question, so "how long
ago" without it has no plan that survives and is refused.
"""

from __future__ import annotations

import re

from affidavit.plans.plan import Plan, Step
from affidavit.question.routes import Need, Route
from affidavit.text.years import YEAR

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
    """The date arithmetic ``text`` (a question less its mark) asks for, or None."""
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


def date_plans(found: Route) -> list[Plan] | None:
    """The plans for a date route, None when the route is not one: each event told by a
    conversation's turns first (a turn's "yesterday" read against its day, or its stamp),
    then as the dates document lines write."""
    plans = _plans(found, told=True)
    if plans is None or found.need in (Need.WHEN, Need.TIMES):
        return plans
    # Over documents no turn tells the events: the dates their lines write.
    return [*plans, *(_plans(found, told=False) or [])]


def _plans(found: Route, *, told: bool) -> list[Plan] | None:
    dated = []
    for i, event in enumerate(found.rows):
        args: dict[str, object] = {"phrase": event, "as": "date"}
        if told:
            args["told"] = True
        if found.named:
            args["named"] = found.named[i]
        dated.append(Step("anchor", args, f"e{i}"))
    if found.need == Need.DAYS_BETWEEN:
        span = Step("days_between", {"from": "e0", "to": "e1"}, "answer")
        return [Plan((*dated, span), note="the days between the dates the two lines write")]
    if found.need == Need.DAYS_AGO:
        span = Step("days_between", {"from": "e0", "to": "now"}, "answer")
        return [Plan((*dated, span), note="the days from the event's date to the asking day")]
    if found.need == Need.TIMES:
        tellings = Step("gather", {"phrase": found.rows[0], "told": True}, "told")
        steps = [tellings]
        if found.years:
            year = int(found.years[0])
            kept = {"of": "told", "after": str(year - 1), "before": str(year + 1)}
            steps.append(Step("filter", kept, "kept"))
        counted = Step("count", {"of": steps[-1].out, "once": True}, "answer")
        return [Plan((*steps, counted), note="the events the turns tell, one told twice once")]
    if found.need == Need.WHEN:
        turn = Step("anchor", {"phrase": found.rows[0], "as": "date", "told": True}, "answer")
        return [Plan((turn,), note="the day a turn tells the event happened, read from its stamp")]
    if found.need == Need.FIRST:
        both = Step("gather", {"of": ["e0", "e1"]}, "both")
        chosen = Step(
            "latest" if found.largest else "first", {"of": "both", "say": "row"}, "answer"
        )
        return [Plan((*dated, both, chosen), note="the event of the earlier (or later) date")]
    return None
