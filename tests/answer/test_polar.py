"""A question asking yes or no is answered yes or no with the line its clause frames read,
or goes on as any other question (corpora/compliance_set: Debian's machine-readable
copyright format)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import affidavit_command

from affidavit import Memory

FORMAT = Path(__file__).resolve().parents[2] / "corpora" / "compliance_set"
FORMAT = FORMAT / "debian-copyright-format-1.0.txt"
SHORT_NAMES = "These short names have the specified meanings across all uses"


@pytest.fixture(scope="module")
def memory() -> Memory:
    memory = Memory(dense=False)
    memory.ingest(FORMAT)
    return memory


def test_a_line_saying_the_other_way_answers_no(memory: Memory) -> None:
    """ "... must not be used to refer to any other licenses" answers "No", and is cited."""
    answer = memory.ask("May these short names be used to refer to any other licenses?")
    assert not answer.refused and answer.text == "No" and answer.value == "no"
    assert answer.citations[0].text.startswith(SHORT_NAMES)
    polar = answer.audit["polar"]
    assert polar["statement"] == "These short names may be used to refer to any other licenses."
    assert polar["status"] == "contradicted"


def test_a_line_whose_frames_entail_the_statement_answers_yes(memory: Memory) -> None:
    answer = memory.ask(
        "Do these short names have the specified meanings across all uses of this file format?"
    )
    assert answer.text == "Yes" and answer.citations[0].text.startswith(SHORT_NAMES)


def test_words_a_line_carries_in_another_clause_answer_no_yes(memory: Memory) -> None:
    """ "no license is required for any purpose covered by ..." of works "which are not
    subject to copyright" carries the statement's words and a negation: the word tiers
    support it, the frames do not, and no "Yes" is said."""
    answer = memory.ask("Is a license required for works which are not subject to copyright?")
    assert answer.audit["polar"]["status"] == "supported"
    assert answer.text not in ("Yes", "No")


def test_a_span_is_no_answer_to_a_question_asking_yes_or_no(memory: Memory) -> None:
    """Unsettled by the frames, the question is refused or its line quoted whole, never
    answered by a phrase of the line ("modify this font")."""
    answer = memory.ask("Are you obligated to extend this exception to your version of the font?")
    assert answer.refused or answer.quoted


def test_verify_reads_yes_as_the_statement_the_question_asks_about(memory: Memory) -> None:
    question = "May these short names be used to refer to any other licenses?"
    verdict = memory.verify("yes", question=question)
    assert verdict.contradicted and not verdict.supported


def test_the_command_answers_yes_or_no_with_the_line_it_stands_on(tmp_path: Path) -> None:
    """As a user runs it: `affidavit ingest` and `affidavit ask` in fresh processes, the
    default options."""
    store = str(tmp_path / "format.sqlite")
    affidavit_command("ingest", str(FORMAT), "--store", store)
    question = "May these short names be used to refer to any other licenses?"
    asked = affidavit_command("ask", question, "--store", store)
    said = asked.stdout.splitlines()
    assert "A: No" in said
    cited = said[said.index("A: No") + 1]
    assert cited.lstrip().startswith("cited [debian-copyright-format-1.0.txt #")
    assert SHORT_NAMES in cited
