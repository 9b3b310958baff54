"""Computed answers: the plan language an engine proposes, the interpreter that runs it over
the table cells and lines the store holds, and the library's own words for the result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.plans.composer import compose
    from affidavit.plans.ground import Ground
    from affidavit.plans.interpreter import run
    from affidavit.plans.plan import Plan, Step
    from affidavit.plans.step import PlanDied
    from affidavit.plans.templates import told_time
    from affidavit.plans.values import Kind

# What other rooms may use of plans/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "composer": "compose",
    "ground": "Ground",
    "interpreter": "run",
    "plan": "Plan Step",
    "step": "PlanDied",
    "templates": "told_time",
    "values": "Kind",
}

__all__ = [
    "Ground", "Kind", "Plan", "PlanDied", "Step", "compose", "run", "told_time",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
