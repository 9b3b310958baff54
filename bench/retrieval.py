"""Answer-sentence retrieval on SQuAD 2.0 dev: affidavit's BM25 and bm25s over the same lines.

Every article is ingested as one document; for each answerable question we ask whether a
gold line (``_squad.is_gold``) is in the top 1 / 5 / 10, and time index builds and queries.

    .venv/bin/python bench/retrieval.py [--limit N] [--json PATH]
"""

from __future__ import annotations

import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _cli import bench_main  # noqa: E402
from _squad import Question, is_gold, load_squad  # noqa: E402

from affidavit import Memory  # noqa: E402
from affidavit.index.words.word_index import WordIndex  # noqa: E402
from affidavit.store.index_parts import searchable_lines  # noqa: E402
from affidavit.store.index_parts import windows as window_rows  # noqa: E402

DEPTH = 10
CUTS = (1, 5, 10)

# A ranker takes a question and returns its top lines as (document name, line text).
Ranker = Callable[[str], list[tuple[str, str]]]


@dataclass(frozen=True)
class Scores:
    ranker: str
    questions: int
    recall: dict[int, float]
    mrr: float
    p50_ms: float
    p95_ms: float


# -- building --


def build_affidavit(articles: dict[str, str]) -> tuple[Memory, dict[str, float]]:
    """Ingest every article into an in-memory store; time the ingest and a word-index build."""
    memory = Memory()
    start = time.perf_counter()
    for title, text in articles.items():
        memory.ingest_text(text, name=title)
    ingest_s = time.perf_counter() - start
    store = memory._store
    documents, lines, windows = store.documents(), searchable_lines(store), window_rows(store)
    start = time.perf_counter()
    WordIndex.build(documents, lines, windows)
    build_s = time.perf_counter() - start
    return memory, {"ingest_s": ingest_s, "word_index_build_s": build_s}


def stored_lines(memory: Memory) -> list[tuple[str, str]]:
    """(document name, text) of every stored line, in store order."""
    names = {doc_id: name for doc_id, name, _ in memory._store.documents()}
    return [(names[doc_id], text) for _, doc_id, _, _, text in memory._store.line_rows()]


def build_bm25s(lines: Sequence[tuple[str, str]]) -> tuple[Ranker, float]:
    """A bm25s ranker (Lucene BM25, English stop words and stemmer) over ``lines``."""
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    start = time.perf_counter()
    tokens = bm25s.tokenize(
        [text for _, text in lines], stopwords="en", stemmer=stemmer, show_progress=False
    )
    retriever = bm25s.BM25()
    retriever.index(tokens, show_progress=False)
    index_s = time.perf_counter() - start
    k = min(DEPTH, len(lines))

    def rank(question: str) -> list[tuple[str, str]]:
        query = bm25s.tokenize(
            question, stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False
        )
        if not any(query[0]):
            return []
        ids, scores = retriever.retrieve(query, k=k, show_progress=False)
        # Like affidavit, a line that matched nothing is not a result.
        return [lines[i] for i, s in zip(ids[0], scores[0], strict=True) if s > 0]

    return rank, index_s


def affidavit_ranker(memory: Memory) -> Ranker:
    def rank(question: str) -> list[tuple[str, str]]:
        return [(e.document, e.text) for e in memory.search(question, k=DEPTH)]

    return rank


# -- measuring --


def first_gold_rank(hits: Sequence[tuple[str, str]], question: Question) -> int | None:
    """1-based rank of the first gold line among ``hits``, or None."""
    for rank, (document, text) in enumerate(hits, start=1):
        if is_gold(document, text, question):
            return rank
    return None


def evaluate(name: str, rank: Ranker, questions: Sequence[Question]) -> Scores:
    ranks: list[int | None] = []
    latencies: list[float] = []
    for question in questions:
        start = time.perf_counter()
        hits = rank(question.text)
        latencies.append((time.perf_counter() - start) * 1000)
        ranks.append(first_gold_rank(hits[:DEPTH], question))
    n = len(questions)
    recall = {cut: sum(1 for r in ranks if r is not None and r <= cut) / n for cut in CUTS}
    mrr = sum(1 / r for r in ranks if r is not None) / n
    p50, p95 = np.percentile(latencies, [50, 95])
    return Scores(name, n, recall, mrr, float(p50), float(p95))


def reachable(lines: Sequence[tuple[str, str]], questions: Sequence[Question]) -> int:
    """How many questions have at least one gold line anywhere in the store (the ceiling)."""
    by_document: dict[str, list[str]] = {}
    for document, text in lines:
        by_document.setdefault(document, []).append(text)
    return sum(
        1
        for q in questions
        if any(is_gold(q.article, text, q) for text in by_document.get(q.article, []))
    )


# -- reporting --


def table(scores: Sequence[Scores], timing: dict[str, float]) -> str:
    rows = [
        "| ranker | R@1 | R@5 | R@10 | MRR@10 | index build | query p50 | query p95 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    builds = {
        "affidavit": f"{timing['ingest_s']:.2f} s ingest / "
        f"{timing['word_index_build_s']:.2f} s word index",
        "bm25s": f"{timing['bm25s_index_s']:.2f} s",
    }
    for s in scores:
        rows.append(
            f"| {s.ranker} | {s.recall[1]:.3f} | {s.recall[5]:.3f} | {s.recall[10]:.3f} "
            f"| {s.mrr:.3f} | {builds[s.ranker]} | {s.p50_ms:.2f} ms | {s.p95_ms:.2f} ms |"
        )
    return "\n".join(rows)


def run(limit: int | None) -> dict:
    articles, questions = load_squad()
    answerable = [q for q in questions if not q.impossible]
    if limit is not None:
        answerable = answerable[:limit]
    memory, timing = build_affidavit(articles)
    lines = stored_lines(memory)
    bm25s_rank, timing["bm25s_index_s"] = build_bm25s(lines)
    scores = [
        evaluate("affidavit", affidavit_ranker(memory), answerable),
        evaluate("bm25s", bm25s_rank, answerable),
    ]
    stats = memory.stats()
    memory.close()
    return {
        "corpus": {
            "articles": stats["documents"],
            "lines": stats["lines"],
            "questions": len(answerable),
            "questions_with_a_gold_line": reachable(lines, answerable),
        },
        "timing": timing,
        "scores": [asdict(s) for s in scores],
        "python": platform.python_version(),
    }


def report(result: dict) -> str:
    corpus = result["corpus"]
    scores = [
        Scores(**{**s, "recall": {int(k): v for k, v in s["recall"].items()}})
        for s in result["scores"]
    ]
    head = (
        f"SQuAD 2.0 dev: {corpus['articles']} articles, {corpus['lines']} lines, "
        f"{corpus['questions']} answerable questions "
        f"({corpus['questions_with_a_gold_line']} have a gold line in the store)"
    )
    return head + "\n\n" + table(scores, result["timing"])


def main(argv: Sequence[str] | None = None) -> None:
    bench_main(
        __doc__ or "",
        run,
        report,
        limit_help="score only the first N answerable questions (all articles)",
        argv=argv,
        baselines=("bm25s",),
    )


if __name__ == "__main__":
    main()
