"""Scale: a corpus of 2, 20 or 100 MB in one file store — ingest, search, ask, reopen, bytes.

The corpus is built from real text in ``../shared/corpora``: Middlemarch (one document),
each SQuAD 2.0 dev article and each XQuAD article in English, Spanish and Turkish (its
paragraphs, one document each), and the pdfminer text of the four PDFs. One pass is 3.2 MB
in 127 files; larger corpora repeat the pass with every document renamed (``copy-003/…``), as a
user copying folders would, until the size is reached. The files are written to a
temporary folder and ingested with ``Memory.ingest(folder)``, the meaning channel on.

Each size runs in its own process (so its peak RSS is its own) and measures: ingest time;
the first search after ingest (it pays for the indexes); searchable = the two together;
search p50/p95 over 100 SQuAD dev questions and ask p50/p95 over the first ASKS of them
(the first ask alone too: it pays for what the ingest left undone); close; reopen
plus the first question; adding one small file to the store in use (the ingest, then the
first search and the first ask after it); the store's bytes on disk (with its WAL) and per
stored line; and the peak RSS (and its largest forked worker's), and the peak memory of
the whole process tree while the ingest runs (the sum of each process's PSS, sampled
every 0.2 s: pages a forked worker shares with this process are counted once, shared
out between them, where adding the two RSS would count them twice). Beside them, over the same
stored lines in a process of their own (so their memory is not counted as affidavit's):
bm25s (index build and query p50, top 10) and SQLite FTS5 with ``bm25()`` (build and
query p50, top 10), with that process's peak RSS.

    .venv/bin/python bench/scale.py --sizes 2 20 100 [--json PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _record import record  # noqa: E402
from _squad import SHARED, load_squad  # noqa: E402

from affidavit import Memory  # noqa: E402

MB = 1_000_000
# Asks timed for the p50/p95 (a p50 over a handful of asks moves with any one of them).
ASKS = 50
_WORD = re.compile(r"\w+")


def sources() -> Iterator[tuple[str, str]]:
    """(file name, text) of every real document one pass of the corpus holds."""
    yield "middlemarch.txt", (SHARED / "novel_middlemarch" / "pg145_middlemarch.txt").read_text()
    articles, _ = load_squad()
    for title, text in sorted(articles.items()):
        yield f"squad/{_safe(title)}.txt", text
    for language in ("en", "es", "tr"):
        data = json.loads((SHARED / "xquad_en_es_tr" / f"xquad.{language}.json").read_text())
        for article in data["data"]:
            text = "\n\n".join(p["context"] for p in article["paragraphs"])
            yield f"xquad-{language}/{_safe(article['title'])}.txt", text
    for dump in sorted((SHARED / "pdf_text_dumps").glob("*.pdfminer.txt")):
        yield f"pdf/{dump.name}", dump.read_text()


def _safe(title: str) -> str:
    return re.sub(r"[^\w-]+", "_", title)[:80]


def build_corpus(folder: Path, megabytes: float) -> tuple[int, int]:
    """Write the corpus under ``folder``; (files, bytes)."""
    files = written = copy = 0
    while written < megabytes * MB:
        for name, text in sources():
            path = folder / f"copy-{copy:03d}" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            data = text.encode("utf-8")
            path.write_bytes(data)
            files += 1
            written += len(data)
            if written >= megabytes * MB:
                break
        copy += 1
    return files, written


def questions(count: int = 100) -> list[str]:
    """``count`` answerable SQuAD 2.0 dev questions, a fixed choice (by digest)."""
    _, squad = load_squad()
    chosen = sorted((q.text for q in squad if not q.impossible), key=_digest)
    return chosen[:count]


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def _ms(samples: list[float], q: int) -> float:
    return round(1000 * float(np.percentile(samples, q)), 2)


def measure(megabytes: float) -> dict[str, Any]:
    """One size, in this process."""
    asked = questions()
    out: dict[str, Any] = {"target_mb": megabytes}
    with tempfile.TemporaryDirectory() as folder:
        corpus, store = Path(folder) / "corpus", Path(folder) / "store.sqlite"
        out["files"], out["text_bytes"] = build_corpus(corpus, megabytes)
        started = time.perf_counter()
        memory = Memory(store)
        with TreeMemory() as tree:
            memory.ingest(corpus)
        out["ingest_s"] = round(time.perf_counter() - started, 2)
        out["tree_pss_mb"] = tree.peak_mb
        started = time.perf_counter()
        memory.search(asked[0])
        out["first_search_s"] = round(time.perf_counter() - started, 2)
        out["searchable_s"] = round(out["ingest_s"] + out["first_search_s"], 2)
        out["mb_per_s"] = round(out["text_bytes"] / MB / out["searchable_s"], 3)
        searches = []
        for question in asked:
            started = time.perf_counter()
            memory.search(question)
            searches.append(time.perf_counter() - started)
        out["search_p50_ms"], out["search_p95_ms"] = _ms(searches, 50), _ms(searches, 95)
        asks = []
        for question in asked[:ASKS]:
            started = time.perf_counter()
            memory.ask(question)
            asks.append(time.perf_counter() - started)
        out["ask_p50_ms"], out["ask_p95_ms"] = _ms(asks, 50), _ms(asks, 95)
        # The first ask pays for whatever the ingest left undone (a p50 hides it).
        out["first_ask_s"] = round(asks[0], 2)
        out["lines"] = memory.stats()["lines"]
        started = time.perf_counter()
        memory.close()
        out["close_s"] = round(time.perf_counter() - started, 2)
        started = time.perf_counter()
        with Memory(store) as again:
            again.ask(asked[1])
        out["reopen_first_question_s"] = round(time.perf_counter() - started, 2)
        stored = sum(p.stat().st_size for p in Path(folder).glob("store.sqlite*"))
        out["store_bytes"] = stored
        out["store_to_text"] = round(stored / out["text_bytes"], 2)
        out["bytes_per_line"] = round(stored / max(out["lines"], 1))
        # The largest forked worker's peak (readers, sentence splitters, the graph's
        # builder): its resident pages include those it still shares with this process.
        # Read before the peers' process below, whose own peak is reported apart.
        out["worker_rss_mb"] = _mb(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        # The peers index the same lines in a process of their own, so this process's
        # peak is affidavit's alone.
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            out.update(pool.submit(peers, store, asked).result())
        with Memory(store) as again:
            again.ask(asked[2])  # a store in use: its indexes loaded
            out.update(add_one(again, asked))
    out["peak_rss_mb"] = _mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return out


class TreeMemory:
    """The peak, while in the ``with`` block, of the summed PSS of this process and its
    children (read from ``/proc``: Linux only; 0 elsewhere)."""

    def __init__(self, every: float = 0.2) -> None:
        self.every = every
        self.peak_mb = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def _sample(self) -> None:
        me = os.getpid()
        while not self._done.is_set():
            total = sum(_pss_kb(pid) for pid in [me, *_children(me)])
            self.peak_mb = max(self.peak_mb, _mb(total))
            self._done.wait(self.every)


def _children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else []:
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # it ended meanwhile
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
                found.append(int(entry.name))
    return found


def _pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass  # ended, or no such file here
    return 0


def _mb(kilobytes: int) -> int:
    return round(kilobytes / 1024)


def peers(store: Path, asked: list[str]) -> dict[str, Any]:
    """bm25s and SQLite FTS5 over the same stored lines, top 10, in this process."""
    import bm25s

    conn = sqlite3.connect(store)
    lines = [row[0] for row in conn.execute("SELECT text FROM lines ORDER BY id")]
    conn.close()
    out: dict[str, Any] = {}
    started = time.perf_counter()
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(lines, stopwords="en", show_progress=False), show_progress=False)
    out["bm25s_build_s"] = round(time.perf_counter() - started, 2)
    samples = []
    for question in asked:
        started = time.perf_counter()
        tokens = bm25s.tokenize([question], stopwords="en", show_progress=False)
        retriever.retrieve(tokens, k=10, show_progress=False)
        samples.append(time.perf_counter() - started)
    out["bm25s_search_p50_ms"] = _ms(samples, 50)
    fts = sqlite3.connect(":memory:")
    started = time.perf_counter()
    fts.execute("CREATE VIRTUAL TABLE lines USING fts5(text)")
    fts.executemany("INSERT INTO lines (text) VALUES (?)", ((line,) for line in lines))
    out["fts5_build_s"] = round(time.perf_counter() - started, 2)
    samples = []
    for question in asked:
        match = " OR ".join(f'"{w}"' for w in _WORD.findall(question.lower()))
        started = time.perf_counter()
        fts.execute(
            "SELECT rowid FROM lines WHERE lines MATCH ? ORDER BY bm25(lines) LIMIT 10", (match,)
        ).fetchall()
        samples.append(time.perf_counter() - started)
    out["fts5_search_p50_ms"] = _ms(samples, 50)
    out["peers_rss_mb"] = _mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return out


def add_one(memory: Memory, asked: list[str]) -> dict[str, float]:
    """Adding one small file to a store in use: the ingest, then the first search and
    the first ask after it (what the indexes' update costs, wherever it is paid)."""
    note = " ".join(
        f"Note {n}: the committee reviewed the oil embargo, the plague and the Normans."
        for n in range(40)
    )
    timed: dict[str, float] = {}
    for key, step in (
        ("add_ingest_s", lambda: memory.ingest_text(note, name="added-note.md")),
        ("add_first_search_s", lambda: memory.search(asked[3])),
        ("add_first_ask_s", lambda: memory.ask(asked[4])),
    ):
        started = time.perf_counter()
        step()
        timed[key] = round(time.perf_counter() - started, 2)
    return timed


def report(results: list[dict[str, Any]]) -> str:
    rows = [
        "| corpus | files | ingest | first search | searchable (MB/s) | search p50 (p95) "
        "| first ask | ask p50 (p95) | close | reopen + first question | store (× text, B/line) "
        "| peak RSS (largest worker; the peers' process) | ingest's process tree, peak PSS "
        "| bm25s build, p50 | FTS5 build, p50 | add a file: ingest, search, ask |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        rows.append(
            f"| {r['text_bytes'] / MB:.1f} MB | {r['files']} | {r['ingest_s']} s "
            f"| {r['first_search_s']} s | {r['searchable_s']} s ({r['mb_per_s']}) "
            f"| {r['search_p50_ms']} ms ({r['search_p95_ms']}) "
            f"| {r['first_ask_s']} s | {r['ask_p50_ms']} ms ({r['ask_p95_ms']}) | {r['close_s']} s "
            f"| {r['reopen_first_question_s']} s "
            f"| {r['store_bytes'] / MB:.0f} MB ({r['store_to_text']}×, {r['bytes_per_line']}) "
            f"| {r['peak_rss_mb']} MB ({r.get('worker_rss_mb', '—')} MB; "
            f"{r.get('peers_rss_mb', '—')} MB) | {r.get('tree_pss_mb', '—')} MB "
            f"| {r['bm25s_build_s']} s, {r['bm25s_search_p50_ms']} ms "
            f"| {r['fts5_build_s']} s, {r['fts5_search_p50_ms']} ms "
            f"| {r['add_ingest_s']} s, {r['add_first_search_s']} s, {r['add_first_ask_s']} s |"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[2, 20, 100])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--one", type=float, help=argparse.SUPPRESS)  # a child's size
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(args.one)))
        return
    results = []
    for size in args.sizes:
        child = subprocess.run(
            [sys.executable, __file__, "--one", str(size)],
            check=True,
            capture_output=True,
            text=True,
        )
        results.append(json.loads(child.stdout.strip().splitlines()[-1]))
        print(report(results[-1:]).splitlines()[-1], flush=True)
    printed = report(results)
    print(printed)
    record(__file__, split="none", printed=printed)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
