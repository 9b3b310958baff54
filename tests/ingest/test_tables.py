"""The table rules alone: rule lines, delimited cells, shattered periods, index columns."""

from __future__ import annotations

import pytest

from affidavit.ingest.table_rules import (
    cell_shape,
    find_locator,
    find_period,
    find_runs,
    header_depth,
    header_names,
    index_rows,
    is_index_run,
    is_rule_line,
    name_cells,
    regroup_shattered,
    split_delimited,
    strip_index_column,
)

# --- rule lines and delimited cells -----------------------------------------------------------


@pytest.mark.parametrize(
    "line", ["|---|:--:|", "+----+----+", "-----\t-----", "+====+=====+", " | --- | --- | ", "---"]
)
def test_rule_lines_are_recognised(line: str) -> None:
    assert is_rule_line(line)


@pytest.mark.parametrize("line", ["| a | b |", "", "   ", "- item", "a --- b", "|   |", "::"])
def test_lines_with_words_or_without_dashes_are_not_rules(line: str) -> None:
    assert not is_rule_line(line)


def test_pipe_row_splits_with_or_without_outer_pipes() -> None:
    assert split_delimited("| Item | Price |", "|") == ["Item", "Price"]
    assert split_delimited("Item | Price", "|") == ["Item", "Price"]
    assert split_delimited("| a || c |", "|") == ["a", "", "c"]


def test_escaped_pipe_stays_inside_its_cell() -> None:
    assert split_delimited(r"| a \| b | c |", "|") == ["a | b", "c"]


def test_tab_row_keeps_empty_cells_in_place() -> None:
    assert split_delimited("Bob\t\tlate", "\t") == ["Bob", "", "late"]
    assert split_delimited("\tZ\t", "\t") == ["", "Z", ""]


def test_cells_are_named_in_column_order_extras_get_positional_names() -> None:
    assert name_cells(["Item", "Price"], ["Apple", "3", "ripe"]) == (
        ("Item", "Apple"),
        ("Price", "3"),
        ("col3", "ripe"),
    )


def test_missing_and_empty_cells_are_left_out() -> None:
    assert name_cells(["Item", "Price", "Note"], ["Apple"]) == (("Item", "Apple"),)
    assert name_cells(["Item", "Price"], ["", "3"]) == (("Price", "3"),)
    assert name_cells(["Item", ""], ["Apple", "3"]) == (("Item", "Apple"), ("col2", "3"))


# --- shattered tables -------------------------------------------------------------------------


def test_cell_shapes_tell_columns_apart() -> None:
    assert cell_shape("05/03/2019") == cell_shape("12/31/2020")
    assert cell_shape("DHAW20190001") == cell_shape("DHAW20190070")
    assert cell_shape("CITIBANK - TRAVEL CBA CARD") == cell_shape("CITIBANK - SENATOR IBA CARD")
    shapes = {cell_shape(c) for c in ["05/03/2019", "DHAW20190001", "CITIBANK - TRAVEL CBA CARD"]}
    assert len(shapes) == 3
    assert cell_shape("37,499.96") != cell_shape("446.87")


def _expenditure_cells(rows: int) -> list[str]:
    cells: list[str] = []
    for k in range(rows):
        day = f"{k + 1:02d}"
        cells += [f"DHAW201900{day}", f"05/{day}/2019", "CITIBANK - TRAVEL CBA CARD"]
        cells += [f"03/{day}/2019", f"04/{day}/2019"]
    return cells


def test_period_of_a_five_column_table_is_five() -> None:
    shapes = [cell_shape(c) for c in _expenditure_cells(6)]
    assert find_period(shapes) == 5


def test_a_list_of_alike_cells_has_no_period() -> None:
    amounts = ["920.68", "907.96", "737.94", "903.90", "798.90", "521.00", "349.60", "477.60"]
    assert find_period([cell_shape(c) for c in amounts]) == 1


def test_a_period_needs_three_whole_rows() -> None:
    shapes = [cell_shape(c) for c in _expenditure_cells(2)]
    assert find_period(shapes) == 1
    assert find_period([cell_shape(c) for c in _expenditure_cells(3)]) == 5


def test_words_of_varied_length_show_no_period() -> None:
    states = ["Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado"]
    states += ["Connecticut", "Delaware", "District of Columbia", "Florida", "Georgia", "Guam"]
    assert find_period([cell_shape(c) for c in states]) == 1


def test_regrouped_rows_hold_the_cells_the_table_put_together() -> None:
    rows = regroup_shattered(_expenditure_cells(4), 5)
    assert len(rows) == 4
    assert rows[0] == ["DHAW20190001", "05/01/2019", "CITIBANK - TRAVEL CBA CARD"] + [
        "03/01/2019",
        "04/01/2019",
    ]


def test_a_wrapped_cell_costs_one_row_not_every_row_after_it() -> None:
    cells = []
    for k in range(8):
        cells += [
            "STAFF TRANSPORTATION",
            f"AIRFARE FOR PERSON {k} WASHINGTON DC TO SAINT LOUIS AND",
        ]
        if k == 2:
            cells.append("RETURN")  # the extractor left a wrapped cell on its own line
    rows = regroup_shattered(cells, 2)
    assert len(rows) == 8
    assert all(row[0] == "STAFF TRANSPORTATION" for row in rows)
    assert rows[2][-1] == "RETURN" and len(rows[3]) == 2


def test_period_one_makes_each_cell_a_row() -> None:
    assert regroup_shattered(["a", "b"], 1) == [["a"], ["b"]]


# --- locators ---------------------------------------------------------------------------------


def test_dot_leader_locator_is_strong_and_comes_off_whole() -> None:
    found = find_locator("III-52.1 Safety ..... 140")
    assert found is not None and found.strong
    assert found.text == "III-52.1 Safety" and found.numbers == (140,)


def test_page_lists_and_ranges_are_one_locator() -> None:
    found = find_locator("Capital assets, sales or exchanges . . . . 12, 19, 29")
    assert found is not None and found.numbers == (12, 19, 29)
    found = find_locator("Effectively connected income . . . . 9-15")
    assert found is not None and found.numbers == (9, 15)


def test_a_pipe_or_tab_cell_that_is_a_bare_number_is_a_locator() -> None:
    found = find_locator("| Introduction | 4 |")
    assert found is not None and found.text == "| Introduction |" and "|" in found.leader
    found = find_locator("Introduction\t4")
    assert found is not None and found.text == "Introduction" and found.strong


def test_single_space_locator_is_weak() -> None:
    found = find_locator("Introduction 4")
    assert found is not None and not found.strong and found.text == "Introduction"


@pytest.mark.parametrize(
    "line",
    [
        "see the instructions for line 43",
        "Worksheet — Line 28",
        "Chapter 3",
        "Expatriation after June 3",
        "for less than 61",
        "Total 1,250",
        "Price 1.50",
        "Zip code 62704",
        "Page 1 of 48",
        "7. Multiply line 1 by line 6 . . . . 7.",
        "2004 . . . . 6",
    ],
)
def test_numbers_that_name_or_measure_are_not_locators(line: str) -> None:
    assert find_locator(line) is None


def test_a_wrapped_entry_tail_may_be_read_without_words() -> None:
    found = find_locator("2004 . . . . 6", words_required=False)
    assert found is not None and found.numbers == (6,)


# --- index runs -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("numbers", "expected"),
    [
        ([140, 141, 150], True),
        ([3, 3, 5], True),  # never decreases, rises overall
        ([4, 7], False),  # two rows are not enough
        ([5, 5, 5], False),  # does not rise
        ([9, 7, 3], False),
        ([31, 15, 10, 23, 31], False),  # an alphabetical index goes up and down
        ([1990, 2001, 2010], False),  # years, a timeline
    ],
)
def test_index_run_rule(numbers: list[int], expected: bool) -> None:
    assert is_index_run(numbers) is expected


def test_runs_bridge_short_gaps_between_strong_rows_only() -> None:
    assert find_runs("SScSwcS") == [(0, 6)]
    assert find_runs("SccccS") == []  # four lines apart
    assert find_runs("SSxSS") == [(0, 1), (3, 4)]
    assert find_runs("WWcWW") == [(0, 1), (3, 4)]  # a weak row admits no line beside it
    assert find_runs("SSSWWW") == [(0, 2), (3, 5)]  # rows of another shape start a new run


def test_index_rows_strip_an_ascending_run_and_keep_its_words() -> None:
    rows = index_rows(["1. Scope ........ 3", "Definitions", "2. Terms ........ 5", "3. Use ... 9"])
    assert rows == ["1. Scope", "Definitions", "2. Terms", "3. Use"]


def test_index_rows_keep_an_index_that_goes_up_and_down() -> None:
    entries = ["Amended return . . . . 31", "Amount you owe . . . 25", "Annuities . . . 13, 29"]
    assert index_rows(entries) == entries


def test_index_rows_refuse_weak_runs_that_are_no_index() -> None:
    assert index_rows(["Arsenal 2", "Chelsea 1", "Fulham 3"]) is None


def test_unnamed_delimited_table_loses_an_ascending_last_number_cell() -> None:
    rows = ["| Introduction | 4 |", "| Scope | 7 |", "| Methods | 12 |"]
    assert strip_index_column(rows, delimiter="|") == [
        "| Introduction |",
        "| Scope |",
        "| Methods |",
    ]


def test_unnamed_delimited_table_keeps_a_number_inside_a_cell() -> None:
    rows = ["| Intro 4 |", "| Scope 7 |", "| Methods 12 |"]
    assert strip_index_column(rows, delimiter="|") == rows


# --- headers of more than one row (TAT-QA's report tables) -------------------------------------


def test_sparse_row_above_the_years_is_read_as_one_header() -> None:
    rows = [
        ["", "", "Years Ended September 30,", ""],
        ["", "2019", "2018", "2017"],
        ["Fixed Price", "$  1,452.4", "$  1,146.2", "$  1,036.9"],
    ]
    assert header_depth(rows) == 2
    assert header_names(rows[:2])[1:] == [
        "Years Ended September 30, 2019",
        "Years Ended September 30, 2018",
        "Years Ended September 30, 2017",
    ]


def test_dates_whose_day_and_year_run_together_are_header_names_not_amounts() -> None:
    rows = [
        ["", "", "Three Months Ended", ""],
        ["(in thousands)", "August 31,2019", "May 31,2019", "February 28,2019"],
        ["Net income", "53,761", "44,032", "67,607"],
    ]
    assert header_depth(rows) == 2  # "31,2019" is a day and a year, not 31,201...
    assert header_names(rows[:2])[1] == "Three Months Ended August 31,2019"
    assert header_depth([rows[0], ["Sales", "31,201", "2,019", "7"]]) == 1


def test_units_row_joins_the_header_and_groups_carry_right() -> None:
    rows = [
        ["", "Fiscal 2019", "", "Fiscal 2018", ""],
        ["", "Amount", "%", "Amount", "%"],
        ["Net sales", "1,202.9", "12.5%", "(9.9)", "-3.1%"],
    ]
    assert header_depth(rows) == 2
    assert header_names(rows[:2]) == [
        "",
        "Fiscal 2019 Amount",
        "Fiscal 2019 %",
        "Fiscal 2018 Amount",
        "Fiscal 2018 %",
    ]


def test_a_label_centred_over_repeated_sub_columns_names_its_whole_group() -> None:
    # Quarterly price tables in annual reports often print each fiscal year over the
    # second of its "High | Low" pair: the year is the pair's, not carried to the next.
    rows = [
        ["", "", "Fiscal 2019", "", "Fiscal 2018"],
        ["", "High", "Low", "High", "Low"],
        ["First Quarter", "$ 12.50", "$ 10.25", "$ 9.75", "$ 8.00"],
    ]
    assert header_depth(rows) == 2
    assert header_names(rows[:2]) == [
        "",
        "Fiscal 2019 High",
        "Fiscal 2019 Low",
        "Fiscal 2018 High",
        "Fiscal 2018 Low",
    ]


def test_section_labels_stay_in_the_body() -> None:
    assert (
        header_depth([["As of", "2019", "2018"], ["Assets", "", ""], ["Cash", "$130", "$91"]]) == 1
    )
    lone = [["", "2019", "2018 (4)"], ["", "Operations Data:", ""], ["Revenue", "9", "8"]]
    assert header_depth(lone) == 1
    assert header_depth([["", "2019", "2018"], ["Revenue", "(9.9)", "12"]]) == 1


def test_markdown_table_with_two_header_rows_names_its_cells() -> None:
    from affidavit import Memory

    table = (
        "| | | Years Ended September 30, | |\n|---|---|---|---|\n| | 2019 | 2018 | 2017 |\n"
        "| Other contracts | 44.1 | 56.7 | 70.8 |\n"
    )
    with Memory(dense=False) as memory:
        memory.ingest_text(table, name="sales.md")
        (other,) = [e for e in memory.search("other contracts", k=5) if e.cells]
    assert other.cells == {
        "col1": "Other contracts",
        "Years Ended September 30, 2019": "44.1",
        "Years Ended September 30, 2018": "56.7",
        "Years Ended September 30, 2017": "70.8",
    }
