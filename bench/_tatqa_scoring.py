"""TAT-QA's exact match and F1, re-implemented from the rules of its official scorer.

The reference is ``tatqa_metric.py`` and ``tatqa_utils.py`` of NExTplusplus/TAT-QA (last
changed in commit 4bd0b9c, 2021-05-26; read at commit 870accc). This module is written
afresh from those rules, not copied. What the official scorer does, and so what this does:

- **Gold strings.** span and multi-span golds are the list of spans, arithmetic is
  ``str(answer)``, count is ``str(int(answer))``.
- **One string per answer.** An answer (gold, or prediction) is turned into *one* string:
  its spans are sorted, each span that reads as a number (``is_number``) becomes its value
  rounded to 2 decimals, times the scale's factor, written with 4 decimals (a span with
  ``%`` in it is already a fraction: ``"12%"`` is 0.12, not scaled again); a span that is
  not a number gets the scale word appended. The spans are joined with spaces. So a
  multi-span answer is scored as one bag of words, in any order: the optimal bag
  alignment (``scipy.optimize.linear_sum_assignment``) is run, as the scorer does, but
  over one bag a side. DROP's rule that a number mismatch inside a bag scores 0 is *not*
  applied: the official scorer has it commented out ("no need to match number in
  tatqa").
- **Numbers.** A text is a number if its first word (after dropping ``'"\\$€£¥%(),[]``)
  parses as a float and its second word, if any, is a scale word (hundred, thousand,
  million, billion, percent). Its value is the first number in it, times the scale word
  after a number, times -1 if it holds a parenthesised number such as ``(134)``, times
  0.01 if it holds ``12%``; rounded to 4 decimals. ``"1,496.5"`` is 1496.5.
- **Normalisation.** Per space-separated token: lower case; punctuation removed unless
  the token is a number; a number is written as its value; articles (a, an, the)
  removed; empty tokens dropped.
- **EM and F1.** EM: the normalised strings are equal. F1: the F1 of the two token *sets*,
  rounded to 2 decimals. The best (EM, F1) pair over the prediction's strings counts.
  For arithmetic and count questions F1 is set to EM: a number is right or wrong.
- **Scale.** The scorer takes a prediction with a predicted scale (thousand, million,
  ..., percent) beside it, and writes the prediction in that scale. With no predicted
  scale it also tries the bare number as a fraction (``0.2222`` against gold -22.22
  percent, written -0.2222).

Quirks of the official scorer, kept: only ASCII punctuation is removed (``"“LWAY"`` is
not ``"LWAY"``); a parenthesised number with a thousands separator is not negative
(``"(1,663)"`` is 1663, ``"(494)"`` is -494); ``"a $1.1 million reserve"`` is not a number,
so it shares no word with gold ``"$1.1 million"`` (written 1100000.0); a percentage span
with no scale (gold ``"22.9%"``, scale "") is matched only by a prediction with ``%``.

**The one departure, for an engine that says no scale beside its answer:** by default
the prediction is scored both with no scale and with the gold's scale, and the better
counts. So ``"-22.22"``, ``"-22.22%"`` and ``"-0.2222"`` all match gold -22.22 percent;
``"1,496.5"``, ``"$1,496.5 million"`` and ``"1496500000"`` all match gold 1,496.5 million.
This is the official score of a model that always predicts the right scale. Given
``scale=`` (the engine's own scale, "" for none) the score is exactly the official one
for that predicted scale: with ``scale=""`` only ``"-22.22%"``, ``"-0.2222"``,
``"$1,496.5 million"`` and ``"1496500000"`` match.

The numbers are compared after rounding to 2 decimals (in the scale's unit): ``-22.224``
matches -22.22, ``-22.2`` does not.

    .venv/bin/python bench/_tatqa_scoring.py   # runs the self-check
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

# Dropped before a word is read as a number.
_NOT_IN_NUMBER = frozenset("'\"\\$€£¥%(),[]")
_FIRST_NUMBER = re.compile(r"([+-]?\d+(\.\d+)?)|([+-]?\.\d+)")
_NEGATIVE = re.compile(r"\([\d.\s]+\)")
_PERCENT = re.compile(r"[\d.\s]+%")
_NUMBER_THEN_WORD = re.compile(r"[\d.]+\s?[a-zA-Z]+")
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCTUATION = frozenset(string.punctuation)
# Tested in this order, as substrings: "thousands" is a thousand.
_SCALE_WORDS: tuple[tuple[str, int | float], ...] = (
    ("hundred", 100),
    ("thousand", 1_000),
    ("million", 1_000_000),
    ("billion", 1_000_000_000),
    ("percent", 0.01),
)


def scale_factor(word: str) -> int | float:
    """The factor a scale word stands for (1 when it is none)."""
    word = word.lower()
    return next((factor for name, factor in _SCALE_WORDS if name in word), 1)


def _clean(text: str) -> str:
    return "".join(ch for ch in text if ch not in _NOT_IN_NUMBER)


def is_number(text: str) -> bool:
    """A number, perhaps followed by a scale word: "1,023", "$(3.5)", "1 million"."""
    words = " ".join(_clean(w) for w in text.split()).split()
    if not words:
        return False
    try:
        value = float(words[0])
    except ValueError:
        return False
    if math.isnan(value):
        return False
    return len(words) < 2 or scale_factor(words[1]) != 1


def _first_number(text: str) -> int | float | None:
    found = _FIRST_NUMBER.search(_clean(text))
    if found is None or not found.group(1):
        return None  # a bare ".5" first is not read, as in the official scorer
    number = found.group(1)
    return float(number) if "." in number else int(number)


def to_number(text: str) -> int | float | None:
    """The value written: scale word, parentheses (negative) and % applied; 4 decimals."""
    number = _first_number(text)
    if number is None:
        return None
    scaled = _NUMBER_THEN_WORD.search(text)
    factor = scale_factor(scaled.group(0)) if scaled else 1
    sign = -1 if _NEGATIVE.search(text.strip()) else 1
    percent = 0.01 if _PERCENT.search(text.strip()) else 1
    return round(number * factor * sign * percent, 4)


def _token(token: str) -> str:
    token = token.lower()
    if not is_number(token):
        token = "".join(ch for ch in token if ch not in _PUNCTUATION)
    if is_number(token):
        token = str(to_number(token))
    return " ".join(_ARTICLES.sub(" ", token).split())


def normalize_answer(text: str) -> str:
    """Lower case, punctuation and articles gone, numbers written as their values."""
    return " ".join(part for part in (_token(t) for t in text.split(" ")) if part.strip())


def answer_string(answers: Sequence[Any], scale: str) -> str:
    """An answer's spans as the one string that is scored, in ``scale`` (see above)."""
    written = []
    for answer in sorted(answers):
        text = str(answer)
        value = to_number(text) if is_number(text) else None
        if value is None:
            written.append(f"{text} {scale}" if scale else text)
        elif "%" in text:  # already a fraction
            written.append(f"{value:.4f}")
        else:
            written.append(f"{round(value, 2) * scale_factor(scale):.4f}")
    return " ".join(written)


def gold_answers(question: dict[str, Any]) -> list[str]:
    """The gold spans of a TAT-QA question, as the official scorer writes them."""
    answer = question["answer"]
    if question["answer_type"] in ("span", "multi-span"):
        return [str(a) for a in answer]
    if question["answer_type"] == "count":
        return [str(int(answer))]
    return [str(answer)]


def _set_f1(predicted: set[str], gold: set[str]) -> float:
    same = len(predicted & gold)
    precision = same / len(predicted) if predicted else 1.0
    recall = same / len(gold) if gold else 1.0
    if precision == 0.0 and recall == 0.0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def align_bags(predicted: Sequence[set[str]], gold: Sequence[set[str]]) -> list[float]:
    """Each gold bag's F1 under the best one-to-one pairing with the predicted bags."""
    scores = np.array([[_set_f1(p, g) for p in predicted] for g in gold]).reshape(
        len(gold), len(predicted)
    )
    best = [0.0] * max(len(gold), len(predicted))
    for row, column in zip(*linear_sum_assignment(-scores), strict=True):
        best[row] = max(best[row], float(scores[row, column]))
    return best


def em_f1(predicted: str | Sequence[str], gold: str | Sequence[str]) -> tuple[float, float]:
    """Exact match and bag F1 (2 decimals) of two answers, each a string or a list of spans."""
    predicted_spans = [predicted] if isinstance(predicted, str) else list(predicted)
    gold_spans = [gold] if isinstance(gold, str) else list(gold)
    predicted_norm = [normalize_answer(s) for s in predicted_spans]
    gold_norm = [normalize_answer(s) for s in gold_spans]
    exact = float(set(predicted_norm) == set(gold_norm) and len(predicted_norm) == len(gold_norm))
    f1 = align_bags([set(s.split()) for s in predicted_norm], [set(s.split()) for s in gold_norm])
    return exact, round(float(np.mean(f1)), 2)


def _prediction_strings(spans: Sequence[str], scale: str) -> list[str]:
    """The prediction written in ``scale``; with no scale, a lone number also as a fraction."""
    strings = [answer_string(spans, scale)]
    if len(spans) == 1 and not scale and "%" not in spans[0] and is_number(spans[0]):
        value = to_number(spans[0])
        if value is not None:
            strings.append(f"{value:.4f}")
    return strings


def score(
    prediction: str | Sequence[str] | None,
    question: dict[str, Any],
    *,
    scale: str | None = None,
) -> tuple[float, float]:
    """(EM, F1) of a prediction for a TAT-QA question; None or empty (a refusal) scores 0.

    ``prediction`` is one string or a list of spans (multi-span). ``scale`` is the scale
    predicted with it ("", thousand, million, billion, percent); without one the
    prediction is scored with no scale and with the gold's, and the better counts.
    """
    if not prediction:
        return 0.0, 0.0
    spans = [prediction] if isinstance(prediction, str) else [str(p) for p in prediction]
    gold_scale = question["scale"]
    gold = answer_string(gold_answers(question), gold_scale)
    scales = [scale] if scale is not None else sorted({"", gold_scale})
    exact, f1 = max(em_f1(s, gold) for said in scales for s in _prediction_strings(spans, said))
    if question["answer_type"] in ("arithmetic", "count"):
        f1 = exact
    return exact, f1


def _self_check() -> None:
    def q(answer: Any, answer_type: str = "arithmetic", scale: str = "") -> dict[str, Any]:
        return {"answer": answer, "answer_type": answer_type, "scale": scale}

    assert normalize_answer("The Total, sales.") == "total sales"
    assert normalize_answer("$1,496.5") == "1496.5"
    assert normalize_answer("(134)") == "-134"
    assert to_number("1,496.5 million") == 1_496_500_000
    assert to_number("12%") == 0.12
    assert is_number("$ 1,452.4") and is_number("3 thousand") and not is_number("3 apples")
    # percent: with or without %, as a fraction, rounded to 2 decimals
    pct = q(-22.22, scale="percent")
    for said in ("-22.22", "-22.22%", "-0.2222", "-22.2222", "-22.224"):
        assert score(said, pct) == (1.0, 1.0), said
    assert score("-22.2", pct) == (0.0, 0.0)
    assert score("-22.22", pct, scale="") == (0.0, 0.0)
    assert score("-22.22%", pct, scale="") == (1.0, 1.0)
    assert score("-22.22", pct, scale="percent") == (1.0, 1.0)
    assert score("1496.5", q(["$1,496.5"], "span", "million"), scale="thousand") == (0.0, 0.0)
    # million: the document's number, or the number with its scale word
    million = q(["$1,496.5"], "span", "million")
    for said in ("1,496.5", "1496.5", "$1,496.5 million", "1496500000"):
        assert score(said, million) == (1.0, 1.0), said
    assert score("1,202.9", million) == (0.0, 0.0)
    assert score("-12.6", q(-12.6, scale="million")) == (1.0, 1.0)
    assert score("-12.60000001", q(-12.6, scale="million")) == (1.0, 1.0)
    # count: a number, right or wrong
    assert score("3", q("3", "count")) == (1.0, 1.0)
    assert score("three", q("3", "count")) == (0.0, 0.0)
    # multi-span: one bag, any order; a part of it earns part of the F1
    types = q(["fixed-price type", "cost-plus type", "time-and-material type"], "multi-span")
    assert score(["time-and-material type", "fixed-price type", "cost-plus type"], types) == (
        1.0,
        1.0,
    )
    exact, f1 = score(["fixed-price type"], types)
    assert exact == 0.0 and f1 == 0.67, f1  # {fixedprice, type} of 4 words: P 1, R 1/2
    # span text: SQuAD-like word F1 (over word sets)
    exact, f1 = score(
        "our allowable incurred costs", q(["our allowable incurred costs plus a profit"], "span")
    )
    assert exact == 0.0 and f1 == 0.8, f1
    # a refusal scores nothing
    assert score(None, pct) == score("", pct) == score([], types) == (0.0, 0.0)
    # the official scorer's quirks, kept
    assert to_number("(1,663)") == 1663 and to_number("(494)") == -494
    assert score("the symbol “LWAY", q(["LWAY"], "span")) == (0.0, 0.0)
    assert score("22.9", q(["22.9%"], "span")) == (0.0, 0.0)
    # the bag alignment pairs bags one to one
    assert align_bags([{"a"}, {"b"}], [{"b"}, {"a"}]) == [1.0, 1.0]
    assert align_bags([{"a"}], [{"a"}, {"c"}]) == [1.0, 0.0]
    print("tatqa scoring self-check: ok")


if __name__ == "__main__":
    _self_check()
