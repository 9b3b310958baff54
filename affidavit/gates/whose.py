"""Whose it is, across a whole conversation: how fully it tells the question of the speaker
the question names and of the best rival, and the decision on it. A question about one
speaker is refused when the conversation tells what it asks more fully of someone else
(archive/told_of.py weighs the turns; this judges what was weighed)."""

from __future__ import annotations

from dataclasses import dataclass

from affidavit.gates.decision import Gate, GateDecision
from affidavit.reasons import Reason, compared


@dataclass(frozen=True, slots=True)
class ToldOf:
    """How fully the conversation tells the question of the speaker it names, and of the
    best rival: the share of the question's other key words their best turns carry."""

    speaker: str
    share: float  # the named speaker's best turn's share (0 when none carries any)
    rival: str | None  # the holder of the best turn not the speaker's, if any
    rival_share: float
    rival_line: str | None  # that turn, with its document and position

    @property
    def passed(self) -> bool:
        return self.rival is None or self.share >= self.rival_share - 1e-9

    def decision(self) -> GateDecision:
        if self.passed:
            return GateDecision(
                gate=Gate.WHOSE,
                passed=True,
                reason=None,
                detail=f"no turn tells it more fully of anyone other than {self.speaker} "
                f"({self.share:.0%} of the question's other key words)",
            )
        rival_share, own_share = compared(self.rival_share, self.share, percent=True)
        return GateDecision(
            gate=Gate.WHOSE,
            passed=False,
            reason=Reason.HOLDER.value,
            detail=f"the conversation tells it of {self.rival} ({self.rival_line}: "
            f"{rival_share} of the question's other key words), not of "
            f"{self.speaker} (at most {own_share})",
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "speaker": self.speaker,
            "share": round(self.share, 6),
            "rival": self.rival,
            "rival_share": round(self.rival_share, 6),
            "rival_line": self.rival_line,
            **self.decision().to_dict(),
        }
