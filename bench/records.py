"""How fast records are told and read on a store that already holds many: `tell` and
`records` p50 and p95 on a file store of N records (issue 41 asks p50 <= 5 ms at 100k).

The store is filled in bulk first (one transaction of N rows over 10,000 subjects and 10
predicates, as `tell` would write them, with no links), so the figure is the cost of a
call on a big store, not of filling it. Then `tell` is timed on subjects already told (each
supersedes one live record) and `records` on a subject and predicate.

    .venv/bin/python bench/records.py [--records N] [--calls M] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from _record import measures_table, record

from affidavit import Memory
from affidavit.records.told import record_keys
from affidavit.store.record_rows import insert_record

SUBJECTS = 10_000
PREDICATES = (
    "lives in",
    "works at",
    "owns",
    "subscribes to",
    "prefers",
    "drives",
    "reads",
    "plays",
    "studies",
    "visits",
)


def fill(memory: Memory, count: int) -> None:
    """``count`` live records written in one transaction, as tell writes them."""
    store = memory._store  # noqa: SLF001 — a bench fills the store the fast way
    with store.transaction() as conn:
        for n in range(count):
            subject, predicate = f"person {n % SUBJECTS}", PREDICATES[(n // SUBJECTS) % 10]
            insert_record(
                conn,
                subject=subject,
                predicate=predicate,
                value=f"value {n}",
                keys=record_keys(subject, predicate),
                source="operator",
                trust=0.75,
                told_at="2026-01-01T00:00:00+00:00",
                true_at=None,
            )


def timed(call, calls: int) -> list[float]:
    ms = []
    for n in range(calls):
        start = time.perf_counter()
        call(n)
        ms.append(1000 * (time.perf_counter() - start))
    return sorted(ms)


def run(records: int, calls: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        with Memory(Path(folder) / "records.sqlite", dense=False) as memory:
            start = time.perf_counter()
            fill(memory, records)
            filled = time.perf_counter() - start
            tell = timed(
                lambda n: memory.tell(f"person {n * 7 % SUBJECTS}", "lives in", f"new {n}"),
                calls,
            )
            read = timed(lambda n: memory.records(f"person {n * 13 % SUBJECTS}", "owns"), calls)
            every = memory.records(include_history=True)
    return {
        "records": records,
        "fill_s": filled,
        "tell_p50_ms": statistics.median(tell),
        "tell_p95_ms": tell[int(0.95 * len(tell))],
        "records_p50_ms": statistics.median(read),
        "records_p95_ms": read[int(0.95 * len(read))],
        "all_records_read": len(every),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = run(args.records, args.calls)
    print(
        f"{result['records']:,} records (filled in {result['fill_s']:.1f} s): tell p50 "
        f"{result['tell_p50_ms']:.2f} ms, p95 {result['tell_p95_ms']:.2f} ms; records p50 "
        f"{result['records_p50_ms']:.2f} ms, p95 {result['records_p95_ms']:.2f} ms"
    )
    title = "`tell` and `records` on a store already holding many records"
    record(__file__, split="none", tables=[measures_table(title, result)])
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
