"""The plans the default engine proposes for a look-up route: a row's cells in the years
asked, the years a table gives, the rows under a section, the cells a question names."""

from __future__ import annotations

import re

from affidavit.plans import Plan, Step
from affidavit.question import Need, Route


def lookup_plans(found: Route) -> list[Plan] | None:
    """The plans for a look-up route; None when the route is not a look-up of a list."""
    if found.need == Need.VALUES and not found.years:
        return []  # only the cells the question names by row and column (named_plans)
    if found.need == Need.VALUES:
        pairs = (
            [(found.rows[0], y) for y in found.years]
            if len(found.rows) == 1
            else [(r, found.years[0]) for r in found.rows]
        )
        shown = {"as": "percent"} if found.percent_asked else {}
        cells = [
            Step("anchor", {"row": r, "column": y, **shown}, f"c{i}")
            for i, (r, y) in enumerate(pairs)
        ]
        listed = Step("gather", {"of": [c.out for c in cells]}, "answer")
        return [Plan((*cells, listed), note="the cells named, in the order named")]
    if found.need == Need.YEARS:
        # The years the row's cells stand under, or else the years the table's columns name.
        table = Plan(
            (Step("gather", {"columns": "years"}, "answer"),), note="the years of the columns"
        )
        if not found.rows[0]:
            return [table]
        gathered = Step("gather", {"row": found.rows[0], "say": "year", "dated": True}, "answer")
        return [Plan((gathered,), note="the years the row's cells stand under"), table]
    if found.need == Need.YEARS_WHERE:
        side = "above" if found.above else "below"
        steps = (
            Step("gather", {"row": found.rows[0], "dated": True}, "row"),
            Step("filter", {"of": "row", side: found.bound, "say": "year"}, "answer"),
        )
        return [Plan(steps, note=f"the years the row stands {side} the bound")]
    if found.need == Need.ITEMS:
        listed = Step("gather", {"section": found.rows[0]}, "answer")
        return [Plan((listed,), note="the rows listed under the section")]
    if found.need == Need.COUNT_ITEMS:
        listed = Step("gather", {"section": found.rows[0]}, "items")
        return [Plan((listed, Step("count", {"of": "items"}, "answer")), note="rows counted")]
    return None


# "The difference in A and B" takes A less B; a change between two goes from the first to
# the second named (TAT-QA's questions read both ways, and so do reports).
_DIFFERENCE = re.compile(r"\bdifference\b", re.I)


def named_plans(found: Route) -> list[Plan]:
    """Plans over the cells the question names by both row and column (a quarterly table's
    "high" and "fourth quarter", a maturity table's "less than one year"): tried after the
    plans that read a row in given years, for what those cannot name."""
    asked = found.asked
    if not asked:
        return []
    if found.need == Need.VALUES:
        listed = Step("gather", {"cells": asked}, "answer")
        return [Plan((listed,), note="the cells the question names, in the order it names them")]
    if found.need not in (Need.CHANGE, Need.PERCENT_CHANGE, Need.DIFFERENCE):
        return []
    # A change over time runs from the earlier cell to the later, whichever the question
    # names first; a difference between two named things keeps the question's order.
    between = found.need == Need.DIFFERENCE or _DIFFERENCE.search(asked) is not None
    order = {} if between else {"by": "date"}
    first = Step("anchor", {"cells": asked, "among": 2, "nth": 0, **order}, "a")
    second = Step("anchor", {"cells": asked, "among": 2, "nth": 1, **order}, "b")
    if found.need == Need.PERCENT_CHANGE:
        last = Step("percent_change", {"from": "a", "to": "b"}, "answer")
    elif between:
        last = Step("difference", {"of": "a", "minus": "b"}, "answer")
    else:
        last = Step("difference", {"of": "b", "minus": "a"}, "answer")
    return [Plan((first, second, last), note=f"{last.op} of the two cells the question names")]
