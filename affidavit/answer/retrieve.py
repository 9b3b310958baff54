"""The third stage: the evidence, lines ranked (those that hold the kind of answer the
question wants first) and gathered into subsets, one document's lines each; or, with none
found, the refusal or verdict that says so."""

from __future__ import annotations

from dataclasses import replace

from affidavit.answer.state import Asking, Flow, Said
from affidavit.reasons import Reason
from affidavit.results import SentenceVerdict, Status


def retrieve(state: Asking) -> Asking:
    """The lines and subsets for the state's query, within its scope."""
    archive, scope = state.archive, state.scope
    if state.flow is Flow.VERIFY:
        # A sentence has no question to read the kind of answer from, and never takes the
        # partition path: its words, not two entities it names, are what it says.
        found = archive.retrieve(state.query, asked=None, scope=scope, partitioned=False)
        state = replace(state, retrieved=found)
        if not found.subsets:
            reason = Reason.BELOW_TRUST if found.withheld else Reason.UNSUPPORTED
            verdict = SentenceVerdict(text=state.text, status=Status.DROPPED, reason=reason.value)
            return replace(state, verdict=verdict)
        return state
    asked = state.question
    assert asked is not None
    found = archive.retrieve(state.query, asked=asked, scope=scope)
    if not found.hits and state.query is not asked.reading:  # the name was all it said
        found = archive.retrieve(asked.reading, asked=asked, scope=scope)
    state = replace(state, retrieved=found).noting(
        withheld_below_trust=found.withheld, withheld_as_orders=found.ordering or None
    )
    if found.hits:
        return state
    reason = Reason.BELOW_TRUST if found.withheld else Reason.NO_EVIDENCE
    within = "" if scope is None else f"read within the scope: {len(scope.names)} documents"
    return state.saying(Said.refusal(reason, detail=within))
