"""Copies: renamed copies of Middlemarch added to one file store one ``ingest_text`` call at a
time, as a policy library with yearly versions grows, then searched and asked.

The text is ``../shared/corpora/novel_middlemarch/pg145_middlemarch.txt`` (Project
Gutenberg, public domain in the USA; 1.8 MB). Each copy is stored under its own name
(``copy-01/middlemarch.txt`` ...). Measured, in one process: the time of every
``ingest_text`` call; the first search after the last call, in the same process (it pays
for the indexes the calls left undone); their sum, the time to searchable; the first ask
after that search (it pays for the line vectors, if the calls left them undone); ``close``; the
first search after reopening; search p50 and ask p50 over the QUESTIONS; the store's bytes
on disk; and the peak RSS. Beside it, in the same run: the same measures with one copy (the
baseline a store of copies is compared with). Each runs in a fresh process of its own.
The questions are the affidavit authors' own, about the novel's plot.

    .venv/bin/python bench/copies.py [--copies 12] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _record import record, rows_table  # noqa: E402
from _squad import SHARED  # noqa: E402

from affidavit import Memory  # noqa: E402

NOVEL = SHARED / "novel_middlemarch" / "pg145_middlemarch.txt"
QUESTIONS = (
    "Whom did Dorothea Brooke marry first?",
    "What is the name of Dorothea's sister?",
    "Who is Mr. Casaubon?",
    "What is Lydgate's profession?",
    "Whom did Lydgate marry?",
    "Who is Will Ladislaw related to?",
    "What does Mr. Casaubon's will forbid?",
    "Who is Fred Vincy in love with?",
    "What is Mr. Bulstrode's secret?",
    "Who is Raffles?",
    "What is the name of Mr. Casaubon's estate?",
    "Who is Mr. Brooke?",
    "What is Mary Garth's father's name?",
    "Who is Mr. Farebrother?",
    "Where does Dorothea go on her honeymoon?",
    "What was Mr. Featherstone's fortune left to?",
    "Who is Celia engaged to?",
    "What is the Key to all Mythologies?",
    "Who is the vicar of Lowick?",
    "What hospital does Lydgate work at?",
)


def measure(copies: int) -> dict[str, Any]:
    text = NOVEL.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "copies.sqlite"
        calls: list[float] = []
        memory = Memory(store)
        for number in range(1, copies + 1):
            start = time.perf_counter()
            memory.ingest_text(text, name=f"copy-{number:02d}/middlemarch.txt")
            calls.append(time.perf_counter() - start)
        start = time.perf_counter()
        memory.search(QUESTIONS[-1])
        first_in_process = time.perf_counter() - start
        start = time.perf_counter()
        memory.ask(QUESTIONS[-1])
        first_ask = time.perf_counter() - start
        start = time.perf_counter()
        memory.close()
        closed = time.perf_counter() - start
        memory = Memory(store)
        start = time.perf_counter()
        memory.search(QUESTIONS[0])
        first_search = time.perf_counter() - start
        searches, asks = [], []
        for question in QUESTIONS:
            start = time.perf_counter()
            memory.search(question)
            searches.append((time.perf_counter() - start) * 1000)
        answered = 0
        for question in QUESTIONS:
            start = time.perf_counter()
            answer = memory.ask(question)
            asks.append((time.perf_counter() - start) * 1000)
            answered += not answer.refused
        memory.close()
        size = sum(p.stat().st_size for p in Path(folder).iterdir())
    return {
        "copies": copies,
        "megabytes": round(len(text.encode("utf-8")) * copies / 1e6, 1),
        "ingest_calls_s": [round(c, 3) for c in calls],
        "to_searchable_s": round(sum(calls) + first_in_process, 2),
        "close_s": round(closed, 2),
        "first_search_s": round(first_search, 3),
        "first_search_same_process_s": round(first_in_process, 2),
        "first_ask_same_process_s": round(first_ask, 2),
        "search_p50_ms": round(statistics.median(searches), 2),
        "ask_p50_ms": round(statistics.median(asks), 1),
        "answered": answered,
        "store_mb": round(size / 1e6, 1),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--copies", type=int, default=12)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    # Each in a process of its own: nothing one leaves in memory (a paragraph's sentences,
    # a warm model) helps the other, and its peak RSS is its own.
    spawn = multiprocessing.get_context("spawn")
    results = []
    for copies in (1, args.copies):
        with spawn.Pool(1) as pool:
            results.append(pool.apply(measure, (copies,)))
    for row in results:
        print(
            f"{row['copies']:>2} copies ({row['megabytes']} MB): to searchable "
            f"{row['to_searchable_s']} s, first search after the last call "
            f"{row['first_search_same_process_s']} s, first ask then "
            f"{row['first_ask_same_process_s']} s, close {row['close_s']} s, after reopening "
            f"{row['first_search_s']} s, "
            f"search p50 {row['search_p50_ms']} ms, ask p50 {row['ask_p50_ms']} ms "
            f"({row['answered']}/{len(QUESTIONS)} answered), store {row['store_mb']} MB, "
            f"peak RSS {row['peak_rss_mb']} MB"
        )
    title = "Renamed copies of Middlemarch in one file store, one `ingest_text` call each"
    figures = rows_table(title, {f"{r['copies']} copies": r for r in results}, label="store")
    record(__file__, split="none", tables=[figures])
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
