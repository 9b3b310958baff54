"""The values of one kind a line writes, read fast: the dates a "when" asks for, the
numbers of a "how many", the codes, e-mail addresses, URLs and phone numbers of a "what is
the number". A kind is named by its answer type's value (question/shape.AnswerType), so a
room below the question (retrieval seating the lines that could answer) reads a line's
values without calling back into the question's room. Regular expressions and the readers
the digit veto uses (text/numbers.py, text/dates.py); no model."""

from __future__ import annotations

import re
from collections.abc import Callable

from affidavit.text.dates import dates_in
from affidavit.text.numbers import carried_numbers
from affidavit.text.spans import (
    CODE_SHAPE,
    EMAIL_SHAPE,
    PHONE_SHAPE,
    URL_SHAPE,
    YEAR_OR_CENTURY,
    YEAR_SINCE_1000,
)
from affidavit.text.tokens import fold


def _found(pattern: re.Pattern[str]) -> Callable[[str], set[str]]:
    return lambda text: {m.group(0) for m in pattern.finditer(text)}


def _dates(text: str) -> set[str]:
    written = {text[d.start : d.end] for d in dates_in(text)}
    return written | {m.group(0) for m in YEAR_OR_CENTURY.finditer(text)}


def _numbers(text: str) -> set[str]:
    return set(carried_numbers(text))


_YEAR = re.compile(YEAR_SINCE_1000)

# What each kind's value looks like in a line.
_READERS: dict[str, Callable[[str], set[str]]] = {
    "time": _dates,
    "count": _numbers,
    "amount": _numbers,
    "percent": _numbers,
    "quantity": _numbers,
    "duration": _numbers,
    "identifier": _found(CODE_SHAPE),
    "email": _found(EMAIL_SHAPE),
    "url": _found(URL_SHAPE),
    "phone": _found(PHONE_SHAPE),
}

# Kinds whose reader finds each value as it is written (a date, a code, a contact), so
# the value can stand as an answer by itself; numbers are read as values ("$1,200" as
# 1200), and a cell's unit or currency is part of what it says.
_WRITTEN_KINDS = frozenset({"time", "identifier", "email", "url", "phone"})


def lone_value(kind: str, question: str) -> Callable[[str], str | None]:
    """The one value of ``kind`` a text writes, as written, beside other words ("12 August
    2016" in a field's "12 August 2016 SAFETY DATA SHEET"); None when the text writes
    none, several, or only what the question writes, or the kind's values are not read as
    written. A value inside a longer one (the year of a whole date) is not another."""
    reader = _READERS.get(kind) if kind in _WRITTEN_KINDS else None
    if reader is None:
        return lambda _text: None
    asked = {fold(value) for value in reader(question)}

    def value(text: str) -> str | None:
        found = {v for v in reader(text) if fold(v) not in asked and v.strip()}
        outer = [v for v in found if not any(v != w and v in w for w in found)]
        return outer[0] if len(outer) == 1 and outer[0] != text.strip() else None

    return value


# How often a thing is done, as a rule writes it: "annually", "twice a year", "at least once
# per Debian release", "every 90 days", "each quarter" (English and Spanish).
_FREQUENCY = re.compile(
    r"\b(?:(?:hour|dai|night|week|fortnight|month|quarter|year|annual|biannual|semiannual)ly|"
    r"bi-?(?:weekly|monthly|annually)|semi-?annually|"
    r"once|twice|thrice|(?:\d+|two|three|four|five|six|ten|twelve)\s+times|"
    r"(?:every|each|per)\s+(?:\S+\s+){0,2}?(?:second|minute|hour|day|night|week|fortnight|"
    r"month|quarter|year|annum|release|cycle|shift|session|visit|use)s?|"
    r"(?:diaria|semanal|mensual|trimestral|anual)mente|una\s+vez|cada\s+\w+)\b",
    re.IGNORECASE,
)


def line_grade(kind: str, question: str, *, whole_date: bool) -> Callable[[str], int] | None:
    """How well a line can hold a value of ``kind`` (0 best, 2 not at all), or None when the
    kind has no shape to look for. What ``question`` itself writes does not count: "By what
    date must the 2007 return be filed?" is not answered by a line whose only year is 2007.
    With ``whole_date``, a line writing a whole date (day, month and year) grades best. A
    ``frequency`` (how often) is best written as one ("annually", "once per release"), and
    next best as a number ("within 30 days" may say it)."""
    if kind == "frequency":
        return _frequency_grade(question)
    reader = _READERS.get(kind)
    if reader is None:
        return None
    asked = {fold(value) for value in reader(question)}

    def grade(text: str) -> int:
        values = [value for value in reader(text) if fold(value) not in asked]
        if not values:
            return 2
        if kind == "identifier" and all(_YEAR.fullmatch(value) for value in values):
            return 1  # a year ("Form 1040 (2012)") is a date, seldom the code asked for
        if whole_date and not any(
            d.day is not None and d.year is not None and text[d.start : d.end] not in question
            for d in dates_in(text)
        ):
            return 1
        return 0

    return grade


def says_how_often(text: str) -> bool:
    """Does ``text`` say how often something is done ("monthly", "twice a year", "every
    12 months", "at least once per release")?"""
    return _FREQUENCY.search(text) is not None


def _frequency_grade(question: str) -> Callable[[str], int]:
    numbers = line_grade("amount", question, whole_date=False)
    assert numbers is not None
    asked = {fold(m.group(0)) for m in _FREQUENCY.finditer(question)}

    def grade(text: str) -> int:
        if any(fold(m.group(0)) not in asked for m in _FREQUENCY.finditer(text)):
            return 0
        return max(1, numbers(text))

    return grade
