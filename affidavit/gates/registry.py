"""Every judge, in the one order they run: a candidate, its lines and the question (a
Case) in, a typed decision out, or None where a judge has nothing to say of the case. The
first failed decision is the verdict; what fails is dropped, never repaired."""

from __future__ import annotations

from affidavit.gates.case import Case, Judge, Judgement, run_judges
from affidavit.gates.decision import Gate, GateDecision
from affidavit.gates.definition import term_defined
from affidavit.gates.entailment import anchors_kept, frames_entail, frames_said_otherwise
from affidavit.gates.exit import EXIT_TIERS
from affidavit.gates.kind import of_the_kind_asked
from affidavit.gates.quoted import carries_by_itself
from affidavit.gates.reread import engine_reading_held
from affidavit.gates.roles import slot_said_not_so
from affidavit.gates.slot import fills_the_asked_slot
from affidavit.reasons import Reason


def cites_its_lines(case: Case, found: Judgement) -> GateDecision | None:
    """A candidate cites lines of the evidence it was drawn from; a text given to verify
    cites none (None)."""
    if case.cites is None:
        return None
    if case.cites and all(0 <= i < len(case.lines) for i in case.cites):
        return None
    return GateDecision(
        gate=Gate.CITATION,
        passed=False,
        reason=Reason.NO_CANDIDATE.value,
        detail="the candidate cites no line of its evidence subset",
    )


# The registry: each judge with the gate it answers for, in the order they run. The exit
# gate's tiers (gates/exit.py) come first, then the judges of what the question asks of a
# candidate, then the engine's own reading (asked by ``ask``, never by a judge), then a
# quoted line's test.
JUDGES: tuple[tuple[Gate, Judge], ...] = (
    (Gate.CITATION, cites_its_lines),
    # The content and digit tiers first: a number the lines do not carry is vetoed before
    # any frame is read; then the clause frames, which settle what they entail.
    *EXIT_TIERS[:2],
    (Gate.ENTAILMENT, frames_entail),
    # The words' tiers (mixture, read-back, roles), then what the frames saw said otherwise.
    *EXIT_TIERS[2:6],
    (Gate.ENTAILMENT, frames_said_otherwise),
    *EXIT_TIERS[6:],
    # What the candidate is: a value, not the form's label, heading or marker (after the
    # support tier, so evidence that misses the question is said first).
    (Gate.KIND, of_the_kind_asked),
    # Which clause of its line the answer fills: the one that says what is asked.
    (Gate.SLOT, fills_the_asked_slot),
    # An answer its line says is not so ("Do not log errors from library code").
    (Gate.POLARITY, slot_said_not_so),
    (Gate.ANCHORS, anchors_kept),
    (Gate.DEFINITION, term_defined),
    (Gate.ENGINE_READBACK, engine_reading_held),
    (Gate.QUOTE, carries_by_itself),
)


def judged(case: Case, found: Judgement | None = None, *, until: Gate | None = None) -> Judgement:
    """The judges' verdict on ``case``: each judge in order adds its decision, until one
    fails. ``until`` stops before the first judge answering for that gate (``ask`` asks the
    engine for its reading there); ``found`` goes on from a judgement stopped so."""
    return run_judges(case, JUDGES, found, until=until)
