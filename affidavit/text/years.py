"""What a year looks like, and the ways reports and questions write one."""

from __future__ import annotations

import re

# NOTE: the range differs by what writes the year, on purpose. Reports, their tables and
# the questions asked of them write 1900-2099 (a "1850" there is more often an amount); a
# table's column may reach back to the 1800s (statistics); prose reaches back to the year
# 1000 (histories: "in 1066"); a date's year part is any three or four digits.
YEAR = r"(?:19|20)\d\d"
YEAR_SINCE_1800 = r"(?:1[89]|20)\d\d"
YEAR_SINCE_1000 = r"(?:1[0-9]|20)\d{2}"
YEAR_DIGITS = r"\d{3,4}"
# A fiscal year as reports write one: 2019, F19, FY19, FY2019.
FISCAL_YEAR = rf"(?:{YEAR}|FY?(?:{YEAR}|\d\d))"

# A year standing alone in a sentence: not part of a number, a decimal or a percentage.
YEAR_WORD = re.compile(rf"(?<![\d.,]){YEAR}(?![\d.,]\d|%)")
# Every year or fiscal year a question names, as written.
YEARS = re.compile(rf"\b{FISCAL_YEAR}\b")
# A year as a table column names it (1800-2099), not part of a number or a percentage.
COLUMN_YEAR = re.compile(rf"(?<![\d,.])({YEAR_SINCE_1800})(?![\d,.%])")
# A year as an index term reads (analysed words): "2019", "fy19", "f19".
_YEAR_TERM = re.compile(rf"^{YEAR}$|^fy?\d\d$")
# A line or cell that is a year alone ("2019:", "Fiscal 2019"): it heads the rows below.
_YEAR_ALONE = re.compile(rf"^\W*(?:fiscal\s+|fy\s*)?{YEAR}\W*$", re.I)
# A column comparing two years ("2019 and 2018", "2019 vs. 2018"): a change between them,
# not either year's own figure. "2021 - 2022" is a period of payments, not a comparison.
TWO_YEARS_COMPARED = re.compile(
    rf"\b({YEAR})\s*(?:and|vs\.?|versus|over|compared (?:to|with))\s*({YEAR})\b", re.I
)


def is_year_term(term: str) -> bool:
    """Is this index term a year ("2019") or a fiscal year in short ("fy19")?"""
    return _YEAR_TERM.match(term) is not None


def is_year_alone(text: str) -> bool:
    """Is ``text`` a year and nothing else but punctuation ("2019:", "Fiscal 2019")?"""
    return _YEAR_ALONE.match(text) is not None
