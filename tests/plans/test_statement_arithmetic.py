"""Computed questions over a document's sentences, with no table and no scripted plan (the
compliance reviewer's kind, issue 40): the total of two fees, the difference between a
maximum and a minimum written in one sentence, the days between two dated events. A
figure is bound to its phrase only where the sentence binds it ("the maximum fine is
$1,000"); where it does not, the question is refused, never guessed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import affidavit_command

from affidavit import Memory

RECORD = """Licence record

The application was received on 3 March 2024.
The licence was issued on 17 April 2024.
The application fee is $120.
The inspection fee is $80.
The minimum fine is $250 and the maximum fine is $1,000.
The fines for late renewal are $40 and $90."""


@pytest.fixture(scope="module")
def record() -> Memory:
    memory = Memory(dense=False)
    memory.ingest_text(RECORD, name="licence-record.txt")
    return memory


def test_the_total_of_two_fees_stated_in_two_sentences(record: Memory) -> None:
    answer = record.ask("What is the total of the application fee and the inspection fee?")
    assert answer.value == 200 or answer.text.startswith("The total is $200")
    assert {c.text for c in answer.citations} >= {
        "The application fee is $120.",
        "The inspection fee is $80.",
    }


def test_the_difference_of_two_figures_one_sentence_binds(record: Memory) -> None:
    answer = record.ask("What is the difference between the maximum fine and the minimum fine?")
    assert answer.text.startswith("The difference is $750")


def test_the_maximum_asked_alone_is_never_the_minimum(record: Memory) -> None:
    # The reader leans to the minimum's $250; the slot judge refuses it (its clause says
    # the minimum fine, the one beside it the maximum), and the maximum's $1,000 answers
    # or, where the reader is unsure of it, the question is refused.
    alone = record.ask("What is the maximum fine?")
    assert alone.refused or alone.text == "$1,000"
    assert record.ask("What is the maximum fine?", min_probability=0.0).text == "$1,000"


def test_the_days_between_two_dated_events(record: Memory) -> None:
    answer = record.ask("How many days between the application and the licence?")
    assert answer.text.startswith("The time between is 45 days")


def test_figures_a_sentence_does_not_bind_are_not_guessed(record: Memory) -> None:
    answer = record.ask("What is the difference between the late fine and the renewal fine?")
    assert answer.refused or "$50" not in answer.text


def test_the_command_never_answers_the_maximum_with_the_minimum(tmp_path: Path) -> None:
    """As a user runs it: `affidavit ingest` and `affidavit ask` in fresh processes, the
    default options; the minimum's figure is never said for the maximum."""
    record = tmp_path / "licence-record.txt"
    record.write_text(RECORD, encoding="utf-8")
    store = str(tmp_path / "record.sqlite")
    affidavit_command("ingest", str(record), "--store", store)
    said = affidavit_command("ask", "What is the maximum fine?", "--store", store).stdout
    answered = said.splitlines()[1]
    assert answered == "A: $1,000" or answered.startswith("REFUSED")
