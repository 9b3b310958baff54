"""The PDF reader by rows (formats/pdf_rows.py) on real PDFs: a filled-in form
(corpora/forms, a Wisconsin DCF report) keeps each label on the line of its value, where
pdfminer's own layout set the column of labels apart from the column of values; a
receipt's rows of labels over their values (corpora/forms/oyo-payment-receipt.pdf) are
read as pairs; the IRS instructions (corpora/pdf_text_dumps/i1040nr.pdf, three columns a
page) are read column by column, never line by line across the columns; invoices
(corpora/forms, invoice2data's fixtures) read their rows of labels over values however the
values are set, and a value printed over the end of its label apart from it."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from affidavit import Memory
from affidavit.ingest.formats.dispatch import read_document
from affidavit.ingest.formats.pdf_glyphs import Glyph, page_glyphs
from affidavit.ingest.formats.pdf_rows import page_text
from affidavit.ingest.units import Unit

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
FORM = CORPORA / "forms" / "wi-dcf-90-day-report-milwaukee.pdf"
I1040NR = CORPORA / "pdf_text_dumps" / "i1040nr.pdf"
RECEIPT = CORPORA / "forms" / "oyo-payment-receipt.pdf"
INVOICE = CORPORA / "forms" / "aws-invoice.pdf"
AZURE = CORPORA / "forms" / "azure-interior-invoice.pdf"
SAECO = CORPORA / "forms" / "saeco-invoice-nl.pdf"
FREE = CORPORA / "forms" / "free-invoice-fr.pdf"
SAMMY = CORPORA / "forms" / "sammy-maystone-invoice.pdf"
W2 = CORPORA / "forms" / "irs-w2-wage-tax-statement-2020.pdf"


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


@pytest.fixture(scope="module")
def receipt_texts() -> list[str]:
    return [unit.text for unit in read_document(RECEIPT)]


def test_a_row_of_labels_pairs_with_its_values_set_well_under_it(
    receipt_texts: list[str],
) -> None:
    # "GSTIN" and "CIN" (bold, grey) stand 1.25 type heights over their values.
    assert "GSTIN 06AABCO6063D1ZQ\tCIN U63090DL2012PTC231770" in receipt_texts


def test_a_value_that_goes_on_under_itself_stays_with_its_label(
    receipt_texts: list[str],
) -> None:
    # The address runs over three lines under "Address"; "IFSC CODE" and its value stand
    # beside its first line.
    assert (
        "Address 209-214, Kailash Building26, Kasturba Gandhi Marg, New Delhi, "
        "New Delhi - 110001\tIFSC CODE HDFC0000003"
    ) in receipt_texts
    hotel = next(text for text in receipt_texts if text.startswith("Hotel Details"))
    assert hotel.split("\t")[0] == (
        "Hotel Details OYO 4189 Resort Nanganallur, 25,Vembuliamman Koil Street,, "
        "Pazhavanthangal, Chennai"
    )


def test_a_label_with_a_note_in_brackets_is_joined_by_its_value() -> None:
    texts = [unit.text for unit in read_document(INVOICE)]
    assert any(
        text.startswith(
            "Service Provider: (Not to be used for payment remittance) Amazon Web Services, Inc."
        )
        for text in texts
    )


def test_a_field_in_a_cell_of_a_row_answers_by_its_label() -> None:
    # "Booking ID IBZY2087" and "Payment Mode Cash at Hotel" share one row, a tab apart.
    memory = Memory(dense=False)
    memory.ingest(RECEIPT)
    assert memory.ask("What is the booking ID?").text == "IBZY2087"


def texts_of(path: Path) -> list[str]:
    return [unit.text for unit in read_document(path)]


def test_a_row_of_labels_ending_in_colons_pairs_with_the_values_under_it() -> None:
    # "Invoice Date:", "Due Date:" and "Reference:" (bold) over their values; a label's
    # colon had read the row as "Label: value" pairs side by side, and the row under it
    # was joined after the last label.
    assert "Invoice Date: 03/20/2023\tDue Date: 04/04/2023\tReference: CUSTREF123" in (
        texts_of(AZURE)
    )


@pytest.fixture(scope="module")
def saeco_texts() -> list[str]:
    return texts_of(SAECO)


def test_values_set_right_or_centred_under_their_labels_pair_with_them(
    saeco_texts: list[str],
) -> None:
    # "8-9-2022" stands under the end of "Factuur datum", "VF1005193039" under the middle
    # of "Factuur": no value starts where its label starts.
    assert (
        "Klant SCONL0303006280999\tOrder SCONL000000444\tFactuur datum 8-9-2022\t"
        "Factuur VF1005193039\tVervaldatum 22-9-2022"
    ) in saeco_texts


def test_two_addresses_side_by_side_go_on_under_their_labels(saeco_texts: list[str]) -> None:
    # The street number on the third row is no table's figure: the row above has none.
    assert (
        "Factuuradres Strategic Corp T.a.v. bosd Fakestreet 46 3500 MJ Utrecht Nederland\t"
        "Afleveradres bosd Fakestreet 46 3500 MJ Utrecht Nederland"
    ) in saeco_texts


@pytest.fixture(scope="module")
def free_texts() -> list[str]:
    return texts_of(FREE)


def test_a_value_printed_over_the_end_of_its_label_is_read_apart(free_texts: list[str]) -> None:
    # The amount is drawn from inside "prélèvement"; sorted by position alone the two
    # read "Montant du prélèvemen2t9:.99 €".
    assert any(text.startswith("Montant du prélèvement :\t29.99 €") for text in free_texts)


def test_a_label_whose_colon_stands_apart_still_takes_its_value(free_texts: list[str]) -> None:
    # "Nom de la banque :" is four words and a colon: a label, not a phrase of five words.
    assert any(text.endswith("IBAN : FR76 ***************************") for text in free_texts)


def test_labels_over_their_values_inside_a_column_pair_up() -> None:
    # "Bill To:" and "Ship To:" stand in a column beside the dates and terms column.
    assert "Bill To: Taylor Riddel\tShip To: Taylor's Store" in texts_of(SAMMY)


def test_a_row_of_boxes_named_by_their_marks_pairs_with_the_values_in_them() -> None:
    """A W-2's boxes: a caption after its letter or number ("1 Wages, tips, other
    compensation") is a label for all its words and its mark, and the row of captions
    under it is no table's next row; a value set right in its box pairs with it while
    the box beside is empty on that row (box c's address starts a row lower)."""
    texts = texts_of(W2)
    assert (
        "b Employer identification number (EIN) 63-0065650\t"
        "1 Wages, tips, other compensation 23,677.70\t2 Federal income tax withheld 2,841.32"
    ) in texts
    assert (
        "c Employer’s name, address, and ZIP code\t3 Social security wages 24,410.00\t"
        "4 Social security tax withheld 1,513.42"
    ) in texts


def test_one_run_of_glyphs_jumping_ahead_on_its_row_is_no_overprint() -> None:
    # A label and the last words of a wrapped line drawn one after another, the words of
    # the line between them drawn after both: no run starts inside another.
    def glyphs(text: str, x: float) -> list[Glyph]:
        return [Glyph(c, x + 5 * i, x + 5 * i + 4.5, 100, 110, 10) for i, c in enumerate(text)]

    label, tail, middle = glyphs("Policy", 0), glyphs("end", 300), glyphs(":words", 40)
    text = page_text([*label, *tail, *middle])
    assert text == "Policy\t:words\tend"


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
