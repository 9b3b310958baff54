"""The engine's read-back of a sentence that passed the gates, checked claim by claim."""

from __future__ import annotations

from collections.abc import Sequence

from affidavit.engine.protocol import Engine, ReadsBack
from affidavit.gates.decision import GateDecision
from affidavit.gates.exit import judge
from affidavit.reasons import Reason
from affidavit.results import Evidence
from affidavit.text.analyzer import Analyzer
from affidavit.text.numbers import written_numbers

# A shorter answer is a phrase ("1928", "the Tyne bridge"): it makes one claim, which the
# gates have read back already, so asking the engine again would only cost a call.
READ_BACK_WORDS = 6


def engine_read_back(
    engine: Engine,
    sentence: str,
    subset: Sequence[Evidence],
    analyzer: Analyzer,
    anchor: Sequence[Evidence],
) -> GateDecision | None:
    """The verdict on the engine's claims for ``sentence``; None when it was not asked.

    The gates read a sentence back into claims themselves (gates.claims); an engine that
    can read back (ReadsBack) is also asked, by ask (the gate never asks), for a sentence
    long enough to make more than one claim, and each claim it returns is judged by the
    same gates against the same lines. A claim holding a word or number the sentence does
    not say is not a reading of it: it is set aside and the audit says so. The engine's
    reading can only drop a sentence (one claim the evidence does not support fails it); a
    reading set aside, empty or malformed leaves the library's own verdict standing.
    """
    if not isinstance(engine, ReadsBack) or len(sentence.split()) < READ_BACK_WORDS:
        return None
    said_terms = set(analyzer.terms(sentence))
    said_numbers = set(written_numbers(sentence))
    checked: list[str] = []
    aside: list[str] = []
    for claim in engine.read_back(sentence):
        own_words = set(analyzer.terms(claim)) <= said_terms
        if not own_words or not set(written_numbers(claim)) <= said_numbers:
            aside.append(claim)
            continue
        verdict = judge(claim, subset, analyzer, anchor=anchor)
        failure = verdict.failure
        if failure is not None:
            return GateDecision(
                gate="engine_readback",
                passed=False,
                reason=Reason.READBACK.value,
                detail=f"the engine reads it as claiming {claim!r}: {failure.detail}",
            )
        checked.append(claim)
    detail = f"{len(checked)} claim(s) the engine read back are each supported"
    if aside:
        detail += "; set aside as not the sentence's own words: " + "; ".join(map(repr, aside))
    return GateDecision(gate="engine_readback", passed=True, reason=None, detail=detail)
