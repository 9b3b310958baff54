"""Train the reader's span scorer (affidavit/scorer/) on SQuAD 1.1 train.

Every question is read against the three sentences of its paragraph that hold most of its
words (the lines a search would put first); every candidate span of those lines is
described by the reader's own feature code (affidavit/scorer/candidate_spans.py) and labelled right
when it matches a gold answer under SQuAD's normalisation. A softmax over each question's
candidates is fitted by L-BFGS (scipy) with an L2 penalty; the weights, with the corpus,
its checksum, the commit and the scores on held-out articles, go to
affidavit/data/reader.npz. Articles at every tenth place are held out for those scores.

    .venv/bin/python tools/train_reader.py [--questions N] [--out PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import optimize, sparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from refusal_squad2 import f1, normalize  # noqa: E402  (SQuAD's official scoring)

from affidavit.question.shape import read_shape  # noqa: E402
from affidavit.scorer.candidate_spans import Spanned, spans_for  # noqa: E402
from affidavit.scorer.cues import Cues, cues_from_doc  # noqa: E402
from affidavit.scorer.features import BITS  # noqa: E402
from affidavit.scorer.parsed_lines import LineRead, line_from_doc  # noqa: E402
from affidavit.text.analyzer import analyzer_for  # noqa: E402
from affidavit.text.nlp import reading_pipeline  # noqa: E402
from affidavit.text.sentences import split_sentences  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "squad11_train" / "train-v1.1.json"
OUT = ROOT / "affidavit" / "data" / "reader.npz"
LINES = 3
HELD_OUT_EVERY = 10
L2 = 1e-3
# An even sample of the 87,599 questions: the whole set would not train within the hour
# on two cores that `make reader` is allowed.
QUESTIONS = 40_000
ITERATIONS = 300
# A candidate this near a gold answer (SQuAD F1) is right, when none is nearer.
RIGHT_ENOUGH = 0.5
# The recorded sample: the first held-out questions of an even sample of this many.
SAMPLE_FROM = 2_000
SAMPLE_SIZE = 12


@dataclass
class Group:
    """One question with the candidate spans of its best lines, each labelled right or not."""

    held: bool
    question: str
    cues: Cues
    answers: list[str]
    candidates: list[Spanned]
    ranks: list[int]  # the line each candidate stands in
    labels: list[bool]
    lines: list[LineRead]


def load(limit: int | None) -> list[tuple[bool, str, str, list[str]]]:
    """(held out, question, paragraph, gold answers), in the corpus's order; with a limit,
    an even sample across the whole set."""
    data = json.loads(CORPUS.read_text(encoding="utf-8"))["data"]
    rows = []
    for place, article in enumerate(data):
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                answers = [a["text"] for a in qa["answers"]]
                held = place % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
                rows.append((held, qa["question"].strip(), paragraph["context"], answers))
    if limit is not None and limit < len(rows):
        step = len(rows) / limit
        rows = [rows[int(i * step)] for i in range(limit)]
    return rows


def best_lines(question_terms: frozenset[str], sentences: list[str], analyzer) -> list[str]:
    """The sentences holding most of the question's words, best first (ties by place)."""
    held = [len(question_terms & set(analyzer.terms(s))) for s in sentences]
    order = sorted(range(len(sentences)), key=lambda i: (-held[i], i))
    return [sentences[i] for i in order[:LINES]]


def build(rows, progress_every: int = 2000):
    """Features, labels and groups of every question whose candidates hold an answer."""
    nlp = reading_pipeline()
    analyzer = analyzer_for("en")
    paragraphs = sorted({r[2] for r in rows})
    sentences_of = dict(zip(paragraphs, split_sentences(paragraphs, "en"), strict=True))
    wanted: dict[str, list[str]] = {}
    chosen = []
    for _, question, paragraph, _ in rows:
        terms = frozenset(analyzer.terms(question))
        lines = best_lines(terms, sentences_of[paragraph], analyzer)
        chosen.append(lines)
        for line in lines:
            wanted.setdefault(line, [])
    started = time.perf_counter()
    texts = sorted(wanted)
    print(f"parsing {len(texts):,} sentences and {len(rows):,} questions", flush=True)
    read = {
        t: line_from_doc(t, d)
        for t, d in zip(texts, nlp.pipe(texts, batch_size=256, n_process=2), strict=True)
    }
    questions = [r[1] for r in rows]
    asked = {}
    for text, doc in zip(questions, nlp.pipe(questions, batch_size=512, n_process=2), strict=True):
        asked[text] = cues_from_doc(text, doc, read_shape(text).answer_type.value)
    print(f"parsed in {time.perf_counter() - started:.0f} s", flush=True)
    groups = []
    for n, ((held, question, _, answers), lines) in enumerate(zip(rows, chosen, strict=True)):
        cues = asked[question]
        candidates, ranks = [], []
        for rank, line in enumerate(lines):
            spans = spans_for(cues, read[line], rank)
            candidates.extend(spans)
            ranks.extend([rank] * len(spans))
        # Right: the candidates nearest a gold answer, when one is near enough.
        overlap = [max(f1(a, c.text) for a in answers) for c in candidates]
        best = max(overlap, default=0.0)
        labels = [best >= RIGHT_ENOUGH and o == best for o in overlap]
        lines_read = [read[line] for line in lines]
        groups.append(Group(held, question, cues, answers, candidates, ranks, labels, lines_read))
        if n % progress_every == 0:
            print(f"  {n:,} / {len(rows):,} questions featured", flush=True)
    return groups


def matrix(groups):
    indices, starts, labels = [], [0], []
    for group in groups:
        for c, mark in zip(group.candidates, group.labels, strict=True):
            indices.append(c.features)
            labels.append(mark)
        starts.append(starts[-1] + len(group.candidates))
    lengths = [len(i) for i in indices]
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    data = np.ones(indptr[-1], dtype=np.float32)
    x = sparse.csr_matrix((data, np.concatenate(indices), indptr), shape=(len(indices), 1 << BITS))
    return x, np.array(starts), np.array(labels, dtype=bool)


def fit(x, starts, labels, l2: float, iterations: int) -> np.ndarray:
    """Weights maximising each question's probability of its right candidates."""
    group_of = np.repeat(np.arange(len(starts) - 1), np.diff(starts))
    heads = starts[:-1]
    count = len(heads)
    xt = x.T.tocsr()

    def objective(w: np.ndarray) -> tuple[float, np.ndarray]:
        scores = x @ w
        top = np.maximum.reduceat(scores, heads)
        e = np.exp(scores - top[group_of])
        total = np.add.reduceat(e, heads)
        right = np.add.reduceat(np.where(labels, e, 0.0), heads)
        loss = np.sum(np.log(total) - np.log(right)) / count + 0.5 * l2 * w @ w
        p = e / total[group_of]
        q = np.where(labels, e / right[group_of], 0.0)
        grad = xt @ (p - q) / count + l2 * w
        return float(loss), grad

    result = optimize.minimize(
        objective,
        np.zeros(x.shape[1]),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": iterations},
    )
    print(f"  fitted: loss {result.fun:.4f} after {result.nit} iterations", flush=True)
    return result.x.astype(np.float32)


def hashed_scores(group: Group, weights: np.ndarray) -> np.ndarray:
    return np.array([weights[c.features].sum() for c in group.candidates], dtype=np.float32)


def evaluate(groups, scored: list[np.ndarray]) -> dict[str, float]:
    """Top candidate against gold: exact match, F1, and how often an answer was reachable."""
    em = f1_sum = reachable = 0.0
    for group, scores in zip(groups, scored, strict=True):
        answers, candidates = group.answers, group.candidates
        reachable += max((f1(a, c.text) for a in answers for c in candidates), default=0.0)
        if not candidates:
            continue
        best = candidates[int(np.argmax(scores))]
        em += max(float(normalize(a) == normalize(best.text)) for a in answers)
        f1_sum += max(f1(a, best.text) for a in answers)
    n = len(groups)
    return {"questions": n, "em": em / n, "f1": f1_sum / n, "oracle_f1": reachable / n}


def train_network(train, held, weights: np.ndarray, args):
    """The network over the hashed scores (tools/reader_network.py): trained on hashed
    scores each half of the training questions gets from weights fitted on the other half,
    evaluated on held-out articles with the weights fitted on all. Needs torch (the
    ``train`` extra)."""
    import reader_network
    import torch

    torch.set_num_threads(2)
    half = len(train) // 2  # the corpus's order: the halves share almost no article
    parts = [train[:half], train[half:]]
    stacked = []
    for i, part in enumerate(parts):
        print(f"  hashed weights for half {i + 1} of 2, fitted on the other", flush=True)
        x, starts, labels = matrix(parts[1 - i])
        other = fit(x, starts, labels, args.l2, args.iterations)
        stacked.extend(hashed_scores(g, other) for g in part)
    examples = [reader_network.example(g, s) for g, s in zip(train, stacked, strict=True)]
    net = reader_network.train(examples, args.epochs or reader_network.EPOCHS)
    with_candidates = [g for g in held if g.candidates]
    held_examples = [reader_network.example(g, hashed_scores(g, weights)) for g in with_candidates]
    scored = iter(reader_network.scores_of(net, held_examples))  # in with_candidates' order
    empty = np.zeros(0, dtype=np.float32)
    scores = evaluate(held, [next(scored) if g.candidates else empty for g in held])
    gap = reader_network.check_numpy_agrees(
        net, held_examples[:50], [g.cues for g in with_candidates[:50]]
    )
    print(json.dumps(scores, indent=1), f"numpy agrees within {gap:.1e}", flush=True)
    if gap > 1e-3:
        raise SystemExit(f"numpy's forward pass differs from torch's by {gap}")
    return reader_network.arrays(net), scores


def network_settings(epochs: int | None) -> dict:
    import reader_network

    return {
        "projected": reader_network.PROJECTED,
        "hidden": reader_network.HIDDEN,
        "epochs": epochs or reader_network.EPOCHS,
        "batch": reader_network.BATCH,
        "learning_rate": reader_network.LEARNING_RATE,
        "dropout": reader_network.DROPOUT,
        "seed": reader_network.SEED,
        "stacking": "hashed scores of each training half from weights fitted on the other",
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=QUESTIONS, help="an even sample of N")
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--network",
        action="store_true",
        help="also train the network beside the hashed weights (needs the `train` extra; "
        "not in the shipped weights: bench/HISTORY.md, issue 39)",
    )
    parser.add_argument("--epochs", type=int, default=None, help="the network's passes (3)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    groups = build(load(args.questions))
    train = [g for g in groups if not g.held and any(g.labels)]
    held = [g for g in groups if g.held]
    x, starts, labels = matrix(train)
    print(f"training on {len(train):,} questions, {x.shape[0]:,} candidates, {x.nnz:,} features")
    weights = fit(x, starts, labels, args.l2, args.iterations)
    scores = evaluate(held, [hashed_scores(g, weights) for g in held])
    print(json.dumps(scores, indent=1))
    network = None
    if args.network:
        network, network_scores = train_network(train, held, weights, args)
        scores = {"hashed_alone": scores, **network_scores}
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.strip()
    meta = {
        "corpus": "SQuAD 1.1 train (../shared/corpora/squad11_train), CC BY-SA 4.0",
        "corpus_sha256": hashlib.sha256(CORPUS.read_bytes()).hexdigest(),
        "commit": commit,
        "questions": len(train),
        "l2": args.l2,
        "bits": BITS,
        "lines_read": LINES,
        "network": network_settings(args.epochs) if network else None,
        "held_out": f"articles at every {HELD_OUT_EVERY}th place",
        "held_out_scores": scores,
        "seconds": round(time.perf_counter() - started),
    }
    meta["sample"] = sample(load(SAMPLE_FROM), weights, network)
    arrays = {f"net.{k}": v for k, v in (network or {}).items()}
    np.savez_compressed(args.out, weights=weights, meta=np.array(json.dumps(meta)), **arrays)
    print(f"wrote {args.out}")


def sample(rows, weights: np.ndarray, network: dict | None) -> list[dict]:
    """A fixed sample of held-out questions with the span the weights put first and its
    score, read the way ask reads them (one line at a time), for the test that reloads
    the shipped weights."""
    from affidavit.question.question import Question
    from affidavit.scorer.network import Network
    from affidavit.scorer.read_spans import read
    from affidavit.scorer.weights import Weights

    shipped = Weights(weights, {}, Network(network) if network else None)
    analyzer = analyzer_for("en")
    held = [r for r in rows if r[0]][:SAMPLE_SIZE]
    recorded = []
    for _, question, paragraph, _ in held:
        terms = frozenset(analyzer.terms(question))
        lines = best_lines(terms, next(iter(split_sentences([paragraph], "en"))), analyzer)
        found = read(Question.read(question, language="en"), lines, model=shipped)
        if found:
            best = found[0]
            recorded.append(
                {"question": question, "lines": lines, "best": best.text, "score": best.score}
            )
    return recorded


if __name__ == "__main__":
    main()
