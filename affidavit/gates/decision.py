"""One gate's verdict on one candidate or sentence, as the audit records it, and the names
of the gates that give them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Gate(StrEnum):
    """Every check a candidate, a sentence or a quoted line can be refused by, in the
    order the registry runs them (gates/registry.py); the value is what the audit says."""

    CONTENT = "content"  # it says something to check
    CITATION = "citation"  # it cites lines of the evidence it was drawn from
    DIGIT_VETO = "digit_veto"  # every number it writes is in the evidence
    ENTAILMENT = "entailment"  # a line's clause frames entail it, or say the opposite
    MIXTURE = "mixture"  # every content word comes from the evidence
    READBACK = "readback"  # each claim stands in one line, its numbers in their company
    ROLES = "roles"  # who does what to whom, as the line says it
    POLARITY = "polarity"  # said, not said otherwise
    SUPPORT = "support"  # the lines carry the question's distinctive words
    KIND = "kind"  # an answer, not a label, a heading or the question said back
    SLOT = "slot"  # it fills the slot of the clause that says what is asked
    ANCHORS = "anchors"  # the lines name the anchor the question names, not another
    HOLDER = "holder"  # a speaker's own turns, or a line that names them
    DEFINITION = "definition"  # a term asked for is defined by the line that cites it
    ENGINE_READBACK = "engine_readback"  # the engine's own reading, judged claim by claim
    QUOTE = "quote"  # a quoted line carries the question by itself
    WHOSE = "whose"  # the conversation tells it of the speaker the question names
    ANSWERABILITY = "answerability"  # the reader finds the best candidate likely enough
    RECOMPUTE = "recompute"  # a number no line writes, reproduced from the store's cells
    CONTEST = "contest"  # no line of equal trust says it otherwise


@dataclass(frozen=True, slots=True, kw_only=True)
class GateDecision:
    gate: Gate
    passed: bool
    reason: str | None
    detail: str

    def to_dict(self) -> dict[str, object]:
        return {
            "gate": self.gate.value,
            "passed": self.passed,
            "reason": self.reason,
            "detail": self.detail,
        }
