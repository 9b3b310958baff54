"""The definition judge: a question asking what a term it quotes means ("What does
“Contributor” mean?", "Who is the “Affirmer”?") is answered only from a line that quotes
the term where it defines it, not from one that merely uses the word."""

from __future__ import annotations

import re
from collections.abc import Sequence

from affidavit.gates.decision import GateDecision
from affidavit.reasons import Reason
from affidavit.text.words import quoted_terms


def defines_asked_terms(question: str, line: str) -> bool:
    """A question that quotes a term ("What does “Contributor” mean?") asks about it as a
    term, and the line that answers quotes it too where it defines it: a line that merely
    uses the word is not the definition."""
    asked = {t.strip().lower() for t in quoted_terms(question)}
    quoted = {t.strip().lower() for t in quoted_terms(line)}
    return asked <= quoted


# "What does “X” mean?", "What is the “X”?", "Who is the “X”?", "How is “X” defined?":
# a question asking what a quoted term is.
_ASKS_DEFINITION = re.compile(
    r"\b(?:mean|means|meant|refers?|defined?|definition)\b"
    r"|\b(?:what|who)\s+(?:is|are)\s+(?:(?:a|an|the)\s+)?[“\"]",
    re.IGNORECASE,
)


def asks_a_definition(question: str) -> bool:
    """Does ``question`` ask what a term it quotes is or means?"""
    return bool(quoted_terms(question) and _ASKS_DEFINITION.search(question))


def definition_decision(question: str, lines: Sequence[str]) -> GateDecision:
    """A question asking what a quoted term means is answered from a line that quotes
    the term where it defines it ('(the "Affirmer")'), not from one that merely uses the
    word: the gate's decision on the candidate's cited ``lines``."""
    passed = any(defines_asked_terms(question, line) for line in lines)
    return GateDecision(
        gate="definition",
        passed=passed,
        reason=None if passed else Reason.WEAK_EVIDENCE.value,
        detail="the cited line quotes the term asked about"
        if passed
        else "the question asks what a quoted term means; the cited line does not quote it",
    )
