"""The contest judge: a sentence the lines support may still be said otherwise by another
line of the store of equal trust or above (the same words with other values in their
place), and then it is contested, both lines cited. A stranger cannot contest a document."""

from __future__ import annotations

from collections.abc import Sequence

from affidavit.gates.decision import Gate, GateDecision
from affidavit.reasons import Reason
from affidavit.results import Evidence
from affidavit.text import Analyzer, values_written


def rival_line(
    claim: str, supporting: Sequence[Evidence], lines: Sequence[Evidence], analyzer: Analyzer
) -> Evidence | None:
    """The first of ``lines`` that says ``claim`` with other values, or None.

    Such a line writes every word of the claim but some of its values (names and numbers),
    shares at least half of its words, and puts values of its own in their place, and
    nothing else ("The CEO of Acme met Bob." is another fact). Only lines at the trust of
    the ``supporting`` lines or above count: a stranger cannot contest a document.
    """
    if not supporting:
        return None
    said = set(analyzer.terms(claim))
    values = set(analyzer.terms(" ".join(values_written(claim))))
    if not values:
        return None
    trust = min(line.trust for line in supporting)
    for line in lines:
        if line in supporting or line.trust < trust:
            continue
        other = set(analyzer.terms(line.text))
        their_values = set(analyzer.terms(" ".join(values_written(line.text))))
        missing, added = said - other, other - said
        shared = len(said & other)
        if (
            missing
            and missing <= values
            and added
            and added <= their_values
            and 2 * shared >= len(said)
        ):
            return line
    return None


def contested_by(rival: Evidence) -> GateDecision:
    """The decision on a supported sentence that ``rival`` says otherwise."""
    return GateDecision(
        gate=Gate.CONTEST,
        passed=False,
        reason=Reason.CONTESTED.value,
        detail=f"[{rival.document} #{rival.position}] says otherwise: {rival.text!r}",
    )
