"""Start-up: how long the `affidavit` command takes before it does anything, beside an
empty Python.

Each round runs, each in a fresh process and in turn: `python -c pass` (the floor this
machine sets), `affidavit --help`, and a cold `affidavit ask` and `affidavit search` on a
store of two lines (made once by `affidavit ingest`, so its indexes are cached and only
the start is measured). Rounds interleave the commands, so a machine busy with other work
slows each alike; a first round, not counted, compiles every module's bytecode into a
folder of its own (PYTHONPYCACHEPREFIX), so each command starts as an installed package
does (with PYTHONDONTWRITEBYTECODE=1, as in this workplace's shells, every start compiled
affidavit's 220 modules again: 0.5 s more). Reported per command: the median and the
least wall time and the median CPU time (user + system) over the rounds, the median wall
time above the floor, and the peak resident memory (the process's own, from wait4).

    .venv/bin/python bench/start.py [--limit ROUNDS] [--json PATH] [--against COMMAND]

``--against`` measures another affidavit in the same rounds, so before and after share
the machine's load: COMMAND runs it, e.g. an earlier commit's package unpacked in /tmp/old
(git archive COMMIT affidavit | tar -x -C /tmp/old) with this venv's dependencies:
``--against "env PYTHONPATH=/tmp/old .venv/bin/python -P -m affidavit.cli.main"`` (-P, or
the current folder's affidavit comes first). Each affidavit asks a store it made itself.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _record import record, rows_table

ROUNDS = 7
LINES = "The embargo ended in March 1974.\nAcme Corp employs 40 people in Leeds.\n"
QUESTION = "When did the embargo end?"


def affidavit_command() -> list[str]:
    """The installed `affidavit` script beside this Python, as a user runs it (else the
    module, for a checkout never installed)."""
    script = Path(sys.executable).with_name("affidavit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "affidavit.cli.main"]


def timed(command: list[str], environment: dict[str, str]) -> dict[str, float]:
    """Wall seconds, CPU seconds and peak resident MB of one run of ``command``."""
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, env=environment)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status) != 0:
            errors.seek(0)
            raise SystemExit(f"{' '.join(command)} failed: {errors.read().decode()}")
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,  # Linux gives kilobytes
    }


def commands(
    affidavit: list[str], folder: Path, environment: dict[str, str], label: str = ""
) -> dict[str, list[str]]:
    """The commands measured, by name, of the ``affidavit`` command given; its store of
    two lines made first, in ``folder``."""
    notes, store = folder / "notes.txt", folder / "store.sqlite"
    folder.mkdir()
    notes.write_text(LINES, encoding="utf-8")
    timed([*affidavit, "ingest", str(notes), "--store", str(store), "--quiet"], environment)
    asked = ["--store", str(store)]
    return {
        f"affidavit --help{label}": [*affidavit, "--help"],
        f"affidavit ask (cold, 2 lines){label}": [*affidavit, "ask", QUESTION, *asked],
        f"affidavit search (cold, 2 lines){label}": [*affidavit, "search", "embargo", *asked],
    }


def run(rounds: int, against: str | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        environment = {**os.environ, "PYTHONPYCACHEPREFIX": str(Path(folder) / "bytecode")}
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        measured = {"python -c pass": [sys.executable, "-c", "pass"]}
        measured.update(commands(affidavit_command(), Path(folder) / "this", environment))
        if against is not None:
            other = shlex.split(against)
            measured.update(commands(other, Path(folder) / "against", environment, " [against]"))
        for command in measured.values():  # compiles the bytecode
            timed(command, environment)
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in measured}
        for _ in range(rounds):
            for name, command in measured.items():
                runs[name].append(timed(command, environment))
    floor = statistics.median(r["wall_s"] for r in runs["python -c pass"])
    figures = {}
    for name, done in runs.items():
        wall = statistics.median(r["wall_s"] for r in done)
        figures[name] = {
            "wall_s": round(wall, 3),
            "least_wall_s": round(min(r["wall_s"] for r in done), 3),
            "above_floor_s": round(wall - floor, 3),
            "cpu_s": round(statistics.median(r["cpu_s"] for r in done), 3),
            "peak_mb": round(max(r["peak_mb"] for r in done), 1),
        }
    return {
        "rounds": rounds,
        "against": against,
        "load_average": os.getloadavg(),
        "figures": figures,
    }


def report(result: dict[str, Any]) -> str:
    rows = [
        f"Start-up, median of {result['rounds']} rounds (1-minute load average at the end: "
        f"{result['load_average'][0]:.2f})",
        f"{'command':<44} {'wall s':>7} {'least':>7} {'above floor':>12} {'CPU s':>7} "
        f"{'peak MB':>8}",
    ]
    for name, figure in result["figures"].items():
        rows.append(
            f"{name:<44} {figure['wall_s']:>7.3f} {figure['least_wall_s']:>7.3f} "
            f"{figure['above_floor_s']:>12.3f} {figure['cpu_s']:>7.3f} {figure['peak_mb']:>8.1f}"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=ROUNDS, help=f"rounds (default {ROUNDS})")
    parser.add_argument("--json", type=Path, help="also write the numbers to this JSON file")
    parser.add_argument(
        "--against", metavar="COMMAND", help="also measure the affidavit this command runs"
    )
    args = parser.parse_args()
    result = run(args.limit, args.against)
    printed = report(result)
    print(printed)
    title = f"Median of {result['rounds']} rounds; the floor, an empty Python, is the baseline"
    figures = rows_table(title, result["figures"], label="command", baselines=("python -c",))
    record(__file__, split="none", tables=[figures])
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
