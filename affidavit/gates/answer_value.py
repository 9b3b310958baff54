"""Answer.value: the typed reading of the gated answer text, itself under the digit veto.
The engine's own value is never trusted: the value is read off the text that passed the
gate, and only as far as the text says it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affidavit.gates.veto import digit_veto
from affidavit.question import AnswerType
from affidavit.text import date_value, month_in_words, plain_count


def read_value(text: str, answer_type: AnswerType, language: str = "en") -> Any:
    """The value ``text`` states for a question of ``answer_type``, at its own precision.

    A date keeps the precision it was written with: "May 3, 2019" is 2019-05-03, "March
    1974" is 1974-03, "1974" is 1974, and "the 1540s" or "the 14th century" stay text; no
    part is ever filled in from today. A count written in digits becomes an int.
    """
    if answer_type is AnswerType.COUNT:
        count = plain_count(text)
        if count is not None:
            return count
    if answer_type is AnswerType.TIME:
        return date_value(text, language)
    return text


def gated_value(
    text: str, answer_type: AnswerType, cited: Sequence[str], language: str = "en"
) -> Any:
    """The value of the gated ``text``, if the ``cited`` lines carry every digit of it.

    The value is written back as a date or number the veto reads; a value that fails is
    replaced by the gated text, which passed.
    """
    value = read_value(text, answer_type, language)
    if value == text:
        return text
    if digit_veto(month_in_words(str(value)), cited, language).passed:
        return value
    return text
