"""One gate's verdict on one candidate or sentence, as the audit records it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class GateDecision:
    gate: str
    passed: bool
    reason: str | None
    detail: str

    def to_dict(self) -> dict[str, object]:
        return {
            "gate": self.gate,
            "passed": self.passed,
            "reason": self.reason,
            "detail": self.detail,
        }
