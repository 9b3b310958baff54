"""A model engine's cost per answer: calls, tokens, the library's own time, and the cache.

200 questions: 100 answerable SQuAD 2.0 dev questions and 100 TAT-QA dev questions (each
set in sha1 order of the question text, the first 100; nothing here was tuned on them).
The SQuAD questions' articles go into one file store, the TAT-QA questions' contexts (as
bench/tatqa.py writes them) into another, with the default meaning channel on.

The model is the replay server (``affidavit.engine.replay``) answering as an **oracle**:
to an answer prompt it proposes a gold answer copied from an evidence line that holds
one (citing that line; for SQuAD a line of the question's own paragraph first, else the
first line holding it), else no answer; to a plan prompt no plan (the rule engine's
plans follow the model's); to a read-back the sentence as its one claim. It reports
token counts as the bundled model's tokenizer counts them (a multilingual sentence-piece
vocabulary, a fair stand-in for a chat model's). So the calls and tokens are what a real
model would be sent; the answers are what the gates let through of true proposals.

Three runs over the same stores:
1. the model engine, cache empty (every reply is asked for, and kept in the store);
2. the model engine again, from new engine objects: every reply should come from the
   store (target: 0 calls);
3. the default rule engine, no model: the baseline for the time the library takes.

Per answer, in run 1: calls, prompt and completion tokens; the library's time, the
ask's wall time minus the time inside HTTP calls (the server's time); and the model
layer's own time, the time inside the engine's methods minus the time inside HTTP calls
(prompt building, parsing, cache look-ups). Beside them: run 3's ask time, and answered
and right (bench/_doc_scoring.is_right) for the oracle model and the rule engine, and
how often the oracle proposed a gold at all and, when it did, how often the answer said
was right (the gates let a true proposal through, and no other candidate beat it).

    .venv/bin/python bench/engine_calls.py [--limit N] [--json PATH]
"""

from __future__ import annotations

import hashlib
import json
import platform
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from tokenizers import Tokenizer
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _cli import bench_main  # noqa: E402
from _doc_scoring import is_right  # noqa: E402
from _squad import load_squad  # noqa: E402
from _tatqa_scoring import gold_answers  # noqa: E402
from tatqa import document_text, load_contexts  # noqa: E402

import affidavit  # noqa: E402
from affidavit import HttpEngine, Memory  # noqa: E402
from affidavit.engine.replay import ReplayServer  # noqa: E402

MODEL = "oracle"
TOKENIZER = Path(affidavit.__file__).parent / "data" / "static-use-m3-256" / "tokenizer.json"
_ROW = re.compile(r"^(\d+): (.*)$")


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def load_questions(limit: int) -> tuple[dict[str, list[tuple[str, str]]], list[dict[str, Any]]]:
    """(store name -> its documents as (name, text), questions with their golds)."""
    articles, squad = load_squad()
    chosen = sorted((q for q in squad if not q.impossible), key=lambda q: _digest(q.text))
    chosen = chosen[:limit]
    documents: dict[str, list[tuple[str, str]]] = {
        "squad": [(t, articles[t]) for t in sorted({q.article for q in chosen})],
        "tatqa": [],
    }
    questions = [
        {"store": "squad", "question": q.text, "golds": list(q.answers), "paragraph": q.paragraph}
        for q in chosen
    ]
    pool = [(c, q) for c in load_contexts() for q in c["questions"]]
    picked = sorted(pool, key=lambda cq: _digest(cq[1]["question"]))[:limit]
    contexts = {c["table"]["uid"]: c for c, _ in picked}
    documents["tatqa"] = [(f"{uid}.md", document_text(c)) for uid, c in sorted(contexts.items())]
    for _, q in picked:
        golds = gold_answers(q)
        questions.append(
            {"store": "tatqa", "question": q["question"], "golds": golds, "paragraph": ""}
        )
    return documents, questions


def oracle(
    golds: dict[str, list[str]], paragraphs: dict[str, str], tokenizer: Tokenizer
) -> Callable[[dict], dict]:
    """The replay server's responder: a model that proposes the gold when a line holds
    it, citing a line of the question's own paragraph (SQuAD) when one holds it."""

    def count(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False).ids)

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        system, user = (m["content"] for m in body["messages"])
        if system.startswith("You answer"):
            question = user.rsplit("\nQuestion: ", 1)[-1]
            reply: dict[str, Any] = {"answers": []}
            paragraph = paragraphs.get(question, "")
            holding = []
            for row in user.splitlines():
                found = _ROW.match(row)
                gold = found and next((g for g in golds.get(question, []) if g in found[2]), None)
                if found and gold:
                    own = bool(paragraph) and found[2].split("] ", 1)[-1] in paragraph
                    holding.append((not own, int(found[1]), gold))
            if holding:
                _, line, gold = min(holding)
                reply = {"answers": [{"text": gold, "cites": [line]}]}
        elif system.startswith("You read"):
            reply = {"claims": [user.split("\n")[1]]}
        else:
            reply = {"steps": []}
        text = json.dumps(reply)
        usage = {"prompt_tokens": count(system + user), "completion_tokens": count(text)}
        return {"model": body["model"], "messages": body["messages"], "reply": text, "usage": usage}

    return respond


class Timed:
    """Wraps an engine's methods to total the time spent inside them."""

    def __init__(self, engine: HttpEngine) -> None:
        self.inside = 0.0
        for name in ("propose", "propose_plans", "read_back"):
            setattr(engine, name, self._timing(getattr(engine, name)))

    def _timing(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.inside += time.perf_counter() - started

        return timed


def ask_all(
    stores: dict[str, Path], questions: list[dict[str, Any]], engine_for: Callable[[], Any]
) -> list[dict[str, Any]]:
    rows = []
    memories: dict[str, Memory] = {}
    timers: dict[str, Timed | None] = {}
    for name, path in stores.items():
        engine = engine_for()
        timers[name] = Timed(engine) if isinstance(engine, HttpEngine) else None
        memories[name] = Memory(path, engine=engine)
    for q in tqdm(questions, desc="ask", leave=False):
        memory, timer = memories[q["store"]], timers[q["store"]]
        before = timer.inside if timer else 0.0
        started = time.perf_counter()
        answer = memory.ask(q["question"])
        wall = time.perf_counter() - started
        spent = answer.audit.get("engine_calls", {})
        http = spent.get("seconds", 0.0)
        inside = (timer.inside - before) if timer else 0.0
        rows.append(
            {
                "store": q["store"],
                "calls": spent.get("calls", 0),
                "cache_hits": spent.get("cache_hits", 0),
                "prompt_tokens": spent.get("prompt_tokens", 0),
                "completion_tokens": spent.get("completion_tokens", 0),
                "wall_ms": 1000 * wall,
                "library_ms": 1000 * (wall - http),
                "model_layer_ms": 1000 * (inside - http),
                "proposed": any(c.get("note") == "model" for c in answer.audit["candidates"]),
                "answered": not answer.refused,
                "right": not answer.refused and is_right(answer.text, answer.value, q["golds"]),
            }
        )
    for memory in memories.values():
        memory.close()
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, float]:
    def p(key: str, q: int) -> float:
        return round(float(np.percentile([r[key] for r in rows], q)), 2)

    n = len(rows) or 1
    return {
        "questions": len(rows),
        "calls_per_answer": round(sum(r["calls"] for r in rows) / n, 3),
        "calls_total": sum(r["calls"] for r in rows),
        "cache_hits_total": sum(r["cache_hits"] for r in rows),
        "prompt_tokens_per_answer": round(sum(r["prompt_tokens"] for r in rows) / n, 1),
        "completion_tokens_per_answer": round(sum(r["completion_tokens"] for r in rows) / n, 1),
        "wall_ms_p50": p("wall_ms", 50),
        "library_ms_p50": p("library_ms", 50),
        "library_ms_p95": p("library_ms", 95),
        "model_layer_ms_p50": p("model_layer_ms", 50),
        "model_layer_ms_p95": p("model_layer_ms", 95),
        "proposed": round(sum(r["proposed"] for r in rows) / n, 3),
        "passed_of_proposed": round(
            sum(r["answered"] and r["right"] for r in rows if r["proposed"])
            / max(1, sum(r["proposed"] for r in rows)),
            3,
        ),
        "answered": round(sum(r["answered"] for r in rows) / n, 3),
        "right": round(sum(r["right"] for r in rows) / n, 3),
    }


def run(limit: int | None) -> dict[str, Any]:
    documents, questions = load_questions(limit or 100)
    golds: dict[str, list[str]] = {}
    paragraphs: dict[str, str] = {}
    for q in questions:
        golds.setdefault(q["question"], []).extend(q["golds"])
        paragraphs[q["question"]] = q["paragraph"]
    tokenizer = Tokenizer.from_file(str(TOKENIZER))
    result: dict[str, Any] = {"machine": platform.platform(), "runs": {}}
    with (
        tempfile.TemporaryDirectory() as folder,
        ReplayServer(respond=oracle(golds, paragraphs, tokenizer)) as server,
    ):
        stores = {name: Path(folder) / f"{name}.sqlite" for name in documents}
        started = time.perf_counter()
        for name, docs in documents.items():
            with Memory(stores[name]) as memory:
                for doc_name, text in docs:
                    memory.ingest_text(text, name=doc_name)
        result["ingest_s"] = round(time.perf_counter() - started, 2)
        result["documents"] = {name: len(docs) for name, docs in documents.items()}

        def model() -> HttpEngine:
            return HttpEngine(server.url, MODEL)

        for label, engine_for in (
            ("model, cache empty", model),
            ("model, second run", model),
            ("rule engine (no model)", lambda: None),
        ):
            rows = ask_all(stores, questions, engine_for)
            result["runs"][label] = {
                "all": summary(rows),
                **{s: summary([r for r in rows if r["store"] == s]) for s in documents},
            }
        result["server_requests"] = len(server.requests)
    return result


def report(result: dict[str, Any]) -> str:
    lines = [
        f"Ingest {result['ingest_s']} s ({result['documents']}); {result['machine']}",
        "| run | set | calls/answer | prompt tok/answer | library ms p50 (p95) "
        "| model layer ms p50 (p95) | ask ms p50 | oracle proposed (right when it did) "
        "| answered | right |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, sets in result["runs"].items():
        for name, s in sets.items():
            lines.append(
                f"| {label} | {name} ({s['questions']}) | {s['calls_per_answer']} "
                f"| {s['prompt_tokens_per_answer']} "
                f"| {s['library_ms_p50']} ({s['library_ms_p95']}) "
                f"| {s['model_layer_ms_p50']} ({s['model_layer_ms_p95']}) | {s['wall_ms_p50']} "
                f"| {s['proposed']:.3f} ({s['passed_of_proposed']:.3f}) "
                f"| {s['answered']:.3f} | {s['right']:.3f} |"
            )
    second = result["runs"]["model, second run"]["all"]
    lines.append(
        f"Second run: {second['calls_total']} calls, {second['cache_hits_total']} cache hits."
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    bench_main(
        __doc__ or "",
        run,
        report,
        limit_help="questions per data set (default 100)",
        argv=argv,
        baselines=("rule engine",),
        notes=("Second run",),
    )


if __name__ == "__main__":
    main()
