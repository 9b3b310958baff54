"""The fifth stage: the engine's candidates, proposed per evidence subset (one document's
lines at a time), so an engine never builds an answer from lines two documents never said
together. Before any is proposed, whose the question is, across a conversation: a question
about one speaker that the conversation tells more fully of another is refused here."""

from __future__ import annotations

from dataclasses import replace

from affidavit.answer.state import Asking, Proposed, Said
from affidavit.engine import ReadsAhead, StartsReading
from affidavit.gates import CONFIRMED_SPEAKER_CARRIED, MIN_CARRIED
from affidavit.index import evidence_block
from affidavit.reasons import Reason
from affidavit.results import Evidence


def start_reading(state: Asking) -> Asking:
    """The engine told the evidence as soon as it is found, so that what it reads on a
    thread of its own (the default engine's encoder) is read while plans are tried and a
    yes or no is judged; the state as it was. Not for a question routed to a computation
    or a table's look-up: a plan most often answers it, and what the engine read would be
    CPU spent for nothing (a fifth more a question on TAT-QA's tables, where a batch's
    other workers want the cores); ``propose`` still reads ahead if no plan answered."""
    asked, found = state.question, state.retrieved
    if asked is None or found is None or asked.route is not None:
        return state
    if isinstance(state.engine, StartsReading):
        state.engine.start_reading(asked, found.subsets)
    return state


def propose(state: Asking) -> Asking:
    """Each subset with the engine's candidates for it, weighed by how well its document
    matched; the audit given the lines the engine was shown."""
    asked, archive, found, naming = state.question, state.archive, state.retrieved, state.naming
    assert asked is not None and found is not None and naming is not None
    speakers = {h.speaker for h in found.hits if h.speaker}
    whose = (
        archive.told_of(asked.key_terms, speakers, asked.analyzer, state.scope)
        if speakers
        else None
    )
    turns_need = MIN_CARRIED
    if whose is not None:
        state = state.noting(whose=whose.to_dict())
        if not whose.passed:
            return state.saying(Said.refusal(Reason.HOLDER, state.census_line))
        turns_need = CONFIRMED_SPEAKER_CARRIED
    block = evidence_block(found.hits)
    state = state.noting(
        # The best lines chosen for the engine (no document beyond its share) ...
        best_lines=[e.dateline() for e in block],
        # ... and what it is shown: each subset's lines with context, best document first.
        evidence_block=[e.dateline() for subset in found.subsets for e in subset],
    )
    best = best_score(state)
    if isinstance(state.engine, ReadsAhead):
        state.engine.read_ahead(asked, found.subsets)
    proposed = tuple(
        proposed_for(
            state,
            number,
            subset,
            weight=0.5 + 0.5 * max(e.score for e in subset) / best,
            # The words that name this subset's document as a document its dateline carries.
            asked_here=naming.asked_of(subset[0].document),
        )
        for number, subset in enumerate(found.subsets)
    )
    return replace(state, proposed=proposed, turns_need=turns_need)


def proposed_for(
    state: Asking,
    number: int,
    subset: list[Evidence],
    *,
    weight: float,
    asked_here: frozenset[str],
    chained: bool = False,
) -> Proposed:
    """The engine's candidates for one subset."""
    assert state.engine is not None and state.question is not None
    candidates = tuple(state.engine.propose(state.question, subset))
    return Proposed(number, subset, weight, asked_here, candidates, chained)


def best_score(state: Asking) -> float:
    """The best line's score, which a subset's weight and a line's share are read against."""
    assert state.retrieved is not None
    return max(h.score for h in state.retrieved.hits) or 1.0
