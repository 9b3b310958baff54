"""Distinct text added one call at a time, beside the same text ingested at once: real text
no part of which repeats another, cut into ``--documents`` documents, stored with one
``ingest_text`` call each into one file store (the grown store); beside it, in the same
run, the same documents written as files and stored with one ``ingest`` call (the bulk
store). Each store is made and asked in a fresh process of its own.

The text, taken in this order until ``--megabytes`` are stored: the articles of SQuAD 1.1
train (each article's paragraphs, then the questions asked of it, one a line; Wikipedia
text), Middlemarch, the articles of SQuAD 2.0 dev, the contracts of ContractNLI dev (all in
../shared/corpora). Consecutive articles make a document, the documents of about equal
size. The questions asked are the twenty of bench/copies.py about Middlemarch and the
first answerable question of each SQuAD 2.0 dev article: none is a line of the store.

Measured for each store: the time of the calls (the grown store: every call's, their sum,
the slowest), the first search after the last call (what the next question pays for
indexes the calls left undone) and the first ask after it; to searchable (the calls and
that first search), in wall time and in processor time (this process's and its ended
children's: the machine's load aside); then search and ask p50 over the questions, and
how many of the answers the two stores give alike (text, refusal and cited lines).

    .venv/bin/python bench/distinct.py [--megabytes 22] [--documents 12] [--json PATH]
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
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _record import record, rows_table  # noqa: E402
from _squad import SHARED  # noqa: E402
from copies import NOVEL, QUESTIONS  # noqa: E402

from affidavit import Memory  # noqa: E402

TRAIN = SHARED / "squad11_train" / "train-v1.1.json"
DEV = SHARED / "squad2_dev" / "squad2_dev.json"
CONTRACTS = SHARED / "contract_nli_dev" / "dev.json"


def articles() -> list[str]:
    """Every article's text, in the order they are taken."""
    train = json.loads(TRAIN.read_text(encoding="utf-8"))["data"]
    texts = []
    for article in train:
        paragraphs = [p["context"] for p in article["paragraphs"]]
        asked = [qa["question"] for p in article["paragraphs"] for qa in p["qas"]]
        texts.append("\n\n".join([*paragraphs, "\n".join(asked)]))
    texts.append(NOVEL.read_text(encoding="utf-8"))
    for article in json.loads(DEV.read_text(encoding="utf-8"))["data"]:
        texts.append("\n\n".join(p["context"] for p in article["paragraphs"]))
    contracts = json.loads(CONTRACTS.read_text(encoding="utf-8"))["documents"]
    return texts + [contract["text"] for contract in contracts]


def documents(megabytes: float, count: int) -> list[tuple[str, str]]:
    """(name, text) of ``count`` documents of about equal size, of the first articles that
    add up to ``megabytes``."""
    taken, size = [], 0
    for text in articles():
        taken.append(text)
        size += len(text.encode("utf-8"))
        if size >= megabytes * 1e6:
            break
    share = size / count
    cut: list[list[str]] = [[]]
    held = 0
    for text in taken:
        if held >= share * len(cut) and len(cut) < count:
            cut.append([])
        cut[-1].append(text)
        held += len(text.encode("utf-8"))
    return [(f"part-{number:02d}.txt", "\n\n".join(texts)) for number, texts in enumerate(cut, 1)]


def questions() -> list[str]:
    dev = json.loads(DEV.read_text(encoding="utf-8"))["data"]
    first = []
    for article in dev:
        answerable = [
            qa["question"] for p in article["paragraphs"] for qa in p["qas"] if qa["answers"]
        ]
        first += answerable[:1]
    return [*QUESTIONS, *first]


def measure(parts: list[tuple[str, str]], grown: bool) -> dict[str, Any]:
    """The figures of one store, grown a document a call or ingested at once."""
    asked = questions()
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as folder:
        memory = Memory(Path(folder) / "distinct.sqlite")
        calls = []
        cpu = _cpu_seconds()
        if grown:
            for name, text in parts:
                start = time.perf_counter()
                memory.ingest_text(text, name=name)
                calls.append(time.perf_counter() - start)
        else:
            files = []
            for name, text in parts:
                path = Path(folder) / name
                path.write_text(text, encoding="utf-8")
                files.append(path)
            start = time.perf_counter()
            memory.ingest(files)
            calls.append(time.perf_counter() - start)
        start = time.perf_counter()
        memory.search(asked[-1])
        first_search = time.perf_counter() - start
        cpu = _cpu_seconds() - cpu
        start = time.perf_counter()
        memory.ask(asked[-2])
        first_ask = time.perf_counter() - start
        searches, asks, answers = [], [], []
        for question in asked:
            start = time.perf_counter()
            memory.search(question)
            searches.append((time.perf_counter() - start) * 1000)
        for question in asked:
            start = time.perf_counter()
            answer = memory.ask(question)
            asks.append((time.perf_counter() - start) * 1000)
            cited = [[c.document, c.position] for c in answer.citations]
            answers.append([answer.text, answer.refused, cited])
        memory.close()
    return {
        "documents": len(parts),
        "megabytes": round(sum(len(t.encode("utf-8")) for _, t in parts) / 1e6, 1),
        "calls s": round(sum(calls), 1),
        "slowest call s": round(max(calls), 2),
        "to searchable s": round(sum(calls) + first_search, 1),
        "to searchable, cpu s": round(cpu, 1),
        "first search after the last call s": round(first_search, 2),
        "first ask after it s": round(first_ask, 2),
        "search p50 ms": round(statistics.median(searches), 2),
        "ask p50 ms": round(statistics.median(asks), 1),
        "calls": [round(c, 2) for c in calls],
        "answers": answers,
    }


def _cpu_seconds() -> float:
    """This process's processor time and its children's that ended (the graph's worker of
    an ingest): what the work cost, whatever else the machine was running."""
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def apart(parts: list[tuple[str, str]], grown: bool) -> dict[str, Any]:
    """``measure`` in a spawned process of its own (not a pool's: a pool's worker is a
    daemon, and an ``ingest`` of files forks its readers)."""
    spawn = multiprocessing.get_context("spawn")
    receive, send = spawn.Pipe(duplex=False)
    worker = spawn.Process(target=_measured, args=(parts, grown, send))
    worker.start()
    send.close()
    row = receive.recv()
    worker.join()
    return row


def _measured(parts: list[tuple[str, str]], grown: bool, send: Any) -> None:
    send.send(measure(parts, grown))
    send.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--megabytes", type=float, default=22.0)
    parser.add_argument("--documents", type=int, default=12)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    parts = documents(args.megabytes, args.documents)
    # Each in a process of its own: nothing one leaves in memory (a warm model, the texts
    # encoded) helps the other.
    rows = {}
    for label, grown in (("one call each", True), ("at once (baseline)", False)):
        rows[label] = apart(parts, grown)
        print(label, json.dumps({k: v for k, v in rows[label].items() if k != "answers"}))
    grown_row, bulk_row = rows.values()
    alike = sum(a == b for a, b in zip(grown_row["answers"], bulk_row["answers"], strict=True))
    for row in rows.values():
        row["answers alike"] = f"{alike} of {len(bulk_row['answers'])}"
        row["ask p50 over the bulk store's"] = round(row["ask p50 ms"] / bulk_row["ask p50 ms"], 2)
    print(f"answers alike: {alike} of {len(bulk_row['answers'])}")
    title = "Distinct text added to one file store one `ingest_text` call each, and at once"
    table = rows_table(title, rows, label="store", baselines=("baseline",))
    record(__file__, split="none", tables=[table])
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
