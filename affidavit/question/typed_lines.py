"""Whether a line could hold a typed question's answer at all: a date for "when", a number
for "how many", a code for "what is the form number"."""

from __future__ import annotations

import re
from collections.abc import Callable

from affidavit.question.shape import AnswerType
from affidavit.text import (
    CODE_SHAPE,
    EMAIL_SHAPE,
    PHONE_SHAPE,
    URL_SHAPE,
    YEAR_OR_CENTURY,
    carried_numbers,
    dates_in,
    fold,
)


def _found(pattern: re.Pattern[str]) -> Callable[[str], set[str]]:
    return lambda text: {m.group(0) for m in pattern.finditer(text)}


def _dates(text: str) -> set[str]:
    written = {text[d.start : d.end] for d in dates_in(text)}
    return written | {m.group(0) for m in YEAR_OR_CENTURY.finditer(text)}


# What each type's answer looks like in a line.
_READERS: dict[AnswerType, Callable[[str], set[str]]] = {
    AnswerType.TIME: _dates,
    AnswerType.COUNT: lambda text: set(carried_numbers(text)),
    AnswerType.AMOUNT: lambda text: set(carried_numbers(text)),
    AnswerType.PERCENT: lambda text: set(carried_numbers(text)),
    AnswerType.QUANTITY: lambda text: set(carried_numbers(text)),
    AnswerType.DURATION: lambda text: set(carried_numbers(text)),
    AnswerType.IDENTIFIER: _found(CODE_SHAPE),
    AnswerType.EMAIL: _found(EMAIL_SHAPE),
    AnswerType.URL: _found(URL_SHAPE),
    AnswerType.PHONE: _found(PHONE_SHAPE),
}


# Kinds whose reader finds each value as it is written (a date, a code, a contact), so
# the value can stand as an answer by itself; numbers are read as values ("$1,200" as
# 1200), and a cell's unit or currency is part of what it says.
_WRITTEN_KINDS = frozenset(
    {AnswerType.TIME, AnswerType.IDENTIFIER, AnswerType.EMAIL, AnswerType.URL, AnswerType.PHONE}
)


def written_value(answer_type: AnswerType, question: str) -> Callable[[str], str | None]:
    """The one value of ``answer_type`` a text writes, as written, beside other words
    ("12 August 2016" in a field's "12 August 2016 SAFETY DATA SHEET"); None when the text
    writes none, several, or only what the question writes, or the type's values are not
    read as written. A value inside a longer one (the year of a whole date) is not
    another."""
    reader = _READERS.get(answer_type) if answer_type in _WRITTEN_KINDS else None
    if reader is None:
        return lambda _text: None
    asked = {fold(value) for value in reader(question)}

    def value(text: str) -> str | None:
        found = {v for v in reader(text) if fold(v) not in asked and v.strip()}
        outer = [v for v in found if not any(v != w and v in w for w in found)]
        return outer[0] if len(outer) == 1 and outer[0] != text.strip() else None

    return value


_ASKS_A_DAY = re.compile(r"\b(?:date|day|deadline|due)\b|\bfecha\b|\btarih", re.I)


def asks_a_day(question: str) -> bool:
    """Whether the question asks for a whole date (a date, a day, a deadline), not a year."""
    return bool(_ASKS_A_DAY.search(question))


_DEADLINE_ASKED = re.compile(
    r"\bby what date\b|\bdeadline\b|\bdue\b|\bwhen must\b|\bno later than\b|"
    r"\bplazo\b|\bfecha l[íi]mite\b|\bson tarih",
    re.I,
)
_DEADLINE_SAID = re.compile(
    r"\b(?:by|before|until|due|no later than|on or before|hasta|antes del?)\s*$", re.I
)


def asks_a_deadline(question: str) -> bool:
    """Whether the question asks by when something must be done."""
    return bool(_DEADLINE_ASKED.search(question))


def states_a_deadline(line: str, start: int) -> bool:
    """Whether the date at ``start`` of ``line`` is written as a deadline ("due by ...")."""
    return bool(_DEADLINE_SAID.search(line[max(0, start - 20) : start]))


def is_whole_date(text: str) -> bool:
    """Whether ``text`` writes a date with its day and its year."""
    return any(d.day is not None and d.year is not None for d in dates_in(text))


def holds_answer(answer_type: AnswerType, question: str) -> Callable[[str], int] | None:
    """How well a line can hold an answer of ``answer_type`` (0 best, 2 not at all), or
    None when the type has no shape to look for (what, which, who, where, why).

    A cheap test on the line's text (regular expressions and the readers the digit veto
    uses, text/numbers.py and text/dates.py; no model), used to seat the lines that could
    answer ahead of those that cannot before the evidence block is chosen. What the
    question itself writes does not count: "By what date must the 2007 return be
    filed?" is not answered by a line whose only year is 2007. A question asking for a
    date or a deadline prefers a line writing a whole date (day, month and year)."""
    reader = _READERS.get(answer_type)
    if reader is None:
        return None
    asked = {fold(value) for value in reader(question)}
    whole_date = answer_type is AnswerType.TIME and bool(_ASKS_A_DAY.search(question))

    def rank(text: str) -> int:
        if not any(fold(value) not in asked for value in reader(text)):
            return 2
        if whole_date and not any(
            d.day is not None and d.year is not None and text[d.start : d.end] not in question
            for d in dates_in(text)
        ):
            return 1
        return 0

    return rank
