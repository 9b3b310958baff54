"""lay_out on real PDF text dumps, a novel, and hand-made tables of contents and tables."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from affidavit.errors import IngestError
from affidavit.ingest.layout import lay_out
from affidavit.ingest.units import Unit, UnitKind

DUMPS = Path(__file__).resolve().parents[2] / "corpora" / "pdf_text_dumps"
MIDDLEMARCH = Path("/work/shared/corpora/novel_middlemarch/pg145_middlemarch.txt")


@cache
def _dump(name: str) -> tuple[Unit, ...]:
    text = (DUMPS / f"{name}.pdfminer.txt").read_text(encoding="utf-8")
    return tuple(lay_out(text, source=name))


def _rows(units: list[Unit] | tuple[Unit, ...]) -> list[Unit]:
    return [u for u in units if u.kind is UnitKind.ROW]


# --- real dumps: shattered tables -------------------------------------------------------------


def test_senate_expenditures_regroup_into_rows_of_five_cells() -> None:
    rows = [u for u in _rows(_dump("senate-expenditures")) if "DHAW2019" in u.text]
    assert len(rows) == 22  # every DHAW document number in the dump
    first = next(u for u in rows if "DHAW20190001" in u.text)
    assert first.text.split(" | ") == [
        "DHAW20190001",
        "05/03/2019",
        "CITIBANK - TRAVEL CBA CARD",
        "03/04/2019",
        "03/06/2019",
    ]
    assert all(len(u.text.split(" | ")) == 5 for u in rows)
    assert all(u.text.count("DHAW") == 1 for u in rows)
    assert len({u.table for u in rows}) == 1


def test_senate_names_are_not_joined_with_the_next_name() -> None:
    texts = {u.text for u in _rows(_dump("senate-expenditures"))}
    assert {"ARMER, DEREK A", "ENGLERT, PAYTON A", "BAIN, J MATTHEW"} <= texts


def test_senate_descriptions_pair_category_and_text() -> None:
    texts = [u.text for u in _rows(_dump("senate-expenditures"))]
    assert (
        "STAFF TRANSPORTATION | AIRFARE FOR E JOHNSON KANSAS CITY TO WASHINGTON DC AND RETURN"
        in texts
    )


def test_nics_states_and_their_numbers_stay_in_separate_blocks() -> None:
    rows = _rows(_dump("nics-background-checks-2015-11"))
    alabama = next(u for u in rows if u.text == "Alabama")
    wyoming = next(u for u in rows if u.text == "Wyoming")
    assert alabama.table == wyoming.table
    states = [u for u in rows if u.table == alabama.table]
    assert len(states) == 55
    assert not any(ch.isdigit() for u in states for ch in u.text)
    # The first number column is a block of its own: one number per row, never a state.
    permits = next(u for u in rows if u.text == "18,870")
    assert permits.table != alabama.table
    assert not any("Alabama" in u.text and any(c.isdigit() for c in u.text) for u in rows)


def test_nics_column_cells_are_one_row_each() -> None:
    rows = _rows(_dump("nics-background-checks-2015-11"))
    handgun = [u for u in rows if u.table == next(r for r in rows if r.text == "23,022").table]
    assert handgun[0].text == "Handgun" and handgun[-1].text == "671,330"
    assert all(" | " not in u.text for u in handgun)


# --- real dumps: the IRS alphabetical index ---------------------------------------------------


def test_irs_index_keeps_its_page_numbers() -> None:
    rows = _rows(_dump("i1040nr"))
    amended = next(u for u in rows if "Amended return" in u.text)
    assert amended.text.endswith("31")
    address = next(u for u in rows if u.text.startswith("Address change"))
    assert address.text == "Address change . . . . . . . . . . . . 31"
    assert amended.table == address.table


def test_irs_index_joins_wrapped_entries() -> None:
    texts = {u.text for u in _rows(_dump("i1040nr"))}
    assert "Capital assets, sales or exchanges . . . . . . . . 12, 19, 29" in texts


def test_irs_prose_stays_prose() -> None:
    prose = [u.text for u in _dump("i1040nr") if u.kind is UnitKind.PROSE]
    assert any(t.startswith("Section references are to the Internal Revenue Code") for t in prose)


def test_form_feeds_are_gone() -> None:
    assert not any("\f" in u.text for u in _dump("i1040nr"))


# --- hand-made: index columns -----------------------------------------------------------------

REGULATIONS_TOC = """\
Contents

III-52.1 Safety ..... 140
III-52.2 Fire drills ..... 141
III-53 Records ..... 150
"""


def test_toc_with_ascending_pages_loses_them_but_keeps_the_regulation_numbers() -> None:
    rows = _rows(lay_out(REGULATIONS_TOC))
    assert [u.text for u in rows] == ["III-52.1 Safety", "III-52.2 Fire drills", "III-53 Records"]
    assert len({u.table for u in rows}) == 1


def test_toc_with_single_space_pages_loses_them() -> None:
    rows = _rows(lay_out("Introduction 4\nScope 7\nMethods 12\n"))
    assert [u.text for u in rows] == ["Introduction", "Scope", "Methods"]


def test_wrapped_toc_entry_keeps_all_of_its_words() -> None:
    text = "1. Scope of the rules ....... 3\n2. Definitions of terms used\nin these rules ..... 5\n"
    text += "3. Enforcement ..... 9\n"
    rows = _rows(lay_out(text))
    texts = [u.text for u in rows]
    assert texts == [
        "1. Scope of the rules",
        "2. Definitions of terms used in these rules",
        "3. Enforcement",
    ]


def test_named_ascending_price_column_keeps_its_values() -> None:
    text = "| Item | Price |\n|---|---:|\n| Tea | 3 |\n| Cake | 5 |\n| Lunch | 12 |\n"
    rows = _rows(lay_out(text))
    assert [u.text for u in rows] == [
        "| Item | Price |",
        "| Tea | 3 |",
        "| Cake | 5 |",
        "| Lunch | 12 |",
    ]
    assert rows[3].cells == (("Item", "Lunch"), ("Price", "12"))


def test_two_ascending_rows_keep_their_numbers() -> None:
    text = "Introduction ..... 4\nScope ..... 7\n\nThat is all there is to say.\n"
    assert [u.text for u in _rows(lay_out(text))] == ["Introduction ..... 4", "Scope ..... 7"]


@pytest.mark.parametrize("pages", [(9, 7, 3), (5, 3, 8), (4, 4, 4)])
def test_runs_that_do_not_rise_steadily_keep_their_numbers(pages: tuple[int, ...]) -> None:
    text = "".join(f"Entry {name} ..... {p}\n" for name, p in zip("ABC", pages, strict=True))
    assert [u.text for u in _rows(lay_out(text))] == text.splitlines()


def test_unnamed_tab_toc_loses_its_page_column() -> None:
    rows = _rows(lay_out("Intro\t1\nBody\t5\nEnd\t9\n"))
    assert [u.text for u in rows] == ["Intro", "Body", "End"]


def test_ascending_years_are_a_timeline_not_pages() -> None:
    text = "Founded ..... 1990\nExpanded ..... 2001\nSold ..... 2010\n"
    assert [u.text for u in _rows(lay_out(text))] == text.splitlines()


# --- hand-made: delimited tables --------------------------------------------------------------

TWO_TABLES = """\
# Stock

| Item | Price | Stock |
|:-----|:-----:|------:|
| Apple | 3 | 12 |
| Pear | 5 |

Between the tables, a line
that wraps.

+------+-----+
| Name | Age |
+======+=====+
| Ann  | 31  |
+------+-----+
| Bob  | 42  |
+------+-----+
"""


def test_markdown_cells_are_stored_under_the_header_names() -> None:
    rows = _rows(lay_out(TWO_TABLES))
    assert rows[0].text == "| Item | Price | Stock |" and rows[0].cells is None
    assert rows[1].cells == (("Item", "Apple"), ("Price", "3"), ("Stock", "12"))
    assert rows[2].cells == (("Item", "Pear"), ("Price", "5"))


def test_rule_and_border_lines_are_not_units() -> None:
    units = lay_out(TWO_TABLES)
    assert not any(set(u.text) <= set("|-:+= ") for u in units)
    assert [u.text for u in _rows(units)][3:] == [
        "| Name | Age |",
        "| Ann  | 31  |",
        "| Bob  | 42  |",
    ]


def test_two_tables_get_different_table_ids() -> None:
    units = lay_out(TWO_TABLES)
    assert [u.table for u in _rows(units)] == [0, 0, 0, 1, 1, 1]
    ascii_rows = _rows(units)[4:]
    assert ascii_rows[1].cells == (("Name", "Bob"), ("Age", "42"))


def test_prose_and_heading_around_tables() -> None:
    units = lay_out(TWO_TABLES)
    assert units[0] == Unit(UnitKind.HEADING, "# Stock")
    assert Unit(UnitKind.PROSE, "Between the tables, a line that wraps.") in units


def test_tab_table_with_a_rule_names_its_columns_and_keeps_empty_cells_in_place() -> None:
    text = "Name\tScore\tNote\n-----\t-----\t-----\nAnn\t3\tok\nBob\t\tlate\n"
    rows = _rows(lay_out(text))
    assert [u.text for u in rows] == ["Name\tScore\tNote", "Ann\t3\tok", "Bob\t\tlate"]
    assert rows[2].cells == (("Name", "Bob"), ("Note", "late"))


def test_table_without_rule_has_no_cell_names() -> None:
    rows = _rows(lay_out("| a | b |\n| c | d |\n"))
    assert [u.cells for u in rows] == [None, None]


def test_a_stray_pipe_in_prose_is_not_a_table() -> None:
    units = lay_out("Pick one option a | b and go on.\n")
    assert units == [Unit(UnitKind.PROSE, "Pick one option a | b and go on.")]


# --- hand-made: prose and headings ------------------------------------------------------------


def test_paragraphs_join_wrapped_lines_with_one_space() -> None:
    text = "The first paragraph\nwraps here.\n\nThe second one\n  is indented.\n"
    assert lay_out(text) == [
        Unit(UnitKind.PROSE, "The first paragraph wraps here."),
        Unit(UnitKind.PROSE, "The second one is indented."),
    ]


def test_short_standalone_lines_are_headings_sentences_are_not() -> None:
    text = "Scope of Work\n\nThe contractor shall paint the fence.\n\nCHAPTER I.\n\nYes, he said.\n"
    kinds = [(u.kind, u.text) for u in lay_out(text)]
    assert kinds == [
        (UnitKind.HEADING, "Scope of Work"),
        (UnitKind.PROSE, "The contractor shall paint the fence."),
        (UnitKind.HEADING, "CHAPTER I."),
        (UnitKind.PROSE, "Yes, he said."),
    ]


def test_setext_heading_drops_its_underline() -> None:
    assert lay_out("Overview\n========\n\nText follows here.\n")[0] == Unit(
        UnitKind.HEADING, "Overview"
    )


def test_bullets_start_their_own_paragraphs() -> None:
    text = "• Deduction for educator expenses in\nfiguring income.\n• Credit for energy.\n"
    assert [u.text for u in lay_out(text)] == [
        "• Deduction for educator expenses in figuring income.",
        "• Credit for energy.",
    ]


def test_non_text_input_is_an_ingest_error() -> None:
    with pytest.raises(IngestError, match="report.txt"):
        lay_out(b"bytes", source="report.txt")  # type: ignore[arg-type]


# --- a novel ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def middlemarch() -> str:
    if not MIDDLEMARCH.exists():
        pytest.skip("Middlemarch is not on this machine")
    return MIDDLEMARCH.read_text(encoding="utf-8")


def test_a_novel_lays_out_as_prose_with_chapter_headings(middlemarch: str) -> None:
    units = lay_out(middlemarch)
    prose = sum(u.kind is UnitKind.PROSE for u in units)
    assert prose / len(units) > 0.9
    assert Unit(UnitKind.HEADING, "CHAPTER I.") in units
    assert Unit(UnitKind.HEADING, "CHAPTER LXXXVI.") in units
    # The table of contents is a list of entries, one row each; past it, nothing is a table.
    rows = [k for k, u in enumerate(units) if u.kind is UnitKind.ROW]
    contents = {units[k].text for k in rows}
    assert {"BOOK I. MISS BROOKE.", "CHAPTER XLII.", "CHAPTER LXXXVI."} <= contents
    assert max(rows) < units.index(Unit(UnitKind.HEADING, "CHAPTER I."))


# How long the novel and the IRS instructions take to lay out is measured by
# bench/ingest.py (its "lay out" rows), not asserted here: a wall-clock bound fails under load.


def test_a_layout_does_not_depend_on_the_documents_laid_out_before() -> None:
    """A document's own words decide its joins (a hyphen kept or dropped): nothing one
    document leaves behind changes how the next is laid out."""
    senate = (DUMPS / "senate-expenditures.pdfminer.txt").read_text(encoding="utf-8")
    first = lay_out(senate)
    lay_out((DUMPS / "i1040nr.pdfminer.txt").read_text(encoding="utf-8"))
    lay_out("A counter-\npart, and a counterpart.\n")
    assert lay_out(senate) == first


# --- a form's lines set by rows: prose beside the line numbers in its margins --------------


def test_a_tab_line_saying_a_sentence_is_prose_and_a_row_of_values_a_row() -> None:
    """Read by rows off a PDF page, a form's line stands between its margin numbers a tab
    apart; its prose is a sentence to read, not a table's cells. A row of short values
    stays a row, and a field's long value ("Address: ...") stays a field."""
    units = lay_out(
        "box on line\t26\tExemptions. Multiply $3,800 by the number on line 6d.\t26\n\n"
        "DHAW20190001\t05/03/2019\tCITIBANK - TRAVEL CBA CARD\t920.68\n\n"
        "Bedrag incl. BTW\t€\t22,50\n\n"
        "Address: 210 Walnut Street, Room 767, Des Moines, Iowa, in the United States\tPage 2\n"
    )
    kinds = {u.text.split("\t")[0][:12]: u.kind for u in units}
    assert kinds["box on line"] is UnitKind.PROSE
    assert kinds["DHAW20190001"] is UnitKind.ROW
    assert kinds["Bedrag incl."] is UnitKind.ROW  # an abbreviation ends no sentence
    assert kinds["Address: 210"] is UnitKind.ROW


def test_a_form_s_numbered_lines_are_no_index() -> None:
    """Lines numbered in a form's margin rise like an index's page numbers; when they say
    sentences they are the form's lines, not an index's entries."""
    form = "\n".join(
        [
            "46\tAdd lines 44 and 45\t46",
            "47\tForeign tax credit. Attach Form 1116 if required\t47",
            "48\tCredit for child and dependent care expenses. Attach Form 2441\t48",
            "49\tEducation credits from Form 8863, line 19\t49",
        ]
    )
    units = lay_out(form)
    said = {u.text: u.kind for u in units}
    assert any("Attach Form 2441" in text and kind is UnitKind.PROSE for text, kind in said.items())
    entries = ["Address change . . . . 31", "Adjustments . . . . 35", "Amended return . . . 41"]
    index = "\n".join(entries)
    assert all(u.kind is UnitKind.ROW for u in lay_out(index))
