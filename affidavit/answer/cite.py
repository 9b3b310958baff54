"""The last stage: what is said, with the lines it stands on. An answer cites its own lines,
then the lines beside them that carry the question's words, then the other side where the
store disagrees with itself, then every other document's word-for-word copy of a cited line;
its value is the library's reading of the gated text, never the engine's. A sentence to
verify gets its verdict: supported (and perhaps contested), vetoed, or dropped, with the
catalogued reason."""

from __future__ import annotations

from dataclasses import replace

from affidavit.answer.cited_copies import copies_of, said_by
from affidavit.answer.recompute import Recomputed, recompute
from affidavit.answer.state import Asking, Flow, Passed, Said
from affidavit.gates import Gate, contested_by, gated_value, reproduced, rival_line
from affidavit.plans import Ground, told_time
from affidavit.question import AnswerType
from affidavit.reasons import Reason
from affidavit.results import Evidence, SentenceVerdict, Status


def cite(state: Asking) -> Asking:
    """The answer said with its citations (ask), or the sentence's verdict (verify)."""
    return cite_answer(state) if state.flow is Flow.ASK else cite_verdict(state)


def cite_answer(state: Asking) -> Asking:
    asked, chosen, found = state.question, state.chosen, state.retrieved
    assert asked is not None and chosen is not None and found is not None
    candidate, census_line = chosen.candidate, state.census_line
    citations: list[Evidence] = []
    for line in [*chosen.cited, *chosen.judgement.supporting]:
        if line not in citations:
            citations.append(line)
    # The value is the library's reading of the gated text, never the engine's.
    answer_type = asked.shape.answer_type
    value = gated_value(candidate.text, answer_type, [c.text for c in citations], asked.language)
    read: dict[str, object] = {"engine": candidate.value, "read": value}
    text = candidate.text
    relative = told_time(text, chosen.cited) if answer_type is AnswerType.TIME else None
    if relative is not None:
        # "last week" lifted from a turn is a time only with the day it was said.
        text, value, read["said"] = relative
        read["read"] = value
    state = state.noting(value=read)
    # Where the store disagrees with itself, the other side is cited too, after the
    # answer's own lines: saying one side must not hide the other.
    contested = state.contested
    citations += [line for _, lines in contested for line in lines if line not in citations]
    # The documents that write a cited line word for word are cited too, and counted.
    copied = copies_of(citations, found.copies)
    if copied:
        state = state.noting(copies=[line.dateline() for line in copied])
        census_line = f"{census_line} {said_by(citations, copied)}".strip()
        citations += copied
    probability, rivals = state.likely
    return state.saying(
        Said(
            text=text,
            value=value,
            citations=citations,
            census=census_line,
            probability=probability,
            rivals=rivals,
        )
    )


def cite_verdict(state: Asking) -> Asking:
    """Supported by the first subset whose lines passed every judge (and contested when a
    line of equal trust says it otherwise, with no question given); else vetoed when a
    number is not carried (unless the store's own cells reproduce it) or dropped."""
    if state.passed:
        kept = state.passed[0]
        found = state.retrieved
        assert found is not None
        rival = None
        if state.question_text is None:
            hits = [e for subset in found.subsets for e in subset]
            rival = rival_line(state.checked, kept.judgement.supporting, hits, state.analyzer)
        verdict = _supported(state.text, kept) if rival is None else _contested(state, kept, rival)
        return replace(state, verdict=verdict)
    first = state.chosen
    assert first is not None
    failure = first.judgement.failure
    assert failure is not None
    status = Status.VETOED if failure.gate is Gate.DIGIT_VETO else Status.DROPPED
    if failure.reason == Reason.CONTRADICTED.value:
        status = Status.CONTRADICTED
    if status is Status.VETOED:
        recomputed = _recomputed(state)
        if recomputed is not None:
            return replace(state, verdict=_recomputed_verdict(state.text, recomputed, first))
    verdict = SentenceVerdict(
        text=state.text,
        status=status,
        reason=failure.reason,
        evidence=list(first.judgement.contradicting),
        claims=[c.to_dict() for c in first.judgement.claims],
        gates=[d.to_dict() for d in first.judgement.decisions],
    )
    return replace(state, verdict=verdict)


def _supported(sentence: str, kept: Passed) -> SentenceVerdict:
    judgement = kept.judgement
    return SentenceVerdict(
        text=sentence,
        status=Status.SUPPORTED,
        reason=None,
        evidence=list(judgement.supporting),
        claims=[c.to_dict() for c in judgement.claims],
        gates=[d.to_dict() for d in judgement.decisions],
    )


def _contested(state: Asking, kept: Passed, rival: Evidence) -> SentenceVerdict:
    """Supported by its lines, and said otherwise by ``rival``: both are cited."""
    judgement = kept.judgement
    decision = contested_by(rival)
    return SentenceVerdict(
        text=state.text,
        status=Status.CONTESTED,
        reason=decision.reason,
        evidence=[*judgement.supporting, rival],
        claims=[c.to_dict() for c in judgement.claims],
        gates=[*(d.to_dict() for d in judgement.decisions), decision.to_dict()],
    )


def _recomputed(state: Asking) -> Recomputed | None:
    """A computed claim grounded in the tables of the rows its words find, as ask's plans."""
    found = state.retrieved
    assert found is not None
    around = state.archive.tables_around(found.hits)
    if not around:
        return None
    ground = Ground([*found.hits, *around], state.analyzer)
    return recompute(state.checked, ground)


def _recomputed_verdict(sentence: str, recomputed: Recomputed, kept: Passed) -> SentenceVerdict:
    """A number no line writes stands only when the store's own cells reproduce it."""
    gate = reproduced(recomputed.held, recomputed.detail)
    decisions = [*(d.to_dict() for d in kept.judgement.decisions), gate.to_dict()]
    claim = {"claim": recomputed.claimed, "plan": recomputed.plan, "trace": recomputed.trace}
    return SentenceVerdict(
        text=sentence,
        status=Status.SUPPORTED if recomputed.held else Status.VETOED,
        reason=gate.reason,
        evidence=recomputed.evidence if recomputed.held else [],
        claims=[claim],
        gates=decisions,
    )
