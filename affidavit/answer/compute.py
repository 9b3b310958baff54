"""The fourth stage: an answer computed rather than lifted. The engine proposes plans over
the evidence (anchor, gather, count, take the change…); the interpreter runs only the steps
it knows on what the store can anchor (plans/), and the answer's sentence is the library's
own template. A question that needs a computation no plan survives is refused (the shape's
verdict binds). Here too the census is taken: which documents speak of this, counted."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from affidavit.answer.state import Asking, Said
from affidavit.engine import Planner
from affidavit.gates import KeyWords
from affidavit.plans import Ground, compose
from affidavit.question import TABLE_LOOK_UPS
from affidavit.reasons import Reason


def compute(state: Asking) -> Asking:
    """A computed answer, or its refusal; else the census the lifted answer will carry."""
    asked, archive, found = state.question, state.archive, state.retrieved
    assert asked is not None and found is not None
    analyzer, rarity = asked.analyzer, archive.term_weight
    state, computed = _composed(state)
    if computed is not None and not computed.refused and asked.route is not None:
        # A computed answer's census counts the documents that speak of what it computed
        # over (the rows and years), not of the operation's words ("percentage change").
        over_words = " ".join([*asked.route.rows, *asked.route.years])
        over = KeyWords.read(over_words, analyzer, rarity)
        census = archive.census(over, analyzer, state.scope)
        return state.noting(census=census.to_dict()).saying(replace(computed, census=census.line))
    keys = KeyWords.of(asked.key_terms, rarity, analyzer.language, wording=asked.wording)
    census = archive.census(keys, analyzer, state.scope)
    state = replace(state, census_line=census.line).noting(census=census.to_dict())
    return state.saying(computed) if computed is not None else state


def _composed(state: Asking) -> tuple[Asking, Said | None]:
    """A computed answer from the engine's plans, worded in the language the question was
    asked in; a refusal when the question needs a computation and no plan survives; None
    to go on lifting. The census is the caller's."""
    asked, archive, engine, found = state.question, state.archive, state.engine, state.retrieved
    assert asked is not None and found is not None
    route = asked.route
    state = state.noting(routed=True, route=route.to_dict() if route else None)
    evidence = [e for subset in found.subsets for e in subset]
    proposals: list[Any] = (
        engine.propose_plans(asked, evidence) if isinstance(engine, Planner) else []
    )
    ground = None
    if proposals:
        # The ground: the evidence, and the whole of every table a found row stands in.
        around = archive.tables_around(found.hits)
        ground = Ground([*evidence, *around], asked.analyzer, archive.term_weight)
        # A computed answer is worded in the asker's language, whatever it was read in.
        speaking = asked.asked_in or asked.language
        composed = compose(proposals, ground, speaking, now=asked.asked_at)
        state = state.noting(plans=composed.audit)
        if composed.answered:
            state = state.noting(plan=composed.audit[-1])
            said = Said(text=composed.text, value=composed.value, citations=composed.citations)
            return state, said
    if route is None:
        return state, None
    # A look-up of a row in a year whose row a table names (even loosely) is asked of
    # that table: when no plan finds the cell, a number lifted from a sentence is more
    # often another figure than the one asked for, so refuse. A row no table names is
    # asked of the text, and lifting goes on.
    over_a_table = (
        ground is not None
        and route.need in TABLE_LOOK_UPS
        and any(ground.names_a_row(r) for r in route.rows)
    )
    if route.binds or over_a_table:
        state = state.noting(plans=state.record.plans or [])
        return state, Said.refusal(Reason.PLAN_DEAD)
    return state, None
