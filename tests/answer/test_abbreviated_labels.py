"""A form's abbreviated label answers for the words a question asks with: "Cat. No."
is the catalog number, whether the PDF's line writes it in running text or as a field
of a row (real IRS forms, corpora/compliance_set)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import affidavit_command

from affidavit import Memory

FORMS = Path(__file__).resolve().parents[2] / "corpora" / "compliance_set"


@pytest.fixture(scope="module")
def memory() -> Memory:
    store = Memory(dense=False)
    store.ingest([FORMS / "irs-form-1040a-2012.pdf", FORMS / "irs-form-1040ez-2012.pdf"])
    return store


@pytest.mark.parametrize(
    ("question", "answer", "written"),
    [
        # "Cat. No. 11327A Form 1040A (2012)": the code read back with "Cat." for catalog
        # and the form's own code carried by the line.
        ("What is the catalog number of Form 1040A?", "11327A", "Cat. No. 11327A"),
        # "... see instructions.<tab>Cat. No. 11329W<tab>Form 1040EZ (2012)": a row whose
        # field "Cat. No." is the column the question names by its full words.
        ("What is the catalog number of Form 1040EZ?", "11329W", "Cat. No. 11329W"),
    ],
)
def test_the_catalog_number_is_read_from_cat_no(
    memory: Memory, question: str, answer: str, written: str
) -> None:
    said = memory.ask(question)
    assert not said.refused, said.audit.get("closest")
    assert said.text == answer
    assert any(written in citation.text for citation in said.citations)


def test_the_cli_reads_the_catalog_number_from_cat_no(tmp_path: Path) -> None:
    """As a user runs it: `affidavit ingest` and `affidavit ask` in fresh processes, the
    default options."""
    store = str(tmp_path / "forms.sqlite")
    affidavit_command("ingest", str(FORMS / "irs-form-1040ez-2012.pdf"), "--store", store)
    said = affidavit_command(
        "ask", "What is the catalog number of Form 1040EZ?", "--store", store
    ).stdout
    lines = said.splitlines()
    assert "A: 11329W" in lines
    assert "Cat. No. 11329W" in lines[lines.index("A: 11329W") + 1]
