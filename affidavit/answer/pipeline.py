"""The two flows, each an order of named stages over one frozen state (answer/state.py).
A stage reads what the stages before it found and hands on a new state; once one has said
something (an answer, a refusal, a verdict), the stages after it pass it by. ``ask`` and
``verify`` share the door, the scope, the evidence, the judges and the citing."""

from __future__ import annotations

from collections.abc import Callable

from affidavit.answer.choose import choose
from affidavit.answer.cite import cite
from affidavit.answer.compute import compute
from affidavit.answer.judge import judge
from affidavit.answer.propose import propose
from affidavit.answer.read import read
from affidavit.answer.retrieve import retrieve
from affidavit.answer.scope import scope
from affidavit.answer.state import Asking
from affidavit.answer.whole import read_whole

Stage = Callable[[Asking], Asking]

ASK: tuple[Stage, ...] = (
    read,  # the question, once: its language, reading, shape and what it asks for
    scope,  # the documents it is asked of, and what each one's lines must carry
    retrieve,  # the evidence: lines ranked, in one document's subsets
    compute,  # an answer computed by plans over verified steps; the census
    propose,  # the engine's candidates, subset by subset
    judge,  # every candidate before the judges (gates/registry.py)
    read_whole,  # none passed: a small dated store read whole, proposed and judged again
    choose,  # the best that passed, its rivals, the reader's say; or a quote, or a refusal
    cite,  # what is said, with the lines it stands on
)

VERIFY: tuple[Stage, ...] = (read, scope, retrieve, judge, cite)


def run(state: Asking, stages: tuple[Stage, ...]) -> Asking:
    """``state`` through ``stages`` in order, until one has said something."""
    for stage in stages:
        if state.done:
            break
        state = stage(state)
    return state
