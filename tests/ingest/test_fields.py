"""Fields, on real documents and on the header lines of a form: a line that writes a
label and its value ("Email: …", "Docket No. …", '"Contributor" means …') keeps its
text and carries the pair as a cell, so a question that names the label is answered with
the value, whole; a clause before a colon is not a label."""

from __future__ import annotations

import pytest
from conftest import PDF_DIR

from affidavit import Memory
from affidavit.ingest.fields import field_of


@pytest.mark.parametrize(
    ("line", "field"),
    [
        # corpora/licences/mpl-2.0.txt, apache-2.0.txt, systemd-distro-porting.md
        (
            '1.1. "Contributor" means each individual or legal entity that creates, '
            "contributes to the creation of, or owns Covered Software.",
            (
                "Contributor",
                "each individual or legal entity that creates, contributes to the creation "
                "of, or owns Covered Software",
            ),
        ),
        (
            '"Licensor" shall mean the copyright owner or entity authorized by the '
            "copyright owner that is granting the License.",
            (
                "Licensor",
                "the copyright owner or entity authorized by the copyright owner that is "
                "granting the License",
            ),
        ),
        # corpora/licences/lgpl-3.0.txt, corpora/compliance/artistic-1.0.txt
        (
            '"The Library" refers to a covered work governed by this License, other than an '
            "Application or a Combined Work as defined below.",
            (
                "The Library",
                "a covered work governed by this License, other than an Application or a "
                "Combined Work as defined below",
            ),
        ),
        (
            'A "Combined Work" is a work produced by combining or linking an Application '
            "with the Library.",
            (
                "Combined Work",
                "a work produced by combining or linking an Application with the Library",
            ),
        ),
        (
            "SPDX-License-Identifier: LGPL-2.1-or-later",
            ("SPDX-License-Identifier", "LGPL-2.1-or-later"),
        ),
        # corpora/pdf_text_dumps/ag-energy-round-up-2017-02-24.pdf
        ("Email:  desm.lpgmn@ams.usda.gov", ("Email", "desm.lpgmn@ams.usda.gov")),
        # the header lines of a Federal Register rule (the kind)
        ("Docket No. FAA-2019-0123", ("Docket No.", "FAA-2019-0123")),
        ("OMB No. 1545-0074", ("OMB No.", "1545-0074")),
        ("RIN 2120-AK12", ("RIN", "2120-AK12")),
        (
            "FOR FURTHER INFORMATION CONTACT: John Doe, Aerospace Engineer, 206-231-3595.",
            ("FOR FURTHER INFORMATION CONTACT", "John Doe, Aerospace Engineer, 206-231-3595."),
        ),
        ("Effective date: March 1, 2024", ("Effective date", "March 1, 2024")),
    ],
)
def test_a_field_line_gives_its_label_and_value(line: str, field: tuple[str, str]) -> None:
    assert field_of(line) == (field,)


@pytest.mark.parametrize(
    "line",
    [
        "We had three goals: growth, profit and jobs.",
        "In 1066: the Normans came.",
        "The reasons are as follows: first, the fee.",
        "the fee: $120",
        "Customer records are kept for seven years.",
        "Section 4. Retention periods",
    ],
)
def test_a_clause_before_a_colon_is_no_label(line: str) -> None:
    assert field_of(line) is None


def test_a_question_naming_a_label_gets_the_value_whole(licences: Memory) -> None:
    answer = licences.ask("What does Contributor mean?", documents="licences/mpl-2.0.txt")
    assert answer.text == (
        "each individual or legal entity that creates, contributes to the creation of, "
        "or owns Covered Software"
    )
    # A field's value is read under the label the question names, not chosen by the
    # reader: the gate alone judges it (the reader's probability for it was 0.24).
    licensor = licences.ask('What does "Licensor" mean in the Apache License?')
    assert licensor.text.startswith("the copyright owner or entity authorized")
    assert "answerability" not in licensor.audit
    memory = Memory(dense=False)
    memory.ingest(PDF_DIR / "ag-energy-round-up-2017-02-24.pdf")
    assert memory.ask("What is the email address?").text == "desm.lpgmn@ams.usda.gov"


def test_the_header_fields_of_a_rule_answer_by_their_labels() -> None:
    memory = Memory(dense=False)
    memory.ingest_text(
        "Federal Aviation Administration\n\nDocket No. FAA-2019-0123\n\nRIN 2120-AK12\n\n"
        "FOR FURTHER INFORMATION CONTACT: John Doe, Aerospace Engineer, 206-231-3595.\n\n"
        "Fax: 202-493-2251\n\nEffective date: March 1, 2024",
        name="rule.txt",
    )
    assert memory.ask("What is the docket number?").text == "FAA-2019-0123"
    assert memory.ask("What is the RIN?").text == "2120-AK12"
    assert memory.ask("What is the fax number?").text == "202-493-2251"
    assert memory.ask("What is the effective date?").text == "March 1, 2024"
    contact = memory.ask("Who should be contacted for further information?")
    assert contact.text.startswith("John Doe, Aerospace Engineer")
