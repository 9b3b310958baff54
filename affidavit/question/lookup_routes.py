"""Questions of look-up, read at the door: those whose answer is a list the table already
holds."""

from __future__ import annotations

import re

from affidavit.question.routes import AND, Need, Route, bound_of
from affidavit.text import BOUND_FIGURE, FISCAL_YEAR, YEARS

_RESPECTIVE = re.compile(r"\brespective(?:ly)?\b", re.I)
_VALUES_OPENING = re.compile(
    r"^\s*what\s+(?:is|was|are|were)\s+(?:the\s+)?(?:respective\s+)?"
    r"(?:(?:values?|amounts?|figures?)\s+(?:of|for)\s+)?(?:the\s+)?",
    re.I,
)
_WHICH_YEARS = re.compile(
    r"^\s*(?:in\s+|for\s+)?(?:which|what)\s+years\s+(?:is|was|were|are|does|do|did)\s+"
    r"(?:the\s+)?(?:table\s+(?:provide|include|show|give)\s+(?:information|data|figures)?\s*"
    r"(?:for|on|about)?\s*)?(?P<row>.*?)\s*"
    r"(?:(?:calculated|computed|provided|given|recorded|reported|presented|shown|included|"
    r"disclosed|listed)\b.*)?$",
    re.I,
)
# "Which financial year's information is shown in the table?", "Which years information
# are included in this note ...?": the years the table's columns name.
# "In which year was the financial income and costs recorded for?": the years its cells
# stand under (one year asked of a row written for several is each of them).
_WHICH_YEAR_RECORDED = re.compile(
    r"^\s*(?:in\s+|for\s+)?(?:which|what)\s+year\s+(?:is|was|were|are)\s+(?:the\s+)?"
    r"(?P<row>.+?)\s+(?:calculated|computed|provided|given|recorded|reported|presented|shown|"
    r"disclosed|listed)(?:\s+(?:for|in))?$",
    re.I,
)
_TABLE_YEARS = re.compile(
    r"^\s*(?:what|which)\s+(?:are\s+the\s+)?(?:financial\s+|fiscal\s+)?years?(?:['’]s?)?\s+"
    r"(?:(?:information|data|figures)\s+)?(?:are\s+)?(?:does|do|is|are)?\s*"
    r"(?:included|covered|shown|presented|provided|given|disclosed)?\s*(?:in\s+)?"
    r"(?:the|this)\s+(?:table|note)\b",
    re.I,
)
_YEARS_WHERE = re.compile(
    r"^\s*(?:in\s+)?which\s+years?\s+(?:was|were|is|are|did)\s+(?:the\s+)?(?P<row>.+?)\s+"
    r"(?P<way>less than|lower than|below|under|fewer than|greater than|more than|"
    rf"higher than|above|over|exceed(?:ed)?)\s+(?P<bound>{BOUND_FIGURE})",
    re.I,
)
_ITEMS = re.compile(
    r"^\s*what\s+(?:are|were)\s+(?:the\s+)?(?:items|components|elements|parts|types|"
    r"categories)\s+(?:under|of|in|making up|that make up|which make up|listed under)\s+"
    r"(?:the\s+)?(?P<section>.+)$",
    re.I,
)
# "... in the table": where to look, not what the section is called.
_IN_THE_TABLE = re.compile(r"\s+(?:in|of|from|shown in)\s+(?:the|this)\s+table\b.*$", re.I)
# Only a count of a table's parts: "How many men were in the army?" is read from a line.
_COUNT_ITEMS = re.compile(
    r"^\s*how many\s+(?:\w+\s+)?(?:items|components|elements|parts|types|categories|"
    r"segments|line items|kinds)\s+(?:are|were|is)\s+(?:there\s+|listed\s+)?"
    r"(?:under|within|making up|that make up|in)\s+(?:the\s+)?(?P<section>.+)$",
    re.I,
)
# "What was the revenue in 2019 and 2018?": the row's figure in each year named, in order.
_ENDS_IN_YEARS = re.compile(
    rf"\b(?:in|for|during)\s+(?:fiscal\s+)?{FISCAL_YEAR}(?:\s*,\s*(?:and\s+)?|\s+and\s+)"
    rf"(?:fiscal\s+)?{FISCAL_YEAR}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)(?:fiscal\s+)?{FISCAL_YEAR})*\s*$",
    re.I,
)
# Words that make "X in 2019 and 2018" a computation ("the total revenue in 2019 and 2018").
_COMPUTES = re.compile(
    r"\b(?:total|sum|combined|change|changes|average|mean|difference|increase|decrease|"
    r"growth|ratio|percentage|proportion)\b",
    re.I,
)
_YEAR_WORDS = re.compile(
    rf"\s*\b(?:in|for|of|at|during|and|the|fiscal|year|years)?\s*(?:fiscal\s+)?{FISCAL_YEAR}\b,?",
    re.I,
)


def read_lookup(text: str) -> Route | None:
    """The look-up ``text`` (a question less its question mark) asks for, or None.

    "What was X in 2019, 2018 and 2017 respectively?" is the row's cells in those years, in
    that order; "In which years was X calculated?" the years its cells stand under; "In
    which years was X less than 150?" the years its cells pass the bound (a filter, so it
    binds); "What are the components of X?" the rows listed under that section. Each
    becomes a plan over the plan language's primitives, so every item is a cell or label
    the store holds.
    """
    years = tuple(YEARS.findall(text))
    where = _YEARS_WHERE.search(text)
    if where:
        row = _clean(where.group("row"))
        bound, above = bound_of(where)
        return Route(Need.YEARS_WHERE, (row,), (), bound=bound, above=above) if row else None
    counted = _COUNT_ITEMS.search(text)
    if counted:
        section = _clean(counted.group("section"))
        return Route(Need.COUNT_ITEMS, (section,), ()) if section else None
    items = _ITEMS.search(text)
    if items:
        section = _clean(_IN_THE_TABLE.sub("", items.group("section")))
        return Route(Need.ITEMS, (section,), ()) if section else None
    which = (
        _WHICH_YEARS.search(text) or _TABLE_YEARS.search(text) or _WHICH_YEAR_RECORDED.search(text)
    )
    if which and not years:
        return Route(Need.YEARS, (_clean(which.groupdict().get("row") or ""),), ())
    if _RESPECTIVE.search(text) or (
        len(years) >= 2
        and _VALUES_OPENING.match(text)
        and _ENDS_IN_YEARS.search(text)
        and not _COMPUTES.search(text)
    ):
        body = _clean(_YEAR_WORDS.sub(" ", _VALUES_OPENING.sub("", _RESPECTIVE.sub(" ", text))))
        if len(years) >= 2 and body:
            return Route(Need.VALUES, (body,), years)
        if not years and body:  # "... that are less than one year and between 2-5 years"
            return Route(Need.VALUES, (body,), ())
        rows = tuple(r for r in (_clean(p) for p in AND.split(body)) if r)
        if len(years) == 1 and len(rows) >= 2:
            return Route(Need.VALUES, rows, years)
    return None


def _clean(phrase: str) -> str:
    phrase = re.sub(r"\s+", " ", phrase).strip(" ,.;:?")
    phrase = re.sub(r"^(?:the|of|for|in)\s+|\s+(?:for|in|of|the|and)$", "", phrase, flags=re.I)
    return phrase.strip(" ,.;:")
