"""A question asking yes or no, answered yes or no with the line that says so: the
statement it asks about ("May there be subdirectories in /usr/sbin?": "There may be
subdirectories in /usr/sbin.") is judged as ``verify`` judges a sentence given alone.
Entailed by the lines' clause frames, the answer is "Yes"; contradicted by a line (its
frame said the other way: "There must be no subdirectories in /usr/sbin"), "No"; each
cites the lines the verdict stands on. A statement the frames do not settle decides
nothing, even where the word tiers support it: its words may stand in a line that says
it of another clause ("no license is required for works which are not subject to
copyright" carries every word of "A license is required for works which are not subject
to copyright" and a negation). The question then goes on to the engine as any other, and
its refusal or quoted line says what the lines hold. The verdict, whatever it is, is in
the audit (``audit["polar"]``)."""

from __future__ import annotations

from collections.abc import Callable

from affidavit.answer.state import Asking, Said
from affidavit.gates import Gate
from affidavit.results import SentenceVerdict, Status
from affidavit.text import statement_asked

# What each verdict answers; any other verdict decides nothing.
_ANSWERS = {Status.SUPPORTED: "Yes", Status.CONTRADICTED: "No"}

JudgeStatement = Callable[[str, Asking], SentenceVerdict]


def polar(state: Asking, judge_statement: JudgeStatement) -> Asking:
    """The yes or no a question asking one is answered, or the state as it was."""
    asked = state.question
    if asked is None or asked.text != state.text:
        # A question read from another language, or with its speaker for "I", is not the
        # question as asked: its yes or no is not read from the words it was asked in.
        return state
    statement = statement_asked(asked.text, asked.language)
    if statement is None:
        return state
    verdict = judge_statement(statement, state)
    state = state.noting(
        polar={"statement": statement, "status": verdict.status.value, "reason": verdict.reason}
    )
    answer = _ANSWERS.get(verdict.status)
    if answer is None or not verdict.evidence or not _settled_by_frames(verdict):
        return state
    said = Said(
        text=answer,
        value=answer.lower(),
        citations=list(verdict.evidence),
        census=state.census_line,
    )
    return state.saying(said)


def _settled_by_frames(verdict: SentenceVerdict) -> bool:
    """Did the clause frames decide the verdict (entailed, or said the other way)?"""
    return any(
        decision["gate"] == Gate.ENTAILMENT.value
        and decision["passed"] == (verdict.status is Status.SUPPORTED)
        for decision in verdict.gates
    )
