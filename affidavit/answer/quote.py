"""Quote the line rather than guess: when one line plainly answers the question but no span
of the kind asked for stands in it, the answer is that line, whole, quoted and cited, and
it says so. A reviewer is better served by the rule itself than by a short span of the
wrong kind, or by a refusal of an answer that stands in the text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from affidavit.gates.context import headings_standing_over, support_terms
from affidavit.gates.decision import GateDecision
from affidavit.gates.definition import defines_asked_terms
from affidavit.gates.exit import Judgement, judge
from affidavit.gates.support import KeyWords, support_decision
from affidavit.question.shape import AnswerType
from affidavit.reasons import Reason
from affidavit.results import Evidence, LineKind
from affidavit.text.analyzer import Analyzer
from affidavit.text.wording import NO_WORDING, Wording

# The kinds of answer that are a clause, not a typed span ("What must modified files
# carry?"): only these are quoted. A line holding no value of a typed kind (a number, a
# range, a telephone number) does not answer a question asking for one, however well it
# carries the question's words: on the compliance tune split such quotes were wrong.
CLAUSE_ANSWERS = frozenset({AnswerType.DESCRIPTION, AnswerType.REASON})
# The words of a question that asks what a rule says. NOTE: only a rule is quoted: on
# SQuAD 2.0's tune split, quoting the line for every clause-shaped question ("What was
# replaced…?") answered its unanswerable questions and took F1 from 0.569 to 0.526.
_RULE_WORDS = frozenset(
    "must shall should may required permitted allowed obliged prohibited forbidden".split()
)
# Nouns that name a value ("Which UID range is used…?"): asked right after "what" or
# "which", they make the answer a typed value whatever the shape reads.
_VALUE_NOUNS = frozenset(
    "range ranges number numbers amount amounts fee fees rate rates percentage price prices "
    "cost costs date dates year years day days limit limits total value values size count "
    "version versions address".split()
)
# When no span of the asked kind was found at all, the lines first in retrieval are tried
# whole; a quote is said only when exactly one distinct line among them carries the
# question through every tier of the gate (two would be a guess between them).
QUOTE_DEPTH = 3
# A quote is a line a reviewer reads at a glance, not a page run together by the parser.
QUOTE_MIN_WORDS = 4
QUOTE_MAX_WORDS = 80

# Judges a line, said whole, against the evidence subset it stands in.
LineJudge = Callable[[Evidence, Sequence[Evidence]], Judgement]


@dataclass(frozen=True, slots=True)
class Quote:
    """The line said as the answer, the lines cited for it, and why it was quoted."""

    line: Evidence
    citations: list[Evidence]
    why: str

    @property
    def text(self) -> str:
        """The line verbatim: a quote adds no word, not even its quote marks (a renderer
        shows them), so the answer still slices back to the line it cites."""
        return self.line.text

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line.dateline(), "why": self.why}


def quotable(line: Evidence) -> bool:
    """A sentence of a document, short enough to be read as one rule."""
    words = len(line.text.split())
    return line.kind == LineKind.SENTENCE and QUOTE_MIN_WORDS <= words <= QUOTE_MAX_WORDS


def carries_alone(
    line: Evidence, subset: Sequence[Evidence], keys: KeyWords, analyzer: Analyzer
) -> bool:
    """Does the line, under its headings and its document's name, carry the question by
    itself? The gate lets the lines beside an answer's line carry part of the question; a
    quote is read alone, so it must carry it alone."""
    terms = support_terms([line], headings_standing_over(line, subset), analyzer)
    return support_decision(keys, terms.carried, terms.written).passed


def asks_for_a_rule(question: str) -> bool:
    """Does the question ask what a rule requires, permits or forbids ("What must
    redistributions retain?")? Its answer is the rule: the line that states it. The words
    are read as written: "May" with a capital is a month ("in May of 2012")."""
    return any(w.strip("?,.\"'") in _RULE_WORDS for w in question.split())


def asks_for_value(question: str) -> bool:
    """Does a "what/which" question name a value as what it asks for ("Which UID range…",
    "What fee…")? Its answer is typed though its shape is loose: a line is no answer."""
    words = [w.strip("?,.\"'").lower() for w in question.split()]
    for at, word in enumerate(words):
        if word in ("what", "which"):
            return any(w in _VALUE_NOUNS for w in words[at + 1 : at + 4])
    return False


def clear_line(
    question: str,
    answer_type: AnswerType,
    hits: Sequence[Evidence],
    subsets: Sequence[Sequence[Evidence]],
    judge_line: LineJudge,
) -> Quote | None:
    """The one line, among the first QUOTE_DEPTH of retrieval, that passes the gate when
    said whole and carries the question alone (``judge_line`` judges both); None when none
    does, or more than one (no line is then clear), or when the question asks for a typed
    value or for anything but what a rule says."""
    if answer_type not in CLAUSE_ANSWERS or asks_for_value(question):
        return None
    if not asks_for_a_rule(question):
        return None
    ranked = sorted(hits, key=lambda e: (-e.score, e.document, e.position))
    passing: list[Quote] = []
    seen: set[str] = set()
    for hit in ranked[:QUOTE_DEPTH]:
        found = [(s, e) for s in subsets for e in s if _same(e, hit)]
        if not found or not quotable(hit):
            continue
        subset, line = found[0]
        if not defines_asked_terms(question, line.text):
            continue
        said = " ".join(line.text.split())
        if said in seen:
            continue  # the same words in two places are one line to a reader
        seen.add(said)
        judgement = judge_line(line, subset)
        if judgement.passed:
            why = "no span of the kind asked for stands in the line that carries the question"
            passing.append(Quote(line, _cited(line, judgement.supporting), why))
    return passing[0] if len(passing) == 1 else None


def _same(one: Evidence, other: Evidence) -> bool:
    return one.document == other.document and one.position == other.position


def _cited(line: Evidence, supporting: Sequence[Evidence]) -> list[Evidence]:
    """The quoted line first, then the lines beside it that carry the question for it."""
    return [line, *(e for e in supporting if e != line)]


def line_judge(
    analyzer: Analyzer,
    asked_of: Callable[[str], frozenset[str]],
    term_weight: Callable[[str], float],
    turns_need: float,
    wording: Wording = NO_WORDING,
) -> LineJudge:
    """The exit gate on a line said whole, against its own document's lines (asked the
    question's key terms as ``asked_of`` its document gives them), and the quote's own
    test: the line carries the question alone (``carries_alone``). ``wording``: the
    question's words for its terms, for the gate's messages."""

    def judge_line(line: Evidence, subset: Sequence[Evidence]) -> Judgement:
        asked_here = asked_of(line.document)
        judged = judge(
            line.text,
            subset,
            analyzer,
            question_terms=asked_here,
            anchor=[line],
            term_weight=term_weight,
            turns_need=turns_need,
            wording=wording,
        )
        keys = KeyWords.of(asked_here, term_weight, analyzer.language, wording=wording)
        if judged.passed and not carries_alone(line, subset, keys, analyzer):
            judged.decisions.append(
                GateDecision(
                    gate="quote",
                    passed=False,
                    reason=Reason.WEAK_EVIDENCE.value,
                    detail="the line does not carry the question by itself",
                )
            )
        return judged

    return judge_line
