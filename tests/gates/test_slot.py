"""The slot judge on real lines: a figure said of another thing in a clause beside the one
that says what is asked is refused (SQuAD's Jacksonville article writes the household
size and the family size in one sentence), and an answer whose own clause holds the
question's condition is not (the EUPL's applicable law)."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory
from affidavit.gates import Case, Judgement
from affidavit.gates.slot import fills_the_asked_slot
from affidavit.question import Question
from affidavit.results import Evidence

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
JACKSONVILLE = CORPORA / "squad2_articles" / "Jacksonville,_Florida.txt"
EUPL = CORPORA / "compliance_set" / "eupl-1.2.txt"
SIZES = "The average household size was 2.55 and the average family size was 3.21."


@pytest.fixture(scope="module")
def census() -> Memory:
    memory = Memory(dense=False)
    memory.ingest(JACKSONVILLE)
    return memory


def _slot(question: str, answer: str, lines: list[Evidence]) -> dict[str, object] | None:
    """The slot judge's decision on ``answer`` cited from the first line writing it."""
    asked = Question.read(question)
    cited = next(n for n, line in enumerate(lines) if answer in line.text)
    case = Case(text=answer, lines=lines, analyzer=asked.analyzer, question=asked, cites=(cited,))
    decision = fills_the_asked_slot(case, Judgement())
    return decision.to_dict() if decision is not None else None


@pytest.mark.parametrize(
    ("question", "wrong", "right", "said"),
    [
        ("What was the average family size?", "2.55", "3.21", "'family'"),
        ("What was the average household size?", "3.21", "2.55", "'household'"),
    ],
)
def test_a_figure_of_the_clause_beside_is_refused(
    census: Memory, question: str, wrong: str, right: str, said: str
) -> None:
    lines = census.search("average household size family size", k=4)
    assert any(SIZES in line.text for line in lines)
    decision = _slot(question, wrong, lines)
    assert decision is not None and decision["passed"] is False
    assert decision["gate"] == "slot" and decision["reason"] == "not_an_answer"
    assert said in str(decision["detail"]) and right in str(decision["detail"])
    assert _slot(question, right, lines) is None


def test_the_refused_figure_is_in_the_audit_and_the_matching_one_answers(census: Memory) -> None:
    answer = census.ask("What was the average family size?", min_probability=0.0)
    assert answer.text == "3.21"
    refused = {
        judged.candidate.text: [d.gate.value for d in judged.decisions if not d.passed]
        for subset in answer.audit.subsets
        for judged in subset.judged
    }
    assert refused.get("2.55") == ["slot"]


def test_an_answer_whose_clause_holds_the_question_s_condition_stands() -> None:
    memory = Memory(dense=False)
    memory.ingest(EUPL)
    question = (
        "Which law governs the EUPL if the Licensor has no seat, residence or registered "
        "office in an EU Member State?"
    )
    lines = memory.search(question, k=4)
    # The line says two laws under two conditions; the question's is Belgian law's.
    assert _slot(question, "Belgian law", lines) is None
    assert _slot(question, "the law of the European Union Member State", lines) is not None



@pytest.mark.parametrize(
    ("path", "search", "question", "answer"),
    [
        # The embargo's proclaimers are said in a clause the crisis's start holds as its
        # time ("began in October 1973 when ... proclaimed"): another act, no rival.
        (
            CORPORA / "squad2_articles" / "1973_oil_crisis.txt",
            "oil embargo October 1973 proclaimed",
            "Which organisation proclaimed the oil embargo in October 1973?",
            "the Organization of Arab Petroleum Exporting Countries",
        ),
        # "They do not represent the number of firearms sold" says what the figures are
        # not: no rival of the clause that says what they represent.
        (
            CORPORA / "pdf_text_dumps" / "nics-background-checks-2015-11.pdf",
            "statistics represent firearm checks NICS state laws",
            "What is the title of the table of firearm background checks by state?",
            "NICS",
        ),
    ],
)
def test_a_clause_of_another_act_or_said_not_so_is_no_rival(
    path: Path, search: str, question: str, answer: str
) -> None:
    memory = Memory(dense=False)
    memory.ingest(path)
    lines = memory.search(search, k=4)
    assert any(answer in line.text for line in lines)
    assert _slot(question, answer, lines) is None
