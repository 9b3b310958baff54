"""Linear ingest: inputs shaped to find the quadratic paths, each at two sizes, so the
ratio of times says whether the cost grows with the input or faster.

- ``short lines``: N one-letter lines with no blank line between them (one wrapped cell,
  as a layout reader sees it), at 250,000 and 1,000,000 lines;
- ``one long line``: a single line of N megabytes of words, at 12.5 and 50 MB;
- ``wide table``: a CSV of one header and 3 rows, N columns wide, at 25,000 and 100,000
  columns (refused past the reader's column bound: the time to refuse is what counts);
- ``verify``: ``Memory.verify`` of a text of N sentences over the SQuAD articles, at 1,000
  and 4,000 sentences.

Each case runs in a fresh process (its own memory), in-process reading
(``IngestLimits(isolated=False)``, so no bound stops it first); the outcome (stored lines,
or the error's first words) is printed beside the time.

    .venv/bin/python bench/linear_ingest.py [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import tempfile
import time
from pathlib import Path
from typing import Any

from _record import record, rows_table

from affidavit import AffidavitError, IngestLimits, Memory

ROOT = Path(__file__).resolve().parents[1]
ARTICLES = sorted((ROOT / "corpora" / "squad2_articles").glob("*.txt"))
WORDS = "the permit for the north quarry was renewed by the council in may".split()


def _short_lines(folder: Path, n: int) -> Path:
    path = folder / "letters.txt"
    path.write_text("\n".join("abcdefghij"[i % 10] for i in range(n)) + "\n", encoding="utf-8")
    return path


def _long_line(folder: Path, megabytes: float) -> Path:
    path = folder / "line.txt"
    count = int(megabytes * 1_000_000 / 6)
    path.write_text(" ".join(WORDS[i % len(WORDS)] for i in range(count)) + "\n", encoding="utf-8")
    return path


def _wide_table(folder: Path, columns: int) -> Path:
    path = folder / "wide.csv"
    rows = [",".join(f"c{n}" for n in range(columns))]
    rows += [",".join(str(r * n) for n in range(columns)) for r in range(1, 4)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _ingest(case: str, size: float, out: Any) -> None:
    with tempfile.TemporaryDirectory(prefix="affidavit-linear-") as folder:
        make = {"short lines": _short_lines, "one long line": _long_line, "wide table": _wide_table}
        path = make[case](Path(folder), int(size) if case != "one long line" else size)
        start = time.perf_counter()
        try:
            with Memory(dense=False) as memory:
                memory.ingest(path, limits=IngestLimits(isolated=False))
                outcome = f"{memory.stats()['lines']} lines"
        except AffidavitError as exc:
            outcome = f"refused: {str(exc).split(':', 2)[-1][:60].strip()}"
        out.put((round(time.perf_counter() - start, 2), outcome))


def _verify(case: str, size: float, out: Any) -> None:
    sentences = [
        f"The {WORDS[n % len(WORDS)]} embargo ended in March {1900 + n % 100}."
        for n in range(int(size))
    ]
    with Memory(dense=False) as memory:
        memory.ingest(ARTICLES, limits=IngestLimits(isolated=False))
        start = time.perf_counter()
        verdict = memory.verify(" ".join(sentences))
        out.put((round(time.perf_counter() - start, 2), f"{len(verdict.sentences)} sentences"))


CASES = {
    "short lines": (_ingest, (250_000, 1_000_000)),
    "one long line": (_ingest, (12.5, 50.0)),
    "wide table": (_ingest, (25_000, 100_000)),
    "verify": (_verify, (1_000, 4_000)),
}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    context = multiprocessing.get_context("spawn")
    results: dict[str, Any] = {}
    for case, (run, sizes) in CASES.items():
        timed = []
        for size in sizes:
            out = context.Queue()
            process = context.Process(target=run, args=(case, size, out))
            process.start()
            seconds, outcome = out.get()
            process.join()
            timed.append({"size": size, "seconds": seconds, "outcome": outcome})
            print(case, size, seconds, outcome, flush=True)
        small, large = timed
        growth = large["size"] / small["size"]
        results[case] = {
            "runs": timed,
            "size ratio": growth,
            "time ratio": round(large["seconds"] / max(small["seconds"], 0.01), 2),
        }
    print(json.dumps(results, indent=2))
    table = {
        case: {
            "small": found["runs"][0]["size"],
            "small s": found["runs"][0]["seconds"],
            "large": found["runs"][1]["size"],
            "large s": found["runs"][1]["seconds"],
            "size ratio": found["size ratio"],
            "time ratio": found["time ratio"],
            "outcome (large)": found["runs"][1]["outcome"],
        }
        for case, found in results.items()
    }
    title = "Each shape at two sizes: time ratio near the size ratio is linear"
    record(__file__, split="none", tables=[rows_table(title, table, label="input")])
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
