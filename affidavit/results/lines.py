"""What affidavit hands back, its smallest parts: a stored line's kind, a line as the
gates read it, an evidence line with its place and score, and the entity graph's counts
and neighbours over those lines. Re-exported by affidavit.results."""

from __future__ import annotations

from dataclasses import dataclass
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
