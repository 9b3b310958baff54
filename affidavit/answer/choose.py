"""The seventh stage: the answer chosen among the candidates the judges let through. The
best by the engine's score, weighed by how well its document matched; asked of now, one
drawn from a record that no longer holds gives way; the reader's probability that it
answers, judged against the threshold; and the candidates that contradict it. With none
passed, the best unlikely, or the best only one of several things its line lists, the one
line that plainly answers a question about a rule is quoted whole; else the refusal names
the check that refused, and the closest candidate."""

from __future__ import annotations

from dataclasses import replace

from affidavit.answer.disagreement import asked_kind, contest_line, rivals
from affidavit.answer.likely import likeliest, refused_by_the_reader
from affidavit.answer.propose import best_score
from affidavit.answer.quote import (
    DOUBTED_SPAN,
    LISTED_SPAN,
    NO_SPAN,
    Quote,
    clear_line,
    cut_from_a_list,
    line_judge,
)
from affidavit.answer.state import Asking, Said
from affidavit.archive import Stale
from affidavit.reasons import Reason
from affidavit.scorer import rivals_of


def choose(state: Asking) -> Asking:
    """The chosen candidate and the others standing, or the quote or refusal instead."""
    asked, archive = state.question, state.archive
    assert asked is not None
    if not state.passed:
        why = state.record.why_refused()
        if why is Reason.NO_CANDIDATE:
            # No span of the kind asked for: one line that plainly answers is said whole.
            quoted = _quoted(state, NO_SPAN)
            if quoted is not None:
                return quoted
        refused = Said.refusal(why, state.census_line)
        return state.noting(closest=state.record.nearest_miss(why)).saying(refused)
    passed = sorted(state.passed, key=lambda p: (-p.score, p.number, p.rank))
    stale: list[Stale] = []
    if not asked.past:
        # Asked of now: a candidate whose record was superseded or ended gives way.
        passed, stale = archive.current_first(passed, asked.analyzer)
        state = state.noting(no_longer_holds=[s.to_dict() for s in stale])
    chosen = passed[0]
    state = state.noting(chosen={"subset": chosen.number, "candidate": chosen.candidate.to_dict()})
    drawn = [(p.candidate, p.cited) for p in passed]
    likely = likeliest(asked, drawn, best_score(state), archive.term_weight, state.min_probability)
    if likely is not None:
        top, others = likely
        said_rivals = [(j.text, j.probability) for j in others]
        state = state.noting(answerability={**top.to_dict(), "rivals": rivals_of(others)})
        state = replace(state, likely=(top.probability, said_rivals))
        detail, closest = refused_by_the_reader(top)
        if closest is not None:
            # The reader doubts the span: the line that plainly answers is said whole, and
            # where the span is one thing of several a rule lists, that is what is said.
            cited = next((p.cited for p in passed if p.candidate.text == top.text), [])
            listed = cut_from_a_list(asked, top.text, cited)
            quoted = _quoted(state, LISTED_SPAN if listed else DOUBTED_SPAN)
            if quoted is not None:
                return quoted
            refused = Said.refusal(Reason.UNLIKELY, state.census_line, detail)
            refused = replace(refused, probability=top.probability, rivals=said_rivals)
            return state.noting(closest=closest).saying(refused)
    if cut_from_a_list(asked, chosen.candidate.text, chosen.cited):
        # One thing of several a rule lists is not the rule: its line is said whole.
        quoted = _quoted(state, LISTED_SPAN)
        if quoted is not None:
            return quoted
    # What was and no longer is does not disagree with what is; said, it says so.
    gone = {s.candidate for s in stale}
    census_line = state.census_line
    if chosen.candidate.text in gone:
        note = next(s.note for s in stale if s.candidate == chosen.candidate.text)
        census_line = f"{census_line} {note}".strip()
    standing = [p for p in passed[1:] if p.candidate.text not in gone]
    of_the_kind = asked_kind(asked, chosen.candidate.text)
    disagreeing = rivals(
        (chosen.score, chosen.candidate, chosen.cited),
        [(p.score, p.candidate, p.cited) for p in standing],
        of_the_kind,
    )
    if disagreeing:
        state = state.noting(
            contradicted_by=[
                {"text": other.text, "lines": [line.dateline() for line in lines]}
                for other, lines in disagreeing
            ]
        )
        census_line = f"{census_line} {contest_line(disagreeing)}".strip()
    return replace(state, chosen=chosen, contested=tuple(disagreeing), census_line=census_line)


def _quoted(state: Asking, why: str) -> Asking | None:
    """The one line that plainly answers a question about a rule, said whole, and the audit
    told why; None when no line is clear."""
    asked, found, naming = state.question, state.retrieved, state.naming
    assert asked is not None and found is not None and naming is not None
    judge_line = line_judge(asked, naming.asked_of, state.archive.term_weight, state.turns_need)
    quote = clear_line(asked, found.hits, found.subsets, judge_line, why)
    if quote is None:
        return None
    return state.noting(quoted=quote.to_dict()).saying(_said(quote, state.census_line))


def _said(quote: Quote, census: str) -> Said:
    return Said(text=quote.text, citations=quote.citations, census=census, quoted=True)
