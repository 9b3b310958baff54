"""The PDF reader by rows (formats/pdf_rows.py) on real PDFs: a filled-in form
(corpora/forms, a Wisconsin DCF report) keeps each label on the line of its value, where
pdfminer's own layout set the column of labels apart from the column of values; the IRS
instructions (corpora/pdf_text_dumps/i1040nr.pdf, three columns a page) are read column
by column, never line by line across the columns."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from affidavit.ingest.formats.dispatch import read_document
from affidavit.ingest.formats.pdf_glyphs import page_glyphs
from affidavit.ingest.formats.pdf_rows import page_text
from affidavit.ingest.units import Unit

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
FORM = CORPORA / "forms" / "wi-dcf-90-day-report-milwaukee.pdf"
I1040NR = CORPORA / "pdf_text_dumps" / "i1040nr.pdf"


@pytest.fixture(scope="module")
def form_units() -> list[Unit]:
    return read_document(FORM)


@pytest.mark.parametrize(
    ("label", "value"),
    [
        ("Case Tracking Number:", "150109-DSP-Milw-505"),
        ("Agency:", "Bureau of Milwaukee Child Welfare"),
        ("Age:", "1 Year 9 Months"),
        ("Race or Ethnicity:", "African American/Black"),
        ("Special Needs:", "None known"),
        ("Date of Incident:", "01/09/2015"),
    ],
)
def test_a_label_and_its_value_share_one_line(
    form_units: list[Unit], label: str, value: str
) -> None:
    # pdfminer's text of this page puts "1 Year 9 Months" two lines above "Age:".
    texts = [unit.text for unit in form_units]
    assert any(label in text and value in text.split(label, 1)[1] for text in texts)
    assert not any(text.strip() == label for text in texts)  # no label left on its own


def test_a_value_set_under_its_label_joins_it(form_units: list[Unit]) -> None:
    joined = "Description of the OHC placement and basis for decision to place child there: N/A"
    assert any(unit.text == joined for unit in form_units)


def test_a_check_box_item_wrapped_in_its_column_stays_whole(form_units: list[Unit]) -> None:
    # Page 2 sets two columns of check boxes; an item that wraps in the left one goes on
    # below itself, not after the right column's item on its row.
    item = "Petitioned for court order / CHIPS (child in need of protection or services)"
    assert any(item in " ".join(unit.text.split()) for unit in form_units)


# Read off page 4 of the rendered IRS instructions (bench/pdf_parsers.py's gold): each runs
# over a line break inside one of the page's three columns.
COLUMN_SENTENCES = [
    "You can have the refund deposited in one or more accounts.",
    "If the regular due date for filing falls on a Saturday, Sunday, or legal holiday, file "
    "by the next business day.",
    "Form 4868 does not extend the time to pay your income tax.",
    "The private delivery service can tell you how to get written proof of the mailing date.",
]


def test_three_columns_of_prose_are_read_one_after_the_other() -> None:
    fourth = next(islice(page_glyphs(I1040NR.read_bytes()), 3, None))
    text = " ".join(page_text(fourth).split())
    for sentence in COLUMN_SENTENCES:
        assert sentence in text
