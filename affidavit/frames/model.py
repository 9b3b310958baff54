"""What a clause says, as data: a predicate, its arguments by role, and what bends it
(polarity, modality, quantity, conditions, exceptions, time bounds, anchors). A frame is
read once from a sentence (frames/read.py) and compared by the judges in gates/."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Role(StrEnum):
    """An argument's part in its clause, the voice undone: in "the invoices are reviewed
    by the auditor" the auditor is the agent and the invoices the patient."""

    AGENT = "agent"  # who does it (the subject of an active verb, "by" of a passive)
    PATIENT = "patient"  # what it is done to (the object; the subject of a passive)
    RECIPIENT = "recipient"  # to whom ("to its employees", a dative)
    ATTRIBUTE = "attribute"  # what a subject is ("is confidential", "is the Recipient")
    CLAUSE = "clause"  # a clause as the object ("disclose that the talks took place")
    OBLIQUE = "oblique"  # any other phrase, under its preposition (``Argument.marker``)
    MANNER = "manner"  # how the act is done: "regularly", "promptly", "in writing"


class Modality(StrEnum):
    """What the clause says of its act: that it is, must be, may be or should be done."""

    FACT = "fact"  # "reviews", "reviewed", "will review" in a narrative
    OBLIGATION = "obligation"  # must, shall, will (in a rule), is required to
    PERMISSION = "permission"  # may, can, is permitted to
    RECOMMENDATION = "recommendation"  # should, is encouraged to


class Quantity(StrEnum):
    """How much of what a phrase names the clause speaks of."""

    UNMARKED = "unmarked"  # a bare or definite phrase: "the invoices", "invoices"
    UNIVERSAL = "universal"  # all, every, each, any
    EXISTENTIAL = "existential"  # some, a, an, certain
    NEGATIVE = "negative"  # no, none, nothing
    RESTRICTIVE = "restrictive"  # only, solely, exclusively


@dataclass(frozen=True, slots=True)
class Argument:
    """One phrase of a clause: its role, its head word (lemma, lower case, or the defined
    term it stands for), the content words of the whole phrase, the anchors and values it
    names, its quantity, and the text as written."""

    role: Role
    head: str
    words: frozenset[str]
    text: str
    marker: str = ""  # an oblique's preposition ("with", "under"); "" for the others
    quantity: Quantity = Quantity.UNMARKED
    anchors: tuple[str, ...] = ()  # "section 5(b)", "project a": atomic, exact
    values: tuple[str, ...] = ()  # numbers and dates as written, normalised
    negated: bool = False  # "without the consent": the phrase is absent
    # How its number compares: "gt" (more than, over), "ge" (at least, or more), "lt",
    # "le", or "" for the number itself.
    comparison: str = ""


@dataclass(frozen=True, slots=True)
class Bound:
    """A time bound on a clause: "within 30 days", "before 1 March", "no later than".
    ``relation`` is one of before, after, within, by, at_least, at_most, during, on."""

    relation: str
    words: frozenset[str]
    values: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class Frame:
    """One clause: its predicate and what it says of it.

    ``embedded``: the clause is not asserted by its sentence but said under another verb
    that does not make it true ("is not intended to store", "wishes to disclose"); such a
    frame supports no claim of fact. ``conditions`` are the clauses it holds under ("if the
    shipment is damaged"), ``exceptions`` the phrases it excepts ("except interns"),
    ``bounds`` its time bounds."""

    predicate: str
    arguments: tuple[Argument, ...]
    text: str
    negated: bool = False
    modality: Modality = Modality.FACT
    conditions: tuple[Frame, ...] = ()
    exceptions: tuple[Argument, ...] = ()
    bounds: tuple[Bound, ...] = ()
    embedded: bool = False
    anchors: tuple[str, ...] = field(default=())  # every anchor the clause names

    def argument(self, role: Role, marker: str = "") -> Argument | None:
        """The first argument in ``role`` (under ``marker``, for an oblique)."""
        return next(
            (a for a in self.arguments if a.role is role and (not marker or a.marker == marker)),
            None,
        )
