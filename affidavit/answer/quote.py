"""Quote the line rather than guess: when one line plainly answers the question but no span
of the kind asked for stands in it, the answer is that line, whole, quoted and cited, and
it says so. A reviewer is better served by the rule itself than by a short span of the
wrong kind, or by a refusal of an answer that stands in the text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from affidavit.gates import Case, Judgement, defines_asked_terms, judged
from affidavit.question import AnswerType, Question
from affidavit.results import Evidence, LineKind
from affidavit.text import one_of_a_list

# The kinds of answer that are a clause, not a typed span ("What must modified files
# carry?"): only these are quoted. A line holding no value of a typed kind (a number, a
# range, a telephone number) does not answer a question asking for one, however well it
# carries the question's words: on the compliance tune split such quotes were wrong.
CLAUSE_ANSWERS = frozenset({AnswerType.DESCRIPTION, AnswerType.REASON})
# When no span of the asked kind was found at all, the lines first in retrieval are tried
# whole; a quote is said only when exactly one distinct line among them carries the
# question through every tier of the gate (two would be a guess between them).
QUOTE_DEPTH = 3
# A quote is a line a reviewer reads at a glance, not a page run together by the parser.
QUOTE_MIN_WORDS = 4
QUOTE_MAX_WORDS = 80

# Why a line is quoted, as the audit and the CLI say it: what the spans found lacked.
NO_SPAN = "no span of the kind asked for stands in the line that carries the question"
DOUBTED_SPAN = "the reader doubts the span it found in the line that carries the question"
LISTED_SPAN = "the span found is one of several things the line lists: the rule is the line"

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


def asks_a_rule(asked: Question) -> bool:
    """Does the question ask what a rule says, its answer a clause (not a typed value)?
    Only such a question is answered by its line quoted."""
    return asked.shape.answer_type in CLAUSE_ANSWERS and not asked.value and asked.rule


def clear_line(
    asked: Question,
    hits: Sequence[Evidence],
    subsets: Sequence[Sequence[Evidence]],
    judge_line: LineJudge,
    why: str,
) -> Quote | None:
    """The one line, among the first QUOTE_DEPTH of retrieval, that passes the gate when
    said whole and carries the question alone (``judge_line`` judges both), quoted for
    ``why``; None when none does, or more than one (no line is then clear), or when the
    question asks for a typed value or for anything but what a rule says."""
    if not asks_a_rule(asked):
        return None
    ranked = sorted(hits, key=lambda e: (-e.score, e.document, e.position))
    passing: list[Quote] = []
    seen: set[str] = set()
    for hit in ranked[:QUOTE_DEPTH]:
        found = [(s, e) for s in subsets for e in s if _same(e, hit)]
        if not found or not quotable(hit):
            continue
        subset, line = found[0]
        if not defines_asked_terms(asked, line.text):
            continue
        said = " ".join(line.text.split())
        if said in seen:
            continue  # the same words in two places are one line to a reader
        seen.add(said)
        judgement = judge_line(line, subset)
        if judgement.passed:
            passing.append(Quote(line, _cited(line, judgement.supporting), why))
    return passing[0] if len(passing) == 1 else None


def cut_from_a_list(asked: Question, answer: str, cited: Sequence[Evidence]) -> bool:
    """Is a span answering a question about a rule one of several things its line lists
    ("the above copyright notice" of "must retain the above copyright notice, this list
    of conditions and the following disclaimer")? Said alone it would answer a part of
    the rule as the whole: the line is then quoted, if one line is clear."""
    if not asks_a_rule(asked):
        return False
    for line in cited:
        at = line.text.find(answer)
        if at >= 0 and one_of_a_list(line.text, at, at + len(answer), asked.language):
            return True
    return False


def _same(one: Evidence, other: Evidence) -> bool:
    return one.document == other.document and one.position == other.position


def _cited(line: Evidence, supporting: Sequence[Evidence]) -> list[Evidence]:
    """The quoted line first, then the lines beside it that carry the question for it."""
    return [line, *(e for e in supporting if e != line)]


def line_judge(
    asked: Question,
    asked_of: Callable[[str], frozenset[str]],
    term_weight: Callable[[str], float],
    turns_need: float,
) -> LineJudge:
    """The judges on a line said whole, against its own document's lines (asked the
    question's key terms as ``asked_of`` its document gives them), with the quote's own
    test: the line carries the question alone (gates/quoted.py)."""

    def judge_line(line: Evidence, subset: Sequence[Evidence]) -> Judgement:
        case = Case(
            text=line.text,
            lines=subset,
            analyzer=asked.analyzer,
            cites=(list(subset).index(line),),
            asked=asked_of(line.document),
            term_weight=term_weight,
            turns_need=turns_need,
            wording=asked.wording,
            alone=True,
        )
        return judged(case)

    return judge_line
