"""The definition judge: a question asking what a term it quotes means ("What does
“Contributor” mean?", "Who is the “Affirmer”?") is answered only from a line that quotes
the term where it defines it, not from one that merely uses the word."""

from __future__ import annotations

from affidavit.gates.case import Case, Judgement
from affidavit.gates.decision import Gate, GateDecision
from affidavit.question import Question
from affidavit.reasons import Reason
from affidavit.text import quoted_terms


def defines_asked_terms(asked: Question, line: str) -> bool:
    """A question that quotes a term ("What does “Contributor” mean?") asks about it as a
    term, and the line that answers quotes it too where it defines it: a line that merely
    uses the word is not the definition."""
    quoted = {t.strip().lower() for t in quoted_terms(line)}
    return asked.quoted <= quoted


def term_defined(case: Case, found: Judgement) -> GateDecision | None:
    """A question asking what a quoted term means is answered from a line that quotes
    the term where it defines it ('(the "Affirmer")'), not from one that merely uses the
    word: the decision on the candidate's cited lines. None for any other question."""
    asked = case.question
    if asked is None or not asked.definition:
        return None
    passed = any(defines_asked_terms(asked, line.text) for line in case.anchor)
    return GateDecision(
        gate=Gate.DEFINITION,
        passed=passed,
        reason=None if passed else Reason.WEAK_EVIDENCE.value,
        detail="the cited line quotes the term asked about"
        if passed
        else "the question asks what a quoted term means; the cited line does not quote it",
    )
