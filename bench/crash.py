"""Crash safety: kill -9 a process while it ingests (or closes) a store, then open it.

A child process ingests one document per call into a file store, replacing ten documents
in turn (each call writes the next version of one of them), and after every call that
returns prints an acknowledgement; every few calls it closes the store (which writes the
cached indexes) and opens it again. The parent kills it with SIGKILL at a random moment,
then opens the store and counts:

- **opens**: the store opens and answers a search (a StoreError or a crash counts against);
- **partial documents**: a stored document whose lines are not exactly those its version
  makes (a half-written document);
- **lost acknowledged writes**: a document whose stored version is older than the last one
  the child acknowledged.

Each round starts from the store the last one left, so damage would accumulate. Not in
the default suite (it takes minutes); the result goes into bench/RESULTS.md.

    .venv/bin/python bench/crash.py [--kills 200] [--seed 0] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _record import measures_table, record

ROOT = Path(__file__).resolve().parents[1]
ARTICLE = (ROOT / "corpora" / "squad2_articles" / "Normans.txt").read_text(encoding="utf-8")
PARAGRAPHS = [p for p in ARTICLE.split("\n\n") if len(p) > 200]
DOCUMENTS = 10

CHILD = """
import sys
from affidavit import Memory
sys.path.insert(0, {bench!r})
from crash import version_text
path, start = sys.argv[1], int(sys.argv[2])
memory = Memory(path, dense=False)
call = start
while True:
    name = f"doc{{call % {documents}}}.md"
    memory.ingest_text(version_text(name, call), name=name)
    print(f"ACK {{name}} {{call}}", flush=True)
    call += 1
    if call % 7 == 0:
        memory.close()  # writes the cached indexes: a kill may land in it
        memory = Memory(path, dense=False)
"""


def version_text(name: str, version: int) -> str:
    """Version ``version`` of document ``name``: its first line says which."""
    body = PARAGRAPHS[version % len(PARAGRAPHS)]
    return f"Version {version} of {name}.\n\n{body}\n\nEnd of version {version}.\n"


def expected_lines(name: str, version: int, cache: dict[tuple[str, int], int]) -> int:
    from affidavit import Memory

    key = (name, version % len(PARAGRAPHS))
    if key not in cache:
        memory = Memory(dense=False)
        memory.ingest_text(version_text(name, version), name=name)
        cache[key] = memory.stats()["lines"]
    return cache[key]


def stored_versions(path: Path) -> dict[str, tuple[int, int]]:
    """name -> (version, line count) as the store holds them."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT d.name, (SELECT text FROM lines WHERE document_id = d.id AND position = 0),"
            " (SELECT COUNT(*) FROM lines WHERE document_id = d.id) FROM documents d"
        ).fetchall()
    finally:
        conn.close()
    found = {}
    for name, first, count in rows:
        version = int(first.split()[1]) if first and first.startswith("Version ") else -1
        found[name] = (version, count)
    return found


def run(kills: int, seed: int) -> dict[str, object]:
    from affidavit import AffidavitError, Memory

    chooser = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="affidavit-crash-"))
    path = folder / "store.sqlite"
    acknowledged: dict[str, int] = {}
    cache: dict[tuple[str, int], int] = {}
    opens = partial = lost = calls = acks = 0
    script = CHILD.format(bench=str(Path(__file__).parent), documents=DOCUMENTS)
    started = time.monotonic()
    for kill in range(kills):
        child = subprocess.Popen(
            [sys.executable, "-c", script, str(path), str(calls)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        time.sleep(chooser.uniform(1.0, 3.0))  # imports take about one second
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        for line in out.splitlines():
            if line.startswith("ACK "):
                _, name, number = line.split()
                acknowledged[name] = int(number)
                calls = max(calls, int(number) + 1)
                acks += 1
        calls += 1  # the call in flight, acknowledged or not, is never reused
        try:
            memory = Memory(path, dense=False)
            memory.search("Normans", k=1)
            memory.close()
            opens += 1
        except (AffidavitError, sqlite3.Error):
            continue
        if not path.exists():
            continue
        for name, (version, count) in stored_versions(path).items():
            if version < 0 or count != expected_lines(name, version, cache):
                partial += 1
            if version < acknowledged.get(name, -1):
                lost += 1
        print(f"kill {kill + 1}/{kills}: opens {opens}, partial {partial}, lost {lost}", end="\r")
    print()
    return {
        "kills": kills,
        "seed": seed,
        "opens": opens,
        "partial_documents": partial,
        "lost_acknowledged_writes": lost,
        "acknowledged_ingests": acks,
        "seconds": round(time.monotonic() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = run(args.kills, args.seed)
    print(
        f"{result['kills']} kills: the store opened {result['opens']} times; partial "
        f"documents {result['partial_documents']}; lost acknowledged writes "
        f"{result['lost_acknowledged_writes']} ({result['acknowledged_ingests']} acknowledged "
        f"ingests; {result['seconds']} s)"
    )
    title = "kill -9 while a store ingests or closes, then open it"
    record(__file__, split="none", tables=[measures_table(title, result)])
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
