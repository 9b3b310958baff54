"""A question asking what letters stand for is answered by the words a line spells them
out with, bracketed beside them, and never by words whose initials are not its letters
(real documents: corpora/compliance_set)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import affidavit_command

from affidavit import Memory
from affidavit.gates import Case, GateDecision, Judgement
from affidavit.gates.kind import of_the_kind_asked
from affidavit.question import Question

DOCUMENTS = Path(__file__).resolve().parents[2] / "corpora" / "compliance_set"


@pytest.fixture(scope="module")
def memory() -> Memory:
    store = Memory(dense=False)
    store.ingest(
        [
            DOCUMENTS / "debian-social-contract.txt",
            DOCUMENTS / "python-3.11-license-agreements.txt",
        ]
    )
    return store


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What does DFSG stand for?", "Debian Free Software Guidelines"),
        # '("PSF")' and "(PSF, see https://...)": the letters quoted or followed by more.
        ("What does PSF stand for?", "Python Software Foundation"),
    ],
)
def test_the_letters_are_answered_by_the_words_they_spell(
    memory: Memory, question: str, answer: str
) -> None:
    said = memory.ask(question)
    assert not said.refused, said.audit.get("closest")
    assert said.text == answer
    assert any(f"{answer} (" in citation.text for citation in said.citations)


def test_words_not_spelling_the_letters_are_no_answer(memory: Memory) -> None:
    line = next(
        hit
        for hit in memory.search("Debian Free Software Guidelines DFSG", k=20)
        if "(DFSG)" in hit.text
    )
    asked = Question.read("What does DFSG stand for?")

    def judged(answer: str) -> GateDecision | None:
        case = Case(text=answer, lines=[line], analyzer=asked.analyzer, question=asked, cites=(0,))
        return of_the_kind_asked(case, Judgement())

    assert judged("Debian Free Software Guidelines") is None
    wrong = judged("Social Contract")
    assert wrong is not None and not wrong.passed
    assert "does not spell out 'DFSG'" in wrong.detail


def test_verify_holds_a_bare_answer_to_the_letters_asked(memory: Memory) -> None:
    question = "What does DFSG stand for?"
    assert memory.verify("Debian Free Software Guidelines", question=question).supported
    # The archive areas the same contract names beside "DFSG" spell nothing of it.
    wrong = memory.verify('"contrib" and "non-free"', question=question)
    assert not wrong.supported


def test_the_cli_answers_what_letters_stand_for(tmp_path: Path) -> None:
    """As a user runs it: `affidavit ingest` and `affidavit ask` in fresh processes, the
    default options."""
    store = str(tmp_path / "contract.sqlite")
    affidavit_command("ingest", str(DOCUMENTS / "debian-social-contract.txt"), "--store", store)
    said = affidavit_command("ask", "What does DFSG stand for?", "--store", store).stdout
    lines = said.splitlines()
    assert "A: Debian Free Software Guidelines" in lines
    cited = lines[lines.index("A: Debian Free Software Guidelines") + 1]
    assert cited.lstrip().startswith("cited [debian-social-contract.txt #")
