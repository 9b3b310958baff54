"""A quoted line's own test: said whole as the answer, it must carry the question by
itself, under its headings and its document's name. The gate lets the lines beside an
answer's line carry part of the question; a quote is read alone."""

from __future__ import annotations

from collections.abc import Sequence

from affidavit.gates.case import Case, Judgement
from affidavit.gates.context import headings_standing_over, support_terms
from affidavit.gates.decision import Gate, GateDecision
from affidavit.gates.support import KeyWords, support_decision
from affidavit.reasons import Reason
from affidavit.results import Evidence
from affidavit.text import Analyzer


def carries_alone(
    line: Evidence, subset: Sequence[Evidence], keys: KeyWords, analyzer: Analyzer
) -> bool:
    """Does the line, under its headings and its document's name, carry the question by
    itself?"""
    terms = support_terms([line], headings_standing_over(line, subset), analyzer)
    return support_decision(keys, terms.carried, terms.written).passed


def carries_by_itself(case: Case, found: Judgement) -> GateDecision | None:
    """A failed decision when a line to be quoted does not carry the question by itself;
    None for any other case, or a line that does."""
    if not case.alone or not case.anchor:
        return None
    if case.asked and not _says_more(case.anchor[0].text, case):
        return GateDecision(
            gate=Gate.QUOTE,
            passed=False,
            reason=Reason.NOT_AN_ANSWER.value,
            detail="the line says back the question's own words: it answers nothing",
        )
    keys = KeyWords.of(case.asked, case.term_weight, case.analyzer.language, wording=case.wording)
    if carries_alone(case.anchor[0], case.lines, keys, case.analyzer):
        return None
    return GateDecision(
        gate=Gate.QUOTE,
        passed=False,
        reason=Reason.WEAK_EVIDENCE.value,
        detail="the line does not carry the question by itself",
    )


def _says_more(text: str, case: Case) -> bool:
    """Does the line write a word beside the question's key words? "The first line of the
    message body has to include a pseudo-header." asked "What pseudo-header must the first
    line of the message body include?" only says the question back."""
    return bool(set(case.analyzer.terms(text)) - case.asked)
