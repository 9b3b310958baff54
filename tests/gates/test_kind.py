"""The kind judge on real lines (NIST SP 800-63B, corpora/rules): a heading, a section
number, a field's label or the question said back is refused as an answer; a value the
same lines hold passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory
from affidavit.gates import Case, Judgement, judged
from affidavit.question import Question
from affidavit.results import Evidence

NIST = Path(__file__).resolve().parents[2] / "corpora" / "rules" / "nist-sp800-63b.txt"


@pytest.fixture(scope="module")
def lines() -> list[Evidence]:
    memory = Memory(dense=False)
    memory.ingest(NIST)
    return memory.search("Memorized Secret Verifiers minimum length characters", k=12)


def _judged(question: str, answer: str, lines: list[Evidence]) -> Judgement:
    asked = Question.read(question)
    cited = next(n for n, line in enumerate(lines) if answer.rstrip(":") in line.text)
    case = Case(text=answer, lines=lines, analyzer=asked.analyzer, question=asked, cites=(cited,))
    return judged(case)


def _kind(judgement: Judgement) -> dict[str, object] | None:
    return next((d.to_dict() for d in judgement.decisions if d.gate.value == "kind"), None)


@pytest.mark.parametrize(
    ("question", "answer", "said"),
    [
        # The heading the verifiers' rules stand under, whole and without its number.
        (
            "What do verifiers compare new secrets against?",
            "5.1.1.2 Memorized Secret Verifiers",
            "section marker",
        ),
        (
            "Which rules apply to memorized secret verifiers?",
            "Memorized Secret Verifiers",
            "question's own words",
        ),
    ],
)
def test_a_heading_or_the_question_said_back_is_not_an_answer(
    lines: list[Evidence], question: str, answer: str, said: str
) -> None:
    judgement = _judged(question, answer, lines)
    decision = _kind(judgement)
    assert not judgement.passed and decision is not None
    assert decision["reason"] == "not_an_answer" and said in str(decision["detail"])


def test_a_heading_line_cited_whole_is_refused_for_a_value_question(
    lines: list[Evidence],
) -> None:
    heading = next(line for line in lines if line.kind.value == "heading")
    judgement = _judged("What do verifiers check first?", heading.text, lines)
    assert _kind(judgement) is not None and not judgement.passed


def test_a_value_the_lines_hold_is_judged_on(lines: list[Evidence]) -> None:
    judgement = _judged(
        "How long must memorized secrets be at least?", "at least 8 characters", lines
    )
    assert _kind(judgement) is None  # the kind judge has nothing against it


def test_a_question_offering_alternatives_may_be_answered_in_its_words(
    lines: list[Evidence],
) -> None:
    judgement = _judged(
        "Are the rules for verifiers or for authenticators?", "Memorized Secret Verifiers", lines
    )
    assert _kind(judgement) is None


def test_a_sentence_given_to_verify_is_not_judged_for_its_kind(lines: list[Evidence]) -> None:
    asked = Question.read("Memorized Secret Verifiers")
    case = Case(text="Memorized Secret Verifiers", lines=lines, analyzer=asked.analyzer)
    assert _kind(judged(case)) is None


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # A number is news, whatever words it comes with.
        ("How many characters must memorized secrets be?", "8 characters"),
        # A yes-or-no question is answered by a line that says it, in its words.
        ("Are memorized secret verifiers required?", "Memorized Secret Verifiers"),
    ],
)
def test_a_number_or_a_yes_or_no_answer_is_not_the_question_said_back(
    lines: list[Evidence], question: str, answer: str
) -> None:
    assert _kind(_judged(question, answer, lines)) is None
