"""What every judge reads (a Case: the text to judge, the lines it was drawn from, what the
question asks of them) and what the judges find together (a Judgement)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from affidavit.frames import Frame
from affidavit.gates.claims import Claim
from affidavit.gates.context import said_as_evidence
from affidavit.gates.decision import Gate, GateDecision
from affidavit.gates.support import MIN_CARRIED
from affidavit.question import Question
from affidavit.results import Evidence
from affidavit.text import NO_WORDING, Analyzer, Wording


@dataclass(frozen=True, kw_only=True)
class Case:
    """One text before the judges: a candidate answer, a sentence to verify or a line to
    quote, with the evidence subset (one document's lines) it was drawn from.

    ``cites`` are the lines a candidate says it was drawn from (indices into ``lines``;
    None for a text that cites nothing, a sentence given to verify); their windows are read
    first. ``asked`` are the question's key terms as asked of this subset's document (its
    dateline's words that name the document count), weighed by ``term_weight``; empty when
    there is no question. ``turns_need`` is the support tier's share when every supporting
    line is a conversation's turn; ``bridge`` lets a bare answer borrow the question's
    words from the lines naming what its lines name; ``chain`` (the last organ's cited
    lines across a conversation) is a second tier for support. ``engine_claims`` is what
    the engine read the text as claiming (asked by ``ask``, never by a judge; None when it
    was not asked). ``alone``: a quoted line must carry the question by itself.
    """

    text: str
    lines: Sequence[Evidence]
    analyzer: Analyzer
    cites: tuple[int, ...] | None = None
    question: Question | None = None
    asked: frozenset[str] = frozenset()
    term_weight: Callable[[str], float] | None = None
    turns_need: float = MIN_CARRIED
    bridge: bool = False
    chain: Sequence[Evidence] = ()
    wording: Wording = NO_WORDING
    claim_reach: int | None = None
    engine_claims: tuple[str, ...] | None = None
    alone: bool = False
    # Each text's clause frames (of ``texts``), as the store keeps them, read before the
    # judges by the flow that asks them (archive/line_frames.py); None: the judge reads
    # them itself.
    line_frames: Sequence[tuple[Frame, ...]] | None = None

    @property
    def anchor(self) -> list[Evidence]:
        """The lines the text cites (all valid: the citation judge runs first)."""
        if not self.cites:
            return []
        return [self.lines[i] for i in self.cites if 0 <= i < len(self.lines)]

    @cached_property
    def texts(self) -> list[str]:
        """Each line as the judges read it (a table row with its column names)."""
        return [said_as_evidence(line) for line in self.lines]

    @cached_property
    def evidence_terms(self) -> frozenset[str]:
        """Every term of the lines, single letters too ("R&B" must find its r and b)."""
        found: set[str] = set()
        for text in self.texts:
            found.update(t for t in self.analyzer.terms(text) if not t[0].isdigit())
        return frozenset(found)


@dataclass
class Judgement:
    """The judges' decisions on one text, in order, and the lines that support it if it
    passed (the lines that say its claims, and the neighbours cited for carrying the
    question's words). The first failed decision is the verdict."""

    decisions: list[GateDecision] = field(default_factory=list)
    supporting: list[Evidence] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    # The lines that say the claims, before the neighbours cited for the question's words:
    # the holder is judged on these ("Leo: That's wonderful" holds nothing).
    own: list[Evidence] | None = None
    heard: int = 0  # how many judges of the registry have read the case
    # A line's clause frames entail the text (gates/entailment.py): the tiers that ask for
    # the line's own words (mixture, the claims' read-back) have nothing to add; the
    # numbers' tiers still judge. ``contradicting`` is the line that says the opposite.
    settled: bool = False
    contradicting: list[Evidence] = field(default_factory=list)
    reading: object | None = None  # the frames' reading, for the judge after the word tiers

    @property
    def passed(self) -> bool:
        return all(d.passed for d in self.decisions)

    @property
    def failure(self) -> GateDecision | None:
        return next((d for d in self.decisions if not d.passed), None)


Judge = Callable[[Case, Judgement], GateDecision | None]


def run_judges(
    case: Case,
    judges: Sequence[tuple[Gate, Judge]],
    found: Judgement | None = None,
    *,
    until: Gate | None = None,
) -> Judgement:
    """``judges`` (each with the gate it answers for) on ``case`` in order, each adding its
    decision, until one fails. ``until`` stops before the first judge answering for that
    gate; ``found`` goes on from a judgement stopped so."""
    found = found if found is not None else Judgement()
    if found.failure is not None:
        return found
    for at in range(found.heard, len(judges)):
        gate, judge = judges[at]
        if gate is until:
            return found
        found.heard = at + 1
        decision = judge(case, found)
        if decision is None:
            continue
        found.decisions.append(decision)
        if not decision.passed:
            break
    return found
