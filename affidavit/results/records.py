"""What affidavit hands back of the records graph: a told record and where it stands, a
person's profile, an operator's labels, and what distilling and inferring made.
Re-exported by affidavit.results, where callers read them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from affidavit.results.lines import Evidence, Neighbour


class RecordState(StrEnum):
    """Where a record stands: said (live), no longer holding since a day (ended: "I
    cancelled my subscription"), replaced by a newer telling (superseded), or taken back
    (forgotten). Ended, superseded and forgotten records stay, as history."""

    LIVE = "live"
    ENDED = "ended"
    SUPERSEDED = "superseded"
    FORGOTTEN = "forgotten"


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """A fact as (subject, predicate, value), stamped with who said it and when.

    ``source`` and ``trust`` come from the trust ladder (``affidavit.trust``); ``told_at``
    is when the store was told (UTC, ISO), ``true_at`` when the fact holds where known
    (an ISO day). ``document`` is the document a record was drawn from (None for one told
    by the operator), ``witness`` the (document, position) of the lines that say it.
    ``supersedes`` and ``superseded_by`` link the tellings of one subject and predicate
    over time; ``contradicts`` the live records of equal standing that say otherwise."""

    id: int
    subject: str
    predicate: str
    value: str
    source: str
    trust: float
    told_at: str
    true_at: str | None = None
    state: RecordState = RecordState.LIVE
    document: str | None = None
    witness: tuple[tuple[str, int], ...] = ()
    supersedes: tuple[int, ...] = ()
    superseded_by: int | None = None
    contradicts: tuple[int, ...] = ()
    ended_at: str | None = None  # the day the fact stopped holding, for an ended record
    kind: str | None = None  # what sort of thing the value is ("pottery class"): finding only
    because: tuple[int, ...] = ()  # the records a derived record was inferred from

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "subject": self.subject,
            "predicate": self.predicate,
            "value": self.value,
            "source": self.source,
            "trust": self.trust,
            "told_at": self.told_at,
            "true_at": self.true_at,
            "state": str(self.state),
            "document": self.document,
            "witness": [list(w) for w in self.witness],
            "supersedes": list(self.supersedes),
            "superseded_by": self.superseded_by,
            "contradicts": list(self.contradicts),
            "ended_at": self.ended_at,
            "kind": self.kind,
            "because": list(self.because),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Profile:
    """What the store knows of one entity, as a page: its labels, its live records (each
    cited by its told line or the line it was drawn from), the values that ended, were
    superseded or were forgotten, as history, the lines that mention it, and the entities
    most mentioned with it, each with the lines that witness it."""

    name: str
    facts: tuple[Record, ...] = ()
    history: tuple[Record, ...] = ()
    neighbours: tuple[Neighbour, ...] = ()
    labels: tuple[Label, ...] = ()  # its other names: inflections, es/tr words
    mentions: tuple[Evidence, ...] = ()  # the first lines that mention it, in store order
    mentioned_in: int = 0  # how many lines mention it

    @property
    def categories(self) -> tuple[str, ...]:
        """The kinds of its live facts' values ("pottery class", "place"), sorted: what
        sorts of thing the store knows of it."""
        return tuple(sorted({r.kind for r in self.facts if r.kind}))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "labels": [label.to_dict() for label in self.labels],
            "categories": list(self.categories),
            "facts": [r.to_dict() for r in self.facts],
            "history": [r.to_dict() for r in self.history],
            "neighbours": [n.to_dict() for n in self.neighbours],
            "mentioned_in": self.mentioned_in,
            "mentions": [line.to_dict() for line in self.mentions],
        }


@dataclass(frozen=True, slots=True)
class Label:
    """``word`` in ``language`` names the concept ``concept``, which the store's language
    calls ``means``; ``source`` says who said so and ``cosine`` how near the model put the
    two words (None where the operator said it)."""

    word: str
    language: str
    means: str
    concept: int
    source: str
    cosine: float | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "word": self.word,
            "language": self.language,
            "means": self.means,
            "concept": self.concept,
            "source": self.source,
            "cosine": self.cosine,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Distilled:
    """What ``Memory.distil`` wrote of one passage: the ``records`` its lines admitted (each
    drawn from and cited by its line, at extraction trust), the earlier records it
    ``ended`` ("I cancelled my subscription"), and each event the engine listed that its
    line does not say, ``refused`` with the reason."""

    document: str
    records: tuple[Record, ...] = ()
    ended: tuple[Record, ...] = ()
    refused: tuple[tuple[str, str], ...] = ()  # (the event as listed, why it did not enter)

    def to_dict(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "records": [r.to_dict() for r in self.records],
            "ended": [r.to_dict() for r in self.ended],
            "refused": [{"event": event, "reason": reason} for event, reason in self.refused],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Inferred:
    """What ``Memory.infer`` learned and derived: the predicates the store's closed
    triangles show to be ``transitive``, and the ``records`` their chains imply (source
    inference, below the speaking threshold: searchable, never said as fact)."""

    transitive: tuple[str, ...] = ()
    records: tuple[Record, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "transitive": list(self.transitive),
            "records": [r.to_dict() for r in self.records],
        }
