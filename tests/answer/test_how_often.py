"""A question asking how often is answered by a frequency ("monthly", "twice a year", "at
least once per Debian release"): the lines that write one are seated first, and a figure
that says no frequency (the "48 hours" a repair is due within) is no answer to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import affidavit_command

from affidavit import Memory
from affidavit.question import asks_how_often, holds_answer
from affidavit.question.shape import AnswerType
from affidavit.text import says_how_often

POLICY = (
    Path(__file__).resolve().parents[2] / "corpora" / "compliance_set" / "debian-policy-manual.pdf"
)
# A procedure where lines writing figures but no frequency stand beside the one that says
# how often, each with the question's words.
PROCEDURE = """Fire Safety Procedure

1. Scope
This procedure applies to every building on the main campus.
2. Extinguishers
There are 24 fire extinguishers on each floor of the main building.
Fire extinguishers must be mounted 1.5 metres above the floor.
Fire extinguishers must be inspected monthly by the facilities team.
A fire extinguisher that fails inspection is replaced within 48 hours.
3. Drills
The site holds an evacuation drill twice a year.
"""


@pytest.fixture(scope="module")
def procedure() -> Memory:
    memory = Memory(dense=False)
    memory.ingest_text(PROCEDURE, name="fire-safety-procedure.txt")
    return memory


@pytest.mark.parametrize(
    "question",
    [
        "How often must fire extinguishers be inspected?",
        "How frequently are fire extinguishers inspected?",
    ],
)
def test_how_often_is_answered_by_the_line_writing_a_frequency(procedure, question):
    said = procedure.ask(question)
    assert not said.refused, said.audit.get("closest")
    assert said.text == "monthly"
    assert said.citations[0].text.startswith("Fire extinguishers must be inspected monthly")


def test_how_often_as_a_user_asks_it(tmp_path):
    """As a user runs it: `affidavit ingest` and `affidavit ask` in fresh processes, the
    default options."""
    procedure = tmp_path / "fire-safety-procedure.txt"
    procedure.write_text(PROCEDURE, encoding="utf-8")
    store = str(tmp_path / "procedures.sqlite")
    affidavit_command("ingest", str(procedure), "--store", store)
    said = affidavit_command(
        "ask", "How often must fire extinguishers be inspected?", "--store", store
    ).stdout.splitlines()
    assert "A: monthly" in said
    cited = said[said.index("A: monthly") + 1]
    assert cited.lstrip().startswith("cited [fire-safety-procedure.txt #")


def test_a_figure_saying_no_frequency_is_no_answer_to_how_often():
    memory = Memory(dense=False)
    memory.ingest_text(
        "Alarm Maintenance Rules\n\n"
        "A fault in the fire alarm must be repaired within 48 hours of its report.\n"
        "The fire alarm panel is in the main lobby.\n",
        name="alarm-rules.txt",
    )
    said = memory.ask("How often must the fire alarm be repaired?")
    assert said.refused
    assert said.audit["closest"]["text"] == "48 hours"
    assert "says no frequency" in said.audit["closest"]["detail"]
    # Asked within how many hours, the same figure answers.
    assert (
        memory.ask("Within how many hours must a fault in the fire alarm be repaired?").text == "48"
    )


def test_the_debian_policy_manual_says_how_often_a_package_is_reviewed():
    memory = Memory(dense=False)
    memory.ingest(POLICY)
    said = memory.ask("How often is it recommended that each package be reviewed?")
    assert not said.refused, said.audit.get("closest")
    assert said.text == "at least once per Debian release"


def test_frequencies_are_read_and_a_line_writing_one_grades_first():
    assert asks_how_often("How often must the audit be done?")
    assert asks_how_often("At what frequency are backups taken?")
    assert not asks_how_often("How much is the fee?")
    for written in ("annually", "twice a year", "every 12 months", "at least once per release"):
        assert says_how_often(written), written
    for written in ("48 hours", "within 30 days", "12 months", "per cent"):
        assert not says_how_often(written), written
    grade = holds_answer(AnswerType.AMOUNT, "How often are backups tested?")
    assert grade is not None
    assert grade("Backups are tested quarterly.") == 0
    assert grade("Backups are kept for 90 days.") == 1
    assert grade("Backups are stored off site.") == 2
