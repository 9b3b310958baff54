"""Recomputing a claim's number from the store: how verify() checks a computed claim
("Total sales rose 24.4% from 2018 to 2019" writes a number no line carries)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from affidavit.plans import Ground, Kind, Plan, PlanDied, Step, run
from affidavit.results import Evidence
from affidavit.text import CLAIMED_FIGURE, YEAR, rounded

_YEAR = re.compile(rf"(?<![\d.,])({YEAR})(?![\d,%])(?!\.\d)")
_UP = re.compile(r"\b(?:rose|rise|risen|increased?|grew|grown|gain(?:ed)?|up|higher)\b", re.I)
_DOWN = re.compile(r"\b(?:fell|fall|fallen|decreased?|declined?|dropped|down|lower)\b", re.I)


@dataclass
class Recomputed:
    held: bool  # a plan reproduced the claimed number
    claimed: str
    plan: dict[str, Any] | None = None
    trace: list[dict[str, Any]] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    detail: str = ""


def recompute(sentence: str, ground: Ground) -> Recomputed | None:
    """Whether the store reproduces the sentence's computed number; None when the sentence
    names no row and years a plan could start from.

    It holds only for a row the sentence names in full, the columns of the years it names,
    and one of the plans a claim of that kind rests on (``_plans``: the change, the
    percentage change, the total, the average) whose result, at the precision the sentence
    writes, is the claimed number, in the direction the sentence says it moved. The plans
    are run by the same interpreter as ask's, so the verdict carries their trace.
    """
    years = sorted(set(_YEAR.findall(sentence)))
    claims = [
        m for m in CLAIMED_FIGURE.finditer(sentence) if not _YEAR.fullmatch(m.group(0).strip())
    ]
    if not years or len(claims) != 1:
        return None
    claim = claims[0]
    places = len(claim.group(1) or "")
    percent = claim.group(2) is not None
    target = abs(float(re.sub(r"[^\d.]", "", claim.group(0).split("%")[0])))
    rows = _named_rows(sentence, ground)
    if not rows:
        return None
    direction = -1 if _DOWN.search(sentence) else 1 if _UP.search(sentence) else 0
    tried = 0
    for row in rows:
        for plan in _plans(row, years, percent):
            try:
                outcome = run(plan, ground)
            except PlanDied:
                continue
            tried += 1
            number = outcome.value.number
            if number is None or (outcome.value.kind == Kind.PERCENT) != percent:
                continue
            if direction and number * direction < 0:
                continue
            if rounded(abs(number), places) == target:
                cited = [s.line for v in outcome.inputs() for s in v.sources]
                return Recomputed(
                    True,
                    claim.group(0).strip(),
                    plan.to_dict(),
                    outcome.audit(),
                    list(dict.fromkeys(cited)),
                    f"recomputed {plan.steps[-1].op} of {row!r}: {rounded(number, places)}",
                )
    if not tried:
        return None
    return Recomputed(
        False,
        claim.group(0).strip(),
        detail=f"no plan over {', '.join(map(repr, rows))} in {', '.join(years)} gives it",
    )


def _named_rows(sentence: str, ground: Ground) -> list[str]:
    """Row labels the sentence writes in full, longest first."""
    said = ground.terms(sentence)
    labels = {
        label
        for table in ground.tables
        for row in table.rows
        if (label := table.label(row)) and ground.terms(label) and ground.terms(label) <= said
    }
    return sorted(labels, key=lambda label: (-len(ground.terms(label)), label))


def _plans(row: str, years: list[str], percent: bool) -> list[Plan]:
    anchors = tuple(Step("anchor", {"row": row, "column": y}, f"v{y}") for y in years)
    names = [f"v{y}" for y in years]
    if len(years) == 1:
        return [] if percent else [Plan(anchors)]
    first, last = names[0], names[-1]
    if percent:
        return [Plan((*anchors, Step("percent_change", {"from": first, "to": last}, "p")))]
    return [
        Plan((*anchors, Step("difference", {"of": last, "minus": first}, "d"))),
        Plan((*anchors, Step("sum", {"of": names}, "s"))),
        Plan((*anchors, Step("average", {"of": names}, "a"))),
    ]
