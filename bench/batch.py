"""Batch answering: 2,000 SQuAD 2.0 dev questions over the SQuAD dev store, one worker, two
worker processes and a local two-worker Ray cluster; peak memory per worker; a kill -9 at
half way and the resume.

The store holds every SQuAD 2.0 dev article as one document (``ingest_text``), closed so
its indexes are cached. The questions are every sixth dev question (answerable and not,
in file order) up to 2,000. Each run is ``affidavit batch`` in its own process, so its
start-up (loading the models, spawning workers, starting Ray) is counted in its rate.
Peak memory per worker is read from /proc while the run goes, for the batch process's
children (the local pool), Ray's ``Answerer`` actors, or the batch process itself (one
worker answers in-process): the largest VmHWM (peak RSS, counting the model pages
forked workers share) and the largest PSS seen (shared pages split between sharers).
The resume run is killed (SIGKILL) once half the rows are written, then run again with
the same command; the finished file must equal the one-worker file byte for byte.

    .venv/bin/python bench/batch.py [--limit N] [--json PATH]
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _cli import bench_main  # noqa: E402
from _squad import load_squad  # noqa: E402

from affidavit import Memory  # noqa: E402

QUESTIONS = 2000
EVERY = 3


class PeakWorkers(threading.Thread):
    """Polls /proc for the batch's workers: each one's peak RSS (VmHWM, counting the
    pages forked workers share) and the largest proportional set size seen (PSS: shared
    pages split between their sharers)."""

    def __init__(self, which: str) -> None:
        super().__init__(daemon=True)
        self.which = which  # "self": the batch process; "children"; or a command mark
        self.batch_pid = -1
        self.rss: dict[int, int] = {}
        self.pss: dict[int, int] = {}
        self.stop = threading.Event()

    def chosen(self, pid: int) -> bool:
        if self.which == "self":
            return pid == self.batch_pid
        if self.which == "children":
            status = Path(f"/proc/{pid}/status").read_text()
            return f"\nPPid:\t{self.batch_pid}\n" in status
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        return self.which.encode() in command

    def run(self) -> None:
        while not self.stop.wait(0.25):
            for name in filter(str.isdigit, os.listdir("/proc")):
                pid = int(name)
                try:
                    if not self.chosen(pid):
                        continue
                    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                        if line.startswith("VmHWM:"):
                            self.rss[pid] = max(self.rss.get(pid, 0), int(line.split()[1]))
                    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                        if line.startswith("Pss:"):
                            self.pss[pid] = max(self.pss.get(pid, 0), int(line.split()[1]))
                except OSError:
                    continue

    def peaks_mb(self) -> tuple[int, int]:
        return (
            round(max(self.rss.values(), default=0) / 1024),
            round(max(self.pss.values(), default=0) / 1024),
        )


def build_store(folder: Path) -> tuple[Path, float]:
    articles, _ = load_squad()
    path = folder / "squad-dev.sqlite"
    start = time.perf_counter()
    with Memory(path) as memory:
        for title, text in articles.items():
            memory.ingest_text(text, name=title)
    return path, time.perf_counter() - start


def write_questions(folder: Path, limit: int) -> tuple[Path, int]:
    _, questions = load_squad()
    chosen = questions[::EVERY][:limit]
    path = folder / "questions.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for number, question in enumerate(chosen, 1):
            handle.write(json.dumps({"id": f"dev-{number}", "question": question.text}) + "\n")
    return path, len(chosen)


def batch_command(store: Path, questions: Path, out: Path, *options: str) -> list[str]:
    return [
        sys.executable, "-m", "affidavit.cli", "batch", str(questions),
        "--store", str(store), "--out", str(out), "--quiet", *options,
    ]  # fmt: skip


def timed_run(command: list[str], rows: int, which: str) -> dict[str, Any]:
    watcher = PeakWorkers(which)
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watcher.batch_pid = process.pid
    watcher.start()
    _, stderr = process.communicate()
    seconds = time.perf_counter() - start
    watcher.stop.set()
    watcher.join()
    if process.returncode != 0:
        raise SystemExit(f"batch failed: {stderr}")
    rss, pss = watcher.peaks_mb()
    return {
        "seconds": round(seconds, 1),
        "questions_per_s": round(rows / seconds, 2),
        "worker_peak_rss_mb": rss,
        "worker_peak_pss_mb": pss,
    }


def resume_after_kill(store: Path, questions: Path, out: Path, rows: int) -> dict[str, Any]:
    command = batch_command(store, questions, out, "--workers", "2")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while process.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= rows // 2:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    time.sleep(0.5)  # the orphaned workers notice their parent is gone and exit
    written = out.read_bytes().count(b"\n")
    start = time.perf_counter()
    again = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if again.returncode != 0:
        raise SystemExit(f"resume failed: {again.stderr}")
    return {"rows_at_kill": written, "resume_seconds": round(seconds, 1), "said": again.stdout}


def run(limit: int | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="affidavit-batch-bench-") as name:
        folder = Path(name)
        store, build_s = build_store(folder)
        questions, rows = write_questions(folder, limit or QUESTIONS)
        results: dict[str, Any] = {"questions": rows, "store_build_s": round(build_s, 1)}
        outs = {}
        for label, options, which in (
            ("1 worker", ("--workers", "1"), "self"),
            ("2 workers", ("--workers", "2"), "children"),
            ("Ray, 2 workers", ("--workers", "2", "--cluster", "local"), "ray::Answerer"),
        ):
            outs[label] = folder / f"{label.replace(' ', '-').replace(',', '')}.jsonl"
            command = batch_command(store, questions, outs[label], *options)
            results[label] = timed_run(command, rows, which)
            results[label]["identical_to_1_worker"] = (
                outs[label].read_bytes() == outs["1 worker"].read_bytes()
            )
        killed = folder / "killed.jsonl"
        resume = resume_after_kill(store, questions, killed, rows)
        final = killed.read_bytes()
        resume["lost_or_repeated"] = final != outs["1 worker"].read_bytes()
        resume["rows"] = final.count(b"\n")
        results["resume"] = resume
        one = results["1 worker"]["questions_per_s"]
        results["speedup_2_workers"] = round(results["2 workers"]["questions_per_s"] / one, 2)
        results["speedup_ray"] = round(results["Ray, 2 workers"]["questions_per_s"] / one, 2)
        refused = sum(
            1 for line in outs["1 worker"].read_text().splitlines() if json.loads(line)["refused"]
        )
        results["refused"] = refused
    return results


def report(results: dict[str, Any]) -> str:
    lines = [
        f"{results['questions']} SQuAD 2.0 dev questions over the SQuAD dev store "
        f"(built in {results['store_build_s']} s); {results['refused']} refused",
        "| run | seconds | questions/s | speed-up | worker peak RSS (PSS) | same bytes |",
        "|---|---|---|---|---|---|",
    ]
    for label, speedup in (
        ("1 worker", 1.0),
        ("2 workers", results["speedup_2_workers"]),
        ("Ray, 2 workers", results["speedup_ray"]),
    ):
        run_ = results[label]
        lines.append(
            f"| {label} | {run_['seconds']} | {run_['questions_per_s']} | {speedup}× | "
            f"{run_['worker_peak_rss_mb']} MB ({run_['worker_peak_pss_mb']} MB) | "
            f"{run_['identical_to_1_worker']} |"
        )
    resume = results["resume"]
    lines.append(
        f"kill -9 at {resume['rows_at_kill']} rows; resume took {resume['resume_seconds']} s; "
        f"final rows {resume['rows']}; lost or repeated: {resume['lost_or_repeated']}"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    bench_main(__doc__, run, report, limit_help=f"questions (default {QUESTIONS})")
