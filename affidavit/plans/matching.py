"""How well a table's label or column name answers to the words of a phrase: the ranks the
ground (``ground.py``) orders rows and columns by, smaller first, and None for no match.
Words are compared as the ground's terms (stemmed, glue words left out)."""

from __future__ import annotations

import re

from affidavit.text import is_year_term

# A footnote mark ending a row's label: "Total (1)", "Service delivery costs(2)", "Other*",
# or a digit run into the word ("Total employee expenditure2").
FOOTNOTE = re.compile(r"(?:\s*(?:\(\s*(?:\d{1,2}|[a-z]|[ivx]{1,4})\s*\)|\*+)|(?<=[a-z]{3})\d)+\s*$")
# Words of a column that holds a change between years, not one year's own figure.
CHANGE_TERMS = frozenset({"chang", "varianc", "differ", "growth", "increas", "decreas", "vs"})


def extra_words(
    wanted: frozenset[str], have: frozenset[str], slack: int = 0
) -> tuple[int, int] | None:
    """How well ``have`` (a label, a column name) answers to the phrase's words ``wanted``:
    (words of the phrase it lacks, words it adds), smaller first; None when it lacks more
    than ``slack`` of them or shares none."""
    if not wanted or not wanted & have:
        return None
    missing = len(wanted - have)
    return None if missing > slack else (missing, len(have - wanted))


def column_rank(
    wanted: frozenset[str], name: frozenset[str], row_phrase: frozenset[str]
) -> tuple[int, ...] | None:
    """A column named by the column phrase ("2019"); of several, one naming no other year
    first, then the one sharing more of the row phrase ("Cash dividend per share 2019"
    before "Appropriation of earnings 2019" for "cash dividend per share")."""
    extra = extra_words(wanted, name)
    if extra is None:
        return None
    # "2019 vs. 2018 Variance" names two years, "F18 Change" a change: neither stands
    # for the year's own figure.
    other_years = sum(1 for term in name - wanted if is_year_term(term))
    other_years += len(name & CHANGE_TERMS)
    return (extra[0], other_years, -len((name - wanted) & row_phrase), extra[1])


def named_inside(name: frozenset[str], phrase: frozenset[str]) -> tuple[int, int]:
    """A column asked for without a column phrase: one whose whole name the row phrase
    writes ("operating leases of more than 5 years" names the column "More than 5
    years") comes before the others, the more of the phrase it names the better."""
    if name and name <= phrase:
        return (-len(name), 0)
    return (0, 1)


def row_slack(wanted: frozenset[str]) -> int:
    """A phrase of three words or more may carry one the row's label leaves out (the
    question's "amount of total sales" for the row "Total sales")."""
    return 1 if len(wanted) >= 3 else 0
