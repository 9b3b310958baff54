"""Many small files against one large one: Middlemarch (1.8 MB) cut at paragraph breaks
into FILES files of about the same size, written to a folder, and ingested with one
``Memory.ingest(folder)`` call into a fresh file store; beside it, in the same run, the
whole text as one file ingested the same way. Each ingest is timed to searchable (the call,
which brings every index up to date, and the first search after it). The issue's target:
the folder within 1.5× the one file.

    .venv/bin/python bench/many_files.py [--files 1000] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _record import record, rows_table  # noqa: E402
from _squad import SHARED  # noqa: E402

from affidavit import Memory  # noqa: E402

NOVEL = SHARED / "novel_middlemarch" / "pg145_middlemarch.txt"


def cut(text: str, files: int) -> list[str]:
    """The text in ``files`` pieces of about equal size, each cut at a paragraph break."""
    paragraphs = text.split("\n\n")
    target = len(text) / files
    pieces, current, size = [], [], 0
    for paragraph in paragraphs:
        current.append(paragraph)
        size += len(paragraph) + 2
        if size >= target:
            pieces.append("\n\n".join(current))
            current, size = [], 0
    if current:
        pieces.append("\n\n".join(current))
    return pieces


def timed(folder: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as where:
        memory = Memory(Path(where) / "s.sqlite")
        heard: list[str] = []
        start = time.perf_counter()
        report = memory.ingest(folder, progress=lambda done, total, name: heard.append(name))
        ingested = time.perf_counter() - start
        start = time.perf_counter()
        memory.search("Dorothea married Mr. Casaubon")
        first = time.perf_counter() - start
        memory.close()
    return {
        "documents": len(report),
        "ingest_s": round(ingested, 2),
        "first_search_s": round(first, 3),
        "to_searchable_s": round(ingested + first, 2),
        "progress_calls": len(heard),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    text = NOVEL.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as where:
        one, many = Path(where) / "one", Path(where) / "many"
        one.mkdir()
        many.mkdir()
        (one / "middlemarch.txt").write_text(text, encoding="utf-8")
        pieces = cut(text, args.files)
        for number, piece in enumerate(pieces):
            (many / f"part-{number:04d}.txt").write_text(piece, encoding="utf-8")
        results = {"one file": timed(one), f"{len(pieces)} files": timed(many)}
    base = results["one file"]["to_searchable_s"]
    for name, row in results.items():
        print(
            f"{name}: {row['documents']} documents, ingest {row['ingest_s']} s, first search "
            f"{row['first_search_s']} s, to searchable {row['to_searchable_s']} s "
            f"({row['to_searchable_s'] / base:.2f}× the one file)"
        )
    title = "Middlemarch as one file and cut into many small ones, each folder ingested"
    record(__file__, split="none", tables=[rows_table(title, results, label="folder")])
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
