"""The composer: plans over verified primitives, how each dies, and the answers they give.

The report tables come from corpora/tatqa (TAT-QA, CC BY 4.0): a company's annual report
saved as a user would, the table as Markdown and its paragraphs as text.
"""

from __future__ import annotations

import json

import pytest
from conftest import _memory, report

from affidavit import Memory, Reason, ScriptedEngine
from affidavit.plans.ground import Ground
from affidavit.plans.interpreter import run
from affidavit.plans.plan import Plan, Step
from affidavit.plans.step import Death, PlanDied
from affidavit.plans.templates import say
from affidavit.plans.values import Kind, read_cell
from affidavit.results import Evidence
from affidavit.text.analyzer import Analyzer
from affidavit.text.quantities import read_number, scale_of

SALES = "3ffd9053"  # sales by contract type: a sparse row over the years, "(in millions)"
INVENTORY = "d7a538e8"  # inventories, in thousands of dollars
PRICES = "b4fefe60"  # quarterly stock prices: Low and High under "Price Range 2018"
TAX = "561569ae"  # deferred tax assets and liabilities, sections of rows


def stored(markdown: str, name: str) -> Memory:
    """A store of one document written as given (a table as Markdown), words only."""
    memory = Memory(dense=False)
    memory.ingest_text(markdown, name=name)
    return memory


def ground(*uids: str) -> Ground:
    """Every line of the reports, as the interpreter anchors in them."""
    memory = _memory(*uids)
    lines = memory._retriever.around(  # noqa: SLF001 - the whole report is the ground here
        [
            Evidence(document=f"{uid}.md", position=0, text="", kind="row", score=0.0)
            for uid in uids
        ],
        200,
    )
    return Ground(lines, Analyzer("en"))


def steps(*raw: tuple[str, dict, str]) -> Plan:
    return Plan(tuple(Step(op, args, out) for op, args, out in raw))


def cell(row: str, column: str, out: str) -> tuple[str, dict, str]:
    return ("anchor", {"row": row, "column": column}, out)


# -- values -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "number"),
    [
        ("$  1,452.4", 1452.4),
        ("(9.9)", -9.9),
        ("$(89.7)", -89.7),
        ("(248%)", -248.0),
        ("$2.5 million", 2.5),
        ("—", None),
        ("2039 or indefinite", None),  # a year beside words is not an amount
        ("(190) bps", None),
    ],
)
def test_report_cells_read_with_their_sign(written: str, number: float | None) -> None:
    assert read_number(written) == number


def test_cells_take_unit_and_scale_from_their_header_and_caption() -> None:
    amount = read_cell("166", "2019 €m")
    assert amount is not None and (amount.kind, amount.unit, amount.scale) == (
        Kind.AMOUNT,
        "€",
        "million",
    )
    assert read_cell("12.5%").kind == Kind.PERCENT  # type: ignore[union-attr]
    assert scale_of("The table below presents total net sales (in millions):") == "million"
    assert scale_of("$'000") == "thousand"


# -- primitives over a real report ----------------------------------------------------------------


def test_difference_and_percent_change_over_a_two_row_header() -> None:
    plan = steps(
        cell("Other", "2018", "a"),
        cell("Other", "2019", "b"),
        ("difference", {"of": "b", "minus": "a"}, "d"),
    )
    outcome = run(plan, ground(SALES))
    assert outcome.value.number == pytest.approx(-12.6)
    assert outcome.value.scale == "million"  # from the paragraph that speaks of the table
    change = run(
        steps(
            cell("Other", "2018", "a"),
            cell("Other", "2019", "b"),
            ("percent_change", {"from": "a", "to": "b"}, "p"),
        ),
        ground(SALES),
    )
    assert say(change, "en")[1] == -22.22


def test_sum_average_ratio_min_max_and_compare() -> None:
    g = ground(SALES)
    both = [cell("Fixed Price", "2019", "a"), cell("Other", "2019", "b")]
    assert run(steps(*both, ("sum", {"of": ["a", "b"]}, "s")), g).value.number == pytest.approx(
        1496.5
    )
    average = run(steps(("gather", {"row": "Total sales"}, "r"), ("average", {"of": "r"}, "m")), g)
    assert average.value.number == pytest.approx((1496.5 + 1202.9 + 1107.7) / 3)
    ratio = run(steps(*both, ("ratio", {"of": "b", "to": "a"}, "q")), g)
    assert ratio.value.kind == Kind.NUMBER and ratio.value.number == pytest.approx(44.1 / 1452.4)
    row = ("gather", {"row": "Other"}, "r")
    assert run(steps(row, ("max", {"of": "r", "say": "year"}, "m")), g).value.text == "2017"
    assert run(steps(row, ("min", {"of": "r"}, "m")), g).value.number == pytest.approx(44.1)
    larger = run(steps(*both, ("compare", {"of": ["a", "b"], "say": "row"}, "c")), g)
    assert larger.value.text == "Fixed Price"


def test_an_anchor_in_the_column_of_an_earlier_cell() -> None:
    g = ground(SALES)
    same = ("anchor", {"row": "Total sales", "column_of": "a"}, "t")
    total = run(steps(cell("Fixed Price", "2018", "a"), same), g)
    assert total.value.number == pytest.approx(1202.9)
    assert "2018" in total.value.sources[0].column
    # A whole row stands in several columns: no one column to read the other row in.
    whole_row = run_dead(steps(("gather", {"row": "Other"}, "a"), same), g)
    assert whole_row.death == Death.UNANCHORED and "column_of" in whole_row.detail
    dangling = run_dead(steps(("anchor", {"row": "Other", "column_of": "x"}, "t")), g)
    assert dangling.death == Death.DANGLING


def run_dead(plan: Plan, g: Ground) -> PlanDied:
    with pytest.raises(PlanDied) as died:
        run(plan, g)
    return died.value


def test_order_filter_count_first_and_latest() -> None:
    g = ground(INVENTORY)
    row = ("gather", {"row": "Finished goods"}, "r")
    kept = run(
        steps(row, ("filter", {"of": "r", "above": 10000}, "k"), ("count", {"of": "k"}, "n")), g
    )
    assert kept.value.number == 1  # 10,995 in 2018; 9,447 in 2019
    ordered = run(steps(row, ("order", {"of": "r", "descending": True}, "o")), g)
    assert [v.number for v in ordered.value.items] == [10995, 9447]
    assert run(steps(row, ("latest", {"of": "r"}, "l")), g).value.number == 9447
    assert run(steps(row, ("first", {"of": "r", "say": "year"}, "f")), g).value.text == "2018"
    before = run(steps(row, ("filter", {"of": "r", "before": "2019"}, "b")), g)
    assert [v.number for v in before.value.items] == [10995]


def test_gather_a_column_and_average_it() -> None:
    g = ground(PRICES)
    lows = run(steps(("gather", {"column": "Low"}, "c"), ("average", {"of": "c"}, "m")), g)
    assert lows.value.number == pytest.approx((5.99 + 4.79 + 2.66 + 1.88) / 4)


def test_count_is_the_length_of_the_verified_list() -> None:
    listed = ["fixed-price type", "cost-plus type", "Fixed-price type", "barter type"]
    outcome = run(
        steps(("gather", {"items": listed}, "l"), ("count", {"of": "l"}, "n")), ground(SALES)
    )
    assert outcome.value.number == 2  # the duplicate counts once; "barter" is in no line
    dropped = outcome.trace[0]["dropped"]
    assert any("barter" in d for d in dropped) and any("same item" in d for d in dropped)


def test_dates_days_between_and_tally_by_month() -> None:
    lines = [
        Evidence(
            document="log.md",
            position=1,
            text="The permit was issued on May 3, 2019.",
            kind="sentence",
            score=0.0,
        ),
        Evidence(
            document="log.md",
            position=2,
            text="The permit was renewed on June 2, 2019.",
            kind="sentence",
            score=0.0,
        ),
        Evidence(
            document="log.md",
            position=3,
            text="The permit was renewed on June 20, 2019.",
            kind="sentence",
            score=0.0,
        ),
    ]
    g = Ground(lines, Analyzer("en"))
    issued = ("gather", {"phrase": "permit issued"}, "i")
    renewed = ("gather", {"phrase": "permit renewed"}, "r")
    span = run(
        steps(
            issued,
            renewed,
            ("first", {"of": "i"}, "a"),
            ("latest", {"of": "r"}, "b"),
            ("days_between", {"from": "a", "to": "b"}, "d"),
        ),
        g,
    )
    assert span.value.kind == Kind.DURATION and span.value.number == 48
    ago = run(
        steps(
            issued, ("first", {"of": "i"}, "a"), ("days_between", {"from": "a", "to": "now"}, "d")
        ),
        g,
        now="2019-06-10",
    )
    assert ago.value.number == 38
    tally = run(
        steps(("gather", {"phrase": "permit"}, "p"), ("tally_by_month", {"of": "p"}, "t")), g
    )
    assert [(v.text, v.number) for v in tally.value.items] == [("2019-05", 1), ("2019-06", 2)]


# -- how plans die ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plan", "death"),
    [
        (steps(cell("Other", "2019", "a"), ("median", {"of": "a"}, "m")), Death.UNKNOWN_OP),
        (steps(cell("Bananas", "2019", "a")), Death.UNANCHORED),
        (
            steps(
                cell("Other", "2019", "a"),
                cell("Other", "2019", "b"),
                ("difference", {"of": "a", "minus": "b"}, "d"),
            ),
            Death.REPEATED,
        ),
        (
            steps(cell("Other", "2019", "a"), ("difference", {"of": "a", "minus": "z"}, "d")),
            Death.DANGLING,
        ),
        (
            steps(
                ("gather", {"row": "Other"}, "r"),
                ("count", {"of": "r"}, "n"),
                ("sum", {"of": ["r", "n"]}, "s"),
            ),
            Death.UNIT_MISMATCH,
        ),
        (
            steps(
                ("anchor", {"phrase": "fixed-price type", "as": "mention"}, "a"),
                ("days_between", {"from": "a", "to": "a"}, "d"),
            ),
            Death.NO_DATE,
        ),
        (
            steps(
                ("gather", {"row": "Other"}, "r"),
                ("filter", {"of": "r", "above": 1e9}, "k"),
                ("average", {"of": "k"}, "m"),
            ),
            Death.EMPTY,
        ),
    ],
)
def test_each_way_a_plan_dies(plan: Plan, death: Death) -> None:
    with pytest.raises(PlanDied) as died:
        run(plan, ground(SALES))
    assert died.value.death == death


def test_percent_and_amount_do_not_mix() -> None:
    g = ground(SALES)
    plan = steps(
        cell("Other", "2018", "a"),
        cell("Other", "2019", "b"),
        ("percent_change", {"from": "a", "to": "b"}, "p"),
        ("sum", {"of": ["a", "p"]}, "s"),
    )
    with pytest.raises(PlanDied) as died:
        run(plan, g)
    assert died.value.death == Death.UNIT_MISMATCH


def test_thousands_and_millions_convert_and_unknown_scales_kill() -> None:
    g = ground(SALES, INVENTORY)
    millions = cell("Total sales", "2019", "m")
    thousands = cell("Finished goods", "2019", "t")
    total = run(steps(millions, thousands, ("sum", {"of": ["m", "t"]}, "s")), g)
    assert total.value.scale == "million"
    assert total.value.number == pytest.approx(1496.5 + 9.447)
    prices = Ground(
        [*g.lines, *ground(PRICES).lines, *_rows(SALES), *_rows(PRICES)], Analyzer("en")
    )
    with pytest.raises(PlanDied) as died:
        run(
            steps(
                millions,
                ("anchor", {"row": "First Quarter", "column": "Low"}, "p"),
                ("sum", {"of": ["m", "p"]}, "s"),
            ),
            prices,
        )
    assert died.value.death in (Death.SCALE_MISMATCH, Death.UNIT_MISMATCH)


def _rows(uid: str) -> list[Evidence]:
    return [line for table in ground(uid).tables for line in (*table.header, *table.rows)]


def test_division_by_zero_is_undefined() -> None:
    zero = Evidence(
        document="z.md",
        position=1,
        text="The reserve held 0 dollars in 2019.",
        kind="sentence",
        score=0.0,
    )
    one = Evidence(
        document="z.md",
        position=2,
        text="The fund held 5 dollars in 2019.",
        kind="sentence",
        score=0.0,
    )
    g = Ground([zero, one], Analyzer("en"))
    plan = steps(
        ("anchor", {"phrase": "reserve held"}, "a"),
        ("anchor", {"phrase": "fund held"}, "b"),
        ("ratio", {"of": "b", "to": "a"}, "r"),
    )
    with pytest.raises(PlanDied) as died:
        run(plan, g)
    assert died.value.death == Death.UNDEFINED


# -- through ask ----------------------------------------------------------------------------------


def test_a_computed_answer_cites_its_inputs_and_keeps_its_trace() -> None:
    answer = _memory(SALES).ask("What is the change in Other in 2019 from 2018?")
    assert not answer.refused and answer.value == -12.6
    assert "-12.6 million" in answer.text and "rounded to 2 decimals" in answer.text
    assert [c.text for c in answer.citations] == ["| Other | 44.1 | 56.7 | 70.8 |"]
    trace = answer.audit["plan"]["trace"]
    assert [s["op"] for s in trace] == ["anchor", "anchor", "difference"]
    written = [i["cites"][0]["written"] for s in trace[:2] for i in s["inputs"]]
    assert written == ["56.7", "44.1"]  # a reviewer redoes 44.1 - 56.7 from the cells


def test_which_year_is_largest_is_a_computation() -> None:
    answer = _memory(SALES).ask("In which year is the amount of total sales the largest?")
    assert answer.value == "2019" and answer.audit["route"]["need"] == "extreme"


def test_a_computation_that_no_plan_survives_is_refused_not_lifted() -> None:
    answer = _memory(SALES).ask("What is the change in Bananas in 2019 from 2018?")
    assert answer.refused and answer.reason == Reason.PLAN_DEAD.value
    assert answer.audit["plans"][0]["death"]["death"] == "unanchored_phrase"


def test_scripted_plans_die_on_bad_proposals_and_the_next_one_runs() -> None:
    question = "What were total sales in 2019 and 2018 together?"
    good = steps(
        cell("Total sales", "2019", "a"),
        cell("Total sales", "2018", "b"),
        ("sum", {"of": ["a", "b"]}, "s"),
    )
    engine = ScriptedEngine(
        {},
        plans={
            question: [
                "{not json",
                {"steps": [{"op": "sum"}]},
                {"steps": [{"op": "explode", "out": "x"}]},
                good.to_json(),
            ]
        },
    )
    memory = Memory(dense=False, engine=engine)
    memory.ingest_text(report(SALES), name="sales.md")
    answer = memory.ask(question)
    assert answer.value == pytest.approx(2699.4)
    deaths = [p.get("death", {}).get("death") for p in answer.audit["plans"]]
    assert deaths == ["malformed_plan", "malformed_plan", "unknown_op", None]


def test_templates_speak_spanish_and_turkish() -> None:
    outcome = run(
        steps(
            cell("Other", "2018", "a"),
            cell("Other", "2019", "b"),
            ("difference", {"of": "b", "minus": "a"}, "d"),
        ),
        ground(SALES),
    )
    assert say(outcome, "es")[0].startswith("La diferencia es -12.6 millones")
    assert say(outcome, "tr")[0].startswith("Fark: -12.6 milyon")


# -- verify recomputes a computed claim ---------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Total sales rose 24.4% from 2018 to 2019.", True),  # 1,496.5 against 1,202.9
        ("Total sales rose 25.4% from 2018 to 2019.", False),
        ("Total sales fell 24.4% from 2018 to 2019.", False),  # the wrong direction
        ("Other sales fell 12.6 from 2018 to 2019.", True),
    ],
)
def test_verify_recomputes_a_claim_from_the_cells(claim: str, supported: bool) -> None:
    (sentence,) = _memory(SALES).verify(claim).sentences
    assert sentence.supported == supported
    recompute = [g for g in sentence.gates if g["gate"] == "recompute"]
    assert recompute and recompute[0]["passed"] == supported
    if supported:
        assert sentence.claims[0]["trace"] and all(e.kind == "row" for e in sentence.evidence)
    else:
        assert sentence.status == "vetoed" and sentence.reason == Reason.DIGIT_VETO.value


def test_list_look_ups_answer_with_the_cells_and_years_the_table_holds() -> None:
    inventory = _memory(INVENTORY)
    both = inventory.ask("What are the respective values of raw materials in 2018 and 2019?")
    assert not both.refused and len(both.value) == 2 and both.audit["route"]["need"] == "values"
    years = inventory.ask("In which years was the amount of finished goods calculated?")
    assert sorted(years.value) == ["2018", "2019"]
    below = inventory.ask("In which years was finished goods less than 10,000?")
    assert below.value == ["2019"]


def test_date_organs_count_days_and_say_which_came_first() -> None:
    log = (
        "The hot work permit was issued on May 3, 2019.\n\n"
        "The crane inspection took place on June 20, 2019.\n"
    )
    memory = Memory(dense=False)
    memory.ingest_text(log, name="site-log.md")
    between = memory.ask(
        "How many days passed between the hot work permit issued and the crane inspection?"
    )
    assert between.value == 48 and between.audit["route"]["need"] == "days_between"
    assert memory.ask(
        "Which came first, the crane inspection or the hot work permit issued?"
    ).value == ("hot work permit issued")
    ago = memory.ask("How many days ago was the crane inspection?", asked_at="2019-07-01")
    assert ago.value == 11
    # Without the asking day, "how long ago" has no plan that survives: refused, not guessed.
    undated = memory.ask("How many days ago was the crane inspection?")
    assert undated.refused and undated.reason == Reason.PLAN_DEAD.value


def test_counting_the_rows_under_a_section() -> None:
    memory = _memory(TAX)
    answer = memory.ask("How many components are there under deferred tax assets?")
    assert answer.value == 4 and answer.audit["route"]["need"] == "count_items"
    assert len(answer.citations) == 4  # each row counted is cited


def test_the_years_a_table_gives_figures_for() -> None:
    answer = _memory(SALES).ask("What years does the table include data for?")
    assert answer.value == ["2019", "2018", "2017"] and answer.audit["route"]["need"] == "years"


def test_which_row_holds_a_column_largest_figure_totals_left_out() -> None:
    answer = _memory(SALES).ask("Which contract type had the highest 2019 sales?")
    assert answer.value == "Fixed Price"  # "Total sales" is larger, and a total is no part


def test_a_row_named_with_its_header_ranks_above_a_total_that_lacks_the_name() -> None:
    memory = Memory()
    memory.ingest_text(
        "| | 2019 | 2018 |\n|---|---|---|\n| Revenue from customers by country | $M | $M |\n"
        "| France | 41.5 | 40.0 |\n| Spain | 12.0 | 11.0 |\n"
        "| Total revenue from customers by country | 53.5 | 51.0 |\n",
        name="countries.md",
    )
    reply = memory.ask("What is the Revenue from France in 2019?")
    assert reply.value == pytest.approx(41.5)


def test_a_row_is_named_with_the_words_of_its_tables_header() -> None:
    memory = Memory()
    memory.ingest_text(
        "| Number of options (1,000) | 2019 | 2018 |\n|---|---|---|\n"
        "| Outstanding as of 1 January | 2,000.0 | 1,900.0 |\n"
        "| Granted during the period | 1,100.0 | 1,000.0 |\n",
        name="options.md",
    )
    reply = memory.ask("What was the change in the number of options granted in 2019 from 2018?")
    assert reply.value == pytest.approx(100.0)


def test_a_number_word_names_the_column_its_digits_head() -> None:
    ground = Ground([], Analyzer("en"))
    assert ground.terms("due in less than one year") >= ground.terms("Less Than 1 Year")


def test_a_table_without_year_columns_answers_for_its_own_period_only() -> None:
    memory = stored(
        "| Stock options | Options | Weighted-average exercise price |\n|---|---|---|\n"
        "| Outstanding at December 31, 2018 | 1,200 | $10.00 |\n"
        "| Granted | 300 | $12.00 |\n| Exercised | (100) | $9.00 |\n"
        "| Outstanding at December 31, 2019 | 1,400 | $10.40 |\n",
        "options.md",
    )
    # The roll-forward closes at 2019: that is the year its movements are for.
    assert memory.ask("What was the number of options granted in 2019?").value == 300
    earlier = memory.ask("What was the number of options granted in 2018?")
    assert earlier.refused and earlier.reason == Reason.PLAN_DEAD.value


def test_a_share_reads_the_whole_in_the_column_the_part_names() -> None:
    memory = stored(
        "| | Payments due by period | | |\n|---|---|---|---|\n"
        "| Contractual obligations | Less than 1 year | 1-3 years | Total |\n"
        "| Operating leases | 100 | 200 | 300 |\n| Notes payable | 300 | 100 | 400 |\n"
        "| Total | 400 | 300 | 700 |\n",
        "obligations.md",
    )
    reply = memory.ask(
        "What is the value of operating leases due in less than one year as a percentage of "
        "the total contractual obligations?"
    )
    assert reply.value == pytest.approx(25.0)  # 100 of the 400 due in less than 1 year
    assert "column_of" in json.dumps(reply.audit["plan"])
