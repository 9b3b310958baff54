"""What a question is read at the door to need: the kind of computation or look-up, with
the phrases for its rows and the years it names, in the order it takes them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

# What joins the rows of "A and B", "A, B y C", "A ve B".
AND = re.compile(r"\s+(?:and|y|ve)\s+|,\s*", re.I)


_DIFFERENCE = re.compile(r"\bdifference\b", re.I)
_SIGNED = re.compile(
    r"\bnet difference\b|\b(?:change|increase|decrease|growth|decline)\b|\bpercent|%", re.I
)

# "What was the percentage of ...", "What is the % of revenue ...": a look-up of a share
# as the table states it, never an amount.
_ASKS_PERCENT = re.compile(
    r"^\s*(?:what|which)\s+(?:(?:is|was|were|are)\s+)?(?:the\s+)?(?:percentage|percent|%)"
    r"(?!\s*(?:change|increase|decrease|growth|decline|difference|point))",
    re.I,
)

# The words of a bound a figure stands below ("How many years was it under 1,500?").
_BELOW = frozenset({"less than", "lower than", "below", "under", "fewer than"})


def bound_of(found: re.Match[str]) -> tuple[str, bool]:
    """The bound a question's match names (its ``bound`` group, spaces out) and whether
    the figures asked for stand above it (its ``way`` group)."""
    return found.group("bound").replace(" ", ""), found.group("way").lower() not in _BELOW


class Need(StrEnum):
    CHANGE = "change"
    CHANGE_OF_AVERAGES = "change_of_averages"  # the average over two years against two later
    PERCENT_CHANGE = "percent_change"
    AVERAGE = "average"
    TOTAL = "total"
    RATIO = "ratio"
    SHARE = "share"  # one value as a percentage of another
    DIFFERENCE = "difference"  # between two rows ("between A and B")
    EXTREME = "extreme"  # which year (column) was it largest / smallest
    EXTREME_ROW = "extreme_row"  # which row holds a column's largest / smallest figure
    COUNT_ABOVE = "count_above"  # how many years was it above a bound
    VALUE = "value"  # one cell: the row in a year
    VALUES = "values"  # the row's cells in the years named, in that order ("respectively")
    YEARS = "years"  # the years a row (or the table) gives figures for
    YEARS_WHERE = "years_where"  # the years a row stands above or below a bound
    ITEMS = "items"  # the rows listed under a section ("the components of X")
    COUNT_ITEMS = "count_items"  # how many rows stand under a section
    DAYS_BETWEEN = "days_between"  # days between the dates two lines write
    DAYS_AGO = "days_ago"  # days from a line's date to the asking day
    WHEN = "when"  # the day a dialogue turn tells its event happened
    FIRST = "first"  # which of two events came first (or last)
    TIMES = "times"  # how many times a conversation tells an event happened


@dataclass(frozen=True, slots=True)
class Route:
    need: Need
    rows: tuple[str, ...]  # the row phrases, as the question words them
    years: tuple[str, ...]  # the columns, in the order the computation takes them
    largest: bool = True
    bound: str = ""
    percent: bool = True  # a share asked as a percentage, not as a proportion or ratio
    above: bool = True  # a bound the row stands above (False: below)
    loose: bool = False  # a figure a line may state outright: a dead plan gives way
    column: str = ""  # the column the question names when it names no year
    named: tuple[str, ...] = ()  # what each event is answered as ("Susie" or "Seraphim")
    asked: str = ""  # the question's words: cells may be named by row and column in it
    falling: bool = False  # a change asked as a decrease: how much it fell, old less new

    @property
    def unsigned(self) -> bool:
        """Is a difference asked for as a size? "The difference between A and B" (or "in
        2019 and 2018") is how far apart they stand; a change, an increase, a percentage or
        a "net difference" keeps its sign."""
        return _DIFFERENCE.search(self.asked) is not None and not _SIGNED.search(self.asked)

    @property
    def percent_asked(self) -> bool:
        """Does a look-up ask for a percentage ("What was the % of revenue for R&D in
        2019?")? Then only a percentage answers it, never the amount beside it."""
        return self.need in LOOK_UPS and _ASKS_PERCENT.search(self.asked) is not None

    @property
    def binds(self) -> bool:
        """A computation must come from a plan; a look-up may still be lifted from a line.

        A question binds when it names the years it computes over, or asks a bound, a
        date's arithmetic or which came first. Without years, "the average duty of a Watt
        engine" may be a figure a sentence states, so a plan that dies gives way to lifting.
        """
        if self.need in LOOK_UPS or self.loose:
            return False
        return bool(self.years) or self.need in DATED

    def to_dict(self) -> dict[str, object]:
        found: dict[str, object] = {
            "need": self.need.value,
            "rows": list(self.rows),
            "years": list(self.years),
            "binds": self.binds,
        }
        if self.column:
            found["column"] = self.column
        return found


# Computations that bind with or without years: they are never a figure a line states.
DATED = frozenset(
    {Need.COUNT_ABOVE, Need.YEARS_WHERE, Need.DAYS_BETWEEN, Need.DAYS_AGO, Need.FIRST}
)
# Look-ups may fall back to a lifted line when no plan survives; computations may not.
LOOK_UPS = frozenset({Need.VALUE, Need.VALUES, Need.YEARS, Need.ITEMS})
# Look-ups of a row in given years: when the evidence holds tables, only a cell answers.
TABLE_LOOK_UPS = frozenset({Need.VALUE, Need.VALUES, Need.YEARS})
