"""The engine's reading of a candidate that passed the gates, judged claim by claim: the
gates read a sentence back into claims themselves (gates/claims.py); an engine that can
read back is asked too, by ``ask`` (a judge never asks the engine), and each claim it
returns is judged by the same gates against the same lines."""

from __future__ import annotations

from dataclasses import replace

from affidavit.gates.case import Case, Judgement, run_judges
from affidavit.gates.decision import Gate, GateDecision
from affidavit.gates.exit import EXIT_TIERS
from affidavit.reasons import Reason
from affidavit.text import written_numbers

# A shorter answer is a phrase ("1928", "the Tyne bridge"): it makes one claim, which the
# gates have read back already, so asking the engine again would only cost a call.
READ_BACK_WORDS = 6


def worth_reading_back(text: str) -> bool:
    """Is ``text`` long enough to make more than one claim, so worth the engine's
    reading?"""
    return len(text.split()) >= READ_BACK_WORDS


def engine_reading_held(case: Case, found: Judgement) -> GateDecision | None:
    """The verdict on the engine's claims for the case's text; None when it was not
    asked. A claim holding a word or number the text does not say is not a reading of it:
    it is set aside and the audit says so. The engine's reading can only drop a text (one
    claim the evidence does not support fails it); a reading set aside, empty or malformed
    leaves the gates' own verdict standing."""
    if case.engine_claims is None:
        return None
    analyzer = case.analyzer
    said_terms = set(analyzer.terms(case.text))
    said_numbers = set(written_numbers(case.text))
    checked: list[str] = []
    aside: list[str] = []
    for claim in case.engine_claims:
        own_words = set(analyzer.terms(claim)) <= said_terms
        if not own_words or not set(written_numbers(claim)) <= said_numbers:
            aside.append(claim)
            continue
        # Judged by the exit gate's tiers as a sentence of the same lines, its anchor the
        # candidate's, with no question.
        plain = Case(text=claim, lines=case.lines, analyzer=analyzer, cites=None)
        verdict = run_judges(replace(plain, cites=case.cites) if case.cites else plain, EXIT_TIERS)
        failure = verdict.failure
        if failure is not None:
            return GateDecision(
                gate=Gate.ENGINE_READBACK,
                passed=False,
                reason=Reason.READBACK.value,
                detail=f"the engine reads it as claiming {claim!r}: {failure.detail}",
            )
        checked.append(claim)
    detail = f"{len(checked)} claim(s) the engine read back are each supported"
    if aside:
        detail += "; set aside as not the sentence's own words: " + "; ".join(map(repr, aside))
    return GateDecision(gate=Gate.ENGINE_READBACK, passed=True, reason=None, detail=detail)
