"""The plans the default engine proposes for a date route: days between, days ago, which
came first, how many times, when."""

from __future__ import annotations

from affidavit.plans import Plan, Step
from affidavit.question import Need, Route


def date_plans(found: Route) -> list[Plan] | None:
    """The plans for a date route, None when the route is not one: each event told by a
    conversation's turns first (a turn's "yesterday" read against its day, or its stamp),
    then as the dates document lines write."""
    plans = _plans(found, told=True)
    if plans is None or found.need in (Need.WHEN, Need.TIMES):
        return plans
    # Over documents no turn tells the events: the dates their lines write.
    return [*plans, *(_plans(found, told=False) or [])]


def _plans(found: Route, *, told: bool) -> list[Plan] | None:
    dated = []
    for i, event in enumerate(found.rows):
        args: dict[str, object] = {"phrase": event, "as": "date"}
        if told:
            args["told"] = True
        if found.named:
            args["named"] = found.named[i]
        dated.append(Step("anchor", args, f"e{i}"))
    if found.need == Need.DAYS_BETWEEN:
        span = Step("days_between", {"from": "e0", "to": "e1"}, "answer")
        return [Plan((*dated, span), note="the days between the dates the two lines write")]
    if found.need == Need.DAYS_AGO:
        span = Step("days_between", {"from": "e0", "to": "now"}, "answer")
        return [Plan((*dated, span), note="the days from the event's date to the asking day")]
    if found.need == Need.TIMES:
        tellings = Step("gather", {"phrase": found.rows[0], "told": True}, "told")
        steps = [tellings]
        if found.years:
            year = int(found.years[0])
            kept = {"of": "told", "after": str(year - 1), "before": str(year + 1)}
            steps.append(Step("filter", kept, "kept"))
        counted = Step("count", {"of": steps[-1].out, "once": True}, "answer")
        return [Plan((*steps, counted), note="the events the turns tell, one told twice once")]
    if found.need == Need.WHEN:
        turn = Step("anchor", {"phrase": found.rows[0], "as": "date", "told": True}, "answer")
        return [Plan((turn,), note="the day a turn tells the event happened, read from its stamp")]
    if found.need == Need.FIRST:
        both = Step("gather", {"of": ["e0", "e1"]}, "both")
        chosen = Step(
            "latest" if found.largest else "first", {"of": "both", "say": "row"}, "answer"
        )
        return [Plan((*dated, both, chosen), note="the event of the earlier (or later) date")]
    return None
