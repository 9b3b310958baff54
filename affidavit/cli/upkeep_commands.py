"""The upkeep commands of the `affidavit` CLI: list the documents a store holds, oldest
stored first, with its counts per source; vacuum it (give back the room removed documents
left); and measure retrieval's health."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from affidavit.cli.record_commands import open_store


def add_upkeep_commands(commands: Any) -> None:
    """Add documents, vacuum and health to the CLI's subcommands."""
    listed = commands.add_parser(
        "documents",
        help="list the stored documents, oldest stored first, and the counts per source",
        epilog="Example: affidavit documents --store m.sqlite",
    )
    listed.add_argument("--store", required=True, type=Path)
    listed.add_argument("--json", action="store_true", help="JSON output")
    listed.set_defaults(run=_documents)

    vacuum = commands.add_parser(
        "vacuum",
        help="give back the room removed documents left in the store file (run it alone)",
        epilog="Example: affidavit vacuum --store m.sqlite",
    )
    vacuum.add_argument("--store", required=True, type=Path)
    vacuum.set_defaults(run=_vacuum)

    health = commands.add_parser(
        "health",
        help="retrieval's health: recall@10, MRR, nDCG on the store's canaries, and the trend",
        epilog="Example: affidavit health --store m.sqlite",
    )
    health.add_argument("--store", required=True, type=Path)
    health.add_argument("--refresh", action="store_true", help="draw the canary set again")
    health.add_argument("--json", action="store_true", help="JSON output")
    health.set_defaults(run=_health)


def _documents(args: argparse.Namespace) -> int:
    with open_store(args.store, read_only=True) as memory:
        listed, by_source = memory.catalogue(), memory.stats()["by_source"]
    if args.json:
        payload = {"documents": [d.to_dict() for d in listed], "by_source": by_source}
        print(json.dumps(payload, ensure_ascii=False, indent=2))
        return 0
    out = [
        f"{d.stored_at}  {d.source:<9} {d.lines:>7} lines  {d.name}"
        + (f"  (dated {d.date})" if d.date else "")
        for d in listed
    ]
    out.append(
        "; ".join(
            f"{source}: {n['documents']} documents, {n['lines']} lines"
            for source, n in by_source.items()
        )
        or "no document"
    )
    print("\n".join(out))
    return 0


def _vacuum(args: argparse.Namespace) -> int:
    with open_store(args.store, read_only=False) as memory:
        sizes = memory.vacuum()
    print(f"{args.store}: {sizes['before']:,} bytes before, {sizes['after']:,} after")
    return 0


def _health(args: argparse.Namespace) -> int:
    with open_store(args.store, read_only=False) as memory:
        found = memory.health(refresh=args.refresh)
    if args.json:
        print(json.dumps(found.to_dict(), ensure_ascii=False, indent=2))
        return 0
    out = [
        f"{p.measured_at}  {p.documents:>6} documents {p.lines:>9} lines  "
        f"recall@{found.k} {p.recall:.2f}  MRR {p.mrr:.2f}  nDCG {p.ndcg:.2f}  "
        f"distinct {p.distinct_share:.2f}  ({p.canaries} canaries)"
        for p in found.trend
    ]
    out.append(f"warning: {found.warning}" if found.warning else "no warning")
    print("\n".join(out))
    return 0
