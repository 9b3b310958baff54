"""The seam every engine plugs into: an engine proposes, the library disposes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from affidavit.plans import Plan
from affidavit.question import Question
from affidavit.results import Evidence


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    text: str  # what would be said
    value: Any  # the bare answer (span, number, date text, list)
    cites: tuple[int, ...]  # indices into the evidence block
    score: float = 0.0
    note: str = ""  # why the engine proposed it (goes into the audit)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "value": self.value,
            "cites": list(self.cites),
            "score": round(self.score, 6),
            "note": self.note,
        }


@runtime_checkable
class Engine(Protocol):
    """What proposes answers. An engine sees the question as read at the door (a Question:
    its text, language, shape, terms and route) and the evidence block, and returns
    candidates, each citing evidence lines by their index in the block. An engine never
    writes to the store; what it proposes reaches the user only through the gates."""

    name: str

    def propose(self, question: Question, evidence: Sequence[Evidence]) -> list[Candidate]:
        """Candidates for ``question``, best first, citing ``evidence`` by index."""
        ...


ProposedPlan = Plan | Mapping[str, Any] | str


@runtime_checkable
class Planner(Protocol):
    """An engine that proposes plans for questions that need a computation, over the plan
    language's primitives (a Plan, its JSON object or its JSON text). The library parses
    and runs them, and a malformed plan is a dead plan, never a crash."""

    def propose_plans(self, question: Question, evidence: Sequence[Evidence]) -> list[ProposedPlan]:
        """Plans for ``question``, most direct first: operations and phrases, no answer."""
        ...


@runtime_checkable
class ReadsAhead(Protocol):
    """An engine that prepares, once for an ask, what it will read of every evidence
    subset before it proposes for each (the default engine parses the lines its reader
    will read all together, which costs less a line than one at a time). Preparing
    proposes nothing and changes no candidate."""

    def read_ahead(self, question: Question, subsets: Sequence[Sequence[Evidence]]) -> None:
        """Prepare to propose for ``question`` over each of ``subsets``."""
        ...


@runtime_checkable
class StartsReading(Protocol):
    """An engine that starts reading the evidence as soon as it is found, on a thread of
    its own, while the ask's other stages run (the default engine's encoder reads the
    lines its reader will read while plans are tried and a yes or no is judged). Starting
    returns at once, proposes nothing and changes no candidate: what is read is what
    ``propose`` would have read."""

    def start_reading(self, question: Question, subsets: Sequence[Sequence[Evidence]]) -> None:
        """Start reading what ``propose`` will read for ``question`` of ``subsets``."""
        ...


@runtime_checkable
class ReadsBack(Protocol):
    """An engine that reads a sentence back as the claims it makes. The claims are only
    ever checked in addition to the library's own reading: they can drop a sentence the
    evidence does not support, never pass one the gates failed."""

    def read_back(self, sentence: str) -> list[str]:
        """The separate claims ``sentence`` makes, in its own words."""
        ...


@dataclass(frozen=True, slots=True, kw_only=True)
class ProposedEvent:
    """An event or fact one line of a passage reports, as an engine lists it: who or what
    it is about, what is said of it and the value, in the line's own words. ``position``
    is the line's place in its document; ``kind`` what sort of thing the value is
    ("pottery class"), an index key only; ``when`` the words of the line that tell when
    ("yesterday"); ``ends`` whether it says that an earlier fact stopped holding ("I
    cancelled my subscription"); ``lasting`` whether it states what holds until said
    otherwise ("I live in Porto", "my favorite book is Dune"), which a later telling
    replaces, rather than an event that happened ("I went to Porto"), which adds to
    the others."""

    subject: str
    predicate: str
    value: str
    position: int
    kind: str = ""
    when: str = ""
    ends: bool = False
    lasting: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "predicate": self.predicate,
            "value": self.value,
            "position": self.position,
            "kind": self.kind,
            "when": self.when,
            "ends": self.ends,
            "lasting": self.lasting,
        }


@runtime_checkable
class ListsEvents(Protocol):
    """An engine that lists the events a passage reports (``Memory.distil``). It only
    proposes: each event enters the store only if its own line says it (the records'
    entry gate), at extraction trust."""

    def events(self, lines: Sequence[Evidence]) -> list[ProposedEvent]:
        """The events ``lines`` (one document's, in order) report, each naming its line by
        ``position``."""
        ...
