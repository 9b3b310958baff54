"""Killed mid-ingest: a process ingesting a folder of files (its bounded readers at work) is
killed with SIGKILL at a random moment, again and again, and each time counted:

- **orphans**: the processes it had started still alive 1 s after it died;
- **partial documents**: a stored document with other lines than a fresh ingest of its
  file gives (half written);
- **lost acknowledged ingests**: a folder the child said was ingested whose documents are
  not all in the store.

Each round goes on from the store the last left. Linux only (it reads /proc).

    .venv/bin/python bench/kill_ingest.py [--kills 30] [--seed 0] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _record import measures_table, record

ROOT = Path(__file__).resolve().parents[1]
ARTICLES = sorted((ROOT / "corpora" / "squad2_articles").glob("*.txt"))
CHILD = """
import sys
from affidavit import Memory
store, folder, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
with Memory(store, dense=False) as memory:
    for round in range(first, first + 1000):
        memory.ingest(folder, name=f"round-{round}")
        print(f"ACK {round}", flush=True)
"""


def descendants(pid: int) -> set[int]:
    """Every process under ``pid`` now (children, theirs, ...)."""
    found, waiting = set(), [pid]
    while waiting:
        parent = waiting.pop()
        for listing in Path(f"/proc/{parent}/task").glob("*/children"):
            try:
                kids = {int(kid) for kid in listing.read_text().split()}
            except OSError:
                continue
            waiting += sorted(kids - found)
            found |= kids
    return found


def running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


def run(kills: int, seed: int) -> dict[str, object]:
    from affidavit import Memory

    chooser = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="affidavit-kill-"))
    folder = work / "files"
    folder.mkdir()
    for n, article in enumerate(ARTICLES * 8):  # 40 files: readers busy for seconds
        (folder / f"part-{n:02d}.txt").write_text(article.read_text(encoding="utf-8"), "utf-8")
    with Memory(dense=False) as fresh:  # each file's lines, ingested whole
        fresh.ingest(folder, name="whole")
        lines = {d.name.split("/", 1)[1]: d.lines for d in fresh.catalogue()}
    store = work / "store.sqlite"
    orphans = partial = lost = acks = 0
    next_round = 0
    acknowledged: set[int] = set()
    for kill in range(kills):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(store), str(folder), str(next_round)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        deadline = time.monotonic() + chooser.uniform(2.0, 5.0)
        started: set[int] = set()
        while time.monotonic() < deadline:
            started |= descendants(child.pid)
            time.sleep(0.02)
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        time.sleep(1.0)
        orphans += sum(running(pid) for pid in started)
        for line in out.splitlines():
            if line.startswith("ACK "):
                acknowledged.add(int(line.split()[1]))
                acks += 1
        next_round = max([next_round, *acknowledged]) + 2  # the round in flight is never reused
        with Memory(store, dense=False) as memory:
            stored = {d.name: d.lines for d in memory.catalogue()}
        for name, count in stored.items():
            if count != lines[name.split("/", 1)[1]]:
                partial += 1
        for done in acknowledged:
            if any(f"round-{done}/{file}" not in stored for file in lines):
                lost += 1
        print(
            f"kill {kill + 1}/{kills}: orphans {orphans}, partial {partial}, lost {lost}",
            flush=True,
        )
    return {
        "kills": kills,
        "seed": seed,
        "orphans after 1 s": orphans,
        "partial documents": partial,
        "lost acknowledged ingests": lost,
        "acknowledged ingests": acks,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = run(args.kills, args.seed)
    print(json.dumps(result, indent=2))
    title = "kill -9 while a process ingests a folder with its bounded readers, then open it"
    record(__file__, split="none", tables=[measures_table(title, result)])
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
