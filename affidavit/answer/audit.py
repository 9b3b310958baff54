"""The record of how an answer was reached, kept typed while ask works and written out
as the JSON-ready ``Answer.audit`` at the end.

Every subset the engine was shown, every candidate it proposed with the gate's decisions
on it, the plans and how each died, the census, the choice and the value read: a
reviewer can replay the turn from it. The refusal reason is read from the typed
decisions, never from the dictionary written for the reader.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from affidavit.engine.protocol import Candidate
from affidavit.gates.decision import GateDecision
from affidavit.reasons import Reason


@dataclass
class Judged:
    """One candidate and the gate's decisions on it."""

    candidate: Candidate
    decisions: list[GateDecision]


@dataclass
class SubsetRecord:
    """One document's evidence as the engine saw it, and what came of its candidates."""

    document: str
    weight: float
    block: list[str]
    judged: list[Judged] = field(default_factory=list)


@dataclass
class AskRecord:
    engine: str
    asked_at: str | None
    speaker: str | None
    shape: dict[str, Any] | None = None
    route: dict[str, Any] | None = None
    routed: bool = False  # the door was passed and the route read (None: no computation)
    plans: list[dict[str, Any]] | None = None  # every proposed plan, and how each died
    plan: dict[str, Any] | None = None  # the plan that answered
    census: dict[str, Any] | None = None
    whose: dict[str, Any] | None = None  # whom the conversation tells the question of
    withheld_below_trust: int | None = None
    best_lines: list[str] | None = None
    evidence_block: list[str] | None = None
    subsets: list[SubsetRecord] = field(default_factory=list)
    chosen: dict[str, Any] | None = None
    value: dict[str, Any] | None = None
    read_as: str | None = None  # the question as read, when the speaker stood for "I"
    contradicted_by: list[dict[str, Any]] | None = None  # equal-trust lines answering otherwise

    def any_candidate(self) -> bool:
        return any(s.judged for s in self.subsets)

    def why_refused(self) -> Reason:
        """The most telling failure when no candidate passed: evidence that does not
        address the question first, then what the candidates got wrong."""
        if not self.any_candidate():
            return Reason.NO_CANDIDATE
        failed = {
            d.reason
            for s in self.subsets
            for j in s.judged
            for d in j.decisions
            if not d.passed and d.reason
        }
        return next((r for r in _PRECEDENCE if r.value in failed), Reason.NO_CANDIDATE)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "engine": self.engine,
            "asked_at": self.asked_at,
            "speaker": self.speaker,
        }
        optional = {
            "read_as": self.read_as,
            "shape": self.shape,
            "withheld_below_trust": self.withheld_below_trust,
            "census": self.census,
            "whose": self.whose,
            "plans": self.plans,
            "plan": self.plan,
            "best_lines": self.best_lines,
            "evidence_block": self.evidence_block,
        }
        out.update({k: v for k, v in optional.items() if v is not None})
        if self.routed:
            out["route"] = self.route
        candidates: list[dict[str, Any]] = []
        gate: list[dict[str, Any]] = []
        subsets: list[dict[str, Any]] = []
        for number, subset in enumerate(self.subsets):
            listed = []
            for judged in subset.judged:
                decisions = [d.to_dict() for d in judged.decisions]
                listed.append({**judged.candidate.to_dict(), "gate": decisions})
                gate.extend({"candidate": len(candidates), **d} for d in decisions)
                candidates.append({**judged.candidate.to_dict(), "subset": number})
            subsets.append(
                {
                    "document": subset.document,
                    "weight": round(subset.weight, 6),
                    "block": subset.block,
                    "candidates": listed,
                }
            )
        if self.evidence_block is not None:
            out["subsets"] = subsets
        out["candidates"], out["gate"] = candidates, gate
        for key in ("chosen", "value", "contradicted_by"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


_PRECEDENCE = (
    Reason.WEAK_EVIDENCE,
    Reason.HOLDER,
    Reason.DIGIT_VETO,
    Reason.MIXTURE,
    Reason.UNSUPPORTED,
    Reason.READBACK,
    Reason.UNVERIFIABLE,
    Reason.NO_CANDIDATE,
)
