"""Which questions need a computation or a look-up, read at the door (``route``); the plans
the default engine proposes for a route are engine/rules/planning/'s."""

from __future__ import annotations

import re
from dataclasses import replace

from affidavit.question.date_routes import read_dates
from affidavit.question.extreme_routes import read_extreme
from affidavit.question.lookup_routes import read_lookup
from affidavit.question.routes import Need, Route, bound_of
from affidavit.text import BOUND_FIGURE, FISCAL_YEAR, YEAR, YEARS

_FROM_TO = re.compile(
    rf"\bfrom\s+(?:fiscal\s+|fy\s*)?({FISCAL_YEAR})\s+to\s+"
    rf"(?:fiscal\s+|fy\s*)?({FISCAL_YEAR})\b",
    re.I,
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
            r"\bvariance\s+in\s+(?:percent|%)|"
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
    r"(?:for|of|behind)\b|"
    # "What is the increase in total revenue attributed to?", "What does X mainly represent?"
    r"\b(?:attributed|attributable|due|related|relate|owing)\s+to$|"
    r"^\s*what\s+(?:does|do|did)\b.*\b(?:represent|include|mean|comprise|consist\s+of)$",
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
    rf"(?P<bound>{BOUND_FIGURE})",
    re.I,
)
# "How many expense segments in 2019 were above $50 million?": the rows of a year's column.
_COUNT_ROWS = re.compile(
    rf"^\s*how many (?P<row>(?:[\w-]+\s+){{1,4}}?)(?:in|for|during)\s+(?:fiscal\s+)?"
    rf"(?P<year>{FISCAL_YEAR})\s+(?:were|was|are|is|had)\s+(?:(?:a\s+)?(?:values?|amounts?)\s+)?"
    r"(?P<way>above|over|more than|greater than|higher than|below|under|less than|lower than|"
    rf"fewer than)\s+(?P<bound>{BOUND_FIGURE})",
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
    rf"(?P<other>(?!(?:fiscal\s+)?{YEAR}\b).+))$",
    re.I,
)
# "What percentage of total revenue was Americas revenue in 2019?", "What proportion of the
# total cost does the acquisition related cost form part of in 2019?": the whole first.
_SHARE_OF_WHOLE = re.compile(
    r"^\s*what\s+(?:percentage|proportion|share)\s+of\s+(?:the\s+)?(?P<whole>total\b.+?)\s+"
    r"(?:was|is|were|are|does|do|did)\s+(?:the\s+)?(?P<part>.+?)(?:\s+(?:form(?:\s+part\s+of)?|"
    r"make\s+up|account\s+for|represent|comprise))?(?:\s+(?:in|for)\s+(?:fiscal\s+)?"
    rf"{YEAR})?$",
    re.I,
)
# "How many % does provisions make up out of the total deferred tax assets?"
_SHARE_MADE_UP = re.compile(
    r"^\s*how\s+many\s*(?:%|percent(?:age)?)\s+(?:of\s+)?(?:does|do|did|is|are|was|were)\s+"
    r"(?:the\s+)?(?P<part>.+?)\s+(?:make\s+up|account\s+for|represent|constitute|form)\s+"
    rf"(?:out\s+)?of\s+(?:the\s+)?(?P<whole>.+?)(?:\s+in\s+(?:fiscal\s+)?{YEAR})?$",
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
    rf"(?:\s+(?:in|for|of|at)\s+(?:fiscal\s+)?{FISCAL_YEAR})?$",
    re.I,
)
# "the total X in 2018 and 2019", "the total value of X ... in fiscal 2018 and fiscal 2017"
_TOTAL_OF_YEARS = re.compile(
    rf"\btotal\b.*\b{FISCAL_YEAR}\b.*\b(?:and|to|through)\b.*\b{FISCAL_YEAR}\b",
    re.I,
)
# "the change in the average total bookings between 2017-2018, and 2018-2019"
_CHANGE_OF_AVERAGES = re.compile(
    r"\b(?:change|difference|increase|decrease)\s+in\s+(?:the\s+)?average\s+(?P<row>.+?)\s+"
    rf"between\s+(?P<a>{YEAR})\s*[-–]\s*(?P<b>{YEAR}),?\s+and\s+"
    rf"(?P<c>{YEAR})\s*[-–]\s*(?P<d>{YEAR})$",
    re.I,
)
_SPAN_OF_YEARS = re.compile(
    rf"\bbetween\s+(?:fiscal\s+)?(?:years?\s+)?({YEAR})\s+(?:and|to)\s+(?:fiscal\s+)?"
    rf"({YEAR})\b|\b({YEAR})\s+(?:to|through)\s+(?:fiscal\s+)?({YEAR})\b",
    re.I,
)
_AS_PERCENT = re.compile(r"\bpercent|%|\bpor ?ciento\b|\byüzde", re.I)
_YEAR_RANGE = re.compile(rf"\b({YEAR})\s*[-–]\s*({YEAR})\b")
_FALLING = re.compile(r"(?:decrease|decline)", re.I)
_YEAR_TO_YEAR = re.compile(
    rf"{FISCAL_YEAR}\s+(?:to|over|versus|vs\.?)\s+(?:fiscal\s+|fy\s*)?{FISCAL_YEAR}", re.I
)
_RATIO_SPLIT = re.compile(rf"\s+(?:to|over|and|a|y)\s+(?!(?:fiscal\s+)?{FISCAL_YEAR})", re.I)
_LEADING = re.compile(
    r"^(?:the|in|of|for|all|el|la|de|del)\s+|"
    r"^(?:amount|value|balance|level|figure|total amount)\s+of\s+|^/\s*\(\w+\)\s*",
    re.I,
)
_TRAILING = re.compile(
    r"\s+(?:in|of|for|from|to|between|and|during|over|at|as of|across|the|en|de|y)$|"
    r"\s+(?:for|over|in) the (?:\w+ )?(?:years?|year period|periods?)$|\s+as an? percentage$",
    re.I,
)
_YEAR_PHRASE = re.compile(
    rf"\s*\b(?:in|for|from|to|between|during|and|of|over|at|as of|across|en|entre|y|de)?\s*"
    rf"(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s*|year\s+)?{FISCAL_YEAR}\b",
    re.I,
)


def route(question: str) -> Route | None:
    """What computation ``question`` asks for, with its row phrases and years, or None.

    A change, a percentage change, an average, a total, a ratio, a share, "which year was
    it largest" (question/extreme_routes.py), a count of years above a bound, the value of
    one cell, date arithmetic (question/date_routes.py) or a list look-up
    (question/lookup_routes.py). Its verdict binds (``Route.binds``): a question that needs
    a computation is answered by a plan that survives, or refused; only a look-up may fall
    back to a lifted line.
    """
    text = question.strip().rstrip("?¿ ").strip()
    found = _route(text)
    return replace(found, asked=text) if found is not None else None


def _route(text: str) -> Route | None:
    if _NOT_COMPUTED.search(text):
        return None
    averaged = _CHANGE_OF_AVERAGES.search(text)
    if averaged:
        row = _row_phrase(averaged.group("row"))
        spans = tuple(averaged.group(k) for k in ("a", "b", "c", "d"))
        return Route(Need.CHANGE_OF_AVERAGES, (row,), spans) if row else None
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
    share = (
        _SHARE.search(text)
        or _SHARE_OF.search(text)
        or _SHARE_OF_WHOLE.search(text)
        or _SHARE_MADE_UP.search(text)
    )
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
        return Route(Need.TOTAL, (row,), _ordered(text, years, Need.TOTAL)) if row else None
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
    spanned = _SPAN_OF_YEARS.search(text)
    if spanned and need in (Need.AVERAGE, Need.TOTAL):
        # "between 2017 and 2019", "for fiscal years 2017 to 2019": every year of the span.
        low, high = sorted(int(y) for y in spanned.groups() if y)
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
