"""Writes bench/RESULTS.md, one page of current figures, from the latest run of each benchmark.

Every benchmark script writes ``bench/runs/<name>.json`` when it ends (bench/_record.py);
this page is those files rendered, in a fixed order, each table with affidavit's rows
beside the baselines of the same run, and the command, commit, date and split under
which it ran. Scripts that record but have no run file yet are listed at the end. The
same run files always give the same page; ``--check`` only says whether the page on disk
is that page.

    .venv/bin/python bench/results_page.py [--check]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
RUNS = BENCH / "runs"
PAGE = BENCH / "RESULTS.md"
MAX_LINES = 400
# The page's order: what affidavit answers and refuses, then what it costs, then whether
# it survives. A recording script not named here comes last in its group "other".
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Answers, refusals and the gate",
        (
            "retrieval",
            "gate_halueval",
            "digit_perturbation",
            "contrast",
            "probes",
            "contract_nli",
            "refusal_squad2",
            "xquad",
            "meaning",
            "entity_graph",
            "doc_qa",
            "compliance",
            "tatqa",
            "locomo",
            "gate_thresholds",
        ),
    ),
    (
        "Cost and speed",
        (
            "ingest",
            "start",
            "load",
            "long_pdf",
            "engine_calls",
            "scale",
            "batch",
            "report_load",
            "one_at_a_time",
            "distinct",
            "many_files",
            "copies",
            "records",
            "shards",
            "ray_floor",
            "pdf_parsers",
        ),
    ),
    ("Crashes and hostile input", ("crash", "kill_ingest", "hostile_corpus", "linear_ingest")),
)
SPLIT_MEANING = (
    "**tune**: rules or thresholds were chosen by reading it; **report**: never tuned on; "
    "**all**: both (the rows or columns say which); **none**: the set is not split."
)


def load_runs(folder: Path = RUNS) -> dict[str, dict[str, Any]]:
    """Every run file in ``folder``, by benchmark name."""
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("*.json"))
    }


def _records(script: Path) -> bool:
    """Whether a script imports the run writer (``_record``) or ``_cli.bench_main``."""
    for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module in ("_record", "_cli"):
            if node.module == "_record" or any(a.name == "bench_main" for a in node.names):
                return True
    return False


def recording_scripts(folder: Path = BENCH) -> list[str]:
    """The benchmark scripts that write a run file."""
    return sorted(
        path.stem
        for path in folder.glob("*.py")
        if not path.name.startswith("_") and _records(path)
    )


def _escaped(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _is_measure_list(table: Mapping[str, Any]) -> bool:
    """A table of single measures (measure, value, perhaps a target): one line says it."""
    columns = [str(c).lower() for c in table["columns"]]
    return columns[:2] == ["measure", "value"] and len(columns) <= 3


def _measure_line(table: Mapping[str, Any]) -> str:
    """A measure list as one line: each measure with its value (and target), affidavit's
    measures in bold as in a table."""
    said = []
    for row in table["rows"]:
        name, value, *target = (_escaped(c) for c in row["cells"])
        name = f"**{name}**" if row["system"] == "affidavit" and name else name
        aim = f" (target {target[0]})" if target and target[0] not in ("", "—") else ""
        said.append(f"{name} {value}{aim}")
    return " · ".join(said)


def table_lines(table: Mapping[str, Any]) -> list[str]:
    """One recorded table as Markdown: its title, then its rows, affidavit's in bold; a
    list of single measures as one line."""
    if _is_measure_list(table):
        title = f"{table['title']}: " if table["title"] else ""
        return [title + _measure_line(table)]
    columns = [_escaped(c) for c in table["columns"]]
    lines = [table["title"], ""] if table["title"] else []
    lines += ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in table["rows"]:
        cells = [_escaped(c) for c in row["cells"]]
        if row["system"] == "affidavit" and cells and cells[0]:
            cells[0] = f"**{cells[0]}**"
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _took(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"


def _load(machine: Mapping[str, Any]) -> str:
    """How busy the shared machine was, said next to the run's timings."""
    start, end = machine.get("load_average_start"), machine.get("load_average")
    if end is None:
        return ""
    during = (
        f"{start:.1f} at the start, {end:.1f} at the end"
        if start is not None
        else f"{end:.1f} at the end"
    )
    return (
        f" · timings taken on a shared machine under other work's load (1-minute load "
        f"average {during}, on {machine['cores']} cores)"
    )


def run_lines(run: Mapping[str, Any]) -> list[str]:
    """One benchmark's section: heading, how it ran, its tables and notes."""
    partial = " (partial: `--limit`)" if "--limit" in run["command"] else ""
    how = (
        f"`{run['command']}`{partial} · commit `{run['commit']}` · {run['ran_at']} · "
        f"split **{run['split']}** · took {_took(run['seconds'])}" + _load(run["machine"])
    )
    lines = [f"### {run['title'].rstrip('.')} (`{run['benchmark']}.py`)", ""]
    for number, table in enumerate(run["tables"]):
        drawn = table_lines(table)
        if number == 0 and table["title"]:
            # How it ran and what the first table holds, one paragraph of two lines
            # (a Markdown line break), so a section costs no line it need not.
            drawn = [f"{how}  ", *drawn]
        elif number == 0:
            drawn = [how, "", *drawn]
        lines += [*drawn, ""]
    if not run["tables"]:
        lines += [how, ""]
    if run["notes"]:
        lines += [*(f"- {_escaped(note)}" for note in run["notes"]), ""]
    return lines


def _machines(runs: Mapping[str, Mapping[str, Any]]) -> str:
    seen = Counter(
        f"{m['cores']} cores, {m['platform']}, Python {m['python']}"
        for m in (run["machine"] for run in runs.values())
    )
    if len(seen) == 1:
        return f"{next(iter(seen))} (every run)"
    return "; ".join(f"{name} ({count} runs)" for name, count in sorted(seen.items()))


def header_lines(runs: Mapping[str, Mapping[str, Any]]) -> list[str]:
    return [
        "# Benchmark results",
        "",
        "Written by `bench/results_page.py` from the latest run of each benchmark "
        "(`bench/runs/<name>.json`, which each script writes when it ends): do not edit by hand. "
        "The dated log of every run, how each figure was reached and what was not kept, and "
        "this page as it stood before it was generated, are in [HISTORY.md](HISTORY.md).",
        "",
        f"- **Machine:** {_machines(runs) if runs else 'no run yet'}, shared with other work "
        "while these ran: recall, F1 and counts are deterministic, but **every timing here "
        "was taken on a loaded machine** and is slower than the same code alone; each run "
        "gives the 1-minute load average at its start and end (2 cores: above 2 means "
        "waiting for a core).",
        '- **Re-run:** `make bench` runs the main set (after `pip install -e ".[bench]"`); '
        "each benchmark alone by the command given with its figures; then "
        "`.venv/bin/python bench/results_page.py` rewrites this page.",
        "- **Rows:** **bold** rows are affidavit; plain rows are baselines measured in the "
        "same run (some tables give baselines as columns instead).",
        f"- **Split:** {SPLIT_MEANING}",
        "",
    ]


def ordered(names: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``names`` in the page's groups and order; names no group lists go last, sorted."""
    placed = [(group, [n for n in members if n in names]) for group, members in GROUPS]
    known = {n for _, members in GROUPS for n in members}
    placed.append(("Other benchmarks", sorted(n for n in names if n not in known)))
    return [(group, members) for group, members in placed if members]


def render(runs: Mapping[str, Mapping[str, Any]], scripts: Sequence[str]) -> str:
    """The page for these run files; ``scripts`` are the recording scripts, so the ones
    with no run file can be named. Raises ValueError past MAX_LINES, naming the longest."""
    lines = header_lines(runs)
    sections: dict[str, int] = {}
    for group, members in ordered(sorted(runs)):
        lines += [f"## {group}", ""]
        for name in members:
            section = run_lines(runs[name])
            sections[name] = len(section)
            lines += section
    missing = sorted(set(scripts) - set(runs))
    if missing:
        lines += [
            "## Not yet re-run",
            "",
            "These scripts write a run file too but have none yet (most are not in "
            "`make bench`); their latest figures are in HISTORY.md: "
            + ", ".join(f"`{name}.py`" for name in missing)
            + ".",
            "",
        ]
    page = "\n".join(lines).rstrip("\n") + "\n"
    count = page.count("\n")
    if count > MAX_LINES:
        longest = sorted(sections.items(), key=lambda item: (-item[1], item[0]))[:5]
        raise ValueError(
            f"RESULTS.md would be {count} lines, over {MAX_LINES}: keep fewer tables in the "
            "longest sections' record calls: " + ", ".join(f"{n} {k}" for n, k in longest)
        )
    return page


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if RESULTS.md is not the page the runs make"
    )
    args = parser.parse_args(argv)
    page = render(load_runs(), recording_scripts())
    if args.check:
        same = PAGE.is_file() and PAGE.read_text(encoding="utf-8") == page
        print("RESULTS.md is current" if same else "RESULTS.md differs: run bench/results_page.py")
        return 0 if same else 1
    PAGE.write_text(page, encoding="utf-8")
    print(f"wrote {PAGE} ({page.count(chr(10))} lines from {len(load_runs())} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
