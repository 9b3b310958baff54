"""The organs read at the door which questions need a computation, and bind: the route
names the rows and years in the order the computation takes them."""

from __future__ import annotations

import pytest

from affidavit.engine.rules.planning.for_arithmetic import plans_for
from affidavit.question.arithmetic import route
from affidavit.question.routes import Need


@pytest.mark.parametrize(
    ("question", "need", "rows", "years"),
    [
        (
            "What is the change in Other in 2019 from 2018?",
            Need.CHANGE,
            ["Other"],
            ["2018", "2019"],
        ),
        (
            "What was the percentage change in net inventories between 2018 and 2019?",
            Need.PERCENT_CHANGE,
            ["net inventories"],
            ["2018", "2019"],
        ),
        (
            "What is the 2019 average free cash flow?",
            Need.AVERAGE,
            ["free cash flow"],
            ["2018", "2019"],
        ),
        (
            "How much was the average operating income from 2015 to 2019?",
            Need.AVERAGE,
            ["operating income"],
            ["2015", "2016", "2017", "2018", "2019"],
        ),
        (
            "What is the ratio of total assets to total liabilities in 2019?",
            Need.RATIO,
            ["total assets", "total liabilities"],
            ["2019"],
        ),
        ("In which year was the amount of Investments higher?", Need.EXTREME, ["Investments"], []),
        ("What was the amount of Raw Materials in 2019?", Need.VALUE, ["Raw Materials"], ["2019"]),
        # One row in two years, in the order the question gives them.
        (
            "What is the ratio of total revenue in 2018 to 2017?",
            Need.RATIO,
            ["total revenue"],
            ["2018", "2017"],
        ),
        # The row before the word that asks for the change.
        (
            "What was the service cost increase / (decrease) from 2018 to 2019?",
            Need.CHANGE,
            ["service cost"],
            ["2018", "2019"],
        ),
        # A clause saying where to look, before the comparison itself.
        (
            "Based on the post-employment benefit obligations, which year recorded a longer "
            "life expectancy at age 65?",
            Need.EXTREME,
            ["life expectancy at age 65"],
            [],
        ),
        (
            "Between 2018 and 2019 year end, which year had lower expected volatility?",
            Need.EXTREME,
            ["expected volatility"],
            [],
        ),
        (
            "What percentage of total revenue was Americas Revenue in 2019?",
            Need.SHARE,
            ["Americas Revenue", "total revenue"],
            ["2019"],
        ),
        (
            "What is the percentage constitution of franchise rental revenues among the total "
            "franchise revenues in 2019?",
            Need.SHARE,
            ["franchise rental revenues", "total franchise revenues"],
            ["2019"],
        ),
    ],
)
def test_route_reads_the_computation(question: str, need: Need, rows: list, years: list) -> None:
    found = route(question)
    assert found is not None
    assert (found.need, list(found.rows), list(found.years)) == (need, rows, years)
    # A look-up, a question without years, or one year's average may be a stated figure.
    stated = (
        need == Need.VALUE or not years or (need == Need.AVERAGE and "2019 average" in question)
    )
    assert found.binds == (not stated)
    assert plans_for(found)


@pytest.mark.parametrize(
    "question",
    [
        "Why did the working capital and total assets decrease in fiscal 2019?",
        "How did the company fund the change in 2019?",
        "Who conquered England in 1066 and 1067?",
        "What were the reasons for the increase in sales from the modules segment in 2019?",
    ],
)
def test_questions_that_ask_for_reasons_or_names_are_not_computed(question: str) -> None:
    found = route(question)
    assert found is None or found.need == Need.VALUE


def test_the_row_that_has_the_highest_figure_is_a_comparison_of_rows() -> None:
    found = route("What is the component that has the highest obligation in 1-5 years?")
    assert found is not None and found.need == Need.EXTREME_ROW and found.largest
    assert found.rows == ("obligation in 1-5 years",)


def test_a_lower_extreme_asks_for_the_minimum() -> None:
    found = route("In which year was the billed accounts receivable smaller?")
    assert found is not None and not found.largest
    assert [s.op for s in plans_for(found)[0].steps] == ["gather", "min"]


@pytest.mark.parametrize(
    ("question", "need", "rows", "years"),
    [
        ("Which financial year's information is shown in the table?", Need.YEARS, [""], []),
        ("What years are included in the table?", Need.YEARS, [""], []),
        (
            "In which year was the financial income and costs recorded for?",
            Need.YEARS,
            ["financial income and costs"],
            [],
        ),
        (
            "Which years information are included in this note on net property and equipment?",
            Need.YEARS,
            [""],
            [],
        ),
        (
            "What was the Gross Profit in 2019, 2018 and 2017 respectively?",
            Need.VALUES,
            ["Gross Profit"],
            ["2019", "2018", "2017"],
        ),
        (
            "What are the respective sales and purchases for 2017?",
            Need.VALUES,
            ["sales", "purchases"],
            ["2017"],
        ),
        ("In which years was the total equity calculated?", Need.YEARS, ["total equity"], []),
        (
            "Which years does the table provide information for net sales?",
            Need.YEARS,
            ["net sales"],
            [],
        ),
        (
            "In which year was net income less than 100.0 million?",
            Need.YEARS_WHERE,
            ["net income"],
            [],
        ),
        ("What were the components making up current assets?", Need.ITEMS, ["current assets"], []),
        (
            "What was the Technology development costs in 2019 and 2018?",
            Need.VALUES,
            ["Technology development costs"],
            ["2019", "2018"],
        ),
    ],
)
def test_route_reads_list_look_ups(question: str, need: Need, rows: list, years: list) -> None:
    found = route(question)
    assert found is not None
    assert (found.need, list(found.rows), list(found.years)) == (need, rows, years)
    assert found.binds == (need == Need.YEARS_WHERE)  # a filter is a computation


@pytest.mark.parametrize(
    ("question", "need", "rows", "largest"),
    [
        ("Which fiscal year has a higher ending balance?", Need.EXTREME, ["ending balance"], True),
        (
            "Which year was the net cash provided by operating activities lower?",
            Need.EXTREME,
            ["net cash provided by operating activities"],
            False,
        ),
        (
            "In which segment was the Remaining Expected Charges the largest?",
            Need.EXTREME_ROW,
            ["Remaining Expected Charges"],
            True,
        ),
        (
            "Which contractual obligation has the highest total value?",
            Need.EXTREME_ROW,
            ["total value"],
            True,
        ),
    ],
)
def test_route_reads_comparisons(question: str, need: Need, rows: list, largest: bool) -> None:
    found = route(question)
    assert found is not None
    assert (found.need, list(found.rows), found.largest) == (need, rows, largest)


def test_a_negative_year_is_a_bound_of_zero() -> None:
    found = route("In which year was Other income (expense), net negative?")
    assert found is not None and found.need == Need.YEARS_WHERE
    assert (found.bound, found.above) == ("0", False)


def test_a_difference_between_rows_keeps_the_column_it_names() -> None:
    found = route("What was the difference in total expected charges between Retail and Energy?")
    assert found is not None and found.need is Need.DIFFERENCE
    assert found.rows == ("Retail", "Energy") and found.column == "total expected charges"
    plan, named = plans_for(found)
    assert [step.args.get("column") for step in plan.steps[:2]] == ["total expected charges"] * 2
    assert "cells" in named.steps[0].args  # last, the two cells the question's words name
    in_a_year = route("What is the difference between Retail and Energy in 2019?")
    assert in_a_year is not None and in_a_year.column == "" and in_a_year.years == ("2019",)


def test_a_figure_in_years_named_is_a_look_up_unless_a_computation_is_asked() -> None:
    total = route("What was the total revenue in 2019 and 2018?")
    assert total is not None and total.need is Need.TOTAL
    change = route("What was the change in revenue in 2019 and 2018?")
    assert change is not None and change.need is Need.CHANGE


@pytest.mark.parametrize(
    ("question", "rows", "years", "bound", "above", "gathered"),
    [
        (
            "How many years did the company have cash proceeds received that exceeded $5,000?",
            ("cash proceeds received",),
            (),
            "$5,000",
            True,
            {"row": "cash proceeds received", "dated": True},
        ),
        (
            "How many years was interest income below 1,500?",
            ("interest income",),
            (),
            "1,500",
            False,
            {"row": "interest income", "dated": True},
        ),
        (
            "How many expense segments in 2019 were above $50 million?",
            ("expense segments",),
            ("2019",),
            "$50",
            True,
            {"column": "2019", "parts": True},
        ),
    ],
)
def test_a_count_of_figures_past_a_bound(
    question: str, rows: tuple, years: tuple, bound: str, above: bool, gathered: dict
) -> None:
    found = route(question)
    assert found is not None and found.need is Need.COUNT_ABOVE and found.binds
    assert (found.rows, found.years, found.bound, found.above) == (rows, years, bound, above)
    (plan,) = plans_for(found)
    assert plan.steps[0].args == gathered
    assert plan.steps[1].args == {"of": "row", "above" if above else "below": bound}
