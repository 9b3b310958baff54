"""What clause frames cost (issue 64): ingest is unchanged (no frame is read at ingest),
the first verify of a store reads its lines' frames and keeps them, a later one (a new
process, the parse cache cold) reads them back from the store.

    .venv/bin/python bench/frames_cost.py [--claims N]

Over the probe set's documents (bench/probes/documents): each document ingested into a file
store (timed), then its probes' faithful claims verified in a fresh process twice: once
with no frames kept, once after the first run kept them. Printed: ingest seconds per
document, verify milliseconds per claim (median) for the first and the later run, and the
frames kept."""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent / "probes"
_VERIFY = """
import json, sys, time, warnings
warnings.simplefilter("ignore")
from affidavit import Memory
store, claims = sys.argv[1], json.loads(sys.argv[2])
with Memory(store, dense=False) as memory:
    times = []
    for claim in claims:
        start = time.perf_counter()
        memory.verify(claim)
        times.append(1000 * (time.perf_counter() - start))
print(json.dumps(times))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=10, help="faithful claims a document")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    from affidavit import Memory

    probes: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("probes-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            probe = json.loads(line)
            probes.setdefault(probe["document"], []).append(probe["faithful"])
    ingest, first, later, kept = [], [], [], 0
    with tempfile.TemporaryDirectory() as folder:
        for document, claims in sorted(probes.items()):
            store = str(Path(folder) / f"{document}.sqlite")
            start = time.perf_counter()
            with Memory(store, dense=False) as memory:
                memory.ingest(HERE / "documents" / f"{document}.txt")
            ingest.append(time.perf_counter() - start)
            asked = json.dumps(claims[: args.claims])
            for times in (first, later):
                run = subprocess.run(
                    [sys.executable, "-c", _VERIFY, store, asked],
                    check=True, capture_output=True, text=True,
                )  # fmt: skip
                times.extend(json.loads(run.stdout))
            with sqlite3.connect(store) as conn:
                kept += int(conn.execute("SELECT COUNT(*) FROM line_frames").fetchone()[0])
    print(f"{len(probes)} documents, {len(first)} claims")
    print(f"ingest: {statistics.median(ingest):.2f} s per document (median)")
    print(f"verify, frames read and kept: {statistics.median(first):.0f} ms per claim (median)")
    print(f"verify, frames read back:     {statistics.median(later):.0f} ms per claim (median)")
    print(f"frames kept: {kept} lines")


if __name__ == "__main__":
    main()
