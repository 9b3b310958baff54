"""A PDF table's cells put back in their columns: a row drawing fewer cells than the
table's fullest rows gets its empty cells written, a group's name goes over the first of
its sub-columns, and a run that shares no columns is left as it was read; on the real
NICS firearm checks PDF, each state's figure stands under its column's name."""

from __future__ import annotations

from pathlib import Path

from affidavit import Memory
from affidavit.ingest.formats.dispatch import read_document
from affidavit.ingest.formats.pdf_cells import in_columns

NICS_PDF = (
    Path(__file__).resolve().parents[2]
    / "corpora"
    / "pdf_text_dumps"
    / ("nics-background-checks-2015-11.pdf")
)

# Three columns at x 0-40, 60-80, 100-120, as a page sets a header and its figures.
HEADER = [(0.0, 40.0, "State"), (60.0, 80.0, "Permit"), (100.0, 120.0, "Admin")]
FULL = [(0.0, 30.0, "Alaska"), (62.0, 80.0, "209"), (110.0, 120.0, "0")]


def test_a_row_drawing_fewer_cells_gets_its_empty_ones_in_their_columns() -> None:
    short = [(0.0, 35.0, "Hawaii"), (105.0, 120.0, "12")]
    assert in_columns([HEADER, FULL, FULL, short]) == [None, None, None, ["Hawaii", "", "12"]]


def test_a_groups_name_goes_over_the_first_of_its_sub_columns() -> None:
    # "Pre-Pawn" centred over the last two columns, the first one left ungrouped.
    header = [*HEADER, (140.0, 160.0, "Other")]
    full = [*FULL, (150.0, 160.0, "3")]
    group = [(110.0, 150.0, "Pre-Pawn"), (200.0, 240.0, "Rentals")]
    wide = [*header, (190.0, 210.0, "Handgun"), (230.0, 250.0, "Long Gun")]
    row = [*full, (200.0, 210.0, "1"), (240.0, 250.0, "2")]
    placed = in_columns([group, wide, row, row])
    assert placed[0] == ["", "", "Pre-Pawn", "", "Rentals", ""]


def test_rows_that_share_no_columns_are_left_as_read() -> None:
    # The fullest rows' cells overlap from one row to the next: no columns to put back.
    other = [(0.0, 70.0, "Alaska, a state"), (75.0, 110.0, "209"), (115.0, 125.0, "0")]
    short = [(0.0, 30.0, "Guam"), (112.0, 120.0, "1")]
    assert in_columns([HEADER, other, short]) == [None, None, None]
    # Two cells of a shorter row in one column ("7" and "8" both under "State"), or a run
    # of fewer than three rows: as read.
    crowded = [(0.0, 10.0, "7"), (20.0, 30.0, "8")]
    assert in_columns([HEADER, FULL, FULL, crowded]) == [None, None, None, None]
    assert in_columns([HEADER, [(0.0, 30.0, "Guam"), (110.0, 120.0, "1")]]) == [None, None]


def test_each_states_figure_stands_under_its_columns_name() -> None:
    rows = {u.text.split("\t")[0]: dict(u.cells) for u in read_document(NICS_PDF) if u.cells}
    kentucky = rows["Kentucky"]
    assert kentucky["Permit"] == "264,140"
    assert kentucky["Admin"] == "1"
    # The sub-columns of a group are named under the group's name; the PDF draws no
    # figure in the Rentals columns, and the cells after them keep their places.
    assert kentucky["Pre-Pawn Handgun"] == "9"
    assert "Rentals Handgun" not in kentucky
    assert kentucky["Private Sale Handgun"] == "6"


def test_a_states_figure_is_answered_from_the_column_the_question_names() -> None:
    memory = Memory(dense=False)
    memory.ingest(NICS_PDF)
    asked = {
        "How many permit checks did Kentucky have in November 2015?": "264,140",
        # "Handgun" is named whole; "Pre-Pawn Handgun" only when the question says so.
        "How many handgun checks did Pennsylvania have in November 2015?": "62,752",
        "How many Pre-Pawn handgun checks did Kentucky have?": "9",
    }
    for question, expected in asked.items():
        assert memory.ask(question).text == expected, question
