"""Load: four processes read one store while a fifth replaces its documents.

The store holds the project's SQuAD articles (corpora/squad2_articles). Each reader
process loops for the given time over search, ask and verify of questions about them;
the writer re-ingests the articles in turn (each write replaces one document, so the
store's generation moves under the readers). Reported: operations per second, per kind,
and every error (the target is none). The dense channel is off, as a server reading
beside a writer would run it to keep each process small; pass --dense to turn it on.

    .venv/bin/python bench/load.py [--seconds 60] [--readers 4] [--dense] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import tempfile
import time
from pathlib import Path

from _record import measures_table, record

ROOT = Path(__file__).resolve().parents[1]
ARTICLES = sorted((ROOT / "corpora" / "squad2_articles").glob("*.txt"))
ASKED = [
    "When did the Normans conquer England?",
    "Where did the Black Death originate?",
    "When did the oil embargo end?",
    "What is the population of Jacksonville?",
]
CLAIM = "The Black Death originated in the arid plains of Central Asia."


def _writer(path: str, stop_at: float, dense: bool, done: multiprocessing.Queue) -> None:
    from affidavit import Memory

    writes, errors, began = 0, [], time.monotonic()
    try:
        memory = Memory(path, dense=dense, timeout=60)
        began = time.monotonic()
        while time.monotonic() < stop_at:
            article = ARTICLES[writes % len(ARTICLES)]
            # A new version each time, so every write replaces the document.
            text = article.read_text(encoding="utf-8") + f"\n\nRevision {writes}.\n"
            memory.ingest_text(text, name=article.name)
            writes += 1
        memory.close()
    except Exception as error:  # noqa: BLE001 — counted and reported
        errors.append(f"{type(error).__name__}: {error}")
    active = time.monotonic() - began if writes else 0.0
    done.put(
        {"role": "writer", "operations": {"ingest": writes}, "errors": errors, "seconds": active}
    )


def _reader(path: str, stop_at: float, dense: bool, done: multiprocessing.Queue) -> None:
    from affidavit import Memory

    counts = {"search": 0, "ask": 0, "verify": 0}
    errors: list[str] = []
    try:
        memory = Memory(path, dense=dense, timeout=60)
    except Exception as error:  # noqa: BLE001 — counted and reported
        done.put({"role": "reader", "operations": counts, "errors": [repr(error)], "seconds": 0.0})
        return
    turn, began = 0, time.monotonic()
    while time.monotonic() < stop_at:
        try:
            memory.search(ASKED[turn % len(ASKED)], k=5)
            counts["search"] += 1
            memory.ask(ASKED[turn % len(ASKED)])
            counts["ask"] += 1
            memory.verify(CLAIM)
            counts["verify"] += 1
        except Exception as error:  # noqa: BLE001 — counted and reported
            errors.append(f"{type(error).__name__}: {error}")
        turn += 1
    active = time.monotonic() - began
    memory.close()
    done.put({"role": "reader", "operations": counts, "errors": errors, "seconds": active})


def run(seconds: float, readers: int, dense: bool) -> dict[str, object]:
    from affidavit import Memory

    path = str(Path(tempfile.mkdtemp(prefix="affidavit-load-")) / "store.sqlite")
    with Memory(path, dense=dense) as memory:
        memory.ingest(ARTICLES)
        memory.ask(ASKED[0])  # warm indexes, so the run measures steady state
    context = multiprocessing.get_context("spawn")
    done: multiprocessing.Queue = context.Queue()
    warm_up = 8.0  # processes import affidavit and open the store before the clock runs
    stop_at = time.monotonic() + warm_up + seconds
    workers = [context.Process(target=_writer, args=(path, stop_at, dense, done))]
    workers += [
        context.Process(target=_reader, args=(path, stop_at, dense, done)) for _ in range(readers)
    ]
    for worker in workers:
        worker.start()
    reports = [done.get(timeout=warm_up + seconds + 300) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    totals: dict[str, int] = {}
    rates: dict[str, float] = {}
    for report in reports:
        for kind, count in report["operations"].items():
            totals[kind] = totals.get(kind, 0) + count
            # Each process's rate over the time it ran, summed over the processes.
            rates[kind] = rates.get(kind, 0.0) + count / max(report["seconds"], 1e-9)
    errors = [e for report in reports for e in report["errors"]]
    return {
        "seconds": seconds,
        "readers": readers,
        "dense": dense,
        "operations": totals,
        "per_second": {kind: round(rate, 1) for kind, rate in rates.items()},
        "errors": len(errors),
        "first_errors": errors[:10],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--dense", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = run(args.seconds, args.readers, args.dense)
    rates = ", ".join(f"{kind} {rate}/s" for kind, rate in result["per_second"].items())
    print(
        f"{args.readers} readers + 1 writer for {args.seconds:g} s (dense "
        f"{'on' if args.dense else 'off'}): {rates}; errors {result['errors']}"
    )
    for error in result["first_errors"]:
        print(f"  {error}")
    title = f"{args.readers} readers and 1 writer on one store for {args.seconds:g} s"
    record(
        __file__,
        split="none",
        tables=[measures_table(title, result)],
        remarks=(
            "No baseline: it checks a bound (no errors while a writer replaces documents "
            "under the readers); the readers' rate without the writer is not measured.",
        ),
    )
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
