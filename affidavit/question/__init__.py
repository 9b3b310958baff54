"""The question, read once at the door: its language, the shape of the answer it asks for,
its key terms, and the computation or look-up it needs (its route)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.question.asking import asked_noun, document_nouns
    from affidavit.question.question import Question
    from affidavit.question.routes import AND, TABLE_LOOK_UPS, Need, Route
    from affidavit.question.shape import AnswerType, Shape
    from affidavit.question.typed_lines import (
        asks_a_day,
        asks_a_deadline,
        asks_how_often,
        holds_answer,
        is_whole_date,
        states_a_deadline,
        written_value,
    )

# What other rooms may use of question/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "asking": "asked_noun document_nouns",
    "question": "Question",
    "routes": "AND TABLE_LOOK_UPS Need Route",
    "shape": "AnswerType Shape",
    "typed_lines": (
        "asks_a_day asks_a_deadline asks_how_often holds_answer is_whole_date "
        "states_a_deadline written_value"
    ),
}

__all__ = [
    "AND", "TABLE_LOOK_UPS", "AnswerType", "Need", "Question", "Route", "Shape", "asked_noun",
    "asks_a_day", "asks_a_deadline", "asks_how_often", "document_nouns", "holds_answer",
    "is_whole_date", "states_a_deadline", "written_value",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
