"""The plans the default engine proposes for a comparison route: which year, or which row,
holds the largest or smallest figure."""

from __future__ import annotations

from affidavit.plans import Plan, Step
from affidavit.question import Need, Route


def extreme_plans(found: Route) -> list[Plan] | None:
    """The plans for a comparison route; None when the route is not one."""
    op = "max" if found.largest else "min"
    if found.need == Need.EXTREME:
        steps = (
            Step("gather", {"row": found.rows[0], "dated": True}, "row"),
            Step(op, {"of": "row", "say": "year"}, "answer"),
        )
        return [Plan(steps, note=f"the year of the row's {op}")]
    if found.need == Need.EXTREME_ROW:
        steps = (
            Step("gather", {"column": found.rows[0], "parts": True}, "column"),
            Step(op, {"of": "column", "say": "row"}, "answer"),
        )
        return [Plan(steps, note=f"the row of the column's {op}, totals left out")]
    return None
