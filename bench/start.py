"""Start-up: how long the `affidavit` command takes before it does anything, beside an
empty Python.

Each round runs, each in a fresh process and in turn: `python -c pass` (the floor this
machine sets), `affidavit --help`, and a cold `affidavit ask` and `affidavit search` on a
store of two lines (made once by `affidavit ingest`, so its indexes are cached and only
the start is measured). Rounds interleave the commands, so a machine busy with other work
slows each alike. Reported per command: the median wall time and CPU time (user + system)
over the rounds, the wall time above the floor, and the peak resident memory (the
process's own, from wait4).

    .venv/bin/python bench/start.py [--limit ROUNDS] [--json PATH]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _cli import bench_main

ROUNDS = 7
LINES = "The embargo ended in March 1974.\nAcme Corp employs 40 people in Leeds.\n"
QUESTION = "When did the embargo end?"


def affidavit_command() -> list[str]:
    """The installed `affidavit` script beside this Python, as a user runs it (else the
    module, for a checkout never installed)."""
    script = Path(sys.executable).with_name("affidavit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "affidavit.cli.main"]


def timed(command: list[str]) -> dict[str, float]:
    """Wall seconds, CPU seconds and peak resident MB of one run of ``command``."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    error = child.stderr.read().decode() if child.stderr else ""
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({child.returncode}): {error}")
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,  # Linux gives kilobytes
    }


def run(limit: int | None) -> dict[str, Any]:
    rounds = limit or ROUNDS
    affidavit = affidavit_command()
    with tempfile.TemporaryDirectory() as folder:
        notes, store = Path(folder) / "notes.txt", Path(folder) / "store.sqlite"
        notes.write_text(LINES, encoding="utf-8")
        timed([*affidavit, "ingest", str(notes), "--store", str(store), "--quiet"])
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "affidavit --help": [*affidavit, "--help"],
            "affidavit ask (cold, 2 lines)": [*affidavit, "ask", QUESTION, "--store", str(store)],
            "affidavit search (cold, 2 lines)": [
                *affidavit,
                "search",
                "embargo",
                "--store",
                str(store),
            ],
        }
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in commands}
        for _ in range(rounds):
            for name, command in commands.items():
                runs[name].append(timed(command))
    floor = statistics.median(r["wall_s"] for r in runs["python -c pass"])
    figures = {}
    for name, measured in runs.items():
        wall = statistics.median(r["wall_s"] for r in measured)
        figures[name] = {
            "wall_s": round(wall, 3),
            "above_floor_s": round(wall - floor, 3),
            "cpu_s": round(statistics.median(r["cpu_s"] for r in measured), 3),
            "peak_mb": round(max(r["peak_mb"] for r in measured), 1),
        }
    return {"rounds": rounds, "load_average": os.getloadavg(), "figures": figures}


def report(result: dict[str, Any]) -> str:
    rows = [
        f"Start-up, median of {result['rounds']} rounds (1-minute load average at the end: "
        f"{result['load_average'][0]:.2f})",
        f"{'command':<34} {'wall s':>7} {'above floor':>12} {'CPU s':>7} {'peak MB':>8}",
    ]
    for name, figure in result["figures"].items():
        rows.append(
            f"{name:<34} {figure['wall_s']:>7.3f} {figure['above_floor_s']:>12.3f} "
            f"{figure['cpu_s']:>7.3f} {figure['peak_mb']:>8.1f}"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    bench_main(__doc__, run, report, limit_help=f"rounds (default {ROUNDS})")
