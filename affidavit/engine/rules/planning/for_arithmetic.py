"""The plans the default engine proposes for a computation route (read at the door by
question/arithmetic.py): phrases for the rows and the years, never a number or a word of
the answer."""

from __future__ import annotations

import re
from dataclasses import replace

from affidavit.engine.rules.planning.for_dates import date_plans
from affidavit.engine.rules.planning.for_extremes import extreme_plans
from affidavit.engine.rules.planning.for_lookups import lookup_plans, named_plans
from affidavit.plans import Plan, Step
from affidavit.question import AND, Need, Route
from affidavit.text import MONTH_AND_YEAR, MONTH_NAMES, YEARS

_SAID_NOTE = "the same, from the figure a sentence gives for the row in each year"


def _said(row: str, years: tuple[str, ...]) -> tuple[Step, ...]:
    """Each year's figure as a sentence writes it: reports give figures in prose too
    ("$24 million and $18 million in fiscal 2018 and 2017, respectively")."""
    return tuple(
        Step("anchor", {"phrase": f"{row} {year}", "unless_tabled": True}, f"v{year}")
        for year in years
    )


# A roll-forward's balance rows: "Balance, beginning of period" ... "Balance, end of period".
_ROLL_ENDS = (("beginning", "end"), ("opening", "closing"))
_FROM_START_TO_END = re.compile(
    r"\s*\b(?:from\s+(?:the\s+)?(?:beginning|start|opening)\s+to\s+(?:the\s+)?(?:end|close)"
    r"|during\s+the\s+year)\b(?:\s+of)?",
    re.I,
)


_CHANGE_NAMED = re.compile(r"\b(?:net\s+)?(?:change|increase|decrease)\s+in\b", re.I)


_MONTH_NOTE = "the cell of the row in the month and year"


def _month_columns(asked: str) -> list[str]:
    """The months a question names with their years ("in August 2019", "between May 2019
    and August 2019"), each as a column phrase, earliest first; none when a year it
    names has no month, or when two name the same month."""
    named = [
        (int(m["year"]), MONTH_NAMES.index(m["month"].lower()), m)
        for m in MONTH_AND_YEAR.finditer(asked)
    ]
    if (
        not named
        or len(named) != len(YEARS.findall(asked))
        or len(set(n[:2] for n in named)) != len(named)
    ):
        return []
    return [
        f"{m['month'].capitalize()} {year}" for year, _, m in sorted(named, key=lambda n: n[:2])
    ]


def _stated_change(found: Route) -> list[Plan]:
    """A change asked of one year that a row states: "What is the net change in cash and
    cash equivalents in 2019?" over the row "Net change in cash and cash equivalents" is
    that row's 2019 cell, not a change computed from it (the row must write the word
    "change": plans/ground.py)."""
    named = _CHANGE_NAMED.search(found.asked)
    if named is None or len(YEARS.findall(found.asked)) != 1 or found.need != Need.CHANGE:
        return []
    year = found.years[-1]
    stated = Step("anchor", {"row": f"{named.group(0)} {found.rows[0]}", "column": year}, "answer")
    return [Plan((stated,), note="the change a row states for the year")]


def _compared(found: Route) -> list[Plan]:
    """A change between two years that a table states in a column comparing just those
    two ("Change 2019 and 2018"), when it has no column for either year's own figure (the
    plans before this one die): that column's cell, as the table writes it."""
    if found.need != Need.CHANGE or found.falling or len(set(found.years)) != 2:
        return []
    old, new = found.years
    column = f"{new} {old}"
    stated = Step("anchor", {"row": found.rows[0], "column": column, "as": "compared"}, "answer")
    return [Plan((stated,), note="the change a column states between the two years")]


def _over_the_year(found: Route, op: str) -> list[Plan]:
    """A change asked of one year ("the change in the balance for 2019", "the warranty
    reserve from beginning to end of 2017") over a roll-forward: the year's closing row
    against its opening row, in that year's column."""
    named = YEARS.findall(found.asked)
    if len(named) != 1 or len(found.years) != 2:
        return []
    year, row = found.years[1], _FROM_START_TO_END.sub("", found.rows[0]).strip()
    if not row:
        return []
    plans = []
    for opening, closing in _ROLL_ENDS:
        first = Step("anchor", {"row": f"{row} {opening}", "column": year}, "opening")
        last = Step("anchor", {"row": f"{row} {closing}", "column": year}, "closing")
        args = (
            {"of": "closing", "minus": "opening"}
            if op == "difference"
            else {"from": "opening", "to": "closing"}
        )
        plans.append(
            Plan((first, last, Step(op, args, "answer")), note=f"{op} of {row!r} over the year")
        )
    return plans


def _stated_percent_change(
    row: str, figures: tuple[Step, ...], columns: tuple[str, ...], old: str, new: str
) -> list[Plan]:
    """The percentage change a table states for the row ("27 %" under "% Change"), said as
    it writes it when the row's own figures give that change (plans/primitives.py):
    a reader finds the very figure in the report. Each column phrase is tried in turn, the
    one naming the years first ("2019 vs 2018 % Change" beside "2018 vs 2017 % Change")."""
    plans = []
    for column in columns:
        stated = Step("anchor", {"row": row, "column": column, "as": "percent"}, "stated")
        checked = Step("percent_change", {"from": old, "to": new, "stated": "stated"}, "answer")
        plans.append(
            Plan((*figures, stated, checked), note="the percentage change the table states")
        )
    return plans


def _of_rows(row: str, op: str) -> list[Plan]:
    """ "The average number of shares owned by A and B": the rows it joins, the first read
    where its own words name the column, the others in that same column."""
    parts = [p for p in AND.split(row) if p]
    if len(parts) < 2:
        return []
    first = Step("anchor", {"row": parts[0]}, "p0")
    rest = [
        Step("anchor", {"row": p, "column_of": "p0"}, f"p{i}") for i, p in enumerate(parts[1:], 1)
    ]
    steps = (first, *rest, Step(op, {"of": [s.out for s in (first, *rest)]}, "answer"))
    return [Plan(steps, note=f"{op} of {len(parts)} rows in one column")]


def _of_statements(row: str, op: str) -> list[Plan]:
    """ "The total of the application fee and the inspection fee": the figure a sentence
    states for each phrase it joins ("The application fee is $120.")."""
    parts = [p for p in AND.split(row) if p]
    if len(parts) < 2:
        return []
    each = [Step("anchor", {"phrase": p}, f"s{i}") for i, p in enumerate(parts)]
    joined = Step(op, {"of": [step.out for step in each]}, "answer")
    return [Plan((*each, joined), note=f"{op} of the figures {len(parts)} statements give")]


def plans_for(found: Route) -> list[Plan]:
    """The plans that compute what the route asks for, most direct first (a row's cells in
    the years asked, the figures a sentence gives for it, a change a row states or a
    roll-forward shows); last, where the question's own words name the cells by row and
    column, a plan over those."""
    plans = [*_year_led(found), *named_plans(found)]
    return [_unsigned(p) for p in plans] if found.unsigned else plans


def _unsigned(plan: Plan) -> Plan:
    """The plan with its differences taken as sizes: "the difference between A and B" is
    how far apart they stand, whichever of them is larger."""
    steps = tuple(
        Step(s.op, {**s.args, "magnitude": True}, s.out) if s.op == "difference" else s
        for s in plan.steps
    )
    return replace(plan, steps=steps)


def _change_of_averages(found: Route) -> list[Plan]:
    """The average over the later pair of years less the average over the earlier pair
    ("between 2017-2018, and 2018-2019"), each year's cell read once."""
    row, (a, b, c, d) = found.rows[0], found.years
    years = sorted(set(found.years))
    anchors = [Step("anchor", {"row": row, "column": y}, f"v{y}") for y in years]
    first = Step("average", {"of": [f"v{a}", f"v{b}"]}, "earlier")
    second = Step("average", {"of": [f"v{c}", f"v{d}"]}, "later")
    change = Step("difference", {"of": "later", "minus": "earlier"}, "answer")
    return [Plan((*anchors, first, second, change), note="change of two years' averages")]


def _year_led(found: Route) -> list[Plan]:
    """The plans for a route over a row's figures in the years (or months) it names, by
    what it needs: a date's arithmetic, a look-up or an extreme where those read it, else
    the anchors of the row's cells and the computation over them."""
    if found.need == Need.CHANGE_OF_AVERAGES:
        return _change_of_averages(found)
    listed = date_plans(found)
    if listed is None:
        listed = lookup_plans(found)
    if listed is None:
        listed = extreme_plans(found)
    if listed is not None:
        return listed
    row = found.rows[0]
    anchors = [Step("anchor", {"row": row, "column": y}, f"v{y}") for y in found.years]
    if found.percent_asked:
        anchors = [replace(a, args={**a.args, "as": "percent"}) for a in anchors]
    names = [f"v{y}" for y in found.years]
    months = _month_columns(found.asked)
    if found.need == Need.VALUE:
        return _value_in_year(found, row, anchors, months)
    if found.need in (Need.CHANGE, Need.PERCENT_CHANGE):
        return _change(found, row, anchors, names, months)
    if found.need in (Need.SHARE, Need.DIFFERENCE):
        return _share_or_difference(found)
    if found.need in (Need.AVERAGE, Need.TOTAL):
        return _average_or_total(found, row, anchors, names)
    if found.need == Need.RATIO:
        return _ratio(found, row)
    if found.need == Need.COUNT_ABOVE:
        return _count_past_bound(found, row)
    return []


def _value_in_year(found: Route, row: str, anchors: list[Step], months: list[str]) -> list[Plan]:
    """The row's figure in the month asked, in the year's cell, or else in a sentence that
    says the row's words and the year, with one other number."""
    said = Step("anchor", {"phrase": f"{row} {found.years[0]}"}, "said")
    if found.percent_asked:
        said = replace(said, args={**said.args, "as": "percent"})
    in_month = (
        [Plan((Step("anchor", {"row": row, "column": months[0]}, "answer"),), note=_MONTH_NOTE)]
        if len(months) == 1
        else []
    )
    return [
        *in_month,
        Plan(tuple(anchors), note="the cell of the row in the year"),
        Plan((said,), note="the one figure a sentence gives for the row in the year"),
    ]


def _change(
    found: Route, row: str, anchors: list[Step], names: list[str], months: list[str]
) -> list[Plan]:
    """A change (or percentage change) of the row between the two years asked: the one a
    row, a column or the table states, the one computed from the cells or the sentences,
    the one between two months, or over a roll-forward's year; with no year asked, from
    the row's first year to its latest."""
    if not found.years:
        return _change_from_first_to_latest(found, row)
    monthly = _change_between_months(found, row, months)
    if len(names) != 2:
        return monthly
    later, earlier = (names[0], names[1]) if found.falling else (names[1], names[0])
    op, args = (
        ("difference", {"of": later, "minus": earlier})
        if found.need == Need.CHANGE
        else ("percent_change", {"from": names[0], "to": names[1]})
    )
    stated = (
        _stated_percent_change(
            row,
            tuple(anchors),
            (f"{found.years[1]} {found.years[0]} change", "change", "variance"),
            *names,
        )
        if op == "percent_change"
        else []
    )
    computed = [
        *stated,
        Plan((*anchors, Step(op, args, "answer")), note=f"{op} of {row!r}"),
        Plan((*_said(row, found.years), Step(op, args, "answer")), note=_SAID_NOTE),
    ]
    over_the_year = _over_the_year(found, op)
    if _FROM_START_TO_END.search(row):
        return [*over_the_year, *computed]  # "from beginning to end of 2019"
    return [*monthly, *_stated_change(found), *computed, *_compared(found), *over_the_year]


def _change_between_months(found: Route, row: str, months: list[str]) -> list[Plan]:
    """ "between May 2019 and August 2019": the columns of those months, earlier first."""
    if len(months) != 2:
        return []
    old, new = (Step("anchor", {"row": row, "column": d}, f"m{i}") for i, d in enumerate(months))
    op, args = (
        ("difference", {"of": "m1", "minus": "m0"})
        if found.need == Need.CHANGE
        else ("percent_change", {"from": "m0", "to": "m1"})
    )
    return [Plan((old, new, Step(op, args, "answer")), note=f"{op} between two months")]


def _change_from_first_to_latest(found: Route, row: str) -> list[Plan]:
    """A change asked with no year: the row's latest figure against its first (for a
    percentage, the one the table states first)."""
    op = "difference" if found.need == Need.CHANGE else "percent_change"
    args = {"of": "b", "minus": "a"} if op == "difference" else {"from": "a", "to": "b"}
    ends = (
        Step("gather", {"row": row, "dated": True}, "row"),
        Step("first", {"of": "row"}, "a"),
        Step("latest", {"of": "row"}, "b"),
    )
    over_time = Plan(
        (*ends, Step(op, args, "answer")),
        note=f"{op} of {row!r} from its first year to its latest",
    )
    if op == "percent_change":
        stated = _stated_percent_change(row, ends, ("change", "variance"), "a", "b")
        return [*stated, over_time]
    return [over_time]


def _share_or_difference(found: Route) -> list[Plan]:
    """A share of one row in another, or the difference of two rows: in the column asked;
    with none asked, in the column the first row's phrase names, in any column, or the
    figures two sentences state."""
    named = found.years[0] if found.years else found.column
    column = {"column": named} if named else {}
    first = Step("anchor", {"row": found.rows[0], **column}, "a")
    last = (
        # A share is of sizes: a part written "(365,223)" is 365,223 of the whole.
        Step(
            "ratio",
            {"of": "a", "to": "b", "percent": found.percent, "magnitude": True},
            "answer",
        )
        if found.need == Need.SHARE
        else Step("difference", {"of": "a", "minus": "b"}, "answer")
    )
    plain = Plan(
        (first, Step("anchor", {"row": found.rows[1], **column}, "b"), last),
        note=f"{last.op} of two rows",
    )
    if named:
        return [plain]
    # No column named: the first row's phrase may name one ("due in less than one
    # year"), which the second row is read in before any other; last, the figures two
    # sentences state ("the maximum fine is $1,000").
    same = Step("anchor", {"row": found.rows[1], "column_of": "a"}, "b")
    from_statements = Plan(
        (
            Step("anchor", {"phrase": found.rows[0]}, "a"),
            Step("anchor", {"phrase": found.rows[1]}, "b"),
            last,
        ),
        note=f"{last.op} of the figures two statements give",
    )
    return [
        Plan((first, same, last), note=f"{last.op} of two rows in one column"),
        plain,
        from_statements,
    ]


def _average_or_total(found: Route, row: str, anchors: list[Step], names: list[str]) -> list[Plan]:
    """An average or a sum: of the row over the years asked, of the rows a year's question
    joins ("A and B in 2019"), or of the row over all its periods, of the rows or of the
    statements its phrase joins."""
    op = "average" if found.need == Need.AVERAGE else "sum"
    if len(names) >= 2:
        return [
            Plan((*anchors, Step(op, {"of": names}, "answer")), note=f"{op} of {row!r}"),
            Plan((*_said(row, found.years), Step(op, {"of": names}, "answer")), note=_SAID_NOTE),
        ]
    joined_rows = [p for p in AND.split(row) if p] if len(found.years) == 1 else []
    if len(joined_rows) >= 2:
        # "the sum of A and B in 2019": the rows it joins, or else one row of that name.
        year = found.years[0]
        each = [
            Step("anchor", {"row": p, "column": year}, f"p{i}") for i, p in enumerate(joined_rows)
        ]
        joined = Step(op, {"of": [s.out for s in each]}, "answer")
        whole = Plan((*anchors, Step(op, {"of": names}, "answer")), note=f"{op} of {row!r}")
        return [Plan((*each, joined), note=f"{op} of {len(each)} rows"), whole]
    # A row's whole run: its figures over the periods its columns name (a row whose
    # columns are not periods, "fair value" beside "useful life", has no such run).
    gathered = Step("gather", {"row": row, "dated": True}, "row")
    dated = Step("order", {"of": "row", "by": "date"}, "run")
    whole_run = (gathered, dated, Step(op, {"of": "run"}, "answer"))
    return [
        Plan(whole_run, note=f"{op} of the row over its periods"),
        *_of_rows(row, op),
        *_of_statements(row, op),
    ]


def _ratio(found: Route, row: str) -> list[Plan]:
    """A ratio of one row in two years, or of two rows in one year."""
    if len(found.rows) == 1:
        of, to = (Step("anchor", {"row": row, "column": y}, f"v{y}") for y in found.years)
        steps = (of, to, Step("ratio", {"of": of.out, "to": to.out}, "answer"))
        return [Plan(steps, note="ratio of a row in two years")]
    year = found.years[0]
    steps = (
        Step("anchor", {"row": found.rows[0], "column": year}, "a"),
        Step("anchor", {"row": found.rows[1], "column": year}, "b"),
        Step("ratio", {"of": "a", "to": "b"}, "answer"),
    )
    return [Plan(steps, note="ratio of two rows in one year")]


def _count_past_bound(found: Route, row: str) -> list[Plan]:
    """How many of the row's figures (or of the year's column's rows) stand above, or
    below, the bound asked."""
    side = "above" if found.above else "below"
    gathered = (
        Step("gather", {"column": found.years[0], "parts": True}, "row")
        if found.years  # the rows of the year's column, its totals left out
        else Step("gather", {"row": row, "dated": True}, "row")
    )
    counting = (
        gathered,
        Step("filter", {"of": "row", side: found.bound}, "kept"),
        Step("count", {"of": "kept"}, "answer"),
    )
    return [Plan(counting, note=f"the years the row stands {side} the bound")]
