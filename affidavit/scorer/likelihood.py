"""Answerability: how likely the best candidate is a right answer, as a calibrated
probability. A logistic model over what the library itself can see (the reader's score of
the span in its line, how much of the question the line leaves unsaid, whether the span
fills the slot the question's wh-word asks for, the question's type), trained by
tools/train_answerability.py on the SQuAD 2.0 dev tune articles and the compliance set's
tune documents and shipped in affidavit/data/answerability.json with its threshold and
provenance."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from affidavit.errors import EngineError
from affidavit.question import AnswerType, Question, asked_noun
from affidavit.results import LineKind
from affidavit.scorer.encoder import line_scores
from affidavit.scorer.read_spans import read
from affidavit.scorer.types import BOUND
from affidavit.text import (
    capitalised_names,
    fold,
    is_negated,
    letters_asked,
    numbers_in,
    parsed,
    spelled_in,
    words,
)

# What the model was trained on (SQuAD's English prose): elsewhere it does not judge,
# and the gate alone decides. A code or a contact is bound by its pattern, a title is a
# heading, a cell answers by its column, a turn by its speaker.
READER_LANGUAGES = frozenset({"en"})
_PROSE = frozenset({LineKind.SENTENCE, LineKind.CAPTION})
_UNJUDGED = BOUND | {AnswerType.TITLE}
MODEL_FILE = Path(__file__).resolve().parents[1] / "data" / "answerability.json"
_HINT = "reinstall affidavit, or retrain it with `make answerability`"
# The answer types a question is read as, one feature each (others share none).
_TYPES = (
    AnswerType.DESCRIPTION,
    AnswerType.PERSON,
    AnswerType.PLACE,
    AnswerType.TIME,
    AnswerType.COUNT,
    AnswerType.AMOUNT,
    AnswerType.ENTITY,
    AnswerType.QUANTITY,
    AnswerType.PERCENT,
)
FEATURES = (
    "bias",
    "reader_logit",
    "reader_share",
    "reader_margin",
    "reader_span",
    "encoder_score",
    "encoder_margin",
    "line_score",
    "rivals",
    "words",
    "missing_share",
    "missing_peak",
    "missing_count",
    "names_missing",
    "numbers_missing",
    "negation_unmatched",
    "slot_filled",
    "slot_elsewhere",
    *(f"type_{t.value}" for t in _TYPES),
)


@dataclass(frozen=True, slots=True)
class Likelihood:
    """The probability that ``text`` answers the question, against the threshold."""

    text: str
    probability: float
    threshold: float
    features: dict[str, float]

    @property
    def answerable(self) -> bool:
        return self.probability >= self.threshold

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "probability": round(self.probability, 4),
            "threshold": self.threshold,
            "features": {k: round(v, 4) for k, v in self.features.items()},
        }


@dataclass(frozen=True)
class Model:
    weights: tuple[float, ...]  # one per FEATURES name
    threshold: float
    provenance: dict[str, Any]

    def probability(self, features: dict[str, float]) -> float:
        z = sum(w * features[name] for w, name in zip(self.weights, FEATURES, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@lru_cache(maxsize=1)
def model() -> Model:
    """The shipped model; an EngineError naming the file when it cannot be read."""
    return load_model(MODEL_FILE)


def load_model(path: Path) -> Model:
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        weights = stored["weights"]
        names, threshold = tuple(weights), float(stored["threshold"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise EngineError(f"{path}: the answerability model cannot be read ({_HINT})") from exc
    if names != FEATURES:
        raise EngineError(
            f"{path}: the answerability model was trained on other features ({_HINT})"
        )
    return Model(tuple(float(weights[n]) for n in FEATURES), threshold, stored)


def judges(question: Question, kind: LineKind) -> bool:
    """Does the model judge an answer to ``question`` lifted from a line of ``kind``?"""
    return (
        question.language in READER_LANGUAGES
        and kind in _PROSE
        and question.shape.answer_type not in _UNJUDGED
    )


def judge_answerable(
    question: Question,
    text: str,
    line: str,
    *,
    line_share: float,
    rivals: int,
    weight: Callable[[str], float],
    chosen: Model | None = None,
    threshold: float | None = None,
) -> Likelihood | None:
    """How likely ``text``, lifted from ``line``, answers ``question``; None when the
    reader does not read ``text`` as a span of ``line`` (a clause, a whole line, a model
    engine's sentence: those the gate alone judges). ``line_share``: the line's retrieval
    score over the best hit's; ``rivals``: how many other candidates passed the gate;
    ``weight``: a term's rarity in the store (IDF); ``threshold``: the model's own unless
    given. The words a line spells the question's letters out with, beside them in
    brackets ("Intent To Package (ITP)"), are bound by those letters as a code is by its
    pattern: the gate alone judges them too."""
    letters = letters_asked(question.text)
    if letters is not None and text.strip() in spelled_in(line, letters):
        return None
    found = features_of(question, text, line, line_share=line_share, rivals=rivals, weight=weight)
    if not found["reader_span"]:
        return None
    used = chosen or model()
    at = used.threshold if threshold is None else threshold
    return Likelihood(text, used.probability(found), at, found)


def features_of(
    question: Question,
    text: str,
    line: str,
    *,
    line_share: float,
    rivals: int,
    weight: Callable[[str], float],
) -> dict[str, float]:
    found = dict.fromkeys(FEATURES, 0.0)
    found["bias"] = 1.0
    found.update(_reader_features(question, text, line))
    found["line_score"] = max(0.0, min(1.0, line_share))
    found["rivals"] = min(rivals, 6) / 6
    found["words"] = min(len(text.split()), 10) / 10
    found.update(_unsaid(question, line, weight))
    found.update(_slot(question, text, line))
    wanted = question.shape.answer_type
    if wanted in _TYPES:
        found[f"type_{wanted.value}"] = 1.0
    return found


def _reader_features(question: Question, text: str, line: str) -> dict[str, float]:
    """The reader's logit for ``text`` among the spans of its line; the probability of the
    spans overlapping it (nested readings of one answer, "the site manager, Dana Okafor"
    and "Dana Okafor", share the line's mass between them), and its margin over the best
    span elsewhere in the line; the encoder's own score of the span over the line holding
    no answer, and how far under the encoder's best span of the line it falls."""
    spans = read(question, [line])
    key = fold(text).strip()
    mine = next((s for s in spans if fold(s.text).strip() == key), None)
    if mine is None:
        return {"reader_margin": -max((s.probability for s in spans), default=0.0)}
    start, end = mine.span.start, mine.span.end
    share, elsewhere = 0.0, 0.0
    for other in spans:
        if other.span.start < end and start < other.span.end:
            share += other.probability
        else:
            elsewhere = max(elsewhere, other.probability)
    encoded = line_scores(question.text, [line])[0]
    by_encoder = encoded.span(start, end)
    return {
        "reader_logit": mine.score,
        "reader_share": share,
        "reader_margin": share - elsewhere,
        "reader_span": 1.0,
        # Scaled to the other features' range: the encoder's scores run about -20 to 20.
        "encoder_score": max(-2.0, min(2.0, by_encoder / 10)),
        "encoder_margin": max(-2.0, min(0.0, (by_encoder - encoded.best_score()) / 10)),
    }


def _unsaid(question: Question, line: str, weight: Callable[[str], float]) -> dict[str, float]:
    """What of the question the line leaves unsaid: the rarity-weighted share and the
    rarest of its key words the line lacks, names and numbers it does not write, and a
    negation the line does not echo."""
    analyzer = question.analyzer
    keys = sorted(question.key_terms)
    line_terms = set(analyzer.terms(line))
    rarity = {t: max(weight(t), 0.0) for t in keys}
    # A word no line of the store writes is as rare as the rarest word some line writes.
    ceiling = max(rarity.values(), default=0.0) or 1.0
    rarity = {t: w if w > 0 else ceiling for t, w in rarity.items()}
    total = sum(rarity.values())
    missing = [t for t in keys if t not in line_terms]
    language = question.language
    names = capitalised_names(question.text, language) - set(words(line, language))
    numbers = set(numbers_in(question.text)) - set(numbers_in(line))
    negated = is_negated(question.text, language) and not is_negated(line, language)
    peak = max(rarity.values(), default=0.0)
    return {
        "missing_share": sum(rarity[t] for t in missing) / total if total > 0 else 0.0,
        "missing_peak": max((rarity[t] for t in missing), default=0.0) / peak if peak > 0 else 0.0,
        "missing_count": min(len(missing), 5) / 5,
        "names_missing": min(len(names), 2) / 2,
        "numbers_missing": float(bool(numbers)),
        "negation_unmatched": float(negated),
    }


def _slot(question: Question, text: str, line: str) -> dict[str, float]:
    """Whether ``text`` fills the slot the question's wh-word asks for (question.asked_noun):
    it names the noun ("the --addmissing option" asked "Which option…?", "30 days" asked
    "how many days") or stands in the noun's phrase ("a total population of 239,839,971");
    or whether its line writes the noun apart from it ("Licensee" of "making Python
    available to Licensee on an 'AS IS' basis" asked "On what basis…?"). Both 0 when the
    question asks for no noun or the text is not found in the line as written."""
    noun = asked_noun(question.text) if question.language == "en" else None
    start = line.find(text) if noun else -1
    if noun is None or start < 0 or not text:
        return {}
    end = start + len(text)
    tokens = parsed(line)
    inside = [t for t in tokens if start <= t.idx < end]
    if any(t.lemma_.lower() == noun for t in inside):
        return {"slot_filled": 1.0}
    apart = [t for t in tokens if t.lemma_.lower() == noun and not start <= t.idx < end]
    for named in apart:
        phrase = list(named.subtree)
        if phrase[0].idx <= start and end <= phrase[-1].idx + len(phrase[-1]):
            return {"slot_filled": 1.0}
        # "the licence steward is X": the answer and the noun are the two sides of a "be"
        copular = named.head.lemma_ == "be" and any(t.head == named.head for t in inside)
        if copular or any(t.head == named for t in inside):
            return {"slot_filled": 1.0}
    return {"slot_elsewhere": 1.0} if apart else {}


def rivals_of(judged: Sequence[Likelihood]) -> list[dict[str, Any]]:
    """The audit's view of the rivals: their text and probability."""
    return [{"text": j.text, "probability": round(j.probability, 4)} for j in judged]
