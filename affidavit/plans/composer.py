"""Composing an answer from proposed plans: parse, run, keep the first that survives."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from affidavit.errors import EngineError
from affidavit.plans.ground import Ground
from affidavit.plans.interpreter import Outcome, run
from affidavit.plans.plan import Plan
from affidavit.plans.step import PlanDied
from affidavit.plans.templates import PLACES, said_value, say
from affidavit.results import Evidence

MALFORMED = "malformed_plan"


@dataclass
class Composed:
    text: str = ""
    value: Any = None
    citations: list[Evidence] = field(default_factory=list)
    outcome: Outcome | None = None
    audit: list[dict[str, Any]] = field(default_factory=list)  # one entry a proposed plan

    @property
    def answered(self) -> bool:
        return self.outcome is not None


def compose(
    proposals: Sequence[Plan | Any],
    ground: Ground,
    language: str,
    *,
    now: str | None = None,
) -> Composed:
    """The first proposal that parses and runs to a value, said in ``language``.

    Each proposal is parsed (a malformed one is a dead plan) and run by the interpreter over
    the ground the evidence stands in; the first plan that survives gives the answer: the
    library's template sentence, the rounded value, the input lines as citations, and a
    trace of every step. Every dead plan is kept in the audit with how and where it died.
    """
    composed = Composed()
    for number, proposal in enumerate(proposals):
        entry: dict[str, Any] = {"proposal": number + 1}
        composed.audit.append(entry)
        try:
            plan = _parsed(proposal)
        except EngineError as error:
            entry.update(plan=None, death={"death": MALFORMED, "step": 0, "detail": str(error)})
            continue
        entry["plan"] = plan.to_dict()
        try:
            outcome = run(plan, ground, now=now)
        except PlanDied as died:
            entry["death"] = died.to_dict()
            continue
        entry["trace"] = outcome.audit()
        entry["rounding"] = f"half away from zero, {PLACES} decimals"
        composed.text, composed.value = say(outcome, language)
        # The value as the answer writes it, without the sentence around it.
        entry["said"] = said_value(outcome, language)
        composed.outcome = outcome
        for value in outcome.inputs():
            for source in value.sources:
                if source.line not in composed.citations:
                    composed.citations.append(source.line)
        break
    return composed


def _parsed(proposal: Plan | Any) -> Plan:
    if isinstance(proposal, Plan):
        return proposal
    if isinstance(proposal, str):
        return Plan.from_json(proposal)
    return Plan.from_dict(proposal)
