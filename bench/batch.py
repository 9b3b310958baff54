"""Batch answering: 2,000 SQuAD 2.0 dev questions over the SQuAD dev store, one worker, two
worker processes and a local two-worker Ray cluster; peak memory per worker; a kill -9 at
half way and the resume.

The store holds every SQuAD 2.0 dev article as one document (``ingest_text``), closed so
its indexes are cached. The questions are every sixth dev question (answerable and not,
in file order) up to 2,000. Each run is ``affidavit batch`` in its own process, so its
start-up (loading the models, spawning workers, starting Ray) is counted in its rate.
Peak memory per worker is the largest VmHWM among the worker processes (the pool's
spawned children, Ray's ``Answerer`` actors), read from /proc while the run goes; the
one-worker run answers in its own process, so its figure is that process's peak.
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
    """Polls /proc for the batch's worker processes and keeps each one's VmHWM."""

    def __init__(self, marks: tuple[str, ...]) -> None:
        super().__init__(daemon=True)
        self.marks = marks
        self.peaks: dict[int, int] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.25):
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
                    if not any(mark.encode() in command for mark in self.marks):
                        continue
                    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                        if line.startswith("VmHWM:"):
                            kib = int(line.split()[1])
                            self.peaks[int(pid)] = max(self.peaks.get(int(pid), 0), kib)
                except OSError:
                    continue

    def peak_mb(self) -> float:
        return round(max(self.peaks.values(), default=0) / 1024)


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


def timed_run(command: list[str], rows: int, marks: tuple[str, ...]) -> dict[str, Any]:
    watcher = PeakWorkers(marks)
    watcher.start()
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    watcher.stop.set()
    watcher.join()
    if done.returncode != 0:
        raise SystemExit(f"batch failed: {done.stderr}")
    return {
        "seconds": round(seconds, 1),
        "questions_per_s": round(rows / seconds, 2),
        "worker_peak_mb": watcher.peak_mb(),
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
        for label, options, marks in (
            ("1 worker", ("--workers", "1"), ("affidavit.cli",)),
            ("2 workers", ("--workers", "2"), ("multiprocessing.spawn",)),
            ("Ray, 2 workers", ("--workers", "2", "--cluster", "local"), ("ray::Answerer",)),
        ):
            outs[label] = folder / f"{label.replace(' ', '-').replace(',', '')}.jsonl"
            command = batch_command(store, questions, outs[label], *options)
            results[label] = timed_run(command, rows, marks)
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
        "| run | seconds | questions/s | speed-up | worker peak RSS | same bytes as 1 worker |",
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
            f"{run_['worker_peak_mb']} MB | {run_['identical_to_1_worker']} |"
        )
    resume = results["resume"]
    lines.append(
        f"kill -9 at {resume['rows_at_kill']} rows; resume took {resume['resume_seconds']} s; "
        f"final rows {resume['rows']}; lost or repeated: {resume['lost_or_repeated']}"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    bench_main(__doc__, run, report, limit_help=f"questions (default {QUESTIONS})")
