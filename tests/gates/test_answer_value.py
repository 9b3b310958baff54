"""Answer.value is read off the gated text at its own precision and passes the digit veto."""

from __future__ import annotations

import pytest

from affidavit import Memory
from affidavit.gates.answer_value import gated_value, read_value
from affidavit.question.shape import AnswerType

TIME, COUNT = AnswerType.TIME, AnswerType.COUNT


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("October 16, 1973", "en", "1973-10-16"),
        ("05/03/2019", "en", "2019-05-03"),  # U.S. order: month first
        ("05/03/2019", "es", "2019-03-05"),  # Spanish order: day first
        ("5 de mayo de 1700", "es", "1700-05-05"),
        ("3 Ekim 1923", "tr", "1923-10-03"),
        ("March 1974", "en", "1974-03"),  # month and year: no day invented
        ("1066", "en", "1066"),  # a year stays a year
        ("in 1066", "en", "1066"),
    ],
)
def test_a_date_value_keeps_the_precision_it_was_written_with(
    text: str, language: str, expected: str
) -> None:
    assert read_value(text, TIME, language) == expected


@pytest.mark.parametrize(
    "text", ["the 1540s", "1540s", "the 10th and 11th centuries", "May", "the 14th century"]
)
def test_a_decade_a_century_or_a_bare_month_stays_text(text: str) -> None:
    assert read_value(text, TIME) == text


def test_a_count_in_digits_is_an_int_and_anything_else_stays_text() -> None:
    assert read_value("1,200", COUNT) == 1200
    assert read_value("some 27", COUNT) == "some 27"


def test_a_value_whose_digits_the_cited_lines_do_not_carry_is_not_given() -> None:
    # The text says March 3 but the line March 13: the ISO value would invent a day.
    line = ["The embargo was lifted on March 13, 1974."]
    assert gated_value("March 13, 1974", TIME, line) == "1974-03-13"
    assert gated_value("March 3, 1974", TIME, line) == "March 3, 1974"
    assert gated_value("March 1974", TIME, line) == "1974-03"
    assert gated_value("April 1974", TIME, line) == "April 1974"


def test_a_when_question_answered_by_a_decade_has_the_decade_as_its_value() -> None:
    memory = Memory(dense=False)
    memory.ingest_text(
        "Trade flourished along the coast in the 1540s. The harbour silted up later.",
        name="coast.txt",
    )
    answer = memory.ask("When did trade flourish along the coast?")
    assert not answer.refused
    assert "1540s" in answer.text
    assert answer.value == answer.text  # never a full date read into it
