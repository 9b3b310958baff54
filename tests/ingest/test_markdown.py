"""Markdown and numbered rules as a reviewer reads them, on the real documents of
corpora/licences: a front matter's fields are the document's metadata (never glued to its
first sentence), emphasis and code ticks are not stored, a rule's label ("1.", "(a)",
"8. Limitation of Liability.") stays with its rule, a bullet list is a list, not a
table, and a label is never an answer."""

from __future__ import annotations

import pytest

from affidavit import Memory
from affidavit.ingest.formats.dispatch import read_text
from affidavit.ingest.formats.markdown import front_matter, plain_inline
from affidavit.ingest.units import UnitKind

PORTING = "licences/systemd-distro-porting.md"


def lines_of(memory: Memory, document: str) -> list[str]:
    found, position = [], 0
    while (line := memory.line(document, position)) is not None:
        found.append(line.text)
        position += 1
    return found


def test_front_matter_becomes_fields_not_a_sentence(licences: Memory) -> None:
    lines = lines_of(licences, PORTING)
    assert not any("---" in line or line.startswith("title:") for line in lines)
    assert "SPDX-License-Identifier: LGPL-2.1-or-later" in lines
    assert "category: Concepts" in lines
    # The title is the document's first heading already: it is not stored twice.
    assert sum("Porting systemd To New Distributions" in line for line in lines) == 1
    assert lines.index("category: Concepts") == 1  # under the title heading it stands under
    answer = licences.ask("What is the SPDX-License-Identifier for porting systemd?")
    assert answer.text == "LGPL-2.1-or-later"


def test_code_ticks_and_emphasis_are_not_stored(licences: Memory) -> None:
    lines = lines_of(licences, PORTING)
    assert not any("`" in line for line in lines)
    assert "* -Drootprefix=" in lines  # a list item, its own line, not a table's cell
    assert not any(" | " in line for line in lines)


def test_a_numbered_rule_keeps_its_label(licences: Memory) -> None:
    porting = lines_of(licences, PORTING)
    assert "1. Find the right configure parameters for:" in porting
    assert "2. Try it out." in porting
    bsd = lines_of(licences, "licences/idna-bsd-3-clause.md")
    assert any(line.startswith("1. Redistributions of source code must retain") for line in bsd)
    apache = lines_of(licences, "licences/apache-2.0.txt")
    assert any(line.startswith("8. Limitation of Liability. In no event") for line in apache)
    assert any(line.startswith("4. Redistribution. You may reproduce") for line in apache)
    mpl = lines_of(licences, "licences/mpl-2.0.txt")
    assert any(line.startswith('1.1. "Contributor" means each individual') for line in mpl)
    labels_alone = {"1.", "2.", "3.", "(a)", "(b)", '1.1. "'}
    assert not labels_alone & {*porting, *bsd, *apache, *mpl}


@pytest.mark.parametrize(
    ("question", "document"),
    [
        ("What must redistributions of source code retain?", "licences/idna-bsd-3-clause.md"),
        ("What must redistributions in binary form reproduce?", "licences/idna-bsd-3-clause.md"),
    ],
)
def test_a_label_is_never_the_answer(licences: Memory, question: str, document: str) -> None:
    answer = licences.ask(question, documents=document, min_probability=0)
    assert answer.text not in {"1", "2", "3", "1.", "2.", "3."}


def test_a_step_number_is_never_an_amount() -> None:
    """A PDF's step numbers ("2 Pay application fees") and a list's labels open their
    lines; asked for a number, the reader finds none rather than the step's."""
    memory = Memory()
    steps = "How to apply\n\n1 Complete the application form\n\n2 Pay application fees\n\n"
    memory.ingest_text(steps + "3 Submit the documents to the county clerk", name="steps.txt")
    memory.ingest_text("(2) Applicants must renew the licence every year.", name="notes.txt")
    for question in ("How many application fees must be paid?", "Which step pays the fees?"):
        assert memory.ask(question, min_probability=0).text not in {"1", "2", "3"}
    answer = memory.ask("How often must applicants renew the licence?", min_probability=0)
    assert answer.text == "every year"


def test_the_front_matter_date_is_the_documents_date_when_none_is_given() -> None:
    text = "---\ntitle: Retention Policy\ndate: 2024-03-01\nowner: Compliance Office\n---\n"
    text += "Customer records are kept for **seven years** after the account closes.\n"
    memory = Memory()
    memory.ingest_text(text, name="policy.md")
    lines = lines_of(memory, "policy.md")
    assert lines == [
        "Retention Policy",
        "date: 2024-03-01",
        "owner: Compliance Office",
        "Customer records are kept for seven years after the account closes.",
    ]
    assert memory.ask("How long are customer records kept?").text == "seven years"
    assert memory.ask("Who is the owner of the retention policy?").text == "Compliance Office"
    dated = [u for u in read_text(text, name="policy.md") if u.kind is UnitKind.DATE]
    assert [u.text for u in dated] == ["2024-03-01"]


@pytest.mark.parametrize(
    "text",
    [
        "---\nnot: [closed\n---\nBody.",  # not YAML
        "--- a rule, then prose\nBody.",
        "---\n- a list\n---\nBody.",  # YAML, but not a mapping
        "---\na: " + "[" * 1_500 + "\n---\nBody.",  # nested past any parser's depth
    ],
)
def test_what_is_not_front_matter_is_kept_as_written(text: str) -> None:
    fields, body = front_matter(text)
    assert fields == {} and body == text


def test_inline_marks_go_but_bullets_arithmetic_and_names_stay() -> None:
    assert plain_inline("All **personal data** and _seven years_ and `code`.") == (
        "All personal data and seven years and code."
    )
    assert plain_inline("* item one\n2 * 3 * 4 = 24\nsnake_case_name") == (
        "* item one\n2 * 3 * 4 = 24\nsnake_case_name"
    )
    assert plain_inline("```\n**kept**\n```\n**gone**") == "```\n**kept**\n```\ngone"


def test_a_front_matter_list_that_holds_itself_is_no_value() -> None:
    """A YAML alias may make a list hold itself ("a: &a [*a]"): the field is left out, as
    any value that is not one value is, and ingest never recurses into it."""
    assert front_matter("---\na: &a [*a]\nowner: Compliance Office\n---\nBody.")[0] == {
        "owner": "Compliance Office"
    }
    memory = Memory(dense=False)
    memory.ingest_text("---\na: " + "[" * 1_500 + "\n---\nBody of the policy.", name="x.md")
    assert memory.documents() == ["x.md"]
