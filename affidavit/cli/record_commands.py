"""The records commands of the `affidavit` CLI: tell a fact, distil a passage's events,
list what is told (with its history), forget one, show an entity's page, and remove a
document with everything drawn from it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import affidavit  # its Memory is read when a command runs: the CLI's parser loads no model
from affidavit.errors import AffidavitError

if TYPE_CHECKING:
    from affidavit import Memory, Record

SOURCES = ("operator", "document", "extraction", "inference", "stranger")


def add_record_commands(commands: Any) -> None:
    """Add tell, distil, infer, records, forget, end, profile, labels and remove to the
    CLI's subcommands."""
    _add_tell(commands)
    _add_distil(commands)
    _add_infer(commands)
    _add_records(commands)
    _add_forget(commands)
    _add_end(commands)
    _add_profile(commands)
    _add_labels(commands)
    _add_remove(commands)


def _add_tell(commands: Any) -> None:
    """`affidavit tell`: a fact told the store; a newer telling supersedes."""
    tell = commands.add_parser(
        "tell",
        help="tell the store a fact (subject, predicate, value); a newer telling supersedes",
        epilog='Example: affidavit tell Maya "lives in" Porto --at 2024-05-01 --store m.sqlite',
    )
    tell.add_argument("subject")
    tell.add_argument("predicate")
    tell.add_argument("value")
    tell.add_argument("--store", required=True, type=Path)
    tell.add_argument("--source", choices=SOURCES, default="operator")
    tell.add_argument("--at", help="the day the fact holds from (ISO, e.g. 2024-05-01)")
    tell.add_argument("--kind", help='what sort of thing the value is ("magazine"): for finding')
    tell.add_argument("--json", action="store_true", help="JSON output")
    tell.set_defaults(run=_tell)


def _add_distil(commands: Any) -> None:
    """`affidavit distil`: the events of a stored passage or session written as records."""
    distil = commands.add_parser(
        "distil",
        help="write the events a stored passage or conversation session reports as records",
        epilog="Example: affidavit distil chat/session-2 --store m.sqlite "
        "(without a document: every document not distilled yet)",
    )
    distil.add_argument(
        "document",
        nargs="?",
        help="a stored document's name (a conversation's session: NAME/session-1); "
        "none: every document not distilled yet",
    )
    distil.add_argument("--store", required=True, type=Path)
    distil.add_argument("--json", action="store_true", help="JSON output")
    distil.set_defaults(run=_distil)


def _add_infer(commands: Any) -> None:
    """`affidavit infer`: transitive predicates learned, what their chains imply derived."""
    inferred = commands.add_parser(
        "infer",
        help="learn transitive predicates and derive what their chains imply (never said)",
        epilog="Example: affidavit infer --store m.sqlite",
    )
    inferred.add_argument("--store", required=True, type=Path)
    inferred.add_argument("--json", action="store_true", help="JSON output")
    inferred.set_defaults(run=_infer)


def _add_records(commands: Any) -> None:
    """`affidavit records`: the live records, or their whole history."""
    listed = commands.add_parser(
        "records",
        help="list the live records (of a subject, a predicate), or their whole history",
        epilog="Example: affidavit records Maya --history --store m.sqlite",
    )
    listed.add_argument("subject", nargs="?")
    listed.add_argument("--predicate")
    listed.add_argument("--history", action="store_true", help="superseded and forgotten too")
    listed.add_argument("--store", required=True, type=Path)
    listed.add_argument("--json", action="store_true", help="JSON output")
    listed.set_defaults(run=_records)


def _add_forget(commands: Any) -> None:
    """`affidavit forget`: a record tombstoned by its id."""
    forget = commands.add_parser(
        "forget", help="forget a record by its id (a tombstone: it leaves every answer)"
    )
    forget.add_argument("record_id", type=int)
    forget.add_argument("--store", required=True, type=Path)
    forget.set_defaults(run=_forget)


def _add_end(commands: Any) -> None:
    """`affidavit end`: a record's fact said to have stopped holding."""
    ended = commands.add_parser(
        "end",
        help="say a record's fact stopped holding (kept as history that says until when)",
        epilog="Example: affidavit end 7 --at 2024-05-01 --store m.sqlite",
    )
    ended.add_argument("record_id", type=int)
    ended.add_argument("--at", help="the day it stopped holding (ISO; default today)")
    ended.add_argument("--store", required=True, type=Path)
    ended.set_defaults(run=_end)


def _add_profile(commands: Any) -> None:
    """`affidavit profile`: what the store knows of one entity."""
    profile = commands.add_parser(
        "profile",
        help="what the store knows of one entity: its facts, their history, its neighbours",
        epilog="Example: affidavit profile Rollo --store m.sqlite",
    )
    profile.add_argument("entity")
    profile.add_argument("--top", type=int, default=10, help="how many neighbours (default 10)")
    profile.add_argument("--store", required=True, type=Path)
    profile.add_argument("--json", action="store_true", help="JSON output")
    profile.set_defaults(run=_profile)


def _add_labels(commands: Any) -> None:
    """`affidavit labels`: the concepts a word labels, or a new label told."""
    labels = commands.add_parser(
        "labels",
        help="the concepts a word labels across en/es/tr, and who said so",
        epilog="Example: affidavit labels ciudad --store m.sqlite; "
        "affidavit labels cuota --means fee --language es --store m.sqlite",
    )
    labels.add_argument("word")
    labels.add_argument("--means", help="tell the store that WORD names this word of its lines")
    labels.add_argument("--language", choices=("es", "tr"), help="WORD's language, with --means")
    labels.add_argument("--store", required=True, type=Path)
    labels.add_argument("--json", action="store_true", help="JSON output")
    labels.set_defaults(run=_labels)


def _add_remove(commands: Any) -> None:
    """`affidavit remove`: a document and everything drawn from it taken out."""
    remove = commands.add_parser(
        "remove",
        help="take a document and everything drawn from it out of the store",
        epilog="Example: affidavit remove contract-2019.pdf --store m.sqlite",
    )
    remove.add_argument("document")
    remove.add_argument("--store", required=True, type=Path)
    remove.set_defaults(run=_remove)


def line(record: Record) -> str:
    """One record as a line: its id, the fact, its state, who told it and when."""
    when = f", true from {record.true_at}" if record.true_at else ""
    when += f" until {record.ended_at}" if record.ended_at else ""
    state = "" if record.state == "live" else f" [{record.state}]"
    links = []
    if record.superseded_by is not None:
        links.append(f"superseded by #{record.superseded_by}")
    if record.contradicts:
        links.append("contradicts " + ", ".join(f"#{i}" for i in record.contradicts))
    tail = f" ({'; '.join(links)})" if links else ""
    kind = f" [{record.kind}]" if record.kind else ""
    return (
        f"#{record.id} {record.subject} | {record.predicate} | {record.value}{kind}{state} — "
        f"told by the {record.source} on {record.told_at[:10]}{when}{tail}"
    )


def open_store(path: Path, *, read_only: bool = False) -> Memory:
    """The existing store at ``path`` (without the meaning model), or an error saying
    how to make one."""
    if not path.exists():
        raise AffidavitError(f"{path}: no such store (create it with `affidavit ingest`)")
    return affidavit.Memory(path, dense=False, read_only=read_only)


def _tell(args: argparse.Namespace) -> int:
    with affidavit.Memory(args.store, dense=False) as memory:
        record = memory.tell(
            args.subject, args.predicate, args.value, source=args.source, at=args.at, kind=args.kind
        )
    print(json.dumps(record.to_dict(), ensure_ascii=False) if args.json else line(record))
    return 0


def _distil(args: argparse.Namespace) -> int:
    with open_store(args.store) as memory:
        done = [memory.distil(args.document)] if args.document else memory.distil_new()
    if args.json:
        print(json.dumps([d.to_dict() for d in done], ensure_ascii=False, indent=2))
        return 0
    if not done:
        print("every document is distilled already")
    out = []
    for result in done:
        out.append(f"{result.document}: {len(result.records)} record(s) written or already held")
        out += [f"  {line(r)}" for r in result.records]
        if result.ended:
            out += ["ended:", *(f"  {line(r)}" for r in result.ended)]
        if result.refused:
            out.append("not admitted (the line does not say it):")
            out += [f"  {event}: {reason}" for event, reason in result.refused]
    if out:
        print("\n".join(out))
    return 0


def _infer(args: argparse.Namespace) -> int:
    with open_store(args.store) as memory:
        result = memory.infer()
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return 0
    learned = ", ".join(repr(p) for p in result.transitive) or "none"
    out = [f"transitive: {learned}; {len(result.records)} record(s) derived (trust 0.35)"]
    out += [f"  {line(r)} (from {', '.join(f'#{i}' for i in r.because)})" for r in result.records]
    print("\n".join(out))
    return 0


def _records(args: argparse.Namespace) -> int:
    with open_store(args.store) as memory:
        found = memory.records(args.subject, args.predicate, include_history=args.history)
    if args.json:
        print(json.dumps([r.to_dict() for r in found], ensure_ascii=False, indent=2))
    else:
        print("\n".join(line(r) for r in found) if found else "no record")
    return 0


def _forget(args: argparse.Namespace) -> int:
    with open_store(args.store) as memory:
        print(line(memory.forget(args.record_id)))
    return 0


def _end(args: argparse.Namespace) -> int:
    with open_store(args.store) as memory:
        print(line(memory.end(args.record_id, at=args.at)))
    return 0


def _profile(args: argparse.Namespace) -> int:
    with open_store(args.store) as memory:
        page = memory.profile(args.entity, top=args.top)
    if args.json:
        print(json.dumps(page.to_dict(), ensure_ascii=False, indent=2))
        return 0
    out = [page.name]
    if page.labels:
        out.append(
            "also: " + ", ".join(f"{label.word} ({label.language})" for label in page.labels)
        )
    if page.categories:
        out.append("kinds: " + ", ".join(page.categories))
    out.append("facts:")
    out += [f"  {line(r)}" for r in page.facts] or ["  none told"]
    if page.history:
        out += ["history:", *(f"  {line(r)}" for r in page.history)]
    if page.neighbours:
        out.append("mentioned with:")
        out += [
            f"  {n.name} (weight {n.weight:.1f}, {len(n.witnesses)} lines)" for n in page.neighbours
        ]
    if page.mentioned_in:
        lines = "line" if page.mentioned_in == 1 else "lines"
        more = f", the first {len(page.mentions)}" if len(page.mentions) < page.mentioned_in else ""
        out.append(f"mentioned in {page.mentioned_in} {lines}{more}:")
        out += [f"  [{e.document} #{e.position}] {e.text}" for e in page.mentions]
    print("\n".join(out))
    return 0


def _labels(args: argparse.Namespace) -> int:
    if args.means is not None:
        if args.language is None:
            raise AffidavitError("--means needs --language (es or tr): the word's language")
        with affidavit.Memory(args.store, dense=False) as memory:
            memory.label(args.word, args.means, language=args.language)
    with open_store(args.store) as memory:
        found = memory.labels(args.word)
    if args.json:
        print(json.dumps([label.to_dict() for label in found], ensure_ascii=False, indent=2))
        return 0
    rows = [
        f"{label.word} ({label.language}) = {label.means} (en) — concept {label.concept}, "
        f"{label.source}" + (f", cosine {label.cosine:.2f}" if label.cosine is not None else "")
        for label in found
    ]
    print("\n".join(rows) if rows else f"no label of {args.word!r}")
    return 0


def _remove(args: argparse.Namespace) -> int:
    with open_store(args.store) as memory:
        removed = memory.remove(args.document)
    print(f"removed {args.document}: {removed} lines, and the records drawn from it")
    return 0
