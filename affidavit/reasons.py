"""The refusal catalogue: stable codes a reviewer can filter on, each with one line of text.

Codes never change meaning once published; new ones are only added.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    EMPTY_STORE = "empty_store"
    EMPTY_QUESTION = "empty_question"
    NO_EVIDENCE = "no_evidence"
    WEAK_EVIDENCE = "weak_evidence"
    NO_CANDIDATE = "no_candidate"
    DIGIT_VETO = "digit_veto"

    @property
    def text(self) -> str:
        return _TEXT[self]


_TEXT: dict[Reason, str] = {
    Reason.EMPTY_STORE: "The store holds no documents, so there is nothing to answer from.",
    Reason.EMPTY_QUESTION: "The question has no words to look for.",
    Reason.NO_EVIDENCE: "No line in the store shares a content word with the question.",
    Reason.WEAK_EVIDENCE: (
        "The best evidence lines miss too many of the question's key words to support an answer."
    ),
    Reason.NO_CANDIDATE: (
        "The evidence holds nothing of the kind the question asks for (a person, a date, "
        "a number...)."
    ),
    Reason.DIGIT_VETO: (
        "Every candidate answer carried a number the cited evidence does not carry."
    ),
}
