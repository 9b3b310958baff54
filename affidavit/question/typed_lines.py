"""Whether a line could hold a typed question's answer at all: a date for "when", a number
for "how many", a code for "what is the form number"."""

from __future__ import annotations

import re
from collections.abc import Callable

from affidavit.question.shape import AnswerType
from affidavit.text import dates_in, line_grade, lone_value


def written_value(answer_type: AnswerType, question: str) -> Callable[[str], str | None]:
    """The one value of ``answer_type`` a text writes, as written, beside other words
    ("12 August 2016" in a field's "12 August 2016 SAFETY DATA SHEET"); None when the text
    writes none, several, or only what the question writes, or the type's values are not
    read as written (text/typed_values.py)."""
    return lone_value(answer_type.value, question)


_HOW_OFTEN = re.compile(
    r"\bhow (?:often|frequently)\b|\b(?:at|with) what (?:frequency|intervals?)\b|"
    r"\bcon qu[eé] frecuencia\b|\bcada cu[aá]nto\b",
    re.IGNORECASE,
)


def asks_how_often(question: str) -> bool:
    """Whether the question asks how often something is done."""
    return bool(_HOW_OFTEN.search(question))


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

    A cheap test on the line's text (text/typed_values.py), used to seat the lines that
    could answer ahead of those that cannot before the evidence block is chosen. What the
    question itself writes does not count: "By what date must the 2007 return be filed?"
    is not answered by a line whose only year is 2007. A question asking for a date or a
    deadline prefers a line writing a whole date (day, month and year). The grade is the
    language layer's, so retrieval, below the question's room, calls no code of it. A
    question asking how often prefers a line writing a frequency ("annually", "at least
    once per release") to one writing only a number."""
    if answer_type is AnswerType.AMOUNT and asks_how_often(question):
        return line_grade("frequency", question, whole_date=False)
    whole_date = answer_type is AnswerType.TIME and asks_a_day(question)
    return line_grade(answer_type.value, question, whole_date=whole_date)
