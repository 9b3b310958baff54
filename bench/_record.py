"""The latest run of a benchmark, kept as ``bench/runs/<name>.json``: the source of RESULTS.md.

A run file says what ran (the command line, the commit, "+dirty" when tracked files
outside ``bench/runs`` and RESULTS.md differ from it), when (UTC), on what (cores, Python,
the 1-minute load average at its start and end), on which split the figures are (tune,
report, all, none), and the run's tables: each a title, its column names and its rows,
each row marked ``affidavit`` or ``baseline``. Tables come from the Markdown a script
prints (``markdown_tables``) or are built from its numbers (``rows_table``,
``measures_table``).

``bench/results_page.py`` renders every run file into RESULTS.md.
"""

from __future__ import annotations

import ast
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
RUNS = BENCH / "runs"
SPLITS = ("tune", "report", "all", "none")
# The files a run writes (its own record, the page) do not make the tree it ran on dirty.
_NOT_CODE = (":(top,exclude)bench/runs", ":(top,exclude)bench/RESULTS.md")
_SEPARATOR = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")
_STARTED = time.monotonic()
# The load when the run began: with the load at its end, how busy the shared machine was.
_LOAD_AT_START = os.getloadavg()[0] if hasattr(os, "getloadavg") else None


@dataclass(frozen=True, slots=True)
class Row:
    cells: tuple[str, ...]
    system: str = "affidavit"  # or "baseline": measured in the same run for comparison


@dataclass(frozen=True, slots=True)
class Table:
    title: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]


# -- tables --


def _cells(line: str) -> tuple[str, ...]:
    return tuple(cell.strip().replace("**", "") for cell in line.strip().strip("|").split("|"))


def _system(cells: Sequence[str], baselines: Sequence[str]) -> str:
    folded = [cell.casefold() for cell in cells]
    wanted = [marker.casefold() for marker in baselines]
    return "baseline" if any(m in cell for m in wanted for cell in folded) else "affidavit"


def _title_above(lines: Sequence[str], header: int) -> str:
    """The nearest line of prose above a table: blank lines, code and commands skipped."""
    for line in reversed(lines[:header]):
        text = line.strip()
        if not text or line.startswith("    ") or re.fullmatch(r"`[^`]*`", text):
            continue
        return "" if text.startswith("|") else text.replace("**", "").rstrip(":")
    return ""


def markdown_tables(text: str, *, baselines: Sequence[str] = ()) -> list[Table]:
    """Every Markdown table in ``text``, in order; a row holding a marker of ``baselines``
    (case folded, in any cell) is a baseline's."""
    lines = text.splitlines()
    tables = []
    for at, line in enumerate(lines):
        if at == 0 or not _SEPARATOR.match(line) or not lines[at - 1].lstrip().startswith("|"):
            continue
        rows = []
        for row in lines[at + 1 :]:
            if not row.lstrip().startswith("|"):
                break
            cells = _cells(row)
            rows.append(Row(cells, _system(cells, baselines)))
        title = _title_above(lines, at - 1)
        tables.append(Table(title, _cells(lines[at - 1]), tuple(rows)))
    return tables


def cell(value: Any) -> str:
    """A number as the page shows it: a few significant figures, thousands grouped."""
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "—"}[value]
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    return str(value)


def rows_table(
    title: str,
    rows: Mapping[str, Mapping[str, Any]],
    *,
    label: str = "",
    baselines: Sequence[str] = (),
) -> Table:
    """A table with a row per key of ``rows`` and a column per plain value of its first row
    (lists and mappings are left to the script's JSON)."""
    first = next(iter(rows.values()), {})
    columns = [key for key, value in first.items() if not isinstance(value, list | tuple | dict)]
    body = []
    for name, values in rows.items():
        cells = (name, *(cell(values.get(column)) for column in columns))
        body.append(Row(cells, _system(cells[:1], baselines)))
    return Table(title, (label, *(_words(column) for column in columns)), tuple(body))


def measures_table(
    title: str, values: Mapping[str, Any], *, baselines: Sequence[str] = ()
) -> Table:
    """A two-column table, measure and value, of the scalar figures of ``values``
    (nested mappings flattened as ``outer: inner``; lists are left to the script's JSON)."""
    rows = tuple(Row((k, v), _system((k,), baselines)) for k, v in _flat(values))
    return Table(title, ("measure", "value"), rows)


def _flat(values: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, str]]:
    for key, value in values.items():
        if isinstance(value, Mapping):
            yield from _flat(value, f"{prefix}{_words(key)}: ")
        elif not isinstance(value, list | tuple):
            yield f"{prefix}{_words(key)}", cell(value)


def _words(key: str) -> str:
    return key.replace("_", " ")


# -- the run file --


def script_title(script: Path) -> str:
    """The first paragraph of a script's docstring, on one line, in Markdown."""
    doc = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))) or script.stem
    return " ".join(doc.split("\n\n")[0].split()).replace("``", "`")


def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=BENCH, capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else ""


def commit() -> str:
    """The short commit the tree is at, with "+dirty" when a tracked file differs from it."""
    head = _git("rev-parse", "--short", "HEAD") or "unknown"
    changed = _git("status", "--porcelain", "--untracked-files=no", "--", ":/", *_NOT_CODE)
    return head + ("+dirty" if changed else "")


def _python() -> str:
    """The interpreter as a command names it: the project's venv, or the one that ran."""
    venv = BENCH.parent / ".venv"
    return ".venv/bin/python" if Path(sys.prefix).resolve() == venv.resolve() else sys.executable


def machine() -> dict[str, Any]:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.machine(),
        "load_average": None if load is None else round(load, 2),
        "load_average_start": None if _LOAD_AT_START is None else round(_LOAD_AT_START, 2),
    }


def record(
    script: str,
    *,
    split: str,
    printed: str = "",
    keep: Sequence[int] | None = None,
    baselines: Sequence[str] = (),
    notes: Sequence[str] = (),
    remarks: Sequence[str] = (),
    tables: Sequence[Table] = (),
    argv: Sequence[str] | None = None,
) -> Path:
    """Write ``bench/runs/<script's name>.json`` for the run that just ended.

    Its tables are the Markdown tables of ``printed`` at the places ``keep`` (all when
    None) followed by ``tables``; its notes are the lines of ``printed`` that start with
    one of ``notes``, then ``remarks``: what the script says of every run (a split not
    held out, a baseline not measured).
    """
    if split not in SPLITS:
        raise ValueError(f"split {split!r} of {script} is not one of {', '.join(SPLITS)}")
    found = markdown_tables(printed, baselines=baselines)
    chosen = found if keep is None else [found[at] for at in keep]
    path = Path(script).resolve()
    arguments = sys.argv[1:] if argv is None else list(argv)
    run = {
        "benchmark": path.stem,
        "title": script_title(path),
        "command": shlex.join([_python(), f"bench/{path.name}", *arguments]),
        "commit": commit(),
        "ran_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "seconds": round(time.monotonic() - _STARTED, 1),
        "machine": machine(),
        "split": split,
        "tables": [asdict(table) for table in [*chosen, *tables]],
        "notes": [
            *(
                line.strip()
                for line in printed.splitlines()
                if notes and line.strip().startswith(tuple(notes))
            ),
            *remarks,
        ],
    }
    RUNS.mkdir(exist_ok=True)
    target = RUNS / f"{path.stem}.json"
    target.write_text(compact_json(run) + "\n", encoding="utf-8")
    return target


def compact_json(value: Any, indent: str = "") -> str:
    """JSON with a line per member, except that a list or object of plain values (a row,
    the machine) stays on one line: a run file reads, and diffs, a row at a time."""
    if not isinstance(value, dict | list) or not any(
        isinstance(v, dict | list) for v in (value.values() if isinstance(value, dict) else value)
    ):
        return json.dumps(value, ensure_ascii=False)
    inner = indent + " "
    if isinstance(value, dict):
        members = [f"{inner}{json.dumps(k)}: {compact_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + indent + "}"
    items = [inner + compact_json(v, inner) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + indent + "]"
