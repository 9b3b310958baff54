"""The entity graph on a novel, on SQuAD articles and on Spanish text: build, top entities,
and the partition path against scoring the store, side by side in one run.

For each corpus: the graph build (median of 3), the top 40 entities, and 200 questions
naming two entities that share at least one line (pairs drawn with ``random.Random(0)``
among the top entities, each asked as "What passed between A and B?"). Per question,
side by side: the partition path (find the entities with the automaton, intersect their
posting lists: what "rather than scoring the store" costs), the partition path with its
ranking (``Retriever.partitioned``, the best 10), and full scoring (BM25 over every line and window,
then the top 10, what ``search`` does without the graph). Also: the time to bring the
graph up to date after adding one small document to the store.

    .venv/bin/python bench/entity_graph.py [--limit N] [--json PATH]
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np
from _cli import bench_main
from _squad import SHARED, load_squad

from affidavit import Memory
from affidavit.index.entities.graph import EntityGraph

MIDDLEMARCH = SHARED / "novel_middlemarch" / "pg145_middlemarch.txt"
XQUAD_ES = SHARED / "xquad_en_es_tr" / "xquad.es.json"
QUESTIONS = 200
TOP = 40
# The reference (the-gate-drawn-twice.txt): a 36,472-line novel, full scoring 417 ms, the
# posting-list intersection 0.01 ms.
REFERENCE_RATIO = 417 / 0.01


def corpora() -> dict[str, Callable[[Memory], None]]:
    def middlemarch(memory: Memory) -> None:
        memory.ingest(str(MIDDLEMARCH))

    def squad(memory: Memory) -> None:
        articles, _ = load_squad()
        for title, text in articles.items():
            memory.ingest_text(text, name=title)

    def spanish(memory: Memory) -> None:
        data = json.loads(XQUAD_ES.read_text(encoding="utf-8"))["data"]
        text = "\n\n".join(p["context"] for a in data for p in a["paragraphs"])
        memory.ingest_text(text, name="xquad-es")

    return {"Middlemarch": middlemarch, "SQuAD 2.0 dev (24 articles)": squad, "XQuAD es": spanish}


def timed(action: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def questions(graph: EntityGraph, count: int, rng: random.Random) -> list[str]:
    top = list(range(min(TOP, len(graph.entities))))
    pairs = [(a, b) for i, a in enumerate(top) for b in top[i + 1 :] if (a, b) in graph.pairs]
    if not pairs:
        return []
    chosen = [pairs[rng.randrange(len(pairs))] for _ in range(count)]
    return [
        f"What passed between {graph.entities[a].name} and {graph.entities[b].name}?"
        for a, b in chosen
    ]


def percentiles(samples: Sequence[float]) -> dict[str, float]:
    values = np.asarray(samples) * 1000
    return {"p50_ms": float(np.percentile(values, 50)), "p95_ms": float(np.percentile(values, 95))}


def measure(name: str, load: Callable[[Memory], None], limit: int | None) -> dict:
    memory = Memory(dense=False)
    load(memory)
    retriever = memory._retriever
    index = retriever.words()
    rows = memory._store.line_rows()
    languages = {d: lang for d, _, lang in memory._store.documents()}
    lines = [(line_id, text, languages[doc]) for line_id, doc, _, _, text in rows]
    build_s = timed(lambda: EntityGraph.build(lines), 3)
    graph = retriever.graph()
    asked = questions(graph, limit or QUESTIONS, random.Random(0))
    language = index.main_language
    path, ranked, full, sizes, intersect = [], [], [], [], []
    for question in asked:
        start = time.perf_counter()
        named = graph.find(question, language)
        shared = graph.together(named[:2]) if len(named) >= 2 else None
        path.append(time.perf_counter() - start)
        if len(named) >= 2:
            start = time.perf_counter()
            graph.together(named[:2])
            intersect.append(time.perf_counter() - start)
        sizes.append(0 if shared is None else len(shared))
        start = time.perf_counter()
        retriever.partitioned(index, index.read(question), None, 10)
        ranked.append(time.perf_counter() - start)
        start = time.perf_counter()
        index.top(index.scores(index.read(question).searched), 10)
        full.append(time.perf_counter() - start)
    # One small document added: the graph brought up to date (the store's generation moved).
    memory.ingest_text("Rollo met Drogo at the quay.\n\nDrogo thanked Rollo.", name="small note")
    start = time.perf_counter()
    retriever.graph()
    update_s = time.perf_counter() - start
    memory.close()
    return {
        "corpus": name,
        "lines": len(rows),
        "entities": len(graph.entities),
        "edges": len(graph.pairs),
        "build_s": build_s,
        "update_after_one_document_s": update_s,
        "top": [(e.name, e.count) for e in graph.entities[:TOP]],
        "questions": len(asked),
        "shared_lines_median": float(np.median(sizes)) if sizes else 0.0,
        "partition": percentiles(path),
        "intersection_only": percentiles(intersect) if intersect else {"p50_ms": 0.0},
        "partition_ranked": percentiles(ranked),
        "full": percentiles(full),
    }


def run(limit: int | None) -> dict:
    return {
        "machine": f"{platform.machine()}, Python {platform.python_version()}",
        "corpora": [measure(name, load, limit) for name, load in corpora().items()],
    }


def report(result: dict) -> str:
    out = [
        f"{result['machine']}. Reference: full scoring 417 ms -> posting lists 0.01 ms "
        f"(x{REFERENCE_RATIO:,.0f}) on a 36,472-line novel.",
        "",
        "| corpus | lines | entities | edges | build | update after +1 small doc | "
        "questions | shared lines (median) | partition p50 / p95 | partition + ranking "
        "p50 / p95 | full scoring p50 / p95 | ratio (p50) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in result["corpora"]:
        ratio = c["full"]["p50_ms"] / max(c["partition"]["p50_ms"], 1e-9)
        ranked_ratio = c["full"]["p50_ms"] / max(c["partition_ranked"]["p50_ms"], 1e-9)
        out.append(
            f"| {c['corpus']} | {c['lines']:,} | {c['entities']} | {c['edges']:,} | "
            f"{c['build_s']:.2f} s | {c['update_after_one_document_s']:.2f} s | "
            f"{c['questions']} | {c['shared_lines_median']:.0f} | "
            f"{c['partition']['p50_ms']:.4f} / {c['partition']['p95_ms']:.4f} ms | "
            f"{c['partition_ranked']['p50_ms']:.3f} / {c['partition_ranked']['p95_ms']:.3f} ms | "
            f"{c['full']['p50_ms']:.3f} / {c['full']['p95_ms']:.3f} ms | "
            f"x{ratio:,.0f} (x{ranked_ratio:,.0f} ranked) |"
        )
    out += ["", "The intersection alone (the entities already named), p50:"]
    for c in result["corpora"]:
        alone = c["intersection_only"]["p50_ms"]
        ratio = c["full"]["p50_ms"] / max(alone, 1e-9)
        out.append(f"- {c['corpus']}: {alone * 1000:.2f} µs, x{ratio:,.0f} against full scoring")
    for c in result["corpora"]:
        out += ["", f"Top {TOP} entities, {c['corpus']}:", ""]
        out.append(", ".join(f"{name} ({count})" for name, count in c["top"]))
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> None:
    bench_main(
        __doc__ or "",
        run,
        report,
        limit_help="questions per corpus",
        argv=argv,
        remarks=(
            "Split: none, and not held out: the graph's thresholds were chosen by reading "
            "Middlemarch's entity list. Baseline: full scoring (BM25 over every line and "
            "window, top 10), timed on the same questions in the same loop.",
        ),
    )


if __name__ == "__main__":
    main()
