"""Train the reader's answerability model (affidavit/scorer/likelihood.py) on the
SQuAD 2.0 dev **tune** articles (bench/refusal_squad2.py's split; the report articles are
never read here).

All dev articles go into one store, as the benchmark does, and every tune question is
asked. Where the gate passes a candidate, the audit records the answerability features of
the best one; it is labelled right when its SQuAD F1 against a gold answer is at least
0.5 (an unanswerable question has none). A logistic regression is fitted by L-BFGS
(scipy); the threshold is the one that maximises SQuAD 2.0 F1 over the tune questions on
probabilities each half of the articles gets from a model fitted on the other half; the
model is then refitted on all of them. Weights, threshold, corpus checksum, commit, tune
scores and a fixed sample for the reload test go to affidavit/data/answerability.json.

    .venv/bin/python tools/train_answerability.py [--limit N] [--out PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np
from scipy import optimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _squad import SQUAD, Question, load_squad  # noqa: E402
from refusal_squad2 import f1, split_of  # noqa: E402

from affidavit import Memory  # noqa: E402
from affidavit.scorer import likelihood as answerability  # noqa: E402
from affidavit.scorer.likelihood import FEATURES, MODEL_FILE  # noqa: E402

L2 = 1e-3
RIGHT_ENOUGH = 0.5
SAMPLE_SIZE = 12


def asked_tune(limit: int | None) -> list[dict]:
    """Per tune question: whether it is answerable, the outcome as asked, and the best
    candidate's features and F1 where the reader judged one."""
    articles, questions = load_squad()
    titles = sorted(articles)
    tune = [q for q in questions if split_of(q.article, titles) == "tune"][:limit]
    memory = Memory()
    for title, text in articles.items():
        memory.ingest_text(text, name=title)
    memory.ask("warm-up")
    rows = []
    start = time.perf_counter()
    for number, question in enumerate(tune, 1):
        answer = memory.ask(question.text)
        judged = answer.audit.get("answerability")
        said = "" if answer.refused else answer.text
        scored = partial(_scored, question)

        rows.append(
            {
                "question": question.text,
                "article": question.article,
                "impossible": question.impossible,
                "refused": answer.refused,
                "outcome": 0.0 if answer.refused else scored(said),
                "features": judged["features"] if judged else None,
                "f1": scored(judged["text"]) if judged else 0.0,
            }
        )
        if number % 500 == 0:
            print(f"  {number:,} / {len(tune):,} asked, {time.perf_counter() - start:.0f} s")
    memory.close()
    return rows


def _scored(question: Question, text: str) -> float:
    """SQuAD F1 of ``text`` against the best gold answer; 0 for an unanswerable question."""
    return 0.0 if question.impossible else max(f1(g, text) for g in question.answers)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = np.clip(x @ w, -30, 30)
        p = 1 / (1 + np.exp(-z))
        penalty = np.r_[0.0, w[1:]]
        value = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
        return value + L2 * penalty @ penalty, x.T @ (p - y) / len(y) + 2 * L2 * penalty

    return optimize.minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B").x


def squad2_f1(rows: list[dict], probability: dict[int, float], threshold: float) -> float:
    """SQuAD 2.0 F1 when the judged candidates answer at ``threshold`` and every other
    question keeps its outcome as asked (a refusal right iff the question is unanswerable)."""
    total = 0.0
    for i, row in enumerate(rows):
        if i in probability:
            answers = probability[i] >= threshold
            total += (0.0 if row["impossible"] else row["f1"]) if answers else row["impossible"]
        else:
            total += float(row["refused"]) if row["impossible"] else row["outcome"]
    return total / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="ask only the first N tune questions")
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    parser.add_argument("--rows", type=Path, help="also write the asked rows (JSON lines) here")
    args = parser.parse_args()
    try:
        answerability.model()
    except Exception:  # noqa: BLE001  (no model yet: a neutral one records the features)
        neutral = {"weights": dict.fromkeys(FEATURES, 0.0), "threshold": 0.0}
        MODEL_FILE.write_text(json.dumps(neutral), encoding="utf-8")
        answerability.model.cache_clear()
    # A model fitted from a tree with changes not committed is said to be so (read before
    # the run: the code that runs is the code at its start).
    clean = not subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    rows = asked_tune(args.limit)
    if args.rows is not None:
        args.rows.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    judged = [i for i, r in enumerate(rows) if r["features"] is not None]
    x = np.array([[rows[i]["features"][n] for n in FEATURES] for i in judged])
    y = np.array([float(rows[i]["f1"] >= RIGHT_ENOUGH) for i in judged])
    articles = sorted({r["article"] for r in rows})
    half = np.array([articles.index(rows[i]["article"]) % 2 for i in judged])
    held: dict[int, float] = {}
    for part in (0, 1):
        w = fit(x[half != part], y[half != part])
        probabilities = 1 / (1 + np.exp(-(x[half == part] @ w)))
        for row, p in zip(np.array(judged)[half == part], probabilities, strict=True):
            held[int(row)] = float(p)
    grid = [round(t, 3) for t in np.arange(0.05, 0.951, 0.025)]
    threshold = max(grid, key=lambda t: (squad2_f1(rows, held, t), -t))
    weights = fit(x, y)
    model = answerability.Model(tuple(float(v) for v in weights), threshold, {})
    final = {i: model.probability(rows[i]["features"]) for i in judged}
    sample = [
        {"features": rows[i]["features"], "probability": round(final[i], 6)}
        for i in judged[:: max(1, len(judged) // SAMPLE_SIZE)][:SAMPLE_SIZE]
    ]
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.strip()
    refuse_all = sum(r["impossible"] for r in rows) / len(rows)
    as_asked = squad2_f1(rows, dict.fromkeys(judged, 1.0), 0.5)
    stored = {
        "weights": {n: round(float(v), 6) for n, v in zip(FEATURES, weights, strict=True)},
        "threshold": threshold,
        "corpus": "SQuAD 2.0 dev, tune articles (bench/refusal_squad2.py's split)",
        "corpus_file": SQUAD.name,
        "corpus_sha256": hashlib.sha256(SQUAD.read_bytes()).hexdigest(),
        "commit": commit,
        "tree_clean": clean,
        "questions": len(rows),
        "judged": len(judged),
        "l2": L2,
        "right_enough": RIGHT_ENOUGH,
        "scores": {
            "squad2_f1_tune_held_halves": round(squad2_f1(rows, held, threshold), 4),
            "squad2_f1_tune_refitted": round(squad2_f1(rows, final, threshold), 4),
            "squad2_f1_tune_no_threshold": round(as_asked, 4),
            "refuse_all": round(refuse_all, 4),
        },
        # SQuAD 2.0 F1 on tune (held halves) at each threshold: how flat the choice is.
        "curve": {str(t): round(squad2_f1(rows, held, t), 4) for t in grid[::2]},
        "sample": sample,
    }
    args.out.write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(stored["scores"]), "threshold", threshold, "->", args.out)


if __name__ == "__main__":
    main()
