"""Questions of comparison, read at the door: which year, or which row, holds the largest
or smallest figure."""

from __future__ import annotations

import re

from affidavit.question.routes import Need, Route

_WAYS = (
    r"largest|highest|greatest|most|biggest|longest|higher|larger|greater|bigger|longer|more|"
    r"lowest|smallest|least|fewest|shortest|lower|smaller|shorter|less|fewer"
)
_LARGER = frozenset(
    "largest highest greatest most biggest longest higher larger greater bigger longer more".split()
)
# "Based on the post-employment benefit obligations, which year ...": the clause before
# the comma says where to look, the question after it what to compare.
_LEAD_IN = re.compile(
    r"^\s*(?:based on|according to|for|regarding|in terms of|looking at|between)\s+[^,]+,\s*"
    r"(?=(?:in\s+)?(?:which|what)\b)",
    re.I,
)
_WAY = re.compile(rf"\b(?:the\s+)?(?P<way>{_WAYS})\b(?!\s+than)", re.I)
_WHICH_YEAR = re.compile(
    r"^\s*(?:in\s+)?(?:which|what)\s+(?:fiscal\s+|financial\s+|calendar\s+)?(?:year|period)\b"
    r"\s*(?:was|were|is|did|had|has|have|saw|recorded|reported|shows?)?\s*",
    re.I,
)
_WHICH_ROW = re.compile(
    r"^\s*(?:in\s+)?(?:which|what)\s+(?!year\b|period\b|fiscal\b)(?P<kind>[\w-]+(?:\s+[\w-]+)?)\s+"
    r"(?:was|were|is|has|had|have|did|recorded|reported)\s+(?P<rest>.+)$",
    re.I,
)
# "What is the component that has the highest obligation in 1-5 years?", "... that
# contributes the most to total accrued expenses?"
_THE_ROW_THAT = re.compile(
    r"^\s*what\s+(?:is|was|are|were)\s+the\s+(?P<kind>[\w-]+)\s+(?:that|which)\s+"
    r"(?:has|had|have|contributes|contributed|makes up|made up|accounts for|accounted for)\s+"
    r"(?P<rest>.+)$",
    re.I,
)
_SIGN = re.compile(r"\b(?P<sign>negative|positive)\b", re.I)
_FILLER = re.compile(
    r"\b(?:the|a|an|amount of|number of|value of|values? for|figure for|reported|recorded)\b",
    re.I,
)


def read_extreme(text: str) -> Route | None:
    """The comparison ``text`` (a question less its mark) asks for, or None.

    "In which year was X the largest?", "Which fiscal year has a higher X?" compare a
    row's cells across its years; "In which segment was X the largest?", "Which
    contractual obligation has the highest total value?" compare a column's cells across
    its rows (totals left out: a total is always the largest part). "In which year was X
    negative?" is a bound of zero. Each is a plan over gathered cells, so the answer is a
    year or a label the table writes, chosen by numbers the table holds.
    """
    text = _LEAD_IN.sub("", text, count=1)
    year = _WHICH_YEAR.match(text)
    if year:
        rest = text[year.end() :]
        way = _WAY.search(rest)
        if way is None:
            sign = _SIGN.search(rest)
            row = _phrase(rest[: sign.start()]) if sign else ""
            if sign and row:
                above = sign.group("sign").lower() == "positive"
                return Route(Need.YEARS_WHERE, (row,), (), bound="0", above=above)
            return None
        row = _phrase(rest[: way.start()] + " " + rest[way.end() :])
        largest = way.group("way").lower() in _LARGER
        return Route(Need.EXTREME, (row,), (), largest=largest) if row else None
    which = _WHICH_ROW.match(text) or _THE_ROW_THAT.match(text)
    if which:
        rest = which.group("rest")
        way = _WAY.search(rest)
        if way is None:
            return None
        column = _phrase(rest[: way.start()] + " " + rest[way.end() :])
        largest = way.group("way").lower() in _LARGER
        return Route(Need.EXTREME_ROW, (column,), (), largest=largest) if column else None
    return None


def _phrase(text: str) -> str:
    cleaned = _FILLER.sub(" ", text)
    return re.sub(r"\s+", " ", cleaned).strip(" ,.;:?")
