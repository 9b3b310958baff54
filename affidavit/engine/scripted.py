"""An engine that returns canned candidates: for tests, demos and replaying a model's output."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from affidavit.engine.protocol import Candidate
from affidavit.organs.shape import Shape
from affidavit.results import Evidence

Script = (
    Mapping[str, Sequence[Candidate]] | Callable[[str, Sequence[Evidence]], Sequence[Candidate]]
)


class ScriptedEngine:
    """Answers each question with the candidates scripted for it (none if unscripted)."""

    name = "scripted"

    def __init__(self, script: Script) -> None:
        self._script = script
        self.calls: list[tuple[str, tuple[Evidence, ...]]] = []

    def propose(self, question: str, shape: Shape, evidence: Sequence[Evidence]) -> list[Candidate]:
        self.calls.append((question, tuple(evidence)))
        if callable(self._script):
            return list(self._script(question, evidence))
        return list(self._script.get(question, ()))
