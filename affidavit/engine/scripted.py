"""An engine that returns canned candidates and plans: for tests, demos and replaying a
model's output."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from affidavit.engine.protocol import Candidate, ProposedPlan
from affidavit.question import Question
from affidavit.results import Evidence

Script = (
    Mapping[str, Sequence[Candidate]] | Callable[[str, Sequence[Evidence]], Sequence[Candidate]]
)


class ScriptedEngine:
    """Answers each question with the candidates scripted for its text as read (none if
    unscripted)."""

    name = "scripted"

    def __init__(
        self, script: Script, plans: Mapping[str, Sequence[ProposedPlan]] | None = None
    ) -> None:
        """``plans`` maps a question to the plans proposed for it (Plan objects, their
        JSON objects or JSON text, malformed ones included: tests show how each dies)."""
        self._script = script
        self._plans = plans or {}
        self.calls: list[tuple[str, tuple[Evidence, ...]]] = []

    def propose(self, question: Question, evidence: Sequence[Evidence]) -> list[Candidate]:
        self.calls.append((question.text, tuple(evidence)))
        if callable(self._script):
            return list(self._script(question.text, evidence))
        return list(self._script.get(question.text, ()))

    def propose_plans(self, question: Question, evidence: Sequence[Evidence]) -> list[ProposedPlan]:
        return list(self._plans.get(question.text, ()))
