"""Cells a question names by row and column, where the columns are not years: quarterly
prices under year sections, obligations by period, currencies side by side.

The reports come from corpora/tatqa (TAT-QA, CC BY 4.0), saved as a user would: the
table as Markdown, then its paragraphs.
"""

from __future__ import annotations

import pytest
from conftest import _memory
from test_composer import ground, steps, stored

from affidavit import Reason
from affidavit.plans.interpreter import run
from affidavit.plans.named import named_cells
from affidavit.plans.step import Death, PlanDied
from affidavit.question.arithmetic import route

QUARTERS = "43f8c656"  # High / Low by quarter, under the rows "2019:" and "2018:"
OBLIGATIONS = "af31958a"  # "Less Than 1 Year", "2-5 Years", "Total", and a "Total" row
CURRENCIES = "861ad987"  # "USD denominated" beside "Non-USD denominated", two sections


def _numbers(phrase: str, uid: str) -> list[float | None]:
    return [v.number for v in named_cells(ground(uid), phrase)]


def test_a_year_row_heads_the_quarters_under_it() -> None:
    # Without the section, the fourth quarter of 2018 would stand beside 2019's.
    assert _numbers("the high price in the fourth quarter of 2019", QUARTERS) == [11.44]
    assert _numbers("the high price in the fourth quarter of 2018", QUARTERS) == [12.16]


def test_cells_come_in_the_order_the_phrase_names_them() -> None:
    assert _numbers("high and low prices in the fourth quarter of 2019", QUARTERS) == [
        11.44,
        9.47,
    ]
    assert _numbers("low and high prices in the fourth quarter of 2019", QUARTERS) == [
        9.47,
        11.44,
    ]


def test_a_word_names_one_thing() -> None:
    # "total" names the row "Total", not the column "Total" beside it.
    phrase = "total contractual obligations that are less than one year and between 2-5 years"
    assert _numbers(phrase, OBLIGATIONS) == [3423, 4055]
    # "non" names the column "Non-USD", so the row is "current", not "non-current".
    phrase = "non-USD denominated current monetary assets as at 31 December 2019"
    assert _numbers(phrase, CURRENCIES) == [2899]


def test_a_phrase_about_something_else_names_no_cell() -> None:
    # The row's and the column's words are there, but most of the phrase is about
    # something the table does not hold.
    phrase = (
        "the high dividend yield of corporate bonds issued abroad in the fourth quarter of 2019"
    )
    assert named_cells(ground(QUARTERS), phrase) == []


def test_respective_values_by_columns_through_ask() -> None:
    answer = _memory(OBLIGATIONS).ask(
        "What are the respective values of operating lease obligations that are less than "
        "one year and between 2-5 years?"
    )
    assert answer.value == [773, 2055]
    assert {c.text for c in answer.citations} == {
        "| Operating Lease Obligations: | $773 | $2,055 | $2,828 |"
    }
    pair = _memory(QUARTERS).ask(
        "What is the high and low sale prices of the common stock in the fourth quarter of "
        "2019 respectively?"
    )
    assert pair.value == [11.44, 9.47]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a difference takes the first named less the second
        ("What is the difference in the high and low prices of the common stock in the "
         "fourth quarter of 2019?", 1.97),
        # a change goes from the first named to the second
        ("In 2019, what is the change in high price between the third quarter and fourth "
         "quarter?", -3.52),
    ],
)  # fmt: skip
def test_a_difference_of_the_two_cells_a_question_names(question: str, value: float) -> None:
    answer = _memory(QUARTERS).ask(question)
    assert answer.value == pytest.approx(value)
    trace = answer.audit["plan"]["trace"]
    assert [s["args"].get("nth") for s in trace[:2]] == [0, 1]
    assert len(answer.citations) == 2 if "third" in question else len(answer.citations) == 1


def test_a_cells_anchor_dies_unless_exactly_the_cells_asked_for_are_named() -> None:
    where = ground(QUARTERS)
    two = steps(
        ("anchor", {"cells": "high and low in the fourth quarter of 2019", "among": 1}, "a")
    )
    with pytest.raises(PlanDied) as died:
        run(two, where)
    assert died.value.death == Death.AMBIGUOUS
    none = steps(("gather", {"cells": "bananas in the fourth quarter of 2019"}, "a"))
    with pytest.raises(PlanDied) as died:
        run(none, where)
    assert died.value.death == Death.UNANCHORED


def test_the_route_keeps_the_question_for_cells_named_by_row_and_column() -> None:
    found = route("What are the respective values of X that are less than one year and 1-3 years?")
    assert found is not None and found.need.value == "values" and not found.years
    assert found.asked.startswith("What are the respective values")


def test_a_question_the_table_cannot_answer_is_still_refused() -> None:
    answer = _memory(QUARTERS).ask(
        "What is the difference in the high and low prices of the preferred stock dividends "
        "in the fourth quarter of 2017?"
    )
    assert answer.refused and answer.reason == Reason.PLAN_DEAD.value
    # The control: of the common stock's prices, which the table writes, it is answered.
    stated = _memory(QUARTERS).ask(
        "What is the difference in the high and low prices in the fourth quarter of 2019?"
    )
    assert stated.value == pytest.approx(1.97)  # $11.44 less $9.47


def test_a_row_named_whole_outranks_one_that_shares_more_and_adds_more() -> None:
    memory = stored(
        "| | Year Ended December 31, | |\n|---|---|---|\n| | 2019 | 2018 |\n"
        "| Current income tax expense (benefit): | | |\n| Federal | $5 | $4 |\n"
        "| State | 10 | 5 |\n| Deferred income tax expense (benefit): | | |\n"
        "| Federal | 4,206 | 4,860 |\n| State | (11,346) | 665 |\n"
        "| Income tax expense (benefit) | $(7,125) | $5,534 |\n",
        "taxes.md",
    )
    # Not "Federal" under "Current income tax expense (benefit):", which adds two words.
    answer = memory.ask("What was the income tax expense in 2018?")
    assert answer.value == 5534
    assert memory.ask("What was the current federal income tax expense in 2019?").value == 5


def test_a_footnote_mark_is_no_word_of_a_row() -> None:
    memory = stored(
        "| Years Ended | July 27, 2019 | July 28, 2018 |\n|---|---|---|\n| Revenue: | | |\n"
        "| Applications | 5,803 | 5,036 |\n| Total Product | 39,005 | 36,709 |\n"
        "| Services | 12,899 | 12,621 |\n| Total (1) | $51,904 | $49,330 |\n",
        "revenue.md",
    )
    answer = memory.ask("What was the total revenue in 2019?")
    assert answer.value == 51904  # "Total (1)" is the whole of "total revenue"; not "Total Product"


def test_the_years_of_a_row_leave_its_change_column_out() -> None:
    memory = stored(
        "| | Fiscal years ended July 31, | | |\n|---|---|---|---|\n"
        "| | 2019 | 2018 | Change ($) |\n| Interest income | 1,210 | 980 | 230 |\n"
        "| Other income (expense), net | (1,525) | 463 | (1,988) |\n",
        "other.md",
    )
    # The "Change ($)" cell is negative too, but it is no year.
    assert memory.ask("In which year was Other income (expense), net negative?").value == ["2019"]
    assert memory.ask("In which year was interest income the largest?").value == "2019"
    count = memory.ask("How many years did interest income exceed 200?")
    assert count.value == 2  # 2019 and 2018; the change of 230 is not a year
