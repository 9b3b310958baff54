"""The interpreter: runs a plan's steps over anchored values, or kills the plan and says why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from affidavit.plans.ground import Ground
from affidavit.plans.plan import OPERATIONS, Plan
from affidavit.plans.primitives import OPS
from affidavit.plans.step import Death, PlanDied, Running
from affidavit.plans.values import Kind, Value

__all__ = ["Outcome", "run"]


@dataclass
class Outcome:
    value: Value
    final_op: str
    trace: list[dict[str, Any]] = field(default_factory=list)

    def inputs(self) -> list[Value]:
        """The anchored values the answer rests on, in the order the plan took them."""
        seen: list[Value] = []
        for entry in self.trace:
            for value in entry["_anchored"]:
                if value not in seen:
                    seen.append(value)
        return seen

    def audit(self) -> list[dict[str, Any]]:
        return [{k: v for k, v in entry.items() if not k.startswith("_")} for entry in self.trace]


def run(plan: Plan, ground: Ground, *, now: str | None = None) -> Outcome:
    """Execute ``plan`` over ``ground``; raises PlanDied naming the step and the death.

    Only the primitives of plan.OPERATIONS run (plans/primitives.py), and only on phrases
    the ground anchors. Every input of a computation is a cell or line the store holds, so
    the trace lets a reviewer redo the arithmetic: each step keeps its inputs (with their
    citations) and its result.
    """
    results: dict[str, Value] = {}
    if now:
        results["now"] = Value(Kind.DATE, text=now, label="the asking day")
    trace: list[dict[str, Any]] = []
    value: Value | None = None
    for number, step in enumerate(plan.steps):
        if step.op not in OPERATIONS:
            raise PlanDied(Death.UNKNOWN_OP, number, f"no primitive is called {step.op!r}")
        for name in step.references():
            if name not in results:
                raise PlanDied(Death.DANGLING, number, f"{name!r} is not an earlier result")
        context = Running(number, step, results, ground)
        value = OPS[step.op](context)
        results[step.out] = value
        trace.append(
            {
                "step": number + 1,
                "op": step.op,
                "args": dict(step.args),
                "out": step.out,
                "inputs": [_input(v) for v in context.anchored],
                "result": value.to_dict(),
                **({"dropped": context.dropped} if context.dropped else {}),
                "_anchored": context.anchored,
            }
        )
    assert value is not None  # a parsed plan has at least one step
    return Outcome(value, plan.steps[-1].op, trace)


def _input(value: Value) -> dict[str, Any]:
    return {"label": value.label, **value.to_dict(), "cites": [s.to_dict() for s in value.sources]}
