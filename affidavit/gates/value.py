"""Answer.value: the typed reading of the gated answer text, itself under the digit veto.

The engine's own value is never trusted: the library reads the value off the text that
passed the gate, and only as far as the text says it. A date keeps the precision it was
written with: "May 3, 2019" is 2019-05-03, "March 1974" is 1974-03, "1974" is 1974, and
"the 1540s" or "the 14th century" stay text; no part is ever filled in from today. A
count written in digits becomes an int. Then the value itself must pass the digit veto
against the cited lines, written back as a date or number the veto reads; a value that
fails is replaced by the gated text, which passed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from affidavit.gates.digits import MONTH_NAMES, dates_in, digit_veto
from affidavit.question.shape import AnswerType

_PLAIN_COUNT = re.compile(r"^\s*(\d{1,3}(?:,\d{3})+|\d+)\s*$")
_BARE_YEAR = re.compile(r"^\s*(?:in\s+|the\s+year\s+)?(\d{3,4})\s*$", re.I)


# The order of a numeric date's day and month ("03/04/2024": March in the U.S., April in
# Spain and Turkey).
_MONTH_FIRST = {"en": True, "es": False, "tr": False}


def read_value(text: str, answer_type: AnswerType, language: str = "en") -> Any:
    """The value ``text`` states for a question of ``answer_type``, at its own precision."""
    if answer_type is AnswerType.COUNT:
        count = _PLAIN_COUNT.match(text)
        if count:
            return int(count.group(1).replace(",", ""))
    if answer_type is AnswerType.TIME:
        return _date_value(text, language)
    return text


def _date_value(text: str, language: str) -> str:
    year = _BARE_YEAR.match(text)
    if year:
        return year.group(1)
    dates = dates_in(text)
    if len(dates) == 2 and (dates[0].start, dates[0].end) == (dates[1].start, dates[1].end):
        # A numeric date's two readings: the language's order decides.
        dates = dates[:1] if _MONTH_FIRST.get(language, True) else dates[1:]
    # One date, written as most of the text ("on May 3, 2019").
    if len(dates) == 1:
        (date,) = dates
        rest = (text[: date.start] + text[date.end :]).strip(" ,.").lower()
        if len(rest.split()) <= 2 and date.year is not None and date.month is not None:
            if date.day is not None:
                return f"{date.year:04d}-{date.month:02d}-{date.day:02d}"
            return f"{date.year:04d}-{date.month:02d}"
    return text


def _as_written(value: Any) -> str:
    """The value as the digit veto reads it: a year-month as "March 1974"."""
    text = str(value)
    month = re.fullmatch(r"(\d{4})-(\d{2})", text)
    if month and 1 <= int(month.group(2)) <= 12:
        return f"{MONTH_NAMES[int(month.group(2)) - 1]} {month.group(1)}"
    return text


def gated_value(
    text: str, answer_type: AnswerType, cited: Sequence[str], language: str = "en"
) -> Any:
    """The value of the gated ``text``, if the ``cited`` lines carry every digit of it."""
    value = read_value(text, answer_type, language)
    if value == text:
        return text
    if digit_veto(_as_written(value), cited, language).passed:
        return value
    return text
