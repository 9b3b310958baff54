"""What affidavit hands back: evidence lines, answers and verdicts, immutable, built by
keyword, and JSON-ready. Every name is read from here; the lines and the entity graph's
counts live in results/lines.py, the records graph's types in results/records.py."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from affidavit.results.lines import EntityCount, Evidence, Line, LineKind, Neighbour
from affidavit.results.records import Distilled, Inferred, Label, Profile, Record, RecordState

__all__ = [
    "INDEX_STAGE", "Answer", "Distilled", "EntityCount", "Evidence", "Health", "HealthPoint",
    "Inferred", "IngestReport", "Label", "Line", "LineKind", "Neighbour", "Profile", "Record",
    "RecordState", "SentenceVerdict", "Status", "StoredDocument", "UnreadFile", "Verdict",
]


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
    # answers was clear, but no span of the kind asked for stood in it, the reader doubted
    # its span, or the span was one of several things the line lists (answer/quote.py).
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
    CONTRADICTED = "contradicted"  # a line says the opposite; it is cited
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

    @property
    def contradicted(self) -> bool:
        """True when a line of the store says the opposite of one of its sentences."""
        return any(s.status == Status.CONTRADICTED for s in self.sentences)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "question": self.question,
            "supported": self.supported,
            "contradicted": self.contradicted,
            "sentences": [s.to_dict() for s in self.sentences],
        }


# What an ingest's progress hears before an index stage's name, to tell it from a file's
# (``"index: meaning vectors"``; the CLI draws the stages as bars of their own).
INDEX_STAGE = "index: "


@dataclass(frozen=True, slots=True)
class UnreadFile:
    """A file an ingest could not read: the file, the document it would have been, what
    went wrong and what to do."""

    path: str
    document: str
    problem: str
    hint: str = ""

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}" + (f" ({self.hint})" if self.hint else "")


class IngestReport(list[str]):
    """What an ingest did: the names of its documents (it is that list, in order) and,
    in ``warnings``, everything skipped, renamed or cut on the way, so nothing is lost
    without a word; with ``keep_going``, the files it could not read in ``failed``."""

    def __init__(
        self,
        names: Iterable[str] = (),
        warnings: Iterable[str] = (),
        failed: Iterable[UnreadFile] = (),
    ) -> None:
        super().__init__(names)
        self.warnings: list[str] = list(warnings)
        self.failed: list[UnreadFile] = list(failed)


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
