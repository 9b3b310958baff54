"""Distinct text added one call at a time: the articles of SQuAD 1.1 train (Wikipedia text,
each article's paragraphs one document, none a copy of another) stored with one
``ingest_text`` call each into one file store, until ``--megabytes`` are stored. Unlike
bench/copies.py, the store's distinct text grows with every call, so the entity graph's
mining falls due again and again (each time the distinct text has grown by a tenth).

Measured in one process: every call's time (the sum, the slowest, and the calls over a
second), the first search after the last call and the first ask after it (what the next
question pays for indexes the calls left undone), then search and ask p50 over questions
of the stored articles.

    .venv/bin/python bench/distinct.py [--megabytes 22] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _record import measures_table, record  # noqa: E402
from _squad import SHARED  # noqa: E402

from affidavit import Memory  # noqa: E402

TRAIN = SHARED / "squad11_train" / "train-v1.1.json"


def articles(megabytes: float) -> tuple[list[tuple[str, str]], list[str]]:
    """(name, text) of the first articles adding up to ``megabytes``, and the first
    question of each."""
    data = json.loads(TRAIN.read_text(encoding="utf-8"))["data"]
    chosen, questions, size = [], [], 0
    for article in data:
        text = "\n\n".join(p["context"] for p in article["paragraphs"])
        chosen.append((f"{article['title']}.txt", text))
        questions.append(article["paragraphs"][0]["qas"][0]["question"])
        size += len(text.encode("utf-8"))
        if size >= megabytes * 1e6:
            break
    return chosen, questions


def measure(megabytes: float) -> dict[str, Any]:
    documents, questions = articles(megabytes)
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as folder:
        memory = Memory(Path(folder) / "distinct.sqlite")
        calls = []
        for name, text in documents:
            start = time.perf_counter()
            memory.ingest_text(text, name=name)
            calls.append(time.perf_counter() - start)
        start = time.perf_counter()
        memory.search(questions[-1])
        first_search = time.perf_counter() - start
        start = time.perf_counter()
        memory.ask(questions[-2])
        first_ask = time.perf_counter() - start
        asked = questions[::-1][:40]
        searches, asks = [], []
        for question in asked:
            start = time.perf_counter()
            memory.search(question)
            searches.append((time.perf_counter() - start) * 1000)
        for question in asked:
            start = time.perf_counter()
            memory.ask(question)
            asks.append((time.perf_counter() - start) * 1000)
        memory.close()
    return {
        "documents": len(documents),
        "megabytes": round(sum(len(t.encode("utf-8")) for _, t in documents) / 1e6, 1),
        "calls s": round(sum(calls), 1),
        "slowest call s": round(max(calls), 2),
        "calls over 1 s": sum(c > 1.0 for c in calls),
        "first search after the last call s": round(first_search, 2),
        "first ask after it s": round(first_ask, 2),
        "search p50 ms": round(statistics.median(searches), 2),
        "ask p50 ms": round(statistics.median(asks), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--megabytes", type=float, default=22.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    row = measure(args.megabytes)
    print(json.dumps(row, indent=2))
    title = "Distinct articles added to one file store one `ingest_text` call at a time"
    record(__file__, split="none", tables=[measures_table(title, row)])
    if args.json:
        args.json.write_text(json.dumps(row, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
