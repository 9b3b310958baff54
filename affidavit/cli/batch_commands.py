"""The CLI's ``batch`` and ``report`` commands: thin shells over Memory.batch and
report.page.write_report, with the progress bar, the resume message and the summary line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affidavit.errors import AffidavitError

if TYPE_CHECKING:  # each is imported where it is used: the CLI's parser loads no model
    from affidavit import HttpEngine
    from affidavit.report import ReportSummary


def add_engine_flags(parser: argparse.ArgumentParser) -> None:
    """--engine-url, --engine-model and --no-cache, as ask and batch take them."""
    parser.add_argument(
        "--engine-url",
        help="an OpenAI-compatible server (ending in /v1) whose model proposes; "
        "default: $AFFIDAVIT_ENGINE_URL, else the built-in rule engine",
    )
    parser.add_argument(
        "--engine-model", help="the model's name (default: $AFFIDAVIT_ENGINE_MODEL)"
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="ask the model again, not its cached replies"
    )


def model_engine(args: argparse.Namespace) -> HttpEngine | None:
    """The model engine the flags or the environment name (the key only from
    AFFIDAVIT_API_KEY, never a flag: it would stay in the shell's history)."""
    from affidavit import HttpEngine

    return HttpEngine.from_environment(
        base_url=args.engine_url, model=args.engine_model, cache=not args.no_cache
    )


def add_commands(commands: Any) -> None:
    batch = commands.add_parser(
        "batch",
        help="answer a JSONL question set into a JSONL answer file (resumable)",
        description="Answer every question of QUESTIONS (one JSON object a line: id, "
        "question, optional asked_at and speaker) into OUT, one answer a line in input "
        'order; a line with "claim" instead of "question" is verified (its row is '
        "the verdict). Interrupted, the same command resumes: only the missing answers "
        "are made.",
        epilog="Example: affidavit batch questions.jsonl --store memory.sqlite "
        "--out answers.jsonl --workers 2",
    )
    batch.add_argument("questions", type=Path, help="the question set (JSONL)")
    batch.add_argument("--store", required=True, type=Path, help="the store (opened read-only)")
    batch.add_argument("--out", required=True, type=Path, help="the answer file (JSONL)")
    batch.add_argument("--workers", type=int, default=None, help="processes (default: one per CPU)")
    batch.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="answer on Ray: ray://HOST:PORT, auto (this machine's cluster) or local "
        "(start one here); needs pip install 'affidavit[ray]'",
    )
    batch.add_argument("--quiet", action="store_true", help="no progress bar")
    add_engine_flags(batch)
    batch.set_defaults(run=_batch)

    report = commands.add_parser(
        "report",
        help="write the audit report of an answer file: one self-contained HTML page",
        epilog="Example: affidavit report answers.jsonl --store memory.sqlite --out report.html",
    )
    report.add_argument("answers", type=Path, help="an answer file written by batch")
    report.add_argument("--store", required=True, type=Path, help="the store it was answered from")
    report.add_argument("--out", required=True, type=Path, help="the HTML file to write")
    report.add_argument("--title", help="the report's title (default: the answer file's name)")
    report.set_defaults(run=_report)


def _batch(args: argparse.Namespace) -> int:
    from affidavit import Memory

    if not args.store.exists():
        raise AffidavitError(f"{args.store}: no such store (create it with `affidavit ingest`)")
    if not args.questions.is_file():
        raise AffidavitError(f"{args.questions}: no such question set (check the path)")
    # A folder is a sharded store: its shards are the cluster's actors, not the batch's.
    sharded = args.store.is_dir()
    cluster = {"cluster": args.cluster} if sharded and args.cluster else {}
    with Memory(args.store, engine=model_engine(args), **cluster) as memory:
        try:
            report = memory.batch(
                args.questions,
                workers=args.workers,
                progress=not args.quiet,
                out=args.out,
                cluster=None if sharded else args.cluster,
                keep_rows=False,  # they are in the file; a long run needs no memory for them
            )
        except KeyboardInterrupt:
            print(
                f"affidavit: interrupted; every answer written to {args.out} is whole: run "
                "the same command again to answer the rest",
                file=sys.stderr,
            )
            return 130
    counts = report.counts()
    resumed = f" ({report.resumed} already there)" if report.resumed else ""
    # Claims are named only where the set holds some: a question set's line is as it was.
    claims = report.claims()
    verified = (
        f"; {claims} {'claim' if claims == 1 else 'claims'} verified: "
        f"{counts['supported']} supported, {counts['contradicted']} contradicted, "
        f"{counts['not_supported']} not supported"
        if claims
        else ""
    )
    print(
        f"{report.rows} answered into {args.out}{resumed}: {counts['answered']} answers, "
        f"{counts['refused']} refusals, {counts['errors']} input errors{verified}"
    )
    return 0


def _report(args: argparse.Namespace) -> int:
    if not args.store.is_file():
        raise AffidavitError(f"{args.store}: no such store (check the path)")
    summary = audit_report(args.answers, args.store, args.out, title=args.title)
    print(f"Report of {args.answers} written to {summary.out}")
    return 0


def audit_report(
    answers: Path, store: str | Path, out: Path, *, title: str | None = None
) -> ReportSummary:
    """The audit report as ``affidavit report`` and the demo write it: the citations
    checked against the store opened read-only, without the meaning model (reading a
    line needs none)."""
    from affidavit import Memory, __version__
    from affidavit.report import write_report

    with Memory(store, read_only=True, dense=False) as memory:
        return write_report(answers, memory, out, title=title, version=__version__)
