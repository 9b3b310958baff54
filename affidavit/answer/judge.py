"""The sixth stage: every candidate before the judges (gates/registry.py), against the
subset it was drawn from; a sentence to verify, against each subset in turn until one
supports it. The engine is asked for its own reading of a candidate the judges let through
(a judge never asks it); what the engine reads is judged claim by claim."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from affidavit.answer.audit import Judged, SubsetAudit
from affidavit.answer.state import Asking, Flow, Passed, Proposed
from affidavit.engine import Candidate, ReadsBack
from affidavit.gates import (
    FRAME_LANGUAGES,
    Case,
    Gate,
    Judgement,
    is_short_answer,
    judged,
    unspelled,
    worth_reading_back,
)
from affidavit.results import LineKind
from affidavit.text import NO_WORDING, content_terms

# An answer of at most this many content words is a bare answer to its question (a name,
# a phrase), not a statement of its own: its sense, and the question's, may span a
# bridge (gates/context.bridged).
BARE_ANSWER_TERMS = 6


def judge(state: Asking) -> Asking:
    """The judged candidates of every subset proposed (ask), or the sentence's judgement
    against its subsets (verify)."""
    if state.flow is Flow.VERIFY:
        return judge_sentence(state)
    return judge_candidates(state, state.proposed)


def judge_candidates(state: Asking, proposed: Sequence[Proposed]) -> Asking:
    """Those of the candidates of ``proposed`` that pass join ``passed``; every judgement
    goes into the audit, subset by subset."""
    passed = list(state.passed)
    audits = list(state.record.subsets)
    for subset in proposed:
        judgements: list[Judged] = []
        for rank, candidate in enumerate(subset.candidates):
            asked = state.question
            if asked is not None and asked.route is not None and _only_rows(candidate, subset):
                # The question's route asks for a figure of a table and no plan could anchor
                # it: a cell lifted instead is a guess at the cell the plan did not find.
                continue
            found = _judged(state, subset, candidate)
            judgements.append(Judged(candidate, tuple(found.decisions)))
            if found.passed:
                cited = [subset.subset[i] for i in candidate.cites]
                score = candidate.score * subset.weight
                passed.append(Passed(score, subset.number, rank, candidate, found, cited))
        block = tuple(e.dateline() for e in subset.subset)
        audits.append(
            SubsetAudit(subset.subset[0].document, subset.weight, block, tuple(judgements))
        )
    return replace(state, passed=tuple(passed)).noting(subsets=tuple(audits))


def _judged(state: Asking, subset: Proposed, candidate: Candidate) -> Judgement:
    """The registry's verdict on one candidate; the engine is asked for its reading of it
    where the judges before that reading let it through."""
    asked = state.question
    assert asked is not None
    cites = tuple(candidate.cites)
    case = Case(
        text=candidate.text,
        lines=subset.subset,
        analyzer=asked.analyzer,
        cites=cites,
        question=asked,
        asked=subset.asked,
        term_weight=state.archive.term_weight,
        turns_need=state.turns_need,
        # The last organ's cited lines are a second tier of support.
        chain=[subset.subset[i] for i in cites if 0 <= i < len(subset.subset)]
        if subset.chained
        else (),
        wording=asked.wording,
    )
    found = judged(case, until=Gate.ENGINE_READBACK)
    engine = state.engine
    if found.passed and isinstance(engine, ReadsBack) and worth_reading_back(candidate.text):
        case = replace(case, engine_claims=tuple(engine.read_back(candidate.text)))
    return judged(case, found)


def _only_rows(candidate: Candidate, subset: Proposed) -> bool:
    """Does the candidate cite table rows only (a cell lifted from a row)?"""
    lines = subset.subset
    cited = [lines[i] for i in candidate.cites if 0 <= i < len(lines)]
    return bool(cited) and all(line.kind == LineKind.ROW for line in cited)


def judge_sentence(state: Asking) -> Asking:
    """The sentence judged against the subsets its words retrieved, best document first:
    the first subset that supports it is kept (``passed``); else the first judgement is.
    A short answer ("981") takes its sense from the question, so only the document that
    best answers to the question may carry it; a sentence's own words may find another."""
    found, naming, analyzer = state.retrieved, state.naming, state.analyzer
    assert found is not None and naming is not None
    checked, question = state.checked, state.question_text
    short = question is not None and is_short_answer(checked, analyzer)
    bare = question is not None and len(content_terms(checked, analyzer)) <= BARE_ANSWER_TERMS
    first: Passed | None = None
    for number, subset in enumerate(found.subsets[:1] if short else found.subsets):
        case = Case(
            text=checked,
            lines=subset,
            analyzer=analyzer,
            # The words that name this subset's document as a document its dateline carries.
            asked=naming.asked_of(subset[0].document) if checked != question else frozenset(),
            term_weight=state.archive.term_weight,
            bridge=bare,
            # A failed support tier names the question's words as it wrote them.
            wording=state.question.wording if state.question is not None else NO_WORDING,
        )
        if not bare and analyzer.language in FRAME_LANGUAGES:
            # The entailment judge reads the lines' frames; the store keeps them, so they
            # are read here, and the judge is handed them rather than the store.
            case = replace(case, line_frames=state.archive.frames_of(case.texts))
        judgement = judged(case)
        # A bare answer to a question asking what letters stand for must spell them, as
        # an ask candidate must (gates/kind.py).
        unspelt = unspelled(checked, question) if judgement.passed and question else None
        if unspelt is not None:
            judgement.decisions.append(unspelt)
        kept = Passed(1.0, number, 0, _said(checked), judgement, list(subset))
        if judgement.passed:
            return replace(state, passed=(kept,))
        # A subset whose line says the opposite is the verdict over one that only misses.
        if first is None or (judgement.contradicting and not first.judgement.contradicting):
            first = kept
    assert first is not None
    return replace(state, chosen=first)


def _said(text: str) -> Candidate:
    return Candidate(text=text, value=text, cites=())
