"""The stage after the judges, the last organ's: when every candidate died, a small store
whose every line is dated (a conversation's turns) is read whole, in the order it was told,
as one more subset, proposed and judged by the same stages (archive/store_archive.py's
``whole_telling`` says which stores are read so), so clues said in sessions apart can meet
and nothing is loosened."""

from __future__ import annotations

from affidavit.answer.judge import judge_candidates
from affidavit.answer.propose import proposed_for
from affidavit.answer.state import Asking


def read_whole(state: Asking) -> Asking:
    """The stage after the judges: when no candidate passed, a small store whose every line
    is dated is read whole, in time order, through the same stages, so clues said apart can
    meet (its candidates' cited lines a second tier of support)."""
    found, asked = state.retrieved, state.question
    if state.passed or found is None or asked is None:
        return state
    whole = state.archive.whole_telling(state.scope)
    if whole is None:
        return state
    state = state.noting(last_organ={"lines": len(whole)})
    number = len(found.subsets)
    told = proposed_for(state, number, whole, weight=1.0, asked_here=asked.key_terms, chained=True)
    return judge_candidates(state, [told])
