"""One document at a time: small documents added to one file store with one
``ingest_text`` call each, as an application adds what arrives, and the cost of a call
measured as the store grows. Adding a document should cost what the document is, not what
the store holds.

The documents are the paragraphs of the SQuAD articles in ``corpora/squad2_articles``
(real text, a few hundred words each), taken in turn and each stored under a name of its
own (``doc-00001.txt`` ...) until ``--documents`` are stored; a paragraph comes round again
after every article's have been taken once, so later documents repeat earlier ones (as
versions do), and the near-duplicate check has pairs to find. Reported: the mean time of
the 100 calls before each mark, the mean of the first 500 calls and of the last 500 (and
the last over the first), the first search after the last call and the first ask after
it, and the whole run; beside it, in the same run, the same documents written as files and
stored with one ``ingest`` call (time to searchable). Without ``--dense`` the meaning
channel is off (no line vectors are made).

    .venv/bin/python bench/one_at_a_time.py [--documents 5000] [--dense] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import warnings
from pathlib import Path

from _record import record, rows_table

from affidavit import Memory

ROOT = Path(__file__).resolve().parents[1]
ARTICLES = sorted((ROOT / "corpora" / "squad2_articles").glob("*.txt"))
MARKS = (100, 1000, 2500, 5000, 10000)
# Searched once after the last call: what the next question pays for the indexes the calls
# left undone (the entity graph's mining, when one is due).
SEARCHED = "Which university did the Normans found in Normandy?"


def paragraphs() -> list[str]:
    found = []
    for article in ARTICLES:
        text = article.read_text(encoding="utf-8")
        found += [p.strip() for p in text.split("\n\n") if len(p.strip()) > 200]
    return found


def measure(documents: int, dense: bool = False) -> dict:
    texts = paragraphs()
    took: list[float] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the repeats' near-duplicate warnings
        memory = Memory(Path(folder) / "store.sqlite", dense=dense)
        for number in range(documents):
            begun = time.perf_counter()
            memory.ingest_text(texts[number % len(texts)], name=f"doc-{number + 1:05d}.txt")
            took.append(time.perf_counter() - begun)
        begun = time.perf_counter()
        memory.search(SEARCHED)
        first_search = time.perf_counter() - begun
        begun = time.perf_counter()
        memory.ask(SEARCHED)
        first_ask = time.perf_counter() - begun
        memory.close()
    marks = {
        str(mark): round(sum(took[mark - 100 : mark]) / 100 * 1000, 1)
        for mark in MARKS
        if mark <= documents
    }
    ends = min(500, documents)
    first, last = sum(took[:ends]) / ends * 1000, sum(took[-ends:]) / ends * 1000
    return {
        "documents": documents,
        "paragraphs": len(texts),
        "ms a call, mean of the 100 before": marks,
        f"ms a call, first {ends}": round(first, 2),
        f"ms a call, last {ends}": round(last, 2),
        "last over first": round(last / first, 2),
        "meaning channel": dense,
        "first search after the last call s": round(first_search, 2),
        "first ask after it s": round(first_ask, 2),
        "whole run s": round(time.perf_counter() - start, 1),
        "at once: to searchable s": round(at_once(texts, documents, dense), 1),
    }


def at_once(texts: list[str], documents: int, dense: bool) -> float:
    """The same documents written as files and stored with one ``ingest`` call, then
    searched once: the seconds until then."""
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        files = []
        for number in range(documents):
            path = Path(folder) / f"doc-{number + 1:05d}.txt"
            path.write_text(texts[number % len(texts)], encoding="utf-8")
            files.append(path)
        memory = Memory(Path(folder) / "store.sqlite", dense=dense)
        begun = time.perf_counter()
        memory.ingest(files)
        memory.search(SEARCHED)
        took = time.perf_counter() - begun
        memory.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--documents", type=int, default=5000)
    parser.add_argument("--dense", action="store_true", help="with the meaning channel on")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = measure(args.documents, args.dense)
    print(json.dumps(result, indent=2))
    title = "Small documents added to one file store one `ingest_text` call each, and at once"
    ends = min(500, args.documents)
    grown = {
        key: result[key]
        for key in (
            "documents",
            f"ms a call, first {ends}",
            f"ms a call, last {ends}",
            "last over first",
            "first search after the last call s",
            "whole run s",
        )
    }
    at_once = {"documents": result["documents"], "whole run s": result["at once: to searchable s"]}
    rows = {"one call each": grown, "at once (baseline)": at_once}
    table = rows_table(title, rows, label="store", baselines=("baseline",))
    record(__file__, split="none", tables=[table])
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
