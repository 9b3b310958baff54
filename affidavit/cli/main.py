"""The `affidavit` command: a thin shell over Memory (ingest, search, ask, verify,
entities, demo; batch and report come from cli/batch_commands.py; tell, records, forget and
remove from cli/record_commands.py)."""

from __future__ import annotations

import argparse
import json
import os
import select
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affidavit.cli.batch_commands import add_commands, add_engine_flags, model_engine
from affidavit.cli.record_commands import add_record_commands
from affidavit.cli.upkeep_commands import add_upkeep_commands
from affidavit.errors import AffidavitError, IngestInterrupted
from affidavit.options import Filters
from affidavit.runtime import before_exit, fewer_collections

# NOTE: nothing heavy is imported here: the parser is built from argparse alone, and each
# command imports the engine, spaCy and the models when it runs (`affidavit --help` took
# 1.2-1.4 s when this module imported Memory; bench/start.py measures it).
if TYPE_CHECKING:
    from affidavit import HttpEngine, Memory

# What a shell reports for a command that a closed pipe ended (128 + SIGPIPE).
CLOSED_PIPE_STATUS = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Every failure is one line on stderr naming the file and the fix,
    with a non-zero exit; a failed ingest leaves the store as it was."""
    parser = _parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        parser.error(
            f"unrecognized arguments: {' '.join(unknown)} (`affidavit {args.command} --help` "
            "lists its options; each is spelt whole)"
        )
    status: int | None = None  # set once the command has done its work and said so
    try:
        with fewer_collections():
            status = int(args.run(args) or 0)
        if argv is None:  # the program itself (`affidavit ...`), not a caller in Python
            before_exit()
        sys.stdout.flush()  # here, so a reader that has gone is found here too
        return status
    except AffidavitError as exc:
        print(f"affidavit: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as stop:
        if status is not None:
            # After the command returned (its store closed, its output printed), before
            # the program ignores Ctrl-C: the work is done, and "unchanged" would be false.
            if argv is None:
                before_exit()
            return status
        # An ingest says which documents it wrote; any other command writes all or nothing.
        said = str(stop) if isinstance(stop, IngestInterrupted) else "the store is unchanged"
        print(f"affidavit: interrupted: {said}", file=sys.stderr)
        return 130
    except BrokenPipeError as exc:
        if not _output_closed():
            return _internal_error(exc)  # another pipe (a worker's, a server's) broke
        return _end_quietly()
    except Exception as exc:  # noqa: BLE001 — the CLI prints no traceback, ever
        return _internal_error(exc)


def _internal_error(exc: Exception) -> int:
    print(
        f"affidavit: internal error: {type(exc).__name__}: {exc} (the store is "
        "unchanged; please report this with the command that caused it)",
        file=sys.stderr,
    )
    return 3


def _output_closed() -> bool:
    """Whether what reads the standard output has gone (a pipe or socket whose far end
    closed), as `affidavit search ... | head -1` leaves it."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    if not hasattr(select, "poll"):  # no poll (Windows): a broken pipe there is stdout's
        return True
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(event & (select.POLLERR | select.POLLHUP) for _, event in poller.poll(0))


def _end_quietly() -> int:
    """End as `seq 1000000 | head -1` ends seq: no message, and the status a shell shows
    for a command a closed pipe stopped (141), so `set -o pipefail` treats this command
    as it treats every other shell tool. What is left unwritten goes to /dev/null, or
    Python's last flush at exit would complain on stderr."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)
    return CLOSED_PIPE_STATUS


class WholeOptions(argparse.ArgumentParser):
    """A parser that takes an option only spelt whole (``allow_abbrev=False``): argparse
    would otherwise read ``search --document X`` as ``--documents`` and fail on X."""

    def __init__(self, *args: Any, **options: Any) -> None:
        options.setdefault("allow_abbrev", False)
        super().__init__(*args, **options)


def _parser() -> argparse.ArgumentParser:
    """The `affidavit` parser: one builder a command, in the order `--help` lists them."""
    parser = WholeOptions(
        prog="affidavit",
        description="Answer questions from documents only with what the evidence supports.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # Each command's parser is a WholeOptions too (argparse makes them of its parser's class).
    commands = parser.add_subparsers(dest="command", required=True)
    _add_ingest(commands)
    _add_search(commands)
    _add_ask(commands)
    _add_verify(commands)
    _add_entities(commands)
    _add_demo(commands)
    add_commands(commands)
    add_record_commands(commands)
    add_upkeep_commands(commands)
    return parser


def _add_ingest(commands: Any) -> None:
    """`affidavit ingest`: files or folders into a store, one file or sharded."""
    ingest = commands.add_parser(
        "ingest",
        help="add files or folders to a store",
        epilog="Example: affidavit ingest reports/ notes.md --store memory.sqlite",
    )
    ingest.add_argument("paths", nargs="+", type=Path, help="files or folders (recursive)")
    ingest.add_argument(
        "--store",
        required=True,
        type=Path,
        help="the SQLite store file, or a sharded store's folder",
    )
    ingest.add_argument(
        "--shards",
        type=int,
        metavar="N",
        help="make --store a sharded store of N shards (a new folder); later calls find them",
    )
    ingest.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="a sharded store's shards ingest on Ray: local, auto or ray://HOST:PORT",
    )
    ingest.add_argument("--date", help="date to stamp on the documents (ISO 8601)")
    ingest.add_argument(
        "--source",
        default="document",
        choices=["operator", "document", "stranger"],
        help="who vouches for the text: its lines' trust (default: document)",
    )
    ingest.add_argument(
        "--replace-trusted",
        action="store_true",
        help="let a lower-trust source replace a document of the same name",
    )
    ingest.add_argument(
        "--dialogue",
        metavar="NAME",
        help="read the one path as a conversation named NAME (LoCoMo .json, or .jsonl of "
        '{"session", "date", "speaker", "text"}): a document a session, a line a turn',
    )
    ingest.add_argument(
        "--keep-going",
        action="store_true",
        help="store every file that reads and list each one that does not, with why (exit "
        "status 1 when any failed); without it one bad file stores nothing",
    )
    ingest.add_argument("--quiet", action="store_true", help="no progress bar")
    ingest.set_defaults(run=_ingest)


def _add_search(commands: Any) -> None:
    """`affidavit search`: the lines, or the documents, that best match a query."""
    search = commands.add_parser(
        "search",
        help="show the lines that best match a query",
        epilog='Example: affidavit search "oil embargo" --store memory.sqlite -k 5',
    )
    search.add_argument("query")
    search.add_argument("--store", required=True, type=Path)
    search.add_argument("-k", type=int, default=10, help="how many lines (default 10)")
    search.add_argument(
        "--documents",
        action="store_true",
        help="rank documents instead of lines (words and meaning fused; any language)",
    )
    search.add_argument("--json", action="store_true", help="JSON output")
    _add_filter_flags(search)
    search.set_defaults(run=_search)


def _add_ask(commands: Any) -> None:
    """`affidavit ask`: a question answered with citations, or refused."""
    ask = commands.add_parser(
        "ask",
        help="answer a question with citations, or refuse",
        epilog='Example: affidavit ask "Who ruled Normandy?" --store memory.sqlite --json',
    )
    ask.add_argument("question")
    ask.add_argument("--store", required=True, type=Path)
    ask.add_argument("--asked-at", help="the asking date (ISO 8601), for date arithmetic")
    ask.add_argument("--speaker", help='who asks: "I", "me" and "my" are read as this name')
    ask.add_argument("--json", action="store_true", help="the full answer and audit as JSON")
    ask.add_argument(
        "--min-probability",
        type=float,
        help="refuse an answer the reader finds less likely than this (0 to 1; default: "
        "the shipped threshold, chosen on SQuAD 2.0)",
    )
    _add_filter_flags(ask)
    add_engine_flags(ask)
    ask.set_defaults(run=_ask)


def _add_verify(commands: Any) -> None:
    """`affidavit verify`: a text audited sentence by sentence."""
    verify = commands.add_parser(
        "verify",
        help="audit a text against the store, sentence by sentence",
        epilog='Example: affidavit verify "The embargo ended in March 1974." --store memory.sqlite',
    )
    verify.add_argument("text", nargs="?", help="the text to audit (or use --file)")
    verify.add_argument("--file", type=Path, help="read the text from this file")
    verify.add_argument("--question", help="the question the text answers, if any")
    verify.add_argument("--store", required=True, type=Path)
    verify.add_argument("--json", action="store_true", help="the full verdict as JSON")
    _add_filter_flags(verify)
    verify.set_defaults(run=_verify)


def _add_entities(commands: Any) -> None:
    """`affidavit entities`: the store's entities, or one entity's neighbours."""
    entities = commands.add_parser(
        "entities",
        help="list the store's entities, or one entity's neighbours with their witnesses",
        epilog='Example: affidavit entities --store memory.sqlite --neighbours "Dorothea"',
    )
    entities.add_argument("--store", required=True, type=Path)
    entities.add_argument("--top", type=int, default=50, help="how many (default 50)")
    entities.add_argument("--neighbours", metavar="ENTITY", help="the neighbours of ENTITY")
    entities.add_argument("--json", action="store_true", help="JSON output")
    entities.set_defaults(run=_entities)


def _add_demo(commands: Any) -> None:
    """`affidavit demo`: the bundled corpus ingested and sample questions answered."""
    demo = commands.add_parser(
        "demo",
        help="ingest the bundled corpus and answer sample questions",
        epilog="Example: affidavit demo --corpus corpora/demo",
    )
    demo.add_argument("--corpus", type=Path, default=None, help="folder to ingest")
    demo.add_argument(
        "--out",
        type=Path,
        default=Path("demo-output"),
        help="folder for the demo's store, answers and report (default: ./demo-output)",
    )
    demo.set_defaults(run=_demo)


def _existing_store(path: Path, engine: HttpEngine | None = None) -> Memory:
    from affidavit import Memory

    if not path.exists():
        raise AffidavitError(
            f"{path}: no such store (create it with `affidavit ingest ... --store {path}`)"
        )
    return Memory(path, engine=engine)


def _demo(args: argparse.Namespace) -> int:
    from affidavit.cli.demo import run_demo

    return run_demo(args)


def _ingest(args: argparse.Namespace) -> int:
    from affidavit import Memory
    from affidavit.cli.render import index_progress, ingest_progress

    for path in args.paths:
        if not path.exists():
            raise AffidavitError(f"{path}: no such file or folder (check the path)")
    sharding = {"shards": args.shards} if args.shards is not None else {}
    if args.cluster is not None:
        sharding["cluster"] = args.cluster
    names: list[str] | None = None  # set once the documents are written
    try:
        with Memory(args.store, **sharding) as memory:
            before = memory.stats()
            if args.dialogue is not None:
                if len(args.paths) != 1 or args.date is not None or args.keep_going:
                    raise AffidavitError(
                        "--dialogue reads one file, dated by its sessions (no --date, no "
                        "--keep-going)"
                    )
                names = memory.ingest_dialogue(
                    args.paths[0],
                    name=args.dialogue,
                    source=args.source,
                    replace_trusted=args.replace_trusted,
                )
            else:
                # One call, so all the paths land in one transaction or none does.
                names = memory.ingest(
                    args.paths,
                    date=args.date,
                    source=args.source,
                    progress=ingest_progress(args.quiet),
                    replace_trusted=args.replace_trusted,
                    keep_going=args.keep_going,
                )
            # Now, with a bar, rather than on the first question: that one should be quick
            # (Memory.ingest has done it for files; a dialogue leaves it to the first one).
            memory.build_indexes(progress=index_progress(args.quiet))
            after = memory.stats()
        return _ingested(args, names, before, after)
    except KeyboardInterrupt as stop:
        if isinstance(stop, IngestInterrupted):
            raise
        # Opening the store, counting its lines, closing it: before the ingest returned
        # nothing was written (an interrupt inside it says so itself), after it every
        # document was, and only the indexes may wait for the next question.
        raise IngestInterrupted(list(names or []), []) from stop


def _ingested(
    args: argparse.Namespace, names: list[str], before: dict[str, int], after: dict[str, int]
) -> int:
    """What an ingest says: its warnings, the files not stored, and the store's size."""
    for warning in getattr(names, "warnings", []):
        print(f"warning: {warning}", file=sys.stderr)
    failed = getattr(names, "failed", [])
    for unread in failed:
        print(f"not stored: {unread}", file=sys.stderr)
    print(
        f"{len(names)} document(s) in {args.store}: {after['documents']} documents, "
        f"{after['lines']} lines (+{after['lines'] - before['lines']})"
        + (f"; {len(failed)} file(s) could not be read" if failed else "")
    )
    return 1 if failed else 0


def _search(args: argparse.Namespace) -> int:
    from affidavit.cli.render import where

    if args.documents:
        return _search_documents(args)
    with _existing_store(args.store) as memory:
        hits = memory.search(args.query, k=args.k, **_scope(args).keywords())
    _print_ranked(
        hits,
        as_json=args.json,
        as_dict=lambda hit: hit.to_dict(),
        line=lambda hit: f"{hit.score:7.3f}  {where(hit)}  {hit.text}",
        empty="no line matches",
    )
    return 0


def _search_documents(args: argparse.Namespace) -> int:
    chosen = list(_scope(args).keywords())
    if chosen:
        options = ", ".join("--" + _FILTER_FLAGS[name] for name in chosen)
        raise AffidavitError(
            f"--documents ranks every document, so it takes no scope option ({options}): "
            "drop one or the other"
        )
    with _existing_store(args.store) as memory:
        ranked = memory.search_documents(args.query, k=args.k)
    _print_ranked(
        ranked,
        as_json=args.json,
        as_dict=asdict,
        line=lambda hit: f"{hit.score:.4f}  {hit.document}",
        empty="no document matches",
    )
    return 0


def _entities(args: argparse.Namespace) -> int:
    if args.top < 1:
        raise AffidavitError(f"--top {args.top}: give a positive number of entities")
    with _existing_store(args.store) as memory:
        if args.neighbours is None:
            found: list = memory.entities(top=args.top)
        else:
            found = memory.neighbours(args.neighbours, top=args.top)
    if args.neighbours is None:
        line, empty = (lambda item: f"{item.count:>6}  {item.name}"), "no entity"
    else:
        line, empty = _neighbour_line, "no neighbour"
    _print_ranked(
        found, as_json=args.json, as_dict=lambda item: item.to_dict(), line=line, empty=empty
    )
    return 0


def _neighbour_line(item: Any) -> str:
    from affidavit.cli.render import where

    first = item.witnesses[0]
    return (
        f"{item.weight:8.1f}  {item.name}  ({len(item.witnesses)} lines)\n"
        f"       e.g. {where(first)}  {first.text}"
    )


def _print_ranked(
    items: Sequence[Any],
    *,
    as_json: bool,
    as_dict: Callable[[Any], Any],
    line: Callable[[Any], str],
    empty: str,
) -> None:
    """A ranked list as JSON, or as numbered lines (``empty`` when there is nothing)."""
    if as_json:
        print(json.dumps([as_dict(item) for item in items], ensure_ascii=False, indent=2))
        return
    for rank, item in enumerate(items, 1):
        print(f"{rank:>3}. {line(item)}")
    if not items:
        print(empty)


# The scope's keys (affidavit/options.py Filters), and the flag that gives each.
_FILTER_FLAGS = {
    "documents": "document",
    "source": "source",
    "min_trust": "min-trust",
    "since": "since",
    "until": "until",
}


def _add_filter_flags(command: argparse.ArgumentParser) -> None:
    """The flags that choose the documents read (the scope options of Memory.ask, verify
    and search)."""
    command.add_argument(
        "--document",
        action="append",
        metavar="NAME",
        help="read only this stored document (a name or a glob such as 'licences/*.pdf'; "
        "repeat for several)",
    )
    command.add_argument(
        "--source",
        action="append",
        help="read only documents of this source (operator, document, stranger...; repeatable)",
    )
    command.add_argument("--min-trust", type=float, help="read only documents this trusted (0-1)")
    command.add_argument("--since", help="read only documents dated this ISO day or later")
    command.add_argument("--until", help="read only documents dated this ISO day or earlier")


def _scope(args: argparse.Namespace) -> Filters:
    """The scope the flags ``_add_filter_flags`` added choose (Memory.ask, verify and
    search take it as their keywords)."""
    flags = {key: flag.replace("-", "_") for key, flag in _FILTER_FLAGS.items()}
    return Filters(**{key: getattr(args, flag) for key, flag in flags.items()})


def _ask(args: argparse.Namespace) -> int:
    from affidavit.cli.render import render

    with _existing_store(args.store, model_engine(args)) as memory:
        answer = memory.ask(
            args.question,
            asked_at=args.asked_at,
            speaker=args.speaker,
            min_probability=args.min_probability,
            **_scope(args).keywords(),
        )
        several = len(memory.documents()) > 1
    if args.json:
        print(json.dumps(answer.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render(answer, name_document=several))
    return 0


def _verify(args: argparse.Namespace) -> int:
    from affidavit.cli.render import render_verdict

    if (args.text is None) == (args.file is None):
        raise AffidavitError("give the text to verify, or --file FILE (not both)")
    if args.file is not None:
        try:
            text = args.file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise AffidavitError(f"{args.file}: cannot read it as UTF-8 text ({exc})") from exc
    else:
        text = args.text
    with _existing_store(args.store) as memory:
        verdict = memory.verify(text, question=args.question, **_scope(args).keywords())
    if args.json:
        print(json.dumps(verdict.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render_verdict(verdict))
    return 0 if verdict.supported else 2


if __name__ == "__main__":
    sys.exit(main())
