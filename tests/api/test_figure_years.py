"""A figure is read for the year its sentence writes it for: respectively lists, the prior
year in parentheses; and the shape, tokens and spans that let a report's figures answer."""

from __future__ import annotations

import pytest

from affidavit import Memory
from affidavit.engine.rules.typed_candidates import typed_spans
from affidavit.question.shape import AnswerType, read_shape
from affidavit.text.analyzer import Analyzer
from affidavit.text.figure_years import figures, years_of

RESPECTIVELY = (
    "Total depreciation expense on property and equipment was $2.5 million, $2.6 million, "
    "and $2.4 million during fiscal 2019, 2018 and 2017, respectively."
)
PRIOR_YEAR = "The maximum exposure to credit risk at 31 March 2019 was £59.1m (2018: £56.5m)."


def _years(text: str) -> dict[str, set[str]]:
    return {text[f.start : f.end]: set(f.years) for f in figures(text)}


def test_respectively_matches_figures_to_years_in_order() -> None:
    assert _years(RESPECTIVELY) == {
        "$2.5 million": {"2019"},
        "$2.6 million": {"2018"},
        "$2.4 million": {"2017"},
    }


def test_years_before_the_figures_are_matched_too() -> None:
    text = "In 2019 and 2018, revenue was $5.2m and $4.1m, respectively."
    assert _years(text) == {"$5.2m": {"2019"}, "$4.1m": {"2018"}}


def test_a_figure_in_parentheses_is_the_year_they_name() -> None:
    assert _years(PRIOR_YEAR) == {"£59.1m": {"2019"}, "£56.5m": {"2018"}}
    start = PRIOR_YEAR.index("£56.5m")
    assert years_of(PRIOR_YEAR, start, start + 6) == {"2018"}


def test_days_of_dates_and_years_are_not_figures() -> None:
    assert _years("Paid on April 30, 2019 in full.") == {}


@pytest.fixture(scope="module")
def report() -> Memory:
    memory = Memory()
    memory.ingest_text(
        f"# Notes\n\n{RESPECTIVELY}\n\n{PRIOR_YEAR}\n\n"
        "A compensation expense of $1,792,000 (compensation expense reduction of $181,000 "
        "in 2018) was recorded for the year ended August 31, 2019 related to this plan.",
        name="notes.md",
    )
    return memory


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What was the depreciation expense in 2019?", "2.5"),
        ("What was the depreciation expense in 2018?", "2.6"),
        ("What was the depreciation expense in 2017?", "2.4"),
        ("What was the compensation expense in 2019?", "1,792,000"),
    ],
)
def test_ask_answers_with_the_figure_written_for_the_year(
    report: Memory, question: str, answer: str
) -> None:
    reply = report.ask(question)
    assert not reply.refused, reply.reason
    assert answer in reply.text


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Depreciation was $2.5 million in 2019.", True),
        ("Depreciation was $2.4 million in 2019.", False),  # 2017's figure
        ("The maximum exposure to credit risk in 2019 was £59.1m.", True),
        ("The maximum exposure to credit risk in 2019 was £56.5m.", False),  # 2018's
    ],
)
def test_verify_binds_a_figure_to_its_year(report: Memory, claim: str, supported: bool) -> None:
    assert report.verify(claim).supported is supported


@pytest.mark.parametrize(
    "question",
    [
        "What was the compensation expense in 2019?",
        "What is the hurdle rate?",
        "What was the weighted average market value per ordinary share in 2019?",
    ],
)
def test_a_head_noun_naming_a_figure_asks_for_an_amount(question: str) -> None:
    shape = read_shape(question)
    assert shape.answer_type is AnswerType.AMOUNT
    assert shape.cue in shape.content_words  # "expense" is still what the line must say


def test_a_definition_is_still_a_description() -> None:
    assert read_shape("What is lease related and other charges?").answer_type is (
        AnswerType.DESCRIPTION
    )


def test_a_decimal_keeps_its_value_beside_a_unit_letter() -> None:
    analyzer = Analyzer("en")
    assert analyzer.terms("£59.1m") == ["59.1", "m"]
    assert analyzer.terms("Form 1040NR") == ["form", "1040nr"]  # a code stays one term


def test_pence_are_money() -> None:
    spans = typed_spans("The price was 445.0p (2018: n/a).", AnswerType.AMOUNT)
    assert spans[0].text == "445.0p" and spans[0].label == "MONEY"


def test_a_quoted_name_answers_for_the_words_the_question_already_says() -> None:
    memory = Memory()
    memory.ingest_text(
        "# Market\n\nOur common stock is listed on the Nasdaq Global Market under the "
        "symbol “LWAY.”",
        name="market.md",
    )
    reply = memory.ask("What is the symbol of the company's common stock on the Nasdaq?")
    assert reply.text == "LWAY"


def test_a_figure_asked_at_a_date_is_not_answered_with_a_date() -> None:
    memory = Memory()
    memory.ingest_text(
        "# Assets\n\nThe monetary assets were reviewed on 31 December 2019 by the board.",
        name="assets.md",
    )
    reply = memory.ask("What was the total of monetary assets as at 31 December 2018?")
    assert reply.refused
    assert "2019" not in reply.text


def test_a_table_row_is_never_lifted_as_prose() -> None:
    memory = Memory()
    memory.ingest_text(
        "# Costs\n\n| Costs | 2019 | 2018 |\n|---|---|---|\n"
        "| Customer related costs | 1,200 | 1,100 |\n",
        name="costs.md",
    )
    reply = memory.ask("What is included in Customer related costs?")
    assert "|" not in reply.text


def test_a_total_over_years_is_computed_from_the_figures_a_sentence_gives() -> None:
    memory = Memory()
    memory.ingest_text(
        "# Receivables\n\nAmounts billed due on federal contracts were $80.5 million and "
        "$60.3 million at the end of 2019 and 2018, respectively.",
        name="receivables.md",
    )
    reply = memory.ask(
        "What is the sum of amounts billed due on federal contracts in 2018 and 2019?"
    )
    assert not reply.refused, reply.reason
    assert reply.value == pytest.approx(140.8)
    trace = reply.audit["plan"]["trace"]
    written = [c["written"] for step in trace[:2] for i in step["inputs"] for c in i["cites"]]
    assert written == ["$60.3 million", "$80.5 million"]


def test_a_sentence_does_not_stand_in_for_a_row_the_table_holds() -> None:
    memory = Memory()
    memory.ingest_text(
        "# Revenue\n\n| | 2019 | 2018 |\n|---|---|---|\n| Product | 900 | 800 |\n"
        "| Total revenue | 1,000 | 950 |\n| Total revenue (1) | 1,100 | 990 |\n\n"
        "Total revenue includes licence revenue of $168 million and $903 million for 2019 "
        "and 2018, respectively.",
        name="revenue.md",
    )
    reply = memory.ask("What was the percentage change in total revenue between 2018 and 2019?")
    assert "168" not in str(reply.audit.get("plan", "")) and reply.value != pytest.approx(
        -81.4, 0.01
    )
