"""read(): the reader's answer spans in the best lines of an evidence subset, each with the
scorer's score and its share of the subset's probability."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from threading import Lock

import numpy as np

from affidavit.question import Question
from affidavit.scorer.candidate_spans import Spanned, spans_for
from affidavit.scorer.cues import Cues, cues_of
from affidavit.scorer.encoder import LineScores, line_scores
from affidavit.scorer.encoder import read_ahead as _encode_ahead
from affidavit.scorer.network import Network, Reading
from affidavit.scorer.parsed_lines import LineRead, read_line, read_lines_ahead
from affidavit.scorer.types import BOUND, fits
from affidavit.scorer.weights import Weights, weights

# The encoder reads English (its training questions'); its span score is added to the
# hashed scorer's at this weight.
ENCODER_LANGUAGES = frozenset({"en"})
ENCODER_WEIGHT = 1.0


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


def read_ahead(question: Question, lines: Sequence[str]) -> None:
    """Parse together the lines ``read`` is about to be given for ``question`` (over every
    evidence subset of an ask), as ``read`` would parse them: not for a bound type. The
    encoder reads them meanwhile, on a thread of its own."""
    encode_ahead(question, lines)
    read_lines_ahead(lines, question.language, parse=_parses(question))


def encode_ahead(question: Question, lines: Sequence[str]) -> None:
    """Start the encoder reading ``lines`` for ``question`` on a thread of its own, as
    ``read`` will read them (English questions of an unbound type), and return at once."""
    if question.language in ENCODER_LANGUAGES and _parses(question):
        _encode_ahead(question.text, lines)


def _parses(question: Question) -> bool:
    """Are the lines parsed for ``question``? Not for a bound type (a code, a contact),
    which its pattern finds."""
    return question.shape.answer_type not in BOUND


def read(question: Question, lines: Sequence[str], *, model: Weights | None = None) -> list[Read]:
    """Every span of ``lines`` (best line first) that could answer ``question``, best
    first; ties keep the line's and the span's order. A question of a bound type (a code,
    a contact) is answered by pattern spans only, and its lines are not parsed.
    ``model``: the shipped weights unless given."""
    cues = cues_of(question)
    model = model or weights()
    wanted = question.shape.answer_type
    read_lines = [read_line(text, question.language, parse=_parses(question)) for text in lines]
    spans = [
        [s for s in spans_for(cues, line, rank) if fits(wanted, s.found.label)]
        for rank, line in enumerate(read_lines)
    ]  # a phone number asked: only spans read as one
    edges = _edges(model, cues, question, read_lines, spans)
    encoded = _encoded(question, lines, spans)
    scored: list[tuple[float, int, Spanned]] = []
    for rank, found in enumerate(spans):
        start, end = edges.get(rank, (None, None))
        by_encoder = encoded.get(rank)
        for span in found:
            score = model.score(span.features)
            if start is not None and end is not None:
                score += float(start[span.found.first] + end[span.found.last - 1])
            if by_encoder is not None:
                score += ENCODER_WEIGHT * by_encoder.span(span.start, span.end)
            scored.append((score, rank, span))
    if not scored:
        return []
    top = max(score for score, _, _ in scored)
    total = sum(math.exp(score - top) for score, _, _ in scored)
    scored.sort(key=lambda s: (-s[0], s[1], s[2].start, s[2].end))
    return [Read(span, rank, score, math.exp(score - top) / total) for score, rank, span in scored]


def _encoded(
    question: Question, lines: Sequence[str], spans: list[list[Spanned]]
) -> dict[int, LineScores]:
    """The encoder's scores of each line with spans, by its rank: English questions of
    an unbound type (a code or a contact is bound by its pattern)."""
    if question.language not in ENCODER_LANGUAGES or not _parses(question):
        return {}
    wanted = [i for i, found in enumerate(spans) if found]
    return dict(zip(wanted, line_scores(question.text, [lines[i] for i in wanted]), strict=True))


def _edges(
    model: Weights,
    cues: Cues,
    question: Question,
    lines: list[LineRead],
    spans: list[list[Spanned]],
) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """The network's start and end scores of each parsed line with spans, by its rank
    (none when the weights have no network)."""
    wanted = [i for i, line in enumerate(lines) if spans[i] and line.pos and line.pos[0]]
    if model.network is None or not wanted:
        return {}
    reading = _reading(model.network, cues, question.text)
    return dict(zip(wanted, reading.edges([lines[i] for i in wanted]), strict=True))


_readings: dict[tuple[str, Cues], Reading] = {}
_readings_lock = Lock()  # batch answers questions on threads


def _reading(network: Network, cues: Cues, text: str) -> Reading:
    """The network's reading of a question, kept for the question's other subsets (ask
    reads each document's lines apart); the last few questions only."""
    key = (text, cues)
    with _readings_lock:
        kept = _readings.get(key)
        if kept is not None and kept.network is network:
            return kept
    reading = Reading(network, cues, text)
    with _readings_lock:
        if len(_readings) >= 64:
            _readings.pop(next(iter(_readings)))
        _readings[key] = reading
    return reading
