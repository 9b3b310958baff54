"""When a told event happened: a relative expression ("yesterday", "last week") read
against the day it was said."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from affidavit.text.dates import MONTH_NAMES
from affidavit.text.numbers import NUMBER_WORDS

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
    (re.compile(r"\b(?:last|this past) weekend\b", re.I), "weekend", -1),
    (re.compile(r"\bthis weekend\b", re.I), "weekend", 0),
    (re.compile(r"\bnext weekend\b", re.I), "weekend", 1),
    (re.compile(r"\b(?:last|this past) week\b", re.I), "week", -1),
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
    """A time a turn tells, with the words as written beside the day it was read from.

    A day, a month and a year are ISO dates at their precision ("2023-05-07", "2023-05",
    "2023"). A week or a weekend is an ISO interval of days: "last week" said on 9 June
    2023 is the seven days before it, "2023-06-02/2023-06-08"; "last weekend" the Saturday
    and Sunday before it. What is vague ("a few years ago", "recently") is said to be
    vague, never given a precision it does not have: an interval open at its start,
    "../2023-05-08", some time before the day it was said, and no more.
    """

    day: str  # ISO at its precision: "2023-05-07", "2023-06", "2023"; a week, a weekend
    # or a vague time as an interval: "2023-06-02/2023-06-08", "../2023-05-08"
    precision: str  # day, week, weekend, month, year, or vague
    words: str  # the expression as the line writes it ("yesterday")
    said_on: str  # the ISO day it was said


def when_told(
    text: str, said_on: str, near: Sequence[str] = (), *, fast: bool = False
) -> When | None:
    """The time ``text``, said on ``said_on`` (ISO day), tells of, or None if it tells none.

    A turn may tell two times ("we went camping last weekend, and I had an audition
    yesterday"): with ``near`` (the event's words), the time written nearest them is the
    event's; without, the first written. ``fast`` reads the fast rules only.
    """
    told = times_told(text, said_on, fast=fast)
    if not told:
        return None
    places = _places(text.lower(), near)
    if not places:
        return told[0][1]
    return min(told, key=lambda t: (min(_gap(t[0], p) for p in places), t[0][0]))[1]


def times_told(
    text: str, said_on: str, *, fast: bool = False
) -> list[tuple[tuple[int, int], When]]:
    """Every time ``text`` tells, with where it is written, in the order written; one
    place is read by one rule only (a vague time, then the fixed words, "ago", weekdays,
    months, then dateparser).

    A turn said on 8 May 2023 that writes "yesterday" tells of 7 May 2023; "two days ago",
    "last week", "this month", "last Tuesday", "in March" and "last year" likewise name a
    day, a week, a month or a year counted from the day of saying. Fast rules read the
    common forms; ``dateparser`` (with the day of saying as its ``RELATIVE_BASE``) reads
    the rest.
    """
    base, day = date.fromisoformat(said_on[:10]), said_on[:10]
    found: list[tuple[tuple[int, int], When]] = []

    def add(match: re.Match[str], iso: str, precision: str) -> None:
        span = match.span()
        if all(span[1] <= s[0] or span[0] >= s[1] for s, _ in found):
            found.append((span, When(iso, precision, match.group(0), day)))

    for vague in _VAGUE.finditer(text):
        add(vague, f"../{base.isoformat()}", "vague")
    for pattern, precision, step in _FIXED:
        for fixed in pattern.finditer(text):
            add(fixed, _shifted(base, precision, step), precision)
    for ago in _AGO.finditer(text):
        count = ago.group("n").lower()
        n = int(count) if count.isdigit() else NUMBER_WORDS.get(count, 1)
        unit = ago.group("unit").lower()
        if unit == "day":
            add(ago, (base - timedelta(days=n)).isoformat(), "day")
        elif unit == "week":
            # "two weeks ago": the seven days that end two weeks before the day of saying.
            last = base - timedelta(days=7 * (n - 1) + 1)
            add(ago, _interval(last - timedelta(days=6), last), "week")
        else:
            add(ago, _shifted(base, unit, -n), unit)
    for weekday in _LAST_DAY.finditer(text):
        wanted = _WEEKDAYS.index(weekday.group("day").lower())
        back = (base.weekday() - wanted) % 7 or 7
        add(weekday, (base - timedelta(days=back)).isoformat(), "day")
    for month in _IN_MONTH.finditer(text):
        number = MONTH_NAMES.index(month.group("month").lower()) + 1
        year = base.year if number <= base.month else base.year - 1
        add(month, f"{year:04d}-{number:02d}", "month")
    if not found and not fast:  # dateparser is thorough, and slow: not for a quick look
        parsed = _parsed(text, base, day)
        if parsed is not None:
            found.append(parsed)
    return sorted(found, key=lambda f: f[0])


def _places(text: str, near: Sequence[str]) -> list[tuple[int, int]]:
    """Where the words ``near`` stand in ``text`` (lower-cased), as spans."""
    spans: list[tuple[int, int]] = []
    for word in near:
        if len(word) < 3:
            continue
        for hit in re.finditer(rf"\b{re.escape(word.lower())}", text):
            spans.append(hit.span())
    return spans


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, b[0] - a[1], a[0] - b[1])


def _shifted(base: date, precision: str, step: int) -> str:
    if precision == "day":
        return (base + timedelta(days=step)).isoformat()
    if precision == "week":
        if step < 0:  # the seven days before the day of saying
            return _interval(base - timedelta(days=7), base - timedelta(days=1))
        if step > 0:  # the seven days after it
            return _interval(base + timedelta(days=1), base + timedelta(days=7))
        monday = base - timedelta(days=base.weekday())
        return _interval(monday, monday + timedelta(days=6))
    if precision == "weekend":
        saturday = base + timedelta(days=5 - base.weekday())  # this week's Saturday
        if step < 0 and saturday + timedelta(days=1) >= base:
            saturday -= timedelta(days=7)  # the last weekend wholly before the day
        elif step > 0:
            saturday += timedelta(days=7 if base.weekday() >= 5 else 0)
        return _interval(saturday, saturday + timedelta(days=1))
    if precision == "month":
        months = base.year * 12 + base.month - 1 + step
        return f"{months // 12:04d}-{months % 12 + 1:02d}"
    return f"{base.year + step:04d}"


_PARSEABLE = re.compile(r"\b(?:on|last|next|this)\s+\w+(?:\s+\w+)?", re.I)


def _parsed(text: str, base: date, said_on: str) -> tuple[tuple[int, int], When] | None:
    """Forms the rules above do not read, by dateparser relative to the day of saying."""
    import dateparser  # 70 ms to import: only a form the rules above cannot read needs it

    for found in _PARSEABLE.finditer(text):
        settings = {
            "RELATIVE_BASE": _as_datetime(base),
            "PREFER_DATES_FROM": "past",
            "RETURN_AS_TIMEZONE_AWARE": False,
        }
        parsed = dateparser.parse(found.group(0), languages=["en"], settings=settings)
        if parsed is not None and parsed.date() != base:
            return found.span(), When(parsed.date().isoformat(), "day", found.group(0), said_on)
    return None


def days_named(iso: str) -> tuple[date, date] | None:
    """The first and last day an ISO time names ("2023-05" is all of May 2023; an
    interval its ends); None for a time open at its start or not ISO."""
    try:
        if "/" in iso:
            first, last = iso.split("/", 1)
            if first == "..":
                return None
            return date.fromisoformat(first), date.fromisoformat(last)
        parts = iso.split("-")
        if not all(p.isdigit() for p in parts):
            return None
        year = int(parts[0])
        if len(parts) == 1:
            return date(year, 1, 1), date(year, 12, 31)
        month = int(parts[1])
        if len(parts) == 2:
            following = date(year + month // 12, month % 12 + 1, 1)
            return date(year, month, 1), following - timedelta(days=1)
        day = date(year, month, int(parts[2]))
        return day, day
    except ValueError:  # "and/or", "2023-13": no time at all
        return None


def _interval(first: date, last: date) -> str:
    return f"{first.isoformat()}/{last.isoformat()}"


def _as_datetime(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, 0)
