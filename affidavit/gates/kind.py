"""The kind judge: an answer is something the question asks for, never the form's own
furniture. A field's label ("g) Flash point" asked "What is the flash point?"), a heading
or section title ("1.3 Details"), a list marker, or the question's own words said back
are what a line is laid out with, not what it says; each is refused so the next candidate
may answer, and the audit names which it was."""

from __future__ import annotations

import re

from affidavit.gates.case import Case, Judgement
from affidavit.gates.decision import Gate, GateDecision
from affidavit.question import AnswerType
from affidavit.reasons import Reason
from affidavit.results import LineKind
from affidavit.text import LANGUAGE_NUMBER_WORDS, words

# A list or section marker opening the answer: "g)", "(iv)", "1.3 Details", "5.1.1.2", "2.",
# "•". A number that is a value is not one: "3.5 million" (one dot, then a word in lower
# case), "2016 Annual Report" (no dot or bracket); nor is an initial ("J. Smith").
_MARKER = re.compile(
    r"^\s*(?:\(?[a-z]\)|\([ivxlc]+\)|[ivxlc]+\)|[A-Z]\)|\d+(?:\.\d+){2,}\.?|"
    r"\d+\.\d+(?=\s+[A-Z])|\d+[.)]|[•▪◦·*-])(?=\s|$)"
)
# A part's title is at most this many words; an item's sentence is longer.
_TITLE_WORDS = 6
# Kinds whose answer may be the title of something: a heading's words are what they ask.
_TITLE_KINDS = frozenset({AnswerType.TITLE, AnswerType.DESCRIPTION})
# A question asking yes or no ("Is the Work licensed …?") is answered by a line that
# says it, in its words (English; a Spanish or Turkish question's form is not read here).
_ASKS_YES_OR_NO = re.compile(
    r"^\W*(?:is|are|was|were|do|does|did|can|could|will|would|should|shall|has|have|had|"
    r"may|must|might)\b",
    re.IGNORECASE,
)
# A question that offers its own alternatives ("A or B?") is answered in its own words.
_ALTERNATIVES = re.compile(r"\bor\b|\bo\b|\bya da\b|\bveya\b", re.IGNORECASE)


def of_the_kind_asked(case: Case, found: Judgement) -> GateDecision | None:
    """An ``ask`` candidate is not a label, a heading or the question said back. None
    for a sentence given to verify or a quoted line (a quote is the line itself)."""
    asked = case.question
    if asked is None or case.cites is None or case.alone:
        return None
    answer = case.text.strip()
    why = _not_an_answer(answer, case, asked.text, asked.shape.answer_type)
    if why is None:
        return None
    return GateDecision(gate=Gate.KIND, passed=False, reason=Reason.NOT_AN_ANSWER.value, detail=why)


def _not_an_answer(answer: str, case: Case, question: str, kind: AnswerType) -> str | None:
    """What the answer is instead of an answer, or None when it may be one."""
    if answer.endswith(":"):
        return f"{answer!r} is a field's label: its value is what is asked"
    if kind not in _TITLE_KINDS and _is_a_heading(answer, case):
        return f"{answer!r} is a heading of the document, not a value of the kind asked"
    marker = _MARKER.match(answer)
    rest = answer[marker.end() :].strip() if marker else answer
    if _says_back(rest, question, case):
        return f"{answer!r} says back the question's own words"
    if marker is not None and _a_title(rest):
        return f"{answer!r} opens with a list or section marker: it names a part, not a value"
    return None


def _a_title(text: str) -> bool:
    """A few words and no figure: what a marker numbers when it names a part ("Details",
    "HAZARDS IDENTIFICATION"), not an item's sentence or a value ("1.1.1.1")."""
    said = text.split()
    return 0 < len(said) <= _TITLE_WORDS and not any(ch.isdigit() for ch in text)


def _says_back(answer: str, question: str, case: Case) -> bool:
    """Is every word of the answer one the question writes, as it writes it? A number
    ("50 franchise restaurants", "seven regions") is news however the rest echoes, and a
    question that offers its alternatives, or asks yes or no, is answered in its words."""
    if _ASKS_YES_OR_NO.match(question) or _ALTERNATIVES.search(question):
        return False
    language = case.analyzer.language
    said = [w for w in words(answer, language) if case.analyzer.term(w) is not None]
    numbers = LANGUAGE_NUMBER_WORDS.get(language, frozenset())
    if not said or any(w[:1].isdigit() or w in numbers for w in said):
        return False
    return set(said) <= set(words(question, language))


def _is_a_heading(answer: str, case: Case) -> bool:
    """Is the answer the whole of a heading line it cites?"""
    language = case.analyzer.language
    said = words(answer, language)
    return any(
        line.kind == LineKind.HEADING and words(line.text, language) == said for line in case.anchor
    )
