"""The digit veto, the gate's first and non-negotiable tier: any number or date a sentence
writes that its evidence does not carry vetoes the sentence outright."""

from __future__ import annotations

from collections.abc import Iterable

from affidavit.gates.decision import Gate, GateDecision
from affidavit.reasons import Reason
from affidavit.text import WrittenDate, dates_in, evidence_numbers, written_numbers


def unsupported_numbers(
    candidate: str, evidence: Iterable[str], language: str | None = None
) -> list[str]:
    """The numbers and dates ``candidate`` writes that ``evidence`` does not carry.

    Numbers are read in digits, or in words up to twenty, and compared as spellings of a
    value ("1,200" = "1200", "7%" = "7 percent", "three" = "3"). Dates are compared whole:
    a date the candidate writes must agree, on every part it names, with a date the
    evidence writes, in whatever form ("2019-05-03" is carried by "May 3, 2019"; "February
    2, 1832" is not carried by "February 9, 1832", even though the evidence has a 2 in
    February's place).
    """
    lines = list(evidence)
    carried = evidence_numbers(lines)
    evidence_dates = [d for line in lines for d in dates_in(line)]
    missing: list[str] = []
    readings: dict[tuple[int, int], list[WrittenDate]] = {}
    for date in dates_in(candidate):
        readings.setdefault((date.start, date.end), []).append(date)
    spans = list(readings)
    for (start, end), ways in readings.items():
        # A date is carried when one of its readings agrees with an evidence date.
        if not any(w.agrees_with(other) for w in ways for other in evidence_dates):
            missing.append(candidate[start:end])
    # Numbers outside dates are compared one by one.
    plain = candidate
    for start, end in sorted(spans, reverse=True):
        plain = plain[:start] + " " * (end - start) + plain[end:]
    missing.extend(n for n in written_numbers(plain, language) if n not in carried)
    return sorted(set(missing))


def digit_veto(
    candidate: str, evidence: Iterable[str], language: str | None = None
) -> GateDecision:
    """Veto ``candidate`` if it writes a number or date that no evidence line carries."""
    unsupported = unsupported_numbers(candidate, evidence, language)
    if unsupported:
        return GateDecision(
            gate=Gate.DIGIT_VETO,
            passed=False,
            reason=Reason.DIGIT_VETO.value,
            detail="not in the cited evidence: " + ", ".join(unsupported),
        )
    return GateDecision(
        gate=Gate.DIGIT_VETO,
        passed=True,
        reason=None,
        detail="every number is carried by the evidence",
    )


def reproduced(held: bool, detail: str) -> GateDecision:
    """The digit veto's second look at a number no line writes ("rose 24.4%"): it stands
    only when the store's own cells reproduce it (``held``), by the plan ``detail`` says."""
    return GateDecision(
        gate=Gate.RECOMPUTE,
        passed=held,
        reason=None if held else Reason.DIGIT_VETO.value,
        detail=detail,
    )
