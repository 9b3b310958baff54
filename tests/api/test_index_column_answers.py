"""End to end: an index column never becomes an answer, a named column always can.

The specification's example: asked for a regulation's number, a memory that kept the
contents page's page column would answer the page, and the answer would pass every audit
because the page really is in the evidence. So the column comes off at ingest.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory

HANDBOOK = Path(__file__).resolve().parents[2] / "corpora" / "demo" / "site-handbook.md"
CONTENTS_PAGES = ("2", "4", "7", "11", "15")


@pytest.fixture(scope="module")
def handbook() -> Memory:
    memory = Memory()
    memory.ingest(HANDBOOK)
    return memory


def test_contents_rows_keep_their_words_but_not_their_pages(handbook: Memory) -> None:
    rows = [h for h in handbook.search("III-52.1 Working at height", k=10) if h.kind == "row"]
    contents = [h for h in rows if h.text.startswith("III-52.1")]
    assert contents, "the contents row for III-52.1 should be stored as a row"
    assert contents[0].text.rstrip(" .") == "III-52.1 Working at height"


def test_no_stored_line_ends_in_a_contents_page_number(handbook: Memory) -> None:
    for hit in handbook.search(
        "Site access badges Working height Hot work Chemical storage Emergency contacts", k=50
    ):
        if hit.kind == "row" and "|" not in hit.text:
            assert not hit.text.rstrip().endswith(CONTENTS_PAGES), hit.text


@pytest.mark.parametrize(
    ("question", "regulation"),
    [
        ("What is the number of the regulation on hot work permits?", "III-52.4"),
        ("What is the regulation number for hot work permits?", "III-52.4"),
        ("What is the number of the regulation on working at height?", "III-52.1"),
    ],
)
def test_asked_for_a_regulation_number_the_answer_is_the_regulation_not_its_page(
    handbook: Memory, question: str, regulation: str
) -> None:
    answer = handbook.ask(question)
    assert not answer.refused, answer.audit["gate"]
    assert (answer.text, answer.value) == (regulation, regulation)
    assert any(c.text.startswith(f"Regulation {regulation} ") for c in answer.citations)


def test_an_odd_question_about_a_regulation_never_gets_its_page(handbook: Memory) -> None:
    answer = handbook.ask("How many is regulation III-52.1 on working at height?")
    if not answer.refused:  # answering with what the line says is fine; a page is not
        # "2" may be the metres of the regulation's own line, never the contents' page 2.
        assert answer.citations[0].text.startswith("Regulation III-52.1 ")
        assert all(not c.text.rstrip().endswith(CONTENTS_PAGES) for c in answer.citations)


def test_a_named_price_column_keeps_its_values_and_answers(handbook: Memory) -> None:
    answer = handbook.ask("What is the price of a hot meal?")
    assert not answer.refused
    assert answer.value == "5.75"
    assert answer.citations[0].cells == {"Item": "Hot meal", "Price": "5.75"}
