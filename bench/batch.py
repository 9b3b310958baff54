"""Batch answering: 2,000 SQuAD 2.0 dev questions over the SQuAD dev store, one worker, two
worker processes and a local two-worker Ray cluster; peak memory per worker; a kill -9 at
half way and the resume.

The store holds every SQuAD 2.0 dev article as one document (``ingest_text``), closed so
its indexes are cached. The questions are every sixth dev question (answerable and not,
in file order) up to 2,000. Each run is ``affidavit batch`` in its own process, so its
start-up (loading the models, spawning workers, starting Ray) is counted in its rate.
One and two workers run as PAIRS pairs, back to back in alternate order, and the median
of the pairs' speed-ups is the figure: this VM's speed drifts by 15% from one minute to
the next, which one pair of runs reads as a change of speed-up. Each run's CPU time
(user and system, of the batch process and the workers it waited for) is reported too.
Peak memory per worker is read from /proc while the run goes, for the batch process's
children (the local pool), Ray's ``RayAnswerer`` actors, or the batch process itself (one
worker answers in-process): the largest VmHWM (peak RSS, counting the model pages
forked workers share) and the largest PSS seen (shared pages split between sharers).
The resume run is killed (SIGKILL) once half the rows are written, then run again with
the same command; the finished file must equal the one-worker file byte for byte.

    .venv/bin/python bench/batch.py [--limit N] [--json PATH]
"""

from __future__ import annotations

import json
import os
import resource
import signal
import statistics
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
PAIRS = 3  # runs of 1 and of 2 workers, back to back; the median ratio is reported


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

    def watched(self) -> list[int]:
        """The processes to read now; only Ray's actors need a scan of every process
        (the poll shares the cores with the run it measures, so it reads little)."""
        if self.which == "self":
            return [self.batch_pid]
        if self.which == "children":
            found = []
            for task in Path(f"/proc/{self.batch_pid}/task").glob("*/children"):
                found.extend(int(pid) for pid in task.read_text().split())
            return found
        chosen = []
        for name in filter(str.isdigit, os.listdir("/proc")):
            try:
                command = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:  # it ended meanwhile
                continue
            if self.which.encode() in command:
                chosen.append(int(name))
        return chosen

    def run(self) -> None:
        polls = 0
        while not self.stop.wait(0.25):
            try:
                pids = self.watched()
            except OSError:
                continue
            polls += 1
            for pid in pids:
                try:
                    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                        if line.startswith("VmHWM:"):
                            self.rss[pid] = max(self.rss.get(pid, 0), int(line.split()[1]))
                    # NOTE: smaps_rollup walks the worker's page tables (2.5 ms for a 466 MB
                    # worker, measured) and holds its memory map meanwhile: read every 2 s,
                    # not every poll, so the measuring steals little from a 2-core run.
                    if polls % 8 != 1:
                        continue
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
        sys.executable, "-m", "affidavit.cli.main", "batch", str(questions),
        "--store", str(store), "--out", str(out), "--quiet", *options,
    ]  # fmt: skip


def timed_run(command: list[str], rows: int, which: str) -> dict[str, Any]:
    watcher = PeakWorkers(which)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watcher.batch_pid = process.pid
    watcher.start()
    _, stderr = process.communicate()
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    watcher.stop.set()
    watcher.join()
    if process.returncode != 0:
        raise SystemExit(f"batch failed: {stderr}")
    rss, pss = watcher.peaks_mb()
    return {
        "seconds": round(seconds, 1),
        "questions_per_s": round(rows / seconds, 2),
        # user + system time of the batch process and the workers it waited for
        "cpu_s": round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 1),
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
        one_worker = folder / "1-worker.jsonl"
        pairs = []
        for number in range(PAIRS):
            # Each pair runs back to back, in alternate order, so a machine that slows
            # down or speeds up over minutes weighs on both sides of a ratio alike.
            order = ("1", "2") if number % 2 == 0 else ("2", "1")
            pair = {}
            for workers in order:
                out = one_worker if workers == "1" else folder / f"2-workers-{number}.jsonl"
                out.unlink(missing_ok=True)
                command = batch_command(store, questions, out, "--workers", workers)
                pair[workers] = timed_run(command, rows, "self" if workers == "1" else "children")
                if workers == "2" and one_worker.exists():
                    pair["identical"] = out.read_bytes() == one_worker.read_bytes()
            pair["speedup"] = round(pair["2"]["questions_per_s"] / pair["1"]["questions_per_s"], 2)
            pairs.append(pair)
        results["pairs"] = pairs
        results["speedup_2_workers"] = statistics.median(pair["speedup"] for pair in pairs)
        results["1 worker"] = pairs[0]["1"]
        results["2 workers"] = pairs[0]["2"]
        ray_out = folder / "ray.jsonl"
        command = batch_command(store, questions, ray_out, "--workers", "2", "--cluster", "local")
        results["Ray, 2 workers"] = timed_run(command, rows, "ray::RayAnswerer")
        results["Ray, 2 workers"]["identical_to_1_worker"] = (
            ray_out.read_bytes() == one_worker.read_bytes()
        )
        one = statistics.median(pair["1"]["questions_per_s"] for pair in pairs)
        results["speedup_ray"] = round(results["Ray, 2 workers"]["questions_per_s"] / one, 2)
        killed = folder / "killed.jsonl"
        resume = resume_after_kill(store, questions, killed, rows)
        final = killed.read_bytes()
        resume["lost_or_repeated"] = final != one_worker.read_bytes()
        resume["rows"] = final.count(b"\n")
        results["resume"] = resume
        refused = sum(
            1 for line in one_worker.read_text().splitlines() if json.loads(line)["refused"]
        )
        results["refused"] = refused
    return results


def report(results: dict[str, Any]) -> str:
    lines = [
        f"{results['questions']} SQuAD 2.0 dev questions over the SQuAD dev store "
        f"(built in {results['store_build_s']} s); {results['refused']} refused",
        "| pair | 1 worker s (CPU s) | 2 workers s (CPU s) | speed-up | "
        "worker peak RSS (PSS), 1 / 2 | 2 workers' rows = 1 worker's |",
        "|---|---|---|---|---|---|",
    ]
    for number, pair in enumerate(results["pairs"], 1):
        one, two = pair["1"], pair["2"]
        lines.append(
            f"| {number} | {one['seconds']} ({one['cpu_s']}) | {two['seconds']} ({two['cpu_s']}) "
            f"| {pair['speedup']}× | {one['worker_peak_rss_mb']} ({one['worker_peak_pss_mb']}) / "
            f"{two['worker_peak_rss_mb']} ({two['worker_peak_pss_mb']}) MB | "
            f"{pair.get('identical', 'n/a')} |"
        )
    ray = results["Ray, 2 workers"]
    lines.append(
        f"median 2-worker speed-up {results['speedup_2_workers']}×; Ray, local 2-worker "
        f"cluster: {ray['seconds']} s ({ray['questions_per_s']} q/s, "
        f"{results['speedup_ray']}× the median one worker), peak RSS (PSS) "
        f"{ray['worker_peak_rss_mb']} ({ray['worker_peak_pss_mb']}) MB, same bytes: "
        f"{ray['identical_to_1_worker']}"
    )
    resume = results["resume"]
    lines.append(
        f"kill -9 at {resume['rows_at_kill']} rows; resume took {resume['resume_seconds']} s; "
        f"final rows {resume['rows']}; lost or repeated: {resume['lost_or_repeated']}"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    bench_main(
        __doc__,
        run,
        report,
        limit_help=f"questions (default {QUESTIONS})",
        notes=("median 2-worker", "kill -9"),
    )
