"""What affidavit hands back: evidence lines, answers and verdicts, immutable, built by
keyword, and JSON-ready."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from affidavit.trust import DOCUMENT_TRUST


class LineKind(StrEnum):
    """What a stored line is: a sentence of prose, a heading, a table row, a dialogue turn,
    or the caption of an image shared in one."""

    SENTENCE = "sentence"
    HEADING = "heading"
    ROW = "row"
    TURN = "turn"
    CAPTION = "caption"


class Line(Protocol):
    """A stored line as the gates read it, whether found for a question (Evidence) or read
    from the store around one."""

    @property
    def document(self) -> str: ...
    @property
    def position(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def cells(self) -> dict[str, str] | None: ...
    @property
    def trust(self) -> float: ...
    @property
    def speaker(self) -> str | None: ...
    @property
    def date(self) -> str | None: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Evidence:
    """One stored line, verbatim, with where it sits and how well it matched."""

    document: str
    position: int
    text: str
    kind: LineKind
    score: float
    cells: dict[str, str] | None = None
    trust: float = DOCUMENT_TRUST  # the trust of the source the line came from (trust.py)
    # A dialogue turn's speaker and its session's day (ISO); None for document lines.
    speaker: str | None = None
    date: str | None = None
    # How sure OCR was of the line (0 to 1), for a line read off a scanned page; None for
    # text the document itself holds.
    ocr_confidence: float | None = None

    def __hash__(self) -> int:
        # The cells are a dict (unhashable); hash them as their ordered pairs.
        cells = tuple(self.cells.items()) if self.cells is not None else None
        return hash(
            (
                self.document,
                self.position,
                self.text,
                self.kind,
                self.score,
                cells,
                self.trust,
                self.speaker,
                self.date,
                self.ocr_confidence,
            )
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "position": self.position,
            "text": self.text,
            "kind": str(self.kind),
            "score": round(float(self.score), 6),
            "cells": dict(self.cells) if self.cells is not None else None,
            "trust": self.trust,
            **({"speaker": self.speaker} if self.speaker is not None else {}),
            **({"date": self.date} if self.date is not None else {}),
            **(
                {"ocr_confidence": round(self.ocr_confidence, 4)}
                if self.ocr_confidence is not None
                else {}
            ),
        }

    def dateline(self) -> str:
        """The line as the engine sees it: opening with its document's name."""
        return f"[{self.document} #{self.position}] {self.text}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """An answer with its citations and audit, or a refusal with a catalogued reason."""

    question: str
    text: str
    value: Any
    refused: bool
    reason: str | None
    citations: list[Evidence] = field(default_factory=list)
    # How it was reached (answer/audit.py's Audit: typed fields, read as its JSON form).
    audit: Mapping[str, Any] = field(default_factory=dict)
    # Which documents speak of this, counted: one line of store-attested fact.
    census: str = ""
    # The reader's probability that the answer is right (None where it does not judge:
    # computed answers, table cells, other languages), and the next best candidates that
    # passed the gate, with theirs.
    probability: float | None = None
    rivals: list[tuple[str, float]] = field(default_factory=list)
    # The answer is its first citation's line, verbatim and whole (no value): the line that
    # answers was clear, but no span of the kind asked for stood in it (answer/quote.py).
    quoted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "text": self.text,
            "value": self.value,
            "refused": self.refused,
            "reason": self.reason,
            "quoted": self.quoted,
            "citations": [c.to_dict() for c in self.citations],
            "census": self.census,
            "probability": self.probability,
            "rivals": [list(r) for r in self.rivals],
            "audit": dict(self.audit),
        }


class Status(StrEnum):
    """What verify found for a sentence."""

    SUPPORTED = "supported"  # every claim read back from the cited evidence
    CONTESTED = "contested"  # supported, and said otherwise by a line of equal trust
    VETOED = "vetoed"  # a number or date the evidence does not write
    DROPPED = "dropped"  # any other test failed


@dataclass(frozen=True, slots=True, kw_only=True)
class SentenceVerdict:
    """What the gate found for one sentence of the text.

    ``status`` is a Status; when not supported, ``reason`` is a code of the reason
    catalogue, ``affidavit.Reason``, whose ``text`` says it in one line: ``digit_veto``,
    ``mixture``, ``readback``, ``roles`` (roles or names the other way round),
    ``negation``, ``unsupported``, ``weak_evidence`` (the question's words not carried),
    ``holder``, ``unverifiable``, ``below_trust``, ``no_claim``, ``contested``. ``claims``
    and ``gates`` are the audit: each clause read and each tier's decision, in order.
    ``read_in`` is a Spanish or Turkish sentence's English reading (records/gloss.py), the
    sentence that was checked."""

    text: str
    status: Status
    reason: str | None  # a Reason code when not supported
    evidence: list[Evidence] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    gates: list[dict[str, Any]] = field(default_factory=list)
    read_in: dict[str, Any] | None = None

    @property
    def supported(self) -> bool:
        return self.status == Status.SUPPORTED

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "status": self.status.value,
            "reason": self.reason,
            "evidence": [e.to_dict() for e in self.evidence],
            "claims": self.claims,
            "gates": self.gates,
            **({"read_in": self.read_in} if self.read_in else {}),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """The gate's reading of a text given to ``Memory.verify``: one SentenceVerdict per
    sentence. The same function and settings judge ``ask``'s answers."""

    text: str
    question: str | None
    sentences: list[SentenceVerdict]

    @property
    def supported(self) -> bool:
        """True only when there is something to check and every sentence is supported."""
        return bool(self.sentences) and all(s.supported for s in self.sentences)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "question": self.question,
            "supported": self.supported,
            "sentences": [s.to_dict() for s in self.sentences],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class EntityCount:
    """An entity mined from the store: how it is written most often, and how often."""

    name: str
    count: int  # mentions in the store's text

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "count": self.count}


@dataclass(frozen=True, slots=True, kw_only=True)
class Neighbour:
    """An entity mentioned together with another, and the lines that witness it."""

    name: str
    weight: float  # Dunning's log-likelihood ratio over the store's lines (0: no association)
    witnesses: list[Evidence]  # every line that mentions both, in store order

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "weight": self.weight,
            "witnesses": [w.to_dict() for w in self.witnesses],
        }


# What an ingest's progress hears before an index stage's name, to tell it from a file's
# (``"index: meaning vectors"``; the CLI draws the stages as bars of their own).
INDEX_STAGE = "index: "


class IngestReport(list[str]):
    """What an ingest did: the names of its documents (it is that list, in order) and,
    in ``warnings``, everything skipped, renamed or cut on the way, so nothing is lost
    without a word."""

    def __init__(self, names: Iterable[str] = (), warnings: Iterable[str] = ()) -> None:
        super().__init__(names)
        self.warnings: list[str] = list(warnings)


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
    superseded or were forgotten, as history, and the entities most mentioned with it,
    each with the lines that witness it."""

    name: str
    facts: tuple[Record, ...] = ()
    history: tuple[Record, ...] = ()
    neighbours: tuple[Neighbour, ...] = ()
    labels: tuple[Label, ...] = ()  # its other names: inflections, es/tr words

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


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredDocument:
    """One document as the store holds it: its name, when it was stored (UTC, ISO), the
    date it carries where known, its source and trust, and how many lines it has."""

    name: str
    stored_at: str
    date: str | None
    source: str
    trust: float
    lines: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "stored_at": self.stored_at,
            "date": self.date,
            "source": self.source,
            "trust": self.trust,
            "lines": self.lines,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class HealthPoint:
    """One measure of retrieval's health: when, over how big a store, and what it found."""

    measured_at: str
    documents: int
    lines: int
    canaries: int
    recall: float  # recall@k: the share of canaries whose line is in the top k
    mrr: float
    ndcg: float
    distinct_share: float  # the share of the store's lines that are not copies of another

    def to_dict(self) -> dict[str, Any]:
        return {
            "measured_at": self.measured_at,
            "documents": self.documents,
            "lines": self.lines,
            "canaries": self.canaries,
            "recall": self.recall,
            "mrr": self.mrr,
            "ndcg": self.ndcg,
            "distinct_share": self.distinct_share,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Health:
    """Retrieval's health now (``now``), at ``k``, with every earlier measure (``trend``,
    oldest first) and a ``warning`` when recall fell by more than the margin since the
    first measure of this canary set (None otherwise)."""

    k: int
    now: HealthPoint
    trend: tuple[HealthPoint, ...] = ()
    warning: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "now": self.now.to_dict(),
            "trend": [p.to_dict() for p in self.trend],
            "warning": self.warning,
        }
