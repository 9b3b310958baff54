"""Answering a question set (questions asked, claims verified) over one store: in this
process, in worker processes on this machine (processes.py) or on a Ray cluster
(cluster.py); rows come back in input order to one resumable writer (output.py), with a
progress bar.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from contextlib import closing
from pathlib import Path
from typing import Any

from threadpoolctl import threadpool_limits
from tqdm import tqdm

from affidavit.batch.output import AnswerFile
from affidavit.batch.processes import in_processes
from affidavit.batch.questions import questions_from, read_questions
from affidavit.batch.worker import (
    ROW_KINDS,
    Answerer,
    Answering,
    Row,
    Sharing,
    Written,
    row_kind,
)
from affidavit.errors import InputError
from affidavit.runtime import long_lived_heap, usable_cores

BatchProgress = Callable[[int, int], None]


class BatchReport(list[Row]):
    """The rows of a batch run, in input order (it is that list; empty when they were
    only written, ``keep_rows=False``): on a resumed run, only the rows this run
    answered; ``resumed`` says how many the answer file already held."""

    def __init__(self, *, resumed: int = 0, out: Path | None = None) -> None:
        super().__init__()
        self.resumed = resumed
        self.out = out
        self._counts = dict.fromkeys(ROW_KINDS, 0)

    def add(self, row: Row, keep: bool) -> None:
        self._counts[row_kind(row)] += 1
        if keep:
            self.append(row)

    def add_written(self, row: Written) -> None:
        """Count a row that came back as its line only (a run that keeps no rows)."""
        self._counts[row.kind] += 1

    @property
    def rows(self) -> int:
        """How many rows this run answered (kept or not)."""
        return sum(self._counts.values())

    def counts(self) -> dict[str, int]:
        """This run's rows by kind, every kind named (0 where none): ``answered``,
        ``refused`` and ``errors`` (input errors); the claims verified ``supported``,
        ``contradicted`` (a line of the store says otherwise) and ``not_supported``
        (neither)."""
        return dict(self._counts)

    def claims(self) -> int:
        """How many of this run's rows are claims verified (any verdict)."""
        return sum(self._counts[kind] for kind in ("supported", "contradicted", "not_supported"))


def run_batch(
    answerer: Answerer,
    questions: str | Path | Iterable[str | Mapping[str, Any]],
    *,
    sharing: Sharing | None = None,
    workers: int | None = None,
    progress: bool | BatchProgress = True,
    out: str | Path | None = None,
    cluster: str | None = None,
    keep_rows: bool = True,
) -> BatchReport:
    """Answer ``questions`` (a JSONL file, or strings and mappings; a line with a
    "claim" is verified) with ``answerer``, or
    in other processes as ``sharing`` lets them (None: an in-memory store, answered
    here); see Memory.batch. ``keep_rows=False`` with ``out`` holds no row in memory."""
    if isinstance(questions, str | Path):
        items = read_questions(questions)
    else:
        items = questions_from(questions)
    writer = AnswerFile(out, items) if out is not None else None
    start = writer.done if writer is not None else 0
    pending = list(items[start:])
    workers = _worker_count(workers, len(pending))
    report = BatchReport(resumed=start, out=writer.path if writer is not None else None)
    keep = keep_rows or writer is None
    bar = _progress(progress, start, len(items))

    def deliver(row: Row | Written) -> None:
        if isinstance(row, Written):
            if writer is not None:
                writer.write(row.line)
            report.add_written(row)
        else:
            if writer is not None:
                writer.write(row)
            report.add(row, keep)
        bar(report.rows + start)

    try:
        if pending and cluster is None and (workers == 1 or sharing is None):
            # One worker is one core, as each of several is (processes.py).
            # NOTE: measured on 2 cores, 400 SQuAD questions: BLAS on both cores took 2.0x
            # the CPU time of one thread for the same wall time.
            with threadpool_limits(limits=1), long_lived_heap() as settle:
                answering = Answering(answerer, settle)
                for item in pending:
                    deliver(answering(item))
        elif pending:
            shared = _shared(sharing)
            if shared.warm is not None:
                shared.warm()  # before the store is shipped to Ray or opened by the workers
            if cluster is not None:
                from affidavit.batch.cluster import run_on_ray

                run_on_ray(shared, pending, address=cluster, workers=workers, deliver=deliver)
            else:
                # Closed as soon as this stops taking rows (an interrupt, a failed write):
                # the workers stop then, not when the traceback holding it is dropped.
                with closing(in_processes(shared, pending, workers, encoded=not keep)) as rows:
                    for row in rows:
                        deliver(row)
    finally:
        bar(-1)
        if writer is not None:
            writer.close()
    return report


def _worker_count(workers: int | None, pending: int) -> int:
    if workers is None:
        workers = usable_cores()
    if workers < 1:
        raise InputError("workers", f"{workers} workers cannot answer anything", "give 1 or more")
    return max(1, min(workers, pending))


def _shared(sharing: Sharing | None) -> Sharing:
    if sharing is None:
        raise InputError(
            "the store",
            "an in-memory store cannot be shared with worker processes or a cluster",
            "open the Memory on a file, or answer with workers=1",
        )
    return sharing


def _progress(progress: bool | BatchProgress, start: int, total: int) -> Callable[[int], None]:
    """A function told each count of rows done (-1: the end): a tqdm bar with rate and
    ETA on stderr, the caller's callback, or nothing."""
    if callable(progress):
        callback = progress
        return lambda done: callback(done, total) if done >= 0 else None
    if not progress:
        return lambda done: None
    bar = tqdm(total=total, initial=start, unit="q", desc="answering", file=sys.stderr)

    def show(done: int) -> None:
        if done < 0:
            bar.close()
        else:
            bar.update(done - bar.n)

    return show
