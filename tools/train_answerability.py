"""Train the reader's answerability model (affidavit/scorer/likelihood.py) on two tune
sides: the SQuAD 2.0 dev **tune** articles (bench/refusal_squad2.py's split) and the
compliance set's **tune** documents (bench/compliance.py's split, both question files).
Neither corpus's report side is read here.

Each corpus goes into one store, as its benchmark builds it, and every tune question is
asked. Where the gate passes a candidate, the audit records the answerability features of
the best one; it is labelled right when its SQuAD F1 against a gold answer is at least 0.5
(SQuAD) or when the compliance bench's scorer takes it as right (bench/_doc_scoring.py); an
unanswerable question has no right answer. A logistic regression is fitted by L-BFGS
(scipy), the documents' questions weighing a fifth of the loss and SQuAD's the rest (chosen
on the tune halves: a fifth gave the best sum of the two scores below, and a better SQuAD
score than SQuAD alone). The threshold is the one that maximises the sum of
the two corpora's scores over their tune questions -- SQuAD 2.0 F1, and on the documents a
right answer or a refused unanswerable question 1, a wrong answer -1 (a wrong answer costs
a reviewer more than a refusal), a refused answerable question 0 -- on probabilities each
half of the articles and of the documents gets from a model fitted on the other half; the
model is then refitted on all of them. Weights, threshold, corpus checksums, commit, tune
scores and a fixed sample for the reload test go to affidavit/data/answerability.json.

    .venv/bin/python tools/train_answerability.py [--limit N] [--out PATH] [--rows PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import numpy as np
from scipy import optimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import compliance  # noqa: E402
from _doc_scoring import is_right  # noqa: E402
from _squad import SQUAD, Question, load_squad  # noqa: E402
from refusal_squad2 import f1, split_of  # noqa: E402

from affidavit import Memory  # noqa: E402
from affidavit.scorer import likelihood as answerability  # noqa: E402
from affidavit.scorer.likelihood import FEATURES, MODEL_FILE  # noqa: E402

L2 = 1e-3
RIGHT_ENOUGH = 0.5
SAMPLE_SIZE = 12
DOCUMENTS_SHARE = 0.2  # of the loss: the documents' questions, against SQuAD's
CORPORA = ("squad", "documents")


def asked_squad(limit: int | None) -> list[dict]:
    """Per SQuAD tune question: whether it is answerable, its score as asked (F1), and the
    best candidate's features and F1 where the reader judged one."""
    articles, questions = load_squad()
    titles = sorted(articles)
    tune = [q for q in questions if split_of(q.article, titles) == "tune"][:limit]
    memory = Memory()
    for title, text in articles.items():
        memory.ingest_text(text, name=title)
    return _asked(memory, tune, lambda q: q.text, partial(_squad_row, _squad_scored))


def asked_documents(limit: int | None) -> list[dict]:
    """Per compliance tune question, the same, scored by the compliance bench's judge: 1
    right, -1 wrong (a quoted line counts 0 when it holds the gold), 0 refused."""
    tune = [q for q in compliance.load_questions() if q.split == "tune"][:limit]
    memory = Memory(dense=False)
    memory.ingest(compliance.store_files())
    return _asked(memory, tune, lambda q: q.question, _document_row)


def _asked(memory: Memory, questions: Sequence, text_of: Callable, row_of: Callable) -> list:
    memory.ask("warm-up")
    rows = []
    start = time.perf_counter()
    for number, question in enumerate(questions, 1):
        rows.append(row_of(question, memory.ask(text_of(question))))
        if number % 500 == 0:
            took = time.perf_counter() - start
            print(f"  {number:,} / {len(questions):,} asked, {took:.0f} s", flush=True)
    memory.close()
    return rows


def _squad_row(scored: Callable, question: Question, answer) -> dict:
    judged = answer.audit.get("answerability")
    return {
        "corpus": "squad",
        "group": question.article,
        "impossible": question.impossible,
        "refused": answer.refused,
        "outcome": 0.0 if answer.refused else scored(question, answer.text),
        "features": judged["features"] if judged else None,
        "right": scored(question, judged["text"]) if judged else 0.0,
    }


def _squad_scored(question: Question, text: str) -> float:
    """SQuAD F1 of ``text`` against the best gold answer; 0 for an unanswerable question."""
    return 0.0 if question.impossible else max(f1(g, text) for g in question.answers)


def _document_row(question: compliance.Question, answer) -> dict:
    judged = answer.audit.get("answerability")
    said = compliance.outcome(answer, question)
    right = bool(
        judged
        and question.answerable
        and is_right(judged["text"], None, question.answers, question.question)
    )
    return {
        "corpus": "documents",
        "group": question.document,
        "impossible": not question.answerable,
        "refused": answer.refused,
        "outcome": {"right": 1.0, "wrong": -1.0}.get(said, 0.0),
        "features": judged["features"] if judged else None,
        "right": float(right),
    }


def fit(x: np.ndarray, y: np.ndarray, weight: np.ndarray) -> np.ndarray:
    total = weight.sum()

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = np.clip(x @ w, -30, 30)
        p = 1 / (1 + np.exp(-z))
        penalty = np.r_[0.0, w[1:]]
        value = -(weight @ (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))) / total
        return value + L2 * penalty @ penalty, x.T @ (weight * (p - y)) / total + 2 * L2 * penalty

    return optimize.minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B").x


def corpus_score(rows: list[dict], probability: dict[int, float], threshold: float) -> float:
    """One corpus's mean score when its judged candidates answer at ``threshold`` and every
    other question keeps its outcome as asked: SQuAD 2.0 F1, or the documents' 1 / -1 / 0.
    A refusal scores 1 iff the question is unanswerable."""
    total = 0.0
    for i, row in enumerate(rows):
        judged = i in probability
        if judged and probability[i] < threshold or not judged and row["refused"]:
            total += float(row["impossible"])
        elif not judged:
            total += row["outcome"]
        elif row["corpus"] == "squad":
            total += 0.0 if row["impossible"] else row["right"]
        else:
            total += 1.0 if row["right"] else -1.0
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
    rows = asked_squad(args.limit) + asked_documents(args.limit)
    if args.rows is not None:
        args.rows.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    stored = trained(rows)
    stored.update(
        {
            "corpus": "SQuAD 2.0 dev, tune articles (bench/refusal_squad2.py's split); "
            "compliance set, tune documents (bench/compliance.py's split)",
            "corpus_file": SQUAD.name,
            "corpus_sha256": hashlib.sha256(SQUAD.read_bytes()).hexdigest(),
            "documents_sha256": _documents_digest(),
            "commit": subprocess.run(
                ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
            ).stdout.strip(),
            "tree_clean": clean,
        }
    )
    args.out.write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(stored["scores"]), "threshold", stored["threshold"], "->", args.out)


def trained(rows: list[dict]) -> dict:
    """The model fitted to ``rows`` of both corpora, its threshold, scores and sample."""
    judged = [i for i, r in enumerate(rows) if r["features"] is not None]
    x = np.array([[rows[i]["features"][n] for n in FEATURES] for i in judged])
    y = np.array([float(rows[i]["right"] >= RIGHT_ENOUGH) for i in judged])
    corpus = np.array([rows[i]["corpus"] for i in judged])
    share = {"squad": 1 - DOCUMENTS_SHARE, "documents": DOCUMENTS_SHARE}
    weight = np.array([share[c] * len(judged) / (corpus == c).sum() for c in corpus])
    # Halves by article and by document: a question never judged by a model that saw its
    # own text.
    groups = {c: sorted({r["group"] for r in rows if r["corpus"] == c}) for c in CORPORA}
    half = np.array([groups[rows[i]["corpus"]].index(rows[i]["group"]) % 2 for i in judged])
    held: dict[int, float] = {}
    for part in (0, 1):
        w = fit(x[half != part], y[half != part], weight[half != part])
        probabilities = 1 / (1 + np.exp(-(x[half == part] @ w)))
        for row, p in zip(np.array(judged)[half == part], probabilities, strict=True):
            held[int(row)] = float(p)
    grid = [round(t, 3) for t in np.arange(0.05, 0.951, 0.025)]

    def scores(probability: dict[int, float], threshold: float) -> dict[str, float]:
        return {c: _corpus_score(rows, c, probability, threshold) for c in CORPORA}

    threshold = max(grid, key=lambda t: (sum(scores(held, t).values()), -t))
    weights = fit(x, y, weight)
    model = answerability.Model(tuple(float(v) for v in weights), threshold, {})
    final = {i: model.probability(rows[i]["features"]) for i in judged}
    sample = [
        {"features": rows[i]["features"], "probability": round(final[i], 6)}
        for i in judged[:: max(1, len(judged) // SAMPLE_SIZE)][:SAMPLE_SIZE]
    ]
    held_scores, refitted = scores(held, threshold), scores(final, threshold)
    as_asked = scores(dict.fromkeys(judged, 1.0), 0.5)
    return {
        "weights": {n: round(float(v), 6) for n, v in zip(FEATURES, weights, strict=True)},
        "threshold": threshold,
        "questions": {c: sum(r["corpus"] == c for r in rows) for c in CORPORA},
        "judged": {c: int((corpus == c).sum()) for c in CORPORA},
        "l2": L2,
        "documents_share": DOCUMENTS_SHARE,
        "right_enough": RIGHT_ENOUGH,
        "scores": {
            "squad2_f1_tune_held_halves": round(held_scores["squad"], 4),
            "squad2_f1_tune_refitted": round(refitted["squad"], 4),
            "squad2_f1_tune_no_threshold": round(as_asked["squad"], 4),
            "documents_tune_held_halves": round(held_scores["documents"], 4),
            "documents_tune_refitted": round(refitted["documents"], 4),
            "documents_tune_no_threshold": round(as_asked["documents"], 4),
            "refuse_all": round(
                sum(r["impossible"] for r in rows if r["corpus"] == "squad")
                / sum(r["corpus"] == "squad" for r in rows),
                4,
            ),
        },
        # Both scores on tune (held halves) at each threshold: how flat the choice is.
        "curve": {str(t): {c: round(v, 4) for c, v in scores(held, t).items()} for t in grid[::2]},
        "sample": sample,
    }


def _corpus_score(rows: list[dict], corpus: str, probability: dict[int, float], at: float) -> float:
    mine = [i for i, r in enumerate(rows) if r["corpus"] == corpus]
    return corpus_score(
        [rows[i] for i in mine],
        {n: probability[i] for n, i in enumerate(mine) if i in probability},
        at,
    )


def _documents_digest() -> str:
    """One checksum over the compliance store's files and both question files."""
    digest = hashlib.sha256()
    files = compliance.store_files() + [compliance.QUESTIONS, compliance.MORE_QUESTIONS]
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


if __name__ == "__main__":
    main()
