"""How the composer reads a report's table: a total row that says no word, rates whose
changes are points, percent columns that say nothing of their neighbours, and changes
that run forward in time however the question names the years.

The reports come from corpora/tatqa (TAT-QA, CC BY 4.0), saved as a user would: the
table as Markdown, then its paragraphs.
"""

from __future__ import annotations

import pytest
from conftest import _memory, report
from test_composer import ground, steps, stored

from affidavit.plans.ground import FOOTNOTE, Ground
from affidavit.plans.interpreter import run
from affidavit.plans.step import Death, PlanDied
from affidavit.plans.tables import TOTAL
from affidavit.plans.values import Kind
from affidavit.question.arithmetic import route
from affidavit.question.routes import Need
from affidavit.results import Evidence
from affidavit.text.analyzer import Analyzer
from affidavit.text.dates import column_date

OTHER_ASSETS = "789efd09"  # deferred charges: six rows, then "|  | $55,945 | $43,364 |"
EQUIPMENT = "64587c9c"  # an unlabelled subtotal above accumulated depreciation and the net
RATES = "89cf13a2"  # stock-plan assumptions: volatility and risk-free rates in percents
REVENUES = "2962bec4"  # net revenues beside "Increase/(decrease)" and "% Change" columns


def _totals(uid: str) -> list[str]:
    return [
        row.text for table in ground(uid).tables for row in table.rows if table.label(row) == TOTAL
    ]


def test_a_row_without_a_label_that_sums_the_rows_above_is_their_total() -> None:
    assert _totals(OTHER_ASSETS) == ["|  | $55,945 | $43,364 |"]
    # The subtotal of the four kinds of equipment, not the net row below it.
    assert _totals(EQUIPMENT) == ["|  | 36,026 | 33,562 |"]
    answer = _memory(OTHER_ASSETS).ask("What was the average total for 2018 and 2019?")
    assert answer.value == pytest.approx(49654.5)
    assert [c.text for c in answer.citations] == ["|  | $55,945 | $43,364 |"]


def test_a_row_whose_figures_do_not_add_up_is_no_total() -> None:
    written = report(OTHER_ASSETS)
    assert "$55,945" in written
    memory = stored(written.replace("$55,945", "$55,954"), "altered.md")
    assert _memory(OTHER_ASSETS).ask("What was the total in 2019?").value == 55945
    answer = memory.ask("What was the total in 2019?")
    # No row is the table's total: no plan anchors one, and no cell is lifted instead.
    assert "plan" not in answer.audit
    assert answer.refused and answer.reason == "no_candidate"


def test_a_rate_changes_in_percentage_points() -> None:
    answer = _memory(RATES).ask(
        "What was the percentage change in the risk-free interest rate between 2019 and 2020?"
    )
    assert answer.value == pytest.approx(-0.3)  # 1.7% against 2.0%, not -15%
    assert "-0.3 percentage points" in answer.text
    assert answer.audit["plan"]["trace"][-1]["result"]["unit"] == "points"


def test_a_claim_of_points_is_recomputed_from_the_rates() -> None:
    memory = _memory(RATES)
    held = memory.verify(
        "The risk-free interest rate fell 0.3 percentage points from 2019 to 2020."
    )
    assert held.supported
    wrong = memory.verify(
        "The risk-free interest rate fell 0.5 percentage points from 2019 to 2020."
    )
    assert not wrong.supported


def test_a_change_runs_from_the_earlier_year_to_the_later() -> None:
    found = route("What is the change in Revenues from 2019 to 2018?")
    assert found is not None and found.years == ("2018", "2019")
    answer = _memory(OTHER_ASSETS).ask(
        "What was the change in Value added tax receivables, net, noncurrent from 2019 to 2018?"
    )
    assert answer.value == 73  # 592 in 2019 against 519 in 2018


def test_cells_named_for_a_change_are_taken_in_date_order() -> None:
    phrase = "expected volatility for the years ended January 31, 2020 and February 1, 2019"
    plan = steps(
        ("anchor", {"cells": phrase, "among": 2, "nth": 0, "by": "date"}, "a"),
        ("anchor", {"cells": phrase, "among": 2, "nth": 1, "by": "date"}, "b"),
        ("difference", {"of": "b", "minus": "a"}, "answer"),
    )
    outcome = run(plan, ground(RATES))
    assert outcome.value.number == pytest.approx(-6.1)  # 27.4% in 2020 less 33.5% in 2019
    assert outcome.value.kind == Kind.PERCENT
    in_phrase_order = steps(
        ("anchor", {"cells": phrase, "among": 2, "nth": 0}, "a"),
        ("anchor", {"cells": phrase, "among": 2, "nth": 1}, "b"),
        ("difference", {"of": "b", "minus": "a"}, "answer"),
    )
    assert run(in_phrase_order, ground(RATES)).value.number == pytest.approx(6.1)


def test_a_percent_sign_before_change_asks_for_a_percentage_change() -> None:
    found = route("What is the % change in total equity from 2018 to 2019?")
    assert found is not None and found.need == Need.PERCENT_CHANGE


def test_a_percent_column_says_nothing_of_the_columns_beside_it() -> None:
    # "101" carries no "$" but stands under 2019 beside "$6,489", not under "% Change".
    memory = _memory(REVENUES)
    cells = ground(REVENUES).cells(
        "Net effect from recognition (deferral) of deferred net revenues", "2019"
    )
    assert cells and cells[0][1].kind == Kind.AMOUNT
    answer = memory.ask(
        "What is the sum of consolidated net revenues and in-game net revenues in 2019?"
    )
    assert answer.value == 9865


def test_a_cell_looked_up_is_quoted_as_its_table_writes_it() -> None:
    answer = _memory(EQUIPMENT).ask(
        "What was the accumulated depreciation and amortization in 2019?"
    )
    assert answer.value == -20188
    assert answer.text == "The value is (20,188) (in thousands)."
    assert answer.audit["plan"]["said"] == "(20,188)"
    # A computed figure is the library's own, with its rounding, not a quotation.
    change = _memory(EQUIPMENT).ask(
        "What was the change in accumulated depreciation and amortization from 2018 to 2019?"
    )
    assert change.value == -4138 and "$-4,138 thousand" in change.text


def test_a_change_between_totals_is_a_change_not_a_sum() -> None:
    found = route("What is the difference in the total franchise revenues between 2018 and 2019?")
    assert found is not None and found.need == Need.CHANGE
    found = route("What is the change in Total Revenue between 2017 and 2018 as a percentage?")
    assert found is not None and found.need == Need.PERCENT_CHANGE
    assert found.rows == ("Total Revenue",)
    answer = _memory(OTHER_ASSETS).ask("What was the change in the total between 2018 and 2019?")
    assert answer.value == 12581  # $55,945 less $43,364, not their sum


def test_a_day_and_year_run_together_still_name_the_year() -> None:
    assert column_date("Three Months Ended August 31,2019") == "2019-08-31"
    assert ground(OTHER_ASSETS).terms("December 31,2019") >= {"2019"}


def test_a_ratio_of_one_row_in_two_years() -> None:
    answer = _memory(OTHER_ASSETS).ask(
        "What is the ratio of Rent and other deposits in 2019 to 2018?"
    )
    assert answer.value == pytest.approx(1.07)  # 6,106 / 5,687
    assert [s["op"] for s in answer.audit["plan"]["trace"]] == ["anchor", "anchor", "ratio"]


AWARDS = "bee68d71"  # a roll-forward of non-vested awards over 2019, its balances dated


def test_a_year_asked_of_a_roll_forward_names_the_row_that_writes_it() -> None:
    memory = _memory(AWARDS)
    opening = memory.ask("What was the number of non-vested shares at December 31, 2018?")
    assert opening.value == 1187586
    # The movements are 2019's: the year's balance row is not its grants.
    assert memory.ask("What was the number of shares granted in 2018?").refused
    assert memory.ask("What was the number of shares granted in 2019?").value == 473550


def test_a_fiscal_year_in_short_is_its_year() -> None:
    assert _memory(AWARDS).ask("What was the number of shares granted in FY19?").value == 473550


def test_a_share_is_of_the_figures_sizes() -> None:
    answer = _memory(AWARDS).ask(
        "What is the percentage of non-vested shares vested in 2019 as a percentage of the "
        "total non-vested shares at December 31, 2019?"
    )
    assert answer.value == pytest.approx(28.46)  # (365,223) of 1,283,281


def test_the_components_of_a_total_are_the_rows_it_sums() -> None:
    # The caption says what the unlabelled total is of; its parts are the rows above it.
    answer = _memory(OTHER_ASSETS).ask(
        "What are the components of deferred charges and other assets in the table?"
    )
    assert answer.value == [
        "Trade accounts receivable, net, noncurrent (Note 2)",
        "Equity method investments (Note 1)",
        "Net deferred tax assets, noncurrent (Note 20)",
        "Rent and other deposits",
        "Value added tax receivables, net, noncurrent",
        "Other",
    ]
    parts = _memory(EQUIPMENT).ask("What are the components of property and equipment?")
    assert parts.value == [
        "Furniture and equipment",
        "Software",
        "Leasehold improvements",
        "Project expenditures not yet in use",
    ]


def test_a_table_whose_rows_are_years_reads_the_figure_by_its_column() -> None:
    memory = stored(
        "| | Dividend per share | |\n|---|---|---|\n| Year | € | US$ |\n"
        "| 2017 | 0.80 | 0.95 |\n| 2018 | 0.90 | 1.02 |\n| 2019 (proposed) | 1.00 | 1.10 |\n",
        "dividends.md",
    )
    answer = memory.ask("What was the change in the dividend per share in € in 2018 from 2017?")
    assert answer.value == pytest.approx(0.1)
    labels = [i["label"] for s in answer.audit["plan"]["trace"] for i in s["inputs"]]
    assert labels == ["Dividend per share €, 2017", "Dividend per share €, 2018"]


def test_a_change_over_one_year_of_a_roll_forward_is_its_closing_less_its_opening() -> None:
    memory = stored(
        "| | 2019 | 2018 |\n|---|---|---|\n| Balance, beginning of period | $120 | $100 |\n"
        "| Additions | 30 | 25 |\n| Releases | (10) | (5) |\n"
        "| Balance, end of period | $140 | $120 |\n",
        "allowance.md",
    )
    answer = memory.ask("What was the change in the balance for 2019?")
    assert answer.value == 20  # $140 at the end of 2019 less $120 at its beginning
    assert answer.audit["plan"]["plan"]["note"] == "difference of 'balance' over the year"


def test_a_row_that_says_every_word_outranks_one_in_the_column_a_word_names() -> None:
    memory = stored(
        "| | | Payments due by period | |\n|---|---|---|---|\n"
        "| | Total | Less than 1 year | More than 1 year |\n"
        "| Term loan (1) | 400.0 | 40.0 | 360.0 |\n"
        "| Pension obligations (2) | 20.0 | 2.0 | 18.0 |\n"
        "| Total contractual obligations (3) | $420.0 | $42.0 | $378.0 |\n",
        "obligations.md",
    )
    answer = memory.ask(
        "What was the total term loan as a percentage of total contractual obligations?"
    )
    assert answer.value == pytest.approx(95.24)  # 400.0 of 420.0, not of the pensions' 20.0


def test_a_decrease_asked_is_how_much_the_figure_fell() -> None:
    found = route("What is the decrease in licensing revenue from 2018 to 2019?")
    assert found is not None and found.falling
    answer = _memory(OTHER_ASSETS).ask(
        "What was the decrease in equity method investments from 2018 to 2019?"
    )
    assert answer.value == 448  # 9,702 in 2018 less 9,254 in 2019
    rise = _memory(OTHER_ASSETS).ask(
        "What was the change in equity method investments from 2018 to 2019?"
    )
    assert rise.value == -448


def test_a_change_a_row_states_is_read_not_computed() -> None:
    memory = stored(
        "| | 2019 | 2018 |\n|---|---|---|\n| Cash at beginning of year | $50.0 | $40.0 |\n"
        "| Net change in cash and cash equivalents | (5.0) | 10.0 |\n"
        "| Cash at end of year | $45.0 | $50.0 |\n",
        "cash.md",
    )
    answer = memory.ask("What is the net change in cash and cash equivalents in 2019?")
    assert answer.value == -5.0  # the row's own 2019 figure, not 2019 less 2018
    assert answer.audit["plan"]["plan"]["note"] == "the change a row states for the year"
    # A phrase naming a change names only a row that writes it.
    computed = memory.ask("What is the change in cash at end of year in 2019?")
    assert computed.value == -5.0 and len(computed.audit["plan"]["trace"]) == 3


def test_an_average_of_rows_joined_by_and_reads_them_in_one_column() -> None:
    memory = stored(
        "| Name | Number of shares | Percent of class |\n|---|---|---|\n"
        "| Ann Lee | 1,000 | 1.2% |\n| Bo Chen | 3,000 | 3.6% |\n| Cy Park | 5,000 | 6.0% |\n",
        "owners.md",
    )
    answer = memory.ask("What is the average number of shares owned by Ann Lee and Bo Chen?")
    assert answer.value == 2000
    assert [s["op"] for s in answer.audit["plan"]["trace"]] == ["anchor", "anchor", "average"]


INVENTORIES = "d7a538e8"  # finished goods, work-in-process, raw materials; reserves in brackets
DEFERRED_TAXES = "561569ae"  # deferred tax liabilities in brackets, "(6,508)" and "(6,337)"
CHARGES = "fe20d447"  # restructuring charges of three "... Solutions" segments, then "Total"


def test_a_difference_between_two_rows_is_how_far_apart_they_stand() -> None:
    memory = _memory(INVENTORIES)
    asked = "What is the difference between finished goods and raw materials in 2019?"
    answer = memory.ask(asked)
    assert answer.value == 13916  # 23,363 less 9,447, though finished goods are named first
    assert answer.audit["plan"]["trace"][-1]["args"]["magnitude"] is True
    # A change keeps its sign: finished goods went from $10,995 to $9,447.
    assert memory.ask("What was the change in finished goods from 2018 to 2019?").value == -1548


def test_a_percentage_change_the_table_states_is_said_as_it_writes_it() -> None:
    asked = "What is the percentage change in consolidated net revenues from 2018 to 2019?"
    answer = _memory(REVENUES).ask(asked)
    # The "(13)%" of the "% Change" column, which $6,489 against $7,500 gives (-13.48%).
    assert answer.value == -13
    assert answer.audit["plan"]["trace"][-1]["args"]["stated"] == "stated"
    assert any("(13)%" in c.text for c in answer.citations)
    # A stated figure that the row's figures do not give is not taken: the change is computed.
    altered = stored(report(REVENUES).replace("(13)%", "(19)%"), "altered.md")
    assert altered.ask(asked).value == pytest.approx(-13.48, abs=0.005)


def test_figures_all_in_brackets_compare_by_size() -> None:
    answer = _memory(DEFERRED_TAXES).ask(
        "In which year were the gross deferred tax liabilities larger?"
    )
    assert answer.value == "2019"  # (6,508) against (6,337)


def test_a_bare_total_names_what_the_rows_it_sums_share() -> None:
    whole = ground(CHARGES)
    table = whole.tables[0]
    closing = table.rows[-1]
    assert "solut" in whole.label_terms(table, closing)  # under three "... Solutions" rows
    plan = steps(
        ("anchor", {"row": "total solutions segments", "column": "cumulative charges"}, "a")
    )
    assert run(plan, whole).value.number == 254
    # A "Total" whose figures are not the sum of the rows above says only "Total".
    memory = stored(report(CHARGES).replace("$  254", "$  264"), "altered.md")
    lines = memory._retriever.around(  # noqa: SLF001 - the whole report is the ground here
        [Evidence(document="altered.md", position=0, text="", kind="row", score=0.0)], 200
    )
    altered = Ground(lines, Analyzer("en"))
    assert altered.label_terms(altered.tables[0], altered.tables[0].rows[-1]) == {"total"}


RECEIVABLES = "da44d518"  # billed and unbilled receivables; "Unbilled | — | 242,877"


def test_a_dash_among_a_rows_figures_is_nil() -> None:
    memory = _memory(RECEIVABLES)
    average = memory.ask("What was the average unbilled accounts receivable for 2018 and 2019?")
    assert average.value == pytest.approx(121438.5)  # (0 + 242,877) / 2
    inputs = [i for step in average.audit["plan"]["trace"] for i in step.get("inputs") or []]
    written = sorted(c["written"] for i in inputs for c in i["cites"])
    assert written == ["242,877", "—"]  # the dash itself is what is cited for 2019
    # Looked up, it is quoted as the dash the report writes.
    looked_up = memory.ask("What was the unbilled accounts receivable in 2019?")
    assert looked_up.value == 0 and "—" in looked_up.text


def test_years_across_which_a_figure_is_asked_leave_the_row_phrase() -> None:
    found = route("What was the average total employee expenditure across 2018 and 2019?")
    assert found is not None and found.rows == ("total employee expenditure",)


def test_a_footnote_mark_run_into_a_label_is_no_word_of_it() -> None:
    assert FOOTNOTE.sub("", "Total employee expenditure2") == "Total employee expenditure"
    assert FOOTNOTE.sub("", "Shareholder distributions (1)") == "Shareholder distributions"
    assert FOOTNOTE.sub("", "Level 2") == "Level 2"  # a number the label names stays


FIVE_YEARS = "32edf644"  # selected financial data for fiscal 2015 to 2019, one column each


def test_an_average_between_two_years_takes_every_year_of_the_span() -> None:
    memory = _memory(FIVE_YEARS)
    answer = memory.ask("What was the average operating income between 2016 and 2018?")
    assert answer.value == pytest.approx((13264 + 12913 + 12604) / 3)
    asked = "What was the sum of total revenues for fiscal years 2017 to 2019?"
    spanned, found = memory.ask(asked), route(asked)
    assert found is not None and found.years == ("2017", "2018", "2019")
    assert spanned.value == pytest.approx(39506 + 39383 + 37792)
    # Two years joined by "and" are those two, not the years between them.
    two = route("What was the average operating income in 2016 and 2018?")
    assert two is not None and two.years == ("2016", "2018")


def test_a_change_between_two_pairs_of_years_is_of_their_averages() -> None:
    found = route(
        "What is the change in the average operating income between 2015-2016, and 2016-2017?"
    )
    assert found is not None and found.need == Need.CHANGE_OF_AVERAGES
    answer = _memory(FIVE_YEARS).ask(
        "What is the change in the average operating income between 2015-2016, and 2016-2017?"
    )
    # (12,913 + 12,604) / 2 less (12,604 + 13,871) / 2: 2016's cell read once, used twice.
    assert answer.value == pytest.approx(-479)
    ops = [step["op"] for step in answer.audit["plan"]["trace"]]
    assert ops == ["anchor", "anchor", "anchor", "average", "average", "difference"]


@pytest.mark.parametrize(
    ("question", "need", "rows", "years"),
    [
        (
            "What was the variance in percent for Net revenues from fiscal 2017 to fiscal 2018?",
            Need.PERCENT_CHANGE,
            ("Net revenues",),
            ("2017", "2018"),
        ),
        (
            "How many % does provisions make up out of the total deferred tax assets?",
            Need.SHARE,
            ("provisions", "total deferred tax assets"),
            (),
        ),
        (
            "What is the total number of shares issuable between 2017 to 2019?",
            Need.TOTAL,
            ("total number of shares issuable",),
            ("2017", "2018", "2019"),
        ),
    ],
)
def test_more_ways_reports_ask_for_a_computation(
    question: str, need: Need, rows: tuple[str, ...], years: tuple[str, ...]
) -> None:
    found = route(question)
    assert found is not None
    assert (found.need, found.rows, found.years) == (need, rows, years)


def test_a_month_named_with_its_year_reads_the_column_of_that_month() -> None:
    memory = _memory(RATES)  # columns "January 31, 2020", "February 1, 2019", ...
    answer = memory.ask("What was the expected volatility in January 2020?")
    assert answer.value == pytest.approx(27.4)
    assert answer.audit["plan"]["trace"][0]["args"]["column"] == "January 2020"
    change = memory.ask(
        "What was the change in the expected volatility between February 2019 and January 2020?"
    )
    assert change.value == pytest.approx(-6.1)  # 27.4% against 33.5%, in points
    assert [s["args"].get("column") for s in change.audit["plan"]["trace"][:2]] == [
        "February 2019",
        "January 2020",
    ]


def test_one_row_name_twice_in_one_period_is_no_run_over_time() -> None:
    whole = ground(DEFERRED_TAXES)  # "Other" under the assets and under the liabilities
    asked = {"cells": "the Other in 2019", "among": 2, "nth": 0}
    assert run(steps(("anchor", asked, "a")), whole).value.number == 577
    # Ordered by date, the two cells of 2019 have no order: the plan dies, no change is born.
    with pytest.raises(PlanDied) as died:
        run(steps(("anchor", {**asked, "by": "date"}, "a")), whole)
    assert died.value.death == Death.AMBIGUOUS
