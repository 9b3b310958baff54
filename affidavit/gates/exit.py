"""The exit gate: judge each candidate against the evidence it cites; drop, never repair.

This first tier is the digit veto: any number in a candidate (in digits, or written out up
to twenty) that its cited evidence does not carry, in either form, vetoes the candidate
outright, whatever else it says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from affidavit.gates.numbers import carried_numbers, number_words_in, numbers_in
from affidavit.reasons import Reason


@dataclass(frozen=True, slots=True)
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


def digit_veto(candidate: str, evidence: Sequence[str]) -> GateDecision:
    """Veto ``candidate`` if it writes a number (digits, or a word up to twenty) no cited
    line carries, in digits or in words."""
    carried: set[str] = set()
    for line in evidence:
        carried |= carried_numbers(line)
    written = numbers_in(candidate) + number_words_in(candidate)
    unsupported = [n for n in written if n not in carried]
    if unsupported:
        return GateDecision(
            "digit_veto",
            False,
            Reason.DIGIT_VETO.value,
            "not in the cited evidence: " + ", ".join(sorted(set(unsupported))),
        )
    return GateDecision("digit_veto", True, None, "every number is carried by the evidence")


# NOTE: half of the question's content words must stand in the cited lines; below that a
# candidate answers some other question. First cut, to be measured on SQuAD 2.0.
MIN_SUPPORT = 0.5


def support(question_terms: Sequence[str], cited_terms: set[str]) -> GateDecision:
    """Pass when the cited lines carry at least MIN_SUPPORT of the question's content terms."""
    wanted = set(question_terms)
    if not wanted:
        return GateDecision("support", True, None, "the question names no content words")
    carried = len(wanted & cited_terms) / len(wanted)
    missing = sorted(wanted - cited_terms)
    if carried < MIN_SUPPORT:
        return GateDecision(
            "support",
            False,
            Reason.WEAK_EVIDENCE.value,
            f"cited lines carry {carried:.0%} of the question's key words; missing: "
            + ", ".join(missing),
        )
    return GateDecision("support", True, None, f"cited lines carry {carried:.0%} of the key words")
