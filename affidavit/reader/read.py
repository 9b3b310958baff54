"""read(): the reader's answer spans in the best lines of an evidence subset, each with the
scorer's score and its share of the subset's probability."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from affidavit.question.question import Question
from affidavit.reader.cues import cues_of
from affidavit.reader.lines import read_line
from affidavit.reader.model import Weights, weights
from affidavit.reader.spans import spans_for
from affidavit.reader.types import BOUND, fits


@dataclass(frozen=True, slots=True)
class Read:
    """A span the reader proposes from line ``line`` (an index into the lines given)."""

    text: str
    line: int
    start: int  # character offsets in its line
    end: int
    score: float  # the scorer's logit: comparable across subsets of one question
    probability: float  # its share among every span of the lines read
    kinds: tuple[str, ...]
    label: str

    @property
    def why(self) -> str:
        found = "+".join(self.kinds) + (f" {self.label}" if self.label else "")
        return f"reader: {found}, p {self.probability:.2f}"


def read(question: Question, lines: Sequence[str], *, model: Weights | None = None) -> list[Read]:
    """Every span of ``lines`` (best line first) that could answer ``question``, best
    first; ties keep the line's and the span's order. A question of a bound type (a code,
    a contact) is answered by pattern spans only, and its lines are not parsed.
    ``model``: the shipped weights unless given."""
    cues = cues_of(question)
    model = model or weights()
    scored: list[tuple[float, int, int, int, str, tuple[str, ...], str]] = []
    wanted = question.shape.answer_type
    parse = wanted not in BOUND
    for rank, text in enumerate(lines):
        spans, _ = spans_for(cues, read_line(text, question.language, parse=parse), rank)
        for span in spans:
            if not fits(wanted, span.found.label):
                continue  # a phone number is asked for: only a span read as one answers
            score = model.score(span.features)
            found = span.found
            scored.append((score, rank, span.start, span.end, span.text, found.kinds, found.label))
    if not scored:
        return []
    top = max(s[0] for s in scored)
    total = sum(math.exp(s[0] - top) for s in scored)
    scored.sort(key=lambda s: (-s[0], s[1], s[2], s[3]))
    return [
        Read(text, rank, start, end, score, math.exp(score - top) / total, kinds, label)
        for score, rank, start, end, text, kinds, label in scored
    ]
