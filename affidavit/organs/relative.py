"""When a told event happened: a relative expression read against the day it was said.

A turn said on 8 May 2023 that writes "yesterday" tells of 7 May 2023; "two days ago",
"last week", "this month", "last Tuesday", "in March" and "last year" likewise name a day,
a week, a month or a year counted from the day of saying. Fast rules read the common forms;
``dateparser`` (with the day of saying as its ``RELATIVE_BASE``) reads the rest. What is
vague ("a few years ago", "recently") is said to be vague, never given a precision it does
not have. The words stay as written: the result names them beside the day it was read from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

import dateparser

from affidavit.gates.digits import MONTH_NAMES
from affidavit.index.number_words import NUMBER_WORDS

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_COUNT = r"(?P<n>\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_AGO = re.compile(rf"\b{_COUNT}\s+(?P<unit>day|week|month|year)s?\s+ago\b", re.I)
_LAST_DAY = re.compile(r"\b(?:last|this past)\s+(?P<day>" + "|".join(_WEEKDAYS) + r")\b", re.I)
_IN_MONTH = re.compile(r"\bin\s+(?P<month>" + "|".join(MONTH_NAMES) + r")\b(?!\s+\d)", re.I)
_VAGUE = re.compile(
    r"\b(?:a few|several|some|many)\s+(?:days|weeks|months|years)\s+ago\b|\brecently\b|"
    r"\ba while (?:ago|back)\b|\blong ago\b",
    re.I,
)
_FIXED = (
    (re.compile(r"\byesterday\b", re.I), "day", -1),
    (re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", re.I), "day", 0),
    (re.compile(r"\blast night\b", re.I), "day", -1),
    (re.compile(r"\btomorrow\b", re.I), "day", 1),
    (re.compile(r"\blast week\b", re.I), "week", -1),
    (re.compile(r"\bthis week\b", re.I), "week", 0),
    (re.compile(r"\bnext week\b", re.I), "week", 1),
    (re.compile(r"\blast month\b", re.I), "month", -1),
    (re.compile(r"\bthis month\b", re.I), "month", 0),
    (re.compile(r"\bnext month\b", re.I), "month", 1),
    (re.compile(r"\blast year\b", re.I), "year", -1),
    (re.compile(r"\bthis year\b", re.I), "year", 0),
    (re.compile(r"\bnext year\b", re.I), "year", 1),
)


@dataclass(frozen=True, slots=True)
class When:
    day: str  # ISO at its precision: "2023-05-07", "2023-06", "2023"; a week as its Monday
    precision: str  # day, week, month, year, or vague
    words: str  # the expression as the line writes it ("yesterday")
    said_on: str  # the ISO day it was said


def when_told(text: str, said_on: str) -> When | None:
    """The time ``text``, said on ``said_on`` (ISO day), tells of, or None if it tells none."""
    base = date.fromisoformat(said_on[:10])
    vague = _VAGUE.search(text)
    if vague:
        return When(f"{base.year:04d}", "vague", vague.group(0), said_on[:10])
    for pattern, precision, step in _FIXED:
        found = pattern.search(text)
        if found:
            return When(_shifted(base, precision, step), precision, found.group(0), said_on[:10])
    ago = _AGO.search(text)
    if ago:
        count = ago.group("n").lower()
        n = int(count) if count.isdigit() else NUMBER_WORDS.get(count, 1)
        unit = ago.group("unit").lower()
        if unit == "day":
            return When((base - timedelta(days=n)).isoformat(), "day", ago.group(0), said_on[:10])
        return When(_shifted(base, unit, -n), unit, ago.group(0), said_on[:10])
    weekday = _LAST_DAY.search(text)
    if weekday:
        wanted = _WEEKDAYS.index(weekday.group("day").lower())
        back = (base.weekday() - wanted) % 7 or 7
        day = (base - timedelta(days=back)).isoformat()
        return When(day, "day", weekday.group(0), said_on[:10])
    month = _IN_MONTH.search(text)
    if month:
        number = MONTH_NAMES.index(month.group("month").lower()) + 1
        year = base.year if number <= base.month else base.year - 1
        return When(f"{year:04d}-{number:02d}", "month", month.group(0), said_on[:10])
    return _parsed(text, base, said_on[:10])


def _shifted(base: date, precision: str, step: int) -> str:
    if precision == "day":
        return (base + timedelta(days=step)).isoformat()
    if precision == "week":
        monday = base - timedelta(days=base.weekday()) + timedelta(weeks=step)
        return monday.isoformat()
    if precision == "month":
        months = base.year * 12 + base.month - 1 + step
        return f"{months // 12:04d}-{months % 12 + 1:02d}"
    return f"{base.year + step:04d}"


_PARSEABLE = re.compile(r"\b(?:on|last|next|this)\s+\w+(?:\s+\w+)?", re.I)


def _parsed(text: str, base: date, said_on: str) -> When | None:
    """Forms the rules above do not read, by dateparser relative to the day of saying."""
    for found in _PARSEABLE.finditer(text):
        settings = {
            "RELATIVE_BASE": _as_datetime(base),
            "PREFER_DATES_FROM": "past",
            "RETURN_AS_TIMEZONE_AWARE": False,
        }
        parsed = dateparser.parse(found.group(0), languages=["en"], settings=settings)
        if parsed is not None and parsed.date() != base:
            return When(parsed.date().isoformat(), "day", found.group(0), said_on)
    return None


def _as_datetime(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, 0)
