"""How the composer reads a report's columns: a column that compares two years, a name the
header repeats, a row of units under the years, a footnote digit run into a year, the same
sub-column label in every group, and a year printed over several columns.

The reports come from corpora/tatqa (TAT-QA, CC BY 4.0), saved as a user would: the
table as Markdown, then its paragraphs. Where a test needs a layout the slice does not
print, it rewrites one real table the way other reports print it, and says so.
"""

from __future__ import annotations

import pytest
from conftest import _memory, report
from test_composer import stored

from affidavit.ingest.table_rules import header_names
from affidavit.plans.values import read_cell

CHANGES = "017e0ecd"  # expense changes only: columns "2019 and 2018", "2018 and 2017"
SEGMENTS = "428d5e87"  # net sales by segment, then "2019 over 2018" over "$" and "%"
EARNINGS = "d7d65228"  # 2018 and 2019 under two groups: appropriations, dividend per share
COSTS = "ed571eb6"  # operating costs in 2019 and 2018, a "$ | $" row under the years

_COST_CHANGE = "What is the increase/ (decrease) in Service delivery costs from 2018 to 2019?"


def test_a_column_comparing_two_years_is_no_figure_of_either_year() -> None:
    memory = _memory(CHANGES)
    # The table holds changes between years, not any year's expenses: nothing to
    # subtract, so the question is refused rather than answered with a change less a change.
    answer = memory.ask(
        "What is the Total change in general and administrative expenses from Fiscal year "
        "2017 to 2019?"
    )
    assert answer.refused and answer.reason == "plan_dead"
    # The change between the two years the column compares is the cell it writes.
    answer = memory.ask("What was the change in Facilities between 2018 and 2019?")
    assert answer.value == -4537
    assert [c.text for c in answer.citations] == ["| Facilities | (4,537) | 5,777 |"]


def test_a_header_that_repeats_a_name_keeps_every_cell() -> None:
    # "2019 over 2018" stands over a "$" column and a "%" column: two columns one name.
    assert header_names([["", "2019 over 2018", "", "2018 over 2017", ""]]) == [
        "",
        "2019 over 2018",
        "2019 over 2018 (column 3)",
        "2018 over 2017",
        "2018 over 2017 (column 5)",
    ]
    memory = _memory(SEGMENTS)
    modules = next(e for e in memory.search("Modules 1,460,116", k=5) if e.kind == "row")
    assert modules.cells is not None
    assert list(modules.cells.values())[4:6] == ["$ 958,115", "191%"]
    # The year's own column, not the column comparing it with the year before.
    answer = memory.ask("What is the net difference in sale of modules between 2017 and 2019?")
    assert answer.value == 653718


def test_a_row_of_units_under_the_years_is_part_of_the_header() -> None:
    # The report's "$ | $" row, with the scale moved to a caption above the table: a row
    # that writes no word still says what the cells below it are.
    written = report(COSTS)
    saved = written.replace("| (In thousands of Canadian dollars) | $ | $ |", "|  | $ | $ |")
    saved = "(In thousands of Canadian dollars)\n\n" + saved
    answer = stored(saved, "costs.md").ask(_COST_CHANGE)
    assert answer.value == 45947
    assert "$45,947" in answer.text


def test_a_year_with_its_footnote_digit_run_in_names_that_year() -> None:
    # Reports print "2018" with its footnote mark as "20181".
    written = report(COSTS).replace("| 2019 | 2018 |", "| 2019 | 20181 |", 1)
    memory = stored(written, "costs.md")
    assert memory.ask(_COST_CHANGE).value == 45947
    assert memory.ask("In which year were Service delivery costs lower?").value == "2018"


def test_a_year_over_groups_of_columns_is_read_in_the_group_the_question_names() -> None:
    memory = _memory(EARNINGS)
    # Cash dividends are written twice for each year: in thousands, and per share.
    answer = memory.ask(
        "In which year were the Cash dividends within Appropriation of earnings larger?"
    )
    assert answer.value == "2019"
    assert "9,765,155" in answer.text and "$0.75" not in answer.text
    # Unnamed, the group is not known: the row gives two figures for each year.
    assert memory.ask("In which year were the Cash dividends larger?").refused


def test_an_amount_beside_its_share_of_the_total_is_the_row_s_figure() -> None:
    # The costs table as reports also print it: each year's amount, then its share of the
    # year's total (computed here from the table's own figures, to one decimal).
    rows = {
        "Salaries, employee benefits and outsourced services": ("345,041", "317,118"),
        "Service delivery costs(1)": ("661,214", "615,267"),
        "Customer related costs(2)": ("83,401", "68,744"),
        "Other external purchases(3)": ("114,324", "120,496"),
    }
    totals = (1203980, 1121625)
    lines = [
        "| Years ended August 31, | 2019 | | 2018 | |",
        "|---|---|---|---|---|",
        "| (In thousands of Canadian dollars) | Amount | % of total | Amount | % of total |",
    ]
    for label, (new, old) in rows.items():
        shares = [
            f"{100 * float(v.replace(',', '')) / t:.1f}%"
            for v, t in zip((new, old), totals, strict=True)
        ]
        lines.append(f"| {label} | {new} | {shares[0]} | {old} | {shares[1]} |")
    memory = stored("\n".join(lines) + "\n", "costs.md")
    answer = memory.ask("What is the year-on-year change in Service delivery costs?")
    assert answer.value == 45947


def test_dollars_of_other_countries_are_other_currencies() -> None:
    assert read_cell("1,095", "Years ended December 31, 2019 NT$").unit == "NT$"
    assert read_cell("37", "Years ended December 31, 2019 US$").unit == "$"
    assert read_cell("12.4", "(A$ millions)").unit == "A$"
    assert read_cell("$12.4", "").unit == "$"


@pytest.mark.parametrize("question", ["What was the % of revenue for Modules in 2019?"])
def test_a_percentage_asked_is_never_answered_with_an_amount(question: str) -> None:
    # The table states Modules' sales, not their share of revenue.
    memory = _memory(SEGMENTS)
    assert memory.ask(question).refused
    # The control: an amount of Modules' sales, which the table states, is answered.
    sales = memory.ask("What is the net difference in sale of modules between 2017 and 2019?")
    assert sales.value == 653718
