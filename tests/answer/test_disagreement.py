"""When the store disagrees with itself: a rival contests an answer only when it is a
value of the kind the question asks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from affidavit.answer.disagreement import asked_kind
from affidavit.question.question import Question
from affidavit.question.shape import AnswerType


@pytest.mark.parametrize(
    ("answer_type", "question", "answer", "rival", "contests"),
    [
        (AnswerType.TIME, "When was the Battle of Hastings?", "1066", "Harold II", False),
        (AnswerType.TIME, "When was the Battle of Hastings?", "1066", "14 October 1066", True),
        # The question's own values are not an answer to it.
        (AnswerType.TIME, "What happened in 1066?", "the conquest", "1066", False),
        (AnswerType.COUNT, "How many ships sailed?", "700", "the fleet", False),
        (AnswerType.COUNT, "How many ships sailed?", "700", "about 3,000", True),
        (AnswerType.PERSON, "Who made Ralph earl?", "Edward", "Robert of Jumièges", True),
        (AnswerType.PERSON, "Who made Ralph earl?", "Edward", "the way", False),
        (AnswerType.DESCRIPTION, "How was the race?", "by the way", "that rest days", False),
        (AnswerType.DESCRIPTION, "What did it cost?", "about 40 euros", "55 euros", True),
        (AnswerType.DESCRIPTION, "What did it cost?", "about 40 euros", "a lot", False),
    ],
)
def test_only_a_value_of_the_kind_asked_contests(
    answer_type: AnswerType, question: str, answer: str, rival: str, contests: bool
) -> None:
    read = Question.read(question)
    asked = replace(read, shape=replace(read.shape, answer_type=answer_type))
    assert asked_kind(asked, answer)(rival) is contests
