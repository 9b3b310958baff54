"""The answerability judge: the reader (scorer/) gives its probability that the best
candidate the gates let through answers the question; below the threshold chosen on
held-out data the candidate is refused as unlikely. The reader proposes a probability; the
gate decides by it."""

from __future__ import annotations

from affidavit.gates.decision import Gate, GateDecision
from affidavit.reasons import Reason, compared


def likely_enough(probability: float, threshold: float) -> GateDecision:
    """The decision on the best candidate, given the reader's ``probability`` that it
    answers and the ``threshold``; the two written with digits enough to differ."""
    probable, bound = compared(probability, threshold)
    if probability >= threshold:
        return GateDecision(
            gate=Gate.ANSWERABILITY,
            passed=True,
            reason=None,
            detail=f"the reader gives it {probable}, at least the threshold {bound}",
        )
    return GateDecision(
        gate=Gate.ANSWERABILITY,
        passed=False,
        reason=Reason.UNLIKELY.value,
        detail=f"the reader gives it {probable}, below the threshold {bound}",
    )
