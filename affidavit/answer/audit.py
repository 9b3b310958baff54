"""How an answer was reached: an AskRecord each stage writes its findings into (a new one
each time), made once into the Audit the Answer carries."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from affidavit.engine import Candidate
from affidavit.gates import GateDecision
from affidavit.reasons import Reason

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Judged:
    """One candidate and the gate's decisions on it."""

    candidate: Candidate
    decisions: tuple[GateDecision, ...]


@dataclass(frozen=True, slots=True)
class AskRecord:
    """What ask has found so far, each stage's findings written in by a new record (the
    state's ``noting``); ``audit()`` makes it the Answer's Audit."""

    engine: str
    asked_at: str | None
    speaker: str | None
    shape: Json | None = None
    route: Json | None = None
    routed: bool = False  # the door was passed and the route read (None: no computation)
    plans: list[Json] | None = None  # every proposed plan, and how each died
    plan: Json | None = None  # the plan that answered
    census: Json | None = None
    whose: Json | None = None  # whom the conversation tells the question of
    withheld_below_trust: int | None = None
    withheld_as_orders: int | None = None  # matching lines that speak to a model
    best_lines: list[str] | None = None
    evidence_block: list[str] | None = None
    subsets: tuple[SubsetAudit, ...] = ()
    chosen: Json | None = None
    value: Json | None = None
    read_as: str | None = None  # the question as read, when the speaker stood for "I"
    read_in: Json | None = None  # a question of another language, read in the store's
    contradicted_by: list[Json] | None = None  # equal-trust lines answering otherwise
    answerability: Json | None = None  # the reader's probability, threshold and rivals
    scope: Json | None = None  # the documents the question was limited to, when it was
    quoted: Json | None = None  # the line said whole, and why (answer/quote.py)
    no_longer_holds: list[Json] | None = None  # candidates whose record was replaced
    last_organ: Json | None = None  # the store read whole, when every organ died
    copies: list[str] | None = None  # other documents' copies of the cited lines
    closest: Json | None = None  # a refusal's best candidate, and the check that refused it
    polar: Json | None = None  # a question asking yes or no: its statement and verdict

    def why_refused(self) -> Reason:
        """The most telling failure when no candidate passed, read from the typed decisions:
        evidence that does not address the question first, then what the candidates got
        wrong."""
        if not any(s.judged for s in self.subsets):
            return Reason.NO_CANDIDATE
        failed = {
            d.reason
            for s in self.subsets
            for j in s.judged
            for d in j.decisions
            if not d.passed and d.reason
        }
        return next((r for r in _PRECEDENCE if r.value in failed), Reason.NO_CANDIDATE)

    def nearest_miss(self, reason: Reason) -> Json | None:
        """The best candidate a check refused for ``reason`` (the refusal's own), with that
        check and what it found: the answer a reviewer would have read had the check let
        it through. Best by the engine's score weighed by its subset's (ties: the first
        subset, then the engine's order); None when no candidate failed so."""
        best: tuple[tuple[float, int, int], Candidate, GateDecision] | None = None
        for number, subset in enumerate(self.subsets):
            for rank, judged in enumerate(subset.judged):
                failure = next((d for d in judged.decisions if not d.passed), None)
                if failure is None or failure.reason != reason.value:
                    continue
                key = (-judged.candidate.score * subset.weight, number, rank)
                if best is None or key < best[0]:
                    best = (key, judged.candidate, failure)
        if best is None:
            return None
        _, candidate, failure = best
        return {
            "text": candidate.text,
            "check": failure.gate,
            "reason": failure.reason,
            "detail": failure.detail,
        }

    def audit(self, engine_calls: Json | None = None) -> Audit:
        """The record as it stands, frozen; ``engine_calls`` is a model engine's accounting."""
        return Audit(
            engine=self.engine,
            asked_at=self.asked_at,
            speaker=self.speaker,
            read_as=self.read_as,
            read_in=self.read_in,
            shape=self.shape,
            withheld_below_trust=self.withheld_below_trust,
            withheld_as_orders=self.withheld_as_orders,
            census=self.census,
            whose=self.whose,
            plans=self.plans,
            plan=self.plan,
            best_lines=self.best_lines,
            evidence_block=self.evidence_block,
            routed=self.routed,
            route=self.route,
            subsets=self.subsets,
            chosen=self.chosen,
            value=self.value,
            contradicted_by=self.contradicted_by,
            answerability=self.answerability,
            scope=self.scope,
            quoted=self.quoted,
            no_longer_holds=self.no_longer_holds or None,
            last_organ=self.last_organ,
            copies=self.copies,
            closest=self.closest,
            polar=self.polar,
            engine_calls=engine_calls,
        )


@dataclass(frozen=True, slots=True)
class SubsetAudit:
    document: str
    weight: float
    block: tuple[str, ...]
    judged: tuple[Judged, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Audit(Mapping[str, Any]):
    """How an answer was reached, typed; read as a mapping it is its JSON form (what
    ``Answer.to_dict()`` writes, derived from the typed fields), so ``answer.audit["plan"]``
    and ``answer.audit.plan`` name the same thing.

    A reviewer can replay the turn from it: every subset the engine was shown, every
    candidate with the gate's decisions on it, the plans and how each died, the census,
    the choice and the value read.
    """

    engine: str
    asked_at: str | None
    speaker: str | None
    read_as: str | None = None
    read_in: Json | None = None
    shape: Json | None = None
    withheld_below_trust: int | None = None
    withheld_as_orders: int | None = None
    census: Json | None = None
    whose: Json | None = None
    plans: list[Json] | None = None
    plan: Json | None = None
    best_lines: list[str] | None = None
    evidence_block: list[str] | None = None
    routed: bool = False
    route: Json | None = None
    subsets: tuple[SubsetAudit, ...] = ()
    chosen: Json | None = None
    value: Json | None = None
    contradicted_by: list[Json] | None = None
    answerability: Json | None = None
    scope: Json | None = None
    quoted: Json | None = None
    no_longer_holds: list[Json] | None = None
    last_organ: Json | None = None
    copies: list[str] | None = None
    closest: Json | None = None
    polar: Json | None = None
    engine_calls: Json | None = None
    _json: Json = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_json", self._derived())

    def to_dict(self) -> Json:
        return dict(self._json)

    def __getitem__(self, key: str) -> Any:
        return self._json[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._json)

    def __len__(self) -> int:
        return len(self._json)

    def _derived(self) -> Json:
        out: Json = {"engine": self.engine, "asked_at": self.asked_at, "speaker": self.speaker}
        optional = {
            "read_as": self.read_as,
            "read_in": self.read_in,
            "scope": self.scope,
            "shape": self.shape,
            "withheld_below_trust": self.withheld_below_trust,
            "withheld_as_orders": self.withheld_as_orders,
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
        candidates: list[Json] = []
        gate: list[Json] = []
        subsets: list[Json] = []
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
                    "block": list(subset.block),
                    "candidates": listed,
                }
            )
        if self.evidence_block is not None:
            out["subsets"] = subsets
        out["candidates"], out["gate"] = candidates, gate
        for key in (
            "chosen",
            "answerability",
            "value",
            "contradicted_by",
            "quoted",
            "no_longer_holds",
            "last_organ",
            "copies",
            "closest",
            "polar",
        ):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.engine_calls is not None:
            out["engine_calls"] = self.engine_calls
        return out


_PRECEDENCE = (
    Reason.WEAK_EVIDENCE,
    Reason.HOLDER,
    Reason.DIGIT_VETO,
    Reason.MIXTURE,
    Reason.UNSUPPORTED,
    Reason.READBACK,
    Reason.UNVERIFIABLE,
    Reason.NOT_AN_ANSWER,
    Reason.NO_CANDIDATE,
)
