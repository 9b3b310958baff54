"""The command line every benchmark shares: --limit N, --json PATH, a printed table, and the
run kept as bench/runs/<name>.json (bench/_record.py) for RESULTS.md."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from _record import Table, record


def bench_main(
    doc: str,
    run: Callable[..., dict[str, Any]],
    report: Callable[[dict[str, Any]], str],
    *,
    limit_help: str,
    argv: Sequence[str] | None = None,
    splits: Sequence[str] = (),
    split: str = "none",
    keep: Sequence[int] | None = (0,),
    baselines: Sequence[str] = (),
    notes: Sequence[str] = (),
    remarks: Sequence[str] = (),
    tables: Callable[[dict[str, Any]], Sequence[Table]] | None = None,
) -> None:
    """Parse the shared options, run the benchmark, print its report, save its numbers.

    With ``splits`` (e.g. tune, report), ``--split NAME`` asks only that part and ``run``
    is called as ``run(limit, split)``; without, ``split`` names the figures' split.
    The run file holds the report's tables at the places ``keep`` (rows holding one of
    ``baselines`` are a baseline's), the report's lines starting with one of ``notes``, and
    the tables ``tables`` builds from the result.
    """
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--limit", type=int, help=limit_help)
    parser.add_argument("--json", type=Path, help="also write the numbers to this JSON file")
    if splits:
        parser.add_argument("--split", choices=[*splits, "all"], default="all")
    args = parser.parse_args(argv)
    result = run(args.limit, args.split) if splits else run(args.limit)
    printed = report(result)
    print(printed)
    record(
        sys.modules[run.__module__].__file__ or "",
        split=args.split if splits else split,
        printed=printed,
        keep=keep,
        baselines=baselines,
        notes=notes,
        remarks=remarks,
        tables=tables(result) if tables is not None else (),
        argv=argv,
    )
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


def ask_timing(timing: dict[str, float]) -> str:
    """One line of a question benchmark's timings: ingest, then ask's mean, p50 and p95."""
    return (
        f"Ingest {timing['ingest_s']:.2f} s; ask: mean {timing['ms_per_question_mean']:.1f} ms, "
        f"p50 {timing['p50_ms']:.1f} ms, p95 {timing['p95_ms']:.1f} ms per question"
    )
