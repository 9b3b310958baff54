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
from affidavit.reader.spans import Spanned, spans_for
from affidavit.reader.types import BOUND, fits


@dataclass(frozen=True, slots=True)
class Read:
    """A span the reader proposes from line ``line`` (an index into the lines given)."""

    span: Spanned
    line: int
    score: float  # the scorer's logit: comparable across subsets of one question
    probability: float  # its share among every span of the lines read

    @property
    def text(self) -> str:
        return self.span.text

    @property
    def why(self) -> str:
        found = self.span.found
        label = f" {found.label}" if found.label else ""
        return f"reader: {'+'.join(found.kinds)}{label}, p {self.probability:.2f}"


def read(question: Question, lines: Sequence[str], *, model: Weights | None = None) -> list[Read]:
    """Every span of ``lines`` (best line first) that could answer ``question``, best
    first; ties keep the line's and the span's order. A question of a bound type (a code,
    a contact) is answered by pattern spans only, and its lines are not parsed.
    ``model``: the shipped weights unless given."""
    cues = cues_of(question)
    model = model or weights()
    wanted = question.shape.answer_type
    parse = wanted not in BOUND
    scored: list[tuple[float, int, Spanned]] = []
    for rank, text in enumerate(lines):
        for span in spans_for(cues, read_line(text, question.language, parse=parse), rank):
            if fits(wanted, span.found.label):  # a phone number asked: a span read as one
                scored.append((model.score(span.features), rank, span))
    if not scored:
        return []
    top = max(score for score, _, _ in scored)
    total = sum(math.exp(score - top) for score, _, _ in scored)
    scored.sort(key=lambda s: (-s[0], s[1], s[2].start, s[2].end))
    return [Read(span, rank, score, math.exp(score - top) / total) for score, rank, span in scored]
