"""The organs of arithmetic: which questions need a computation, and the plans that do it.

``route`` reads a question at the door: a change, a percentage change, an average, a
total, a ratio, a share, "which year was it largest", a count of years above a bound, the
value of one cell, or a list look-up (organs/lookups.py). Its verdict binds: a question
that needs a computation is answered by a plan that survives, or refused; only a look-up
may fall back to a lifted line.
``plans_for`` turns a route into the plans the default engine proposes: phrases for the
row and the years, never a number or a word of the answer.
"""

from __future__ import annotations

import re
from dataclasses import replace

from affidavit.composer.plan import Plan, Step
from affidavit.organs.dates import date_plans, read_dates
from affidavit.organs.extremes import extreme_plans, read_extreme
from affidavit.organs.lookups import lookup_plans, named_plans, read_lookup
from affidavit.organs.routes import AND, YEAR, YEARS, Need, Route, bound_of

_FROM_TO = re.compile(
    rf"\bfrom\s+(?:fiscal\s+|fy\s*)?({YEAR})\s+to\s+(?:fiscal\s+|fy\s*)?({YEAR})\b", re.I
)
_OPENING = re.compile(
    r"^\s*(?:what|how much|cuál|cuánto|ne kadar)\s+(?:is|was|are|were|would be|will be|"
    r"es|fue|era)?\s*(?:the|el|la|los|las)?\s*",
    re.I,
)
_CUES: tuple[tuple[Need, re.Pattern[str]], ...] = (
    (
        Need.CHANGE,
        re.compile(
            r"\babsolute (?:percentage )?(?:change|difference)\b|"
            r"\bhow many percent(?:age points)? did\b.*\bchange\b",
            re.I,
        ),
    ),
    (
        Need.PERCENT_CHANGE,
        re.compile(
            r"(?:\bpercentage|\bpercent|%)\s*(?:change|increase|decrease|growth|decline)\b|"
            r"\b(?:change|increase|decrease|growth|decline)\b(?=.*\bas an? percentage$)|"
            r"\bcambio porcentual\b|\bvariación porcentual\b|\byüzde (?:değişim|artış)",
            re.I,
        ),
    ),
    (
        Need.AVERAGE,
        # "Weighted average grant date fair value" names a row; it asks for no average.
        re.compile(
            r"(?<![-‐])(?<!weighted )\baverage\b(?![-‐])|\bmean\b|\bpromedio\b|\bortalama", re.I
        ),
    ),
    (Need.RATIO, re.compile(r"\bratio\b|\brazón\b|\boran[ıi]\b", re.I)),
    (
        Need.CHANGE,
        re.compile(
            r"\b(?:change|increase|decrease|difference|growth|decline)\b|\bcambio\b|"
            r"\bdiferencia\b|\bdeğişim\b|\bfark\b",
            re.I,
        ),
    ),
    (Need.TOTAL, re.compile(r"\b(?:sum|total)\s+of\b|\bsuma de\b|\btoplam[ıi]\b", re.I)),
)
# Questions that ask for reasons or ways are answered from lines, never computed.
_NOT_COMPUTED = re.compile(
    r"^\s*(?:why|how(?!\s+(?:much|many))|por qué|cómo|neden|nasıl)\b|"
    r"^\s*what\s+(?!years?\b)(?:\w+\s+){0,2}?(?:caused|causes|drove|drives|led|impacted|affected|"
    r"resulted|contributed|explains?|consists?|includes?|included|represents?|means?|"
    r"happened|did)\b|"
    r"^\s*what\s+(?:is|was|are|were)\s+the\s+(?:\w+\s+)?(?:reasons?|causes?|drivers?)\s+"
    r"(?:for|of|behind)\b",
    re.I,
)
# A computed figure is asked with "what is/was (the) ..." or "how much", possibly after a
# year ("In 2009, what was the total ..."); "what type of vehicle did ... change to" is not.
_ASKS_A_FIGURE = re.compile(
    r"^\s*(?:in\s+\S+,?\s+)?(?:(?:what|which)\s+(?!type\b|kind\b|sort\b)(?:\w+\s+)?"
    r"(?:is|was|were|are|will be|would be|has been)\b|how much\b|cuál|cuánto|ne kadar)",
    re.I,
)
_COUNT_ABOVE = re.compile(
    r"^\s*how many years (?:did|was|were|had|has|have) (?:the\s+)?(?P<row>.+?)\s+"
    r"(?:(?:was|were|is|been|go|rise|fall|drop)\s+)?(?P<way>exceed(?:ed|s)?|above|over|"
    r"more than|greater than|higher than|below|under|less than|lower than|fewer than)\s+"
    r"(?P<bound>[$€£]?\s?[\d,.]+)",
    re.I,
)
# "How many expense segments in 2019 were above $50 million?": the rows of a year's column.
_COUNT_ROWS = re.compile(
    rf"^\s*how many (?P<row>(?:[\w-]+\s+){{1,4}}?)(?:in|for|during)\s+(?:fiscal\s+)?"
    rf"(?P<year>{YEAR})\s+(?:were|was|are|is|had)\s+(?:(?:a\s+)?(?:values?|amounts?)\s+)?"
    r"(?P<way>above|over|more than|greater than|higher than|below|under|less than|lower than|"
    r"fewer than)\s+(?P<bound>[$€£]?\s?[\d,.]+)",
    re.I,
)
# "did the company have cash proceeds that exceeded ...": who holds the row is not its name.
_HOLDER = re.compile(
    r"^(?:the\s+)?(?:company|group|firm|entity|business)\s+(?:have|has|had|record|report)\w*\s+"
    r"|\s+(?:that|which)$",
    re.I,
)
_SHARE = re.compile(
    r"\b(?:percentage|proportion|share|ratio \(in percentage\))(?:\s+(?:constitution|"
    r"composition))?\s+of\s+(?:the\s+)?(?P<part>.+?)\s+(?:(?:in|over|of|to|within|among)\s+"
    r"(?:the\s+)?(?P<whole>(?:total|group|overall)\b.*)|(?:over|among|out of)\s+(?:the\s+)?"
    r"(?P<other>(?!(?:fiscal\s+)?(?:19|20)\d\d\b).+))$",
    re.I,
)
# "What percentage of total revenue was Americas revenue in 2019?", "What proportion of the
# total cost does the acquisition related cost form part of in 2019?": the whole first.
_SHARE_OF_WHOLE = re.compile(
    r"^\s*what\s+(?:percentage|proportion|share)\s+of\s+(?:the\s+)?(?P<whole>total\b.+?)\s+"
    r"(?:was|is|were|are|does|do|did)\s+(?:the\s+)?(?P<part>.+?)(?:\s+(?:form(?:\s+part\s+of)?|"
    r"make\s+up|account\s+for|represent|comprise))?(?:\s+(?:in|for)\s+(?:fiscal\s+)?"
    r"(?:19|20)\d\d)?$",
    re.I,
)
_SHARE_OF = re.compile(
    r"^\s*what (?:is|was|were) (?:the\s+)?(?:value of\s+)?(?P<part>.+?)\s+as an?\s+"
    r"(?:percentage|proportion|share|ratio) of\s+(?:the\s+)?(?P<whole>.+)$",
    re.I,
)
_BETWEEN_ROWS = re.compile(
    r"\bdifference\b(?:\s+(?:in|of)\s+(?:the\s+)?(?P<column>.+?))?"
    r"\s+between\s+(?:the\s+)?(?P<a>.+?)\s+and\s+(?:the\s+)?(?P<b>.+?)"
    rf"(?:\s+(?:in|for|of|at)\s+(?:fiscal\s+)?{YEAR})?$",
    re.I,
)
# "the total X in 2018 and 2019", "the total value of X ... in fiscal 2018 and fiscal 2017"
_TOTAL_OF_YEARS = re.compile(rf"\btotal\b.*\b{YEAR}\b.*\band\b.*\b{YEAR}\b", re.I)
_AS_PERCENT = re.compile(r"\bpercent|%|\bpor ?ciento\b|\byüzde", re.I)
_YEAR_RANGE = re.compile(r"\b((?:19|20)\d\d)\s*[-–]\s*((?:19|20)\d\d)\b")
_FALLING = re.compile(r"(?:decrease|decline)", re.I)
_YEAR_TO_YEAR = re.compile(rf"{YEAR}\s+(?:to|over|versus|vs\.?)\s+(?:fiscal\s+|fy\s*)?{YEAR}", re.I)
_RATIO_SPLIT = re.compile(rf"\s+(?:to|over|and|a|y)\s+(?!(?:fiscal\s+)?{YEAR})", re.I)
_LEADING = re.compile(
    r"^(?:the|in|of|for|all|el|la|de|del)\s+|"
    r"^(?:amount|value|balance|level|figure|total amount)\s+of\s+|^/\s*\(\w+\)\s*",
    re.I,
)
_TRAILING = re.compile(
    r"\s+(?:in|of|for|from|to|between|and|during|over|at|as of|the|en|de|y)$|"
    r"\s+(?:for|over|in) the (?:\w+ )?(?:years?|year period|periods?)$|\s+as an? percentage$",
    re.I,
)
_YEAR_PHRASE = re.compile(
    rf"\s*\b(?:in|for|from|to|between|during|and|of|over|at|as of|en|entre|y|de)?\s*"
    rf"(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s*|year\s+)?{YEAR}\b",
    re.I,
)


def route(question: str) -> Route | None:
    """What computation ``question`` asks for, with its row phrases and years, or None."""
    text = question.strip().rstrip("?¿ ").strip()
    found = _route(text)
    return replace(found, asked=text) if found is not None else None


def _route(text: str) -> Route | None:
    if _NOT_COMPUTED.match(text):
        return None
    years = tuple(YEARS.findall(text))
    spanned = _YEAR_RANGE.search(text)
    if spanned and all(y.isdigit() for y in spanned.groups()):
        low, high = sorted(int(y) for y in spanned.groups())
        years = tuple(str(y) for y in range(low, high + 1))
        text = _YEAR_RANGE.sub(" ".join(years), text)
    looked_up = read_dates(text) or read_lookup(text)
    if looked_up is not None:
        return looked_up
    counted = _COUNT_ROWS.search(text)
    if counted:
        bound, above = bound_of(counted)
        what = counted.group("row").strip()
        return Route(Need.COUNT_ABOVE, (what,), (counted.group("year"),), bound=bound, above=above)
    counted = _COUNT_ABOVE.search(text)
    if counted:
        row = _row_phrase(_HOLDER.sub("", counted.group("row")))
        bound, above = bound_of(counted)
        return Route(Need.COUNT_ABOVE, (row,), (), bound=bound, above=above) if row else None
    compared = read_extreme(text)
    if compared is not None:
        return compared
    share = _SHARE.search(text) or _SHARE_OF.search(text) or _SHARE_OF_WHOLE.search(text)
    if share:
        whole = share.groupdict().get("whole") or share.groupdict().get("other") or ""
        shared = (_row_phrase(share.group("part")), _row_phrase(whole))
        percent = _AS_PERCENT.search(share.group(0)) is not None
        return Route(Need.SHARE, shared, years[:1], percent=percent) if all(shared) else None
    between = _BETWEEN_ROWS.search(text)
    if between and not YEARS.fullmatch(between.group("a").strip()):
        pair = (_row_phrase(between.group("a")), _row_phrase(between.group("b")))
        if all(pair) and len(years) <= 1:
            # "the difference in total expected charges between A and B": a column named.
            column = "" if years else _row_phrase(between.group("column") or "")
            return Route(Need.DIFFERENCE, pair, years, column=column)
    asks_a_figure = _ASKS_A_FIGURE.match(text) is not None
    for need, cue in _CUES:
        found = cue.search(text)
        if found is None or not asks_a_figure:
            continue
        rest = _OPENING.sub("", text[found.end() :] if found.start() < 40 else text)
        if need == Need.RATIO:
            if len(years) == 2 and _YEAR_TO_YEAR.search(rest):
                # "the ratio of total revenue in 2018 to 2017": one row, two years.
                row = _row_phrase(rest)
                return Route(need, (row,), years) if row else None
            parts = _RATIO_SPLIT.split(rest, maxsplit=1)
            rows = tuple(_row_phrase(p) for p in parts)
            if len(rows) != 2 or not all(rows) or not years:
                return None
            return Route(need, rows, (years[0],))
        row = _row_phrase(rest)
        if not row and found.start() < 40:
            # "What was the service cost increase / (decrease) from 2018 to 2019?": the
            # row stands before the word that asks for the change.
            row = _row_phrase(_OPENING.sub("", text[: found.start()]))
        if not row:
            return None
        # Without years, a row's whole run is averaged, totalled, or changed first to last.
        # "In 1979, what was the average mpg?" names one year: it may be a stated figure.
        loose = len(years) == 1 and need in (Need.AVERAGE, Need.TOTAL)
        # "How much did X decrease?", "the decrease in X": how much it fell, a positive amount.
        falling = need == Need.CHANGE and _FALLING.match(found.group(0)) is not None
        ordered = _ordered(text, years, need) if years else ()
        return Route(need, (row,), ordered, loose=loose, falling=falling)
    if len(years) >= 2 and _TOTAL_OF_YEARS.search(text):
        row = _row_phrase(_OPENING.sub("", text, count=1))
        return Route(Need.TOTAL, (row,), tuple(sorted(set(years)))) if row else None
    if len(years) == 1 and _OPENING.match(text):
        row = _row_phrase(_OPENING.sub("", text, count=1))
        return Route(Need.VALUE, (row,), years) if row else None
    return None


def _ordered(text: str, years: tuple[str, ...], need: Need) -> tuple[str, ...]:
    """The years in the order the computation takes them: a change runs from the earlier
    year to the later however the question names them ("from 2019 to 2018" asks how the
    figure moved over that time), a year that is not a number ("FY") "from A to B" as
    written; a change asked of one year is from the year before."""
    stated = _FROM_TO.search(text)
    if need in (Need.CHANGE, Need.PERCENT_CHANGE):
        if stated and not all(y.isdigit() for y in stated.groups()):
            return (stated.group(1), stated.group(2))
        if len(years) == 1 and years[0].isdigit():
            return (str(int(years[0]) - 1), years[0])
        return (min(years), max(years))
    if stated and need in (Need.AVERAGE, Need.TOTAL) and all(y.isdigit() for y in stated.groups()):
        low, high = sorted(int(y) for y in stated.groups())
        return tuple(str(y) for y in range(low, high + 1))
    if len(years) == 1 and need == Need.AVERAGE and years[0].isdigit():
        # "the 2019 average X" in a report: the year's figure and the year before's.
        return (str(int(years[0]) - 1), years[0])
    return tuple(sorted(set(years)))


def _row_phrase(text: str) -> str:
    """The words that name the row: the question less its years and the words around them."""
    phrase = _YEAR_PHRASE.sub(" ", f" {text} ")
    phrase = re.sub(r"\s+", " ", phrase).strip(" ,.;:")
    for _ in range(3):
        phrase = _LEADING.sub("", phrase).strip()
        phrase = _TRAILING.sub("", phrase).strip()
    return phrase


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


def _stated_change(found: Route) -> list[Plan]:
    """A change asked of one year that a row states: "What is the net change in cash and
    cash equivalents in 2019?" over the row "Net change in cash and cash equivalents" is
    that row's 2019 cell, not a change computed from it (the row must write the word
    "change": composer/ground.py)."""
    named = _CHANGE_NAMED.search(found.asked)
    if named is None or len(YEARS.findall(found.asked)) != 1 or found.need != Need.CHANGE:
        return []
    year = found.years[-1]
    stated = Step("anchor", {"row": f"{named.group(0)} {found.rows[0]}", "column": year}, "answer")
    return [Plan((stated,), note="the change a row states for the year")]


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


def plans_for(found: Route) -> list[Plan]:
    """The plans that compute what the route asks for, most direct first; last, where the
    question's own words name the cells by row and column, a plan over those."""
    return [*_year_led(found), *named_plans(found)]


def _year_led(found: Route) -> list[Plan]:
    listed = date_plans(found)
    if listed is None:
        listed = lookup_plans(found)
    if listed is None:
        listed = extreme_plans(found)
    if listed is not None:
        return listed
    row = found.rows[0]
    anchors = [Step("anchor", {"row": row, "column": y}, f"v{y}") for y in found.years]
    names = [f"v{y}" for y in found.years]
    if found.need == Need.VALUE:
        # Else a sentence that says the row's words and the year, with one other number.
        said = Step("anchor", {"phrase": f"{row} {found.years[0]}"}, "said")
        return [
            Plan(tuple(anchors), note="the cell of the row in the year"),
            Plan((said,), note="the one figure a sentence gives for the row in the year"),
        ]
    if found.need in (Need.CHANGE, Need.PERCENT_CHANGE) and not found.years:
        op = "difference" if found.need == Need.CHANGE else "percent_change"
        args = {"of": "b", "minus": "a"} if op == "difference" else {"from": "a", "to": "b"}
        over_time = (
            Step("gather", {"row": row, "dated": True}, "row"),
            Step("first", {"of": "row"}, "a"),
            Step("latest", {"of": "row"}, "b"),
            Step(op, args, "answer"),
        )
        return [Plan(over_time, note=f"{op} of {row!r} from its first year to its latest")]
    if found.need in (Need.SHARE, Need.DIFFERENCE):
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
        # year"), which the second row is read in before any other.
        same = Step("anchor", {"row": found.rows[1], "column_of": "a"}, "b")
        return [Plan((first, same, last), note=f"{last.op} of two rows in one column"), plain]
    if found.need in (Need.CHANGE, Need.PERCENT_CHANGE):
        if len(names) != 2:
            return []
        later, earlier = (names[0], names[1]) if found.falling else (names[1], names[0])
        op, args = (
            ("difference", {"of": later, "minus": earlier})
            if found.need == Need.CHANGE
            else ("percent_change", {"from": names[0], "to": names[1]})
        )
        computed = [
            Plan((*anchors, Step(op, args, "answer")), note=f"{op} of {row!r}"),
            Plan((*_said(row, found.years), Step(op, args, "answer")), note=_SAID_NOTE),
        ]
        over_the_year = _over_the_year(found, op)
        if _FROM_START_TO_END.search(row):
            return [*over_the_year, *computed]  # "from beginning to end of 2019"
        return [*_stated_change(found), *computed, *over_the_year]
    if found.need in (Need.AVERAGE, Need.TOTAL):
        op = "average" if found.need == Need.AVERAGE else "sum"
        if len(names) >= 2:
            return [
                Plan((*anchors, Step(op, {"of": names}, "answer")), note=f"{op} of {row!r}"),
                Plan(
                    (*_said(row, found.years), Step(op, {"of": names}, "answer")), note=_SAID_NOTE
                ),
            ]
        joined_rows = [p for p in AND.split(row) if p] if len(found.years) == 1 else []
        if len(joined_rows) >= 2:
            # "the sum of A and B in 2019": the rows it joins, or else one row of that name.
            year = found.years[0]
            each = [
                Step("anchor", {"row": p, "column": year}, f"p{i}")
                for i, p in enumerate(joined_rows)
            ]
            joined = Step(op, {"of": [s.out for s in each]}, "answer")
            whole = Plan((*anchors, Step(op, {"of": names}, "answer")), note=f"{op} of {row!r}")
            return [Plan((*each, joined), note=f"{op} of {len(each)} rows"), whole]
        # A row's whole run: its figures over the periods its columns name (a row whose
        # columns are not periods, "fair value" beside "useful life", has no such run).
        gathered = Step("gather", {"row": row, "dated": True}, "row")
        dated = Step("order", {"of": "row", "by": "date"}, "run")
        whole_run = (gathered, dated, Step(op, {"of": "run"}, "answer"))
        return [Plan(whole_run, note=f"{op} of the row over its periods")]
    if found.need == Need.RATIO and len(found.rows) == 1:
        of, to = (Step("anchor", {"row": row, "column": y}, f"v{y}") for y in found.years)
        steps = (of, to, Step("ratio", {"of": of.out, "to": to.out}, "answer"))
        return [Plan(steps, note="ratio of a row in two years")]
    if found.need == Need.RATIO:
        year = found.years[0]
        steps = (
            Step("anchor", {"row": found.rows[0], "column": year}, "a"),
            Step("anchor", {"row": found.rows[1], "column": year}, "b"),
            Step("ratio", {"of": "a", "to": "b"}, "answer"),
        )
        return [Plan(steps, note="ratio of two rows in one year")]
    if found.need == Need.COUNT_ABOVE:
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
    return []
