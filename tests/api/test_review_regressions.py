"""Regressions found in review: each once let a wrong sentence through, or crashed."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Candidate, Memory, ScriptedEngine
from affidavit.errors import IngestError, StoreError


def supported(store: str, text: str, question: str | None = None) -> bool:
    memory = Memory()
    memory.ingest_text(store, name="doc")
    return memory.verify(text, question=question).supported


def test_one_before_a_scale_word_is_a_number() -> None:
    assert not supported(
        "The project cost 7 million dollars.", "The project cost one million dollars."
    )
    # The bare answer to the question is checked; "older", which only the question says,
    # is no evidence for a sentence that asserts it (issue 12: premises from the question).
    born = "Glenn Hughes was born in 1951 and Ross Lynch in 1995."
    question = "Who is older, Glenn Hughes or Ross Lynch?"
    assert supported(born, "Glenn Hughes", question)
    assert not supported(born, "Glenn Hughes is the older one.", question)


def test_a_minus_sign_is_part_of_the_number() -> None:
    assert not supported(
        "The temperature was 5 degrees at noon.", "The temperature was −5 degrees at noon."
    )
    assert supported(
        "The temperature was −5 degrees at noon.", "The temperature was -5 degrees at noon."
    )


def test_a_number_is_not_said_inside_a_longer_one() -> None:
    assert not supported("The fee is 150 dollars for adults and 15 for children.", "The fee is 15")


def test_a_number_the_line_gives_to_another_subject_is_unbound() -> None:
    line = "The bridge opened in 1990 and the tunnel opened in 1991."
    assert not supported(line, "The bridge opened in 1991.")
    assert supported(line, "The tunnel opened in 1991.")


def test_a_row_cell_keeps_its_own_column() -> None:
    table = (
        "| city | year | deaths |\n|---|---|---|\n| Caffa | 1346 | 5 |\n| Messina | 1347 | 9 |\n"
    )
    assert not supported(table, "The year of Caffa is 5.")
    assert supported(table, "The year of Caffa is 1346.")


def test_on_is_a_word_not_the_turkish_ten() -> None:
    memory = Memory()
    memory.ingest_text("The bridge opened on 3 May 2019.", name="a")
    answer = memory.ask("When did the bridge open?")
    assert not answer.refused and answer.value == "2019-05-03"


def test_an_empty_candidate_is_never_said() -> None:
    def proposing(candidate: Candidate) -> Memory:
        memory = Memory(engine=ScriptedEngine(lambda question, evidence: [candidate]), dense=False)
        memory.ingest_text("The bridge opened on 3 May 2019.", name="a")
        return memory

    empty = proposing(Candidate(text="", value="", cites=(0,), score=1.0))
    said = empty.ask("When did the bridge open?")
    assert said.refused and said.reason == "unverifiable"
    # The control: the same store and citation with the words the line says are answered.
    full = proposing(Candidate(text="3 May 2019", value="2019-05-03", cites=(0,), score=1.0))
    assert full.ask("When did the bridge open?").text == "3 May 2019"


def test_a_folder_is_not_a_store(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="folder"):
        Memory(tmp_path)


def test_a_document_date_must_be_iso_and_is_part_of_its_identity() -> None:
    memory = Memory()
    with pytest.raises(IngestError, match="ISO 8601"):
        memory.ingest_text("Some text.", name="a", date="garbage")
    assert memory.stats()["lines"] == 0
    memory.ingest_text("Some text.", name="a", date="2024-01-02")
    generation = memory.stats()["generation"]
    memory.ingest_text("Some text.", name="a", date="2024-01-03")
    assert memory.stats()["generation"] > generation  # a new date replaces the old


def test_vulgar_fractions_are_numbers() -> None:
    assert not supported("Add ½ cup of sugar to the dough.", "Add ¾ cup of sugar to the dough.")
    assert supported("Add ½ cup of sugar to the dough.", "Add ½ cup of sugar to the dough.")


def test_number_words_are_read_in_their_own_language_and_by_the_exact_word() -> None:
    # "quince" is a fruit in English, and "tens" is no number word: both are words to check.
    assert not supported("The orchard grows apples.", "The orchard grows quinces.")
    assert not supported(
        "The price rose by hundreds of dollars.", "The price rose by tens of dollars."
    )
    assert supported("It runs MS-DOS 6.", "It runs MS-DOS 6.")


def test_evidence_with_cells_is_hashable() -> None:
    memory = Memory()
    memory.ingest_text("| Item | Price |\n|---|---|\n| Soup | 2.50 |\n", name="menu.md")
    hits = memory.search("soup")
    assert hits[0].cells == {"Item": "Soup", "Price": "2.50"}
    assert hits[0] in set(hits)


# A sentence of the Wikipedia article "Prime number" as SQuAD 2.0 dev holds it (CC BY-SA 4.0).
WILSON = (
    "Wilson's theorem says that an integer p > 1 is prime if and only if the factorial "
    "(p − 1)! + 1 is divisible by p. Moreover, an integer n > 4 is composite if and only "
    "if (n − 1)! is divisible by n."
)
WILSON_QUESTION = (
    "According to Wilson's theorem, what factorial must be divisible by n if some integer "
    "n > 4 is to be considered composite?"
)


def test_a_formula_answer_is_read_symbol_for_symbol() -> None:
    assert supported(WILSON, "(n − 1)!", WILSON_QUESTION)
    assert supported(WILSON, "(n−1)!", WILSON_QUESTION)  # spacing is not a symbol
    # Every number of "(n − 4)!" is in the line ("n > 4"), but not this formula.
    assert not supported(WILSON, "(n − 4)!", WILSON_QUESTION)
    assert not supported(WILSON, "(p + 1)!", WILSON_QUESTION)
