"""Answering a question set over one store: in this process, in worker processes on this
machine, or on a Ray cluster; rows come back in input order to one resumable writer.

Every worker opens the same store read-only with the same engine and settings, and
answers with the same ``answer_row`` as this process does, so the rows are byte for byte
the same whichever way they were computed (the default engine's audit carries no clock).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from affidavit.batch.output import AnswerFile
from affidavit.batch.questions import BadLine, Item, questions_from, read_questions
from affidavit.engine.protocol import Engine
from affidavit.errors import AffidavitError, InputError

if TYPE_CHECKING:
    from affidavit.memory import Memory

Row = dict[str, Any]
BatchProgress = Callable[[int, int], None]
# Questions handed out per worker ahead of the one being answered, so no worker waits
# on the parent between questions; also bounds the rows held waiting for their turn.
AHEAD_PER_WORKER = 4
# The thread pools of numpy's BLAS and of the tokenizers: one thread per worker process.
THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "RAYON_NUM_THREADS",
)


@dataclass(frozen=True)
class Recipe:
    """Everything a worker needs to open the same Memory, read-only."""

    path: str
    engine: Engine
    dense: bool
    speaking_threshold: float
    encoder: Any = None
    reranker: Any = None

    def open(self, path: str | None = None) -> Memory:
        from affidavit.memory import Memory

        return Memory(
            path or self.path,
            engine=self.engine,
            dense=self.dense,
            speaking_threshold=self.speaking_threshold,
            encoder=self.encoder,
            reranker=self.reranker,
            read_only=True,
        )


def answer_row(memory: Memory, item: Item) -> Row:
    """The output row of one item: its answer (or refusal), or the error its line earned."""
    if isinstance(item, BadLine):
        return item.row()
    try:
        answer = memory.ask(item.question, asked_at=item.asked_at, speaker=item.speaker)
    except InputError as exc:  # this question cannot be read; the next one may be fine
        return BadLine(item.line, item.id, f"line {item.line}: {exc}").row()
    return {"id": item.id, "line": item.line, **answer.to_dict()}


class BatchReport(list[Row]):
    """The rows of a batch run, in input order (it is that list): on a resumed run, only
    the rows this run answered; ``resumed`` says how many the answer file already held."""

    def __init__(self, rows: Sequence[Row], *, resumed: int = 0, out: Path | None = None):
        super().__init__(rows)
        self.resumed = resumed
        self.out = out

    def counts(self) -> dict[str, int]:
        """Answered, refused and error rows among this run's rows."""
        errors = sum(1 for row in self if "error" in row)
        refused = sum(1 for row in self if row.get("refused"))
        return {"answered": len(self) - errors - refused, "refused": refused, "errors": errors}


def run_batch(
    memory: Memory,
    questions: str | Path | Iterable[str | Mapping[str, Any]],
    *,
    workers: int | None = None,
    progress: bool | BatchProgress = True,
    out: str | Path | None = None,
    cluster: str | None = None,
) -> BatchReport:
    """Answer ``questions`` (a JSONL file, or strings and mappings) with ``memory``
    (see Memory.batch)."""
    if isinstance(questions, str | Path):
        items = read_questions(questions)
    else:
        items = questions_from(questions)
    writer = AnswerFile(out, items) if out is not None else None
    start = writer.done if writer is not None else 0
    pending = list(items[start:])
    workers = _worker_count(workers, len(pending))
    rows: list[Row] = []
    bar = _progress(progress, start, len(items))

    def deliver(row: Row) -> None:
        if writer is not None:
            writer.write(row)
        rows.append(row)
        bar(len(rows) + start)

    try:
        if pending:
            if cluster is not None:
                from affidavit.batch.cluster import run_on_ray

                recipe = _recipe(memory)
                run_on_ray(recipe, pending, address=cluster, workers=workers, deliver=deliver)
            elif workers == 1 or memory.path is None:
                for item in pending:
                    deliver(answer_row(memory, item))
            else:
                _warm(memory)
                for row in _in_processes(_recipe(memory), pending, workers):
                    deliver(row)
    finally:
        bar(-1)
        if writer is not None:
            writer.close()
    return BatchReport(rows, resumed=start, out=writer.path if writer is not None else None)


def _worker_count(workers: int | None, pending: int) -> int:
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    if workers < 1:
        raise InputError("workers", f"{workers} workers cannot answer anything", "give 1 or more")
    return max(1, min(workers, pending))


def _recipe(memory: Memory) -> Recipe:
    if memory.path is None:
        raise InputError(
            "the store",
            "an in-memory store cannot be shared with worker processes or a cluster",
            "open the Memory on a file, or answer with workers=1",
        )
    opened = memory._opened_with
    return Recipe(
        memory.path,
        memory.engine,
        opened["dense"],
        opened["speaking_threshold"],
        opened["encoder"],
        opened["reranker"],
    )


def _warm(memory: Memory) -> None:
    """Build and cache the store's indexes once, here, rather than once per worker (a
    worker opens the store read-only and could not cache what it builds)."""
    if not memory._store.read_only:
        memory.build_indexes()


# -- worker processes on this machine --

_worker_memory: Memory | None = None
_worker_failure: BaseException | None = None


def _open_worker(recipe: Recipe) -> None:
    global _worker_memory, _worker_failure
    # Ctrl-C reaches the whole process group: the parent stops the run and keeps what
    # was written; the workers must not each print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _worker_memory = recipe.open()
    except BaseException as exc:  # raised again with the first question, in the parent
        _worker_failure = exc


def _answer_in_worker(item: Item) -> Row:
    if _worker_failure is not None:
        raise _worker_failure
    assert _worker_memory is not None
    return answer_row(_worker_memory, item)


@contextmanager
def _one_thread_each() -> Iterator[None]:
    """Workers spawned meanwhile run their numeric libraries on one thread each.

    NOTE: measured on 2 cores, 200 SQuAD questions: two processes whose OpenBLAS took
    every core answered 10.9 q/s each, with one thread each 24.7 q/s each. A variable
    the user has set is left as it is."""
    saved = {name: os.environ.get(name) for name in THREAD_VARIABLES}
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)


def _in_processes(recipe: Recipe, pending: Sequence[Item], workers: int) -> Iterator[Row]:
    """The rows of ``pending`` in order, answered by ``workers`` fresh processes."""
    # NOTE: spawn, not fork: a forked child would inherit this process's SQLite
    # connection and any threads' locks; spawn costs a second or two of imports a worker.
    context = multiprocessing.get_context("spawn")
    ahead = workers * AHEAD_PER_WORKER
    try:
        with (
            _one_thread_each(),
            ProcessPoolExecutor(
                workers, mp_context=context, initializer=_open_worker, initargs=(recipe,)
            ) as pool,
        ):
            running: dict[Future[Row], int] = {}
            finished: dict[int, Row] = {}
            submitted = given = 0
            try:
                while given < len(pending):
                    while submitted < len(pending) and submitted - given < ahead:
                        running[pool.submit(_answer_in_worker, pending[submitted])] = submitted
                        submitted += 1
                    done, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in done:
                        finished[running.pop(future)] = future.result()
                    while given in finished:
                        yield finished.pop(given)
                        given += 1
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    except BrokenProcessPool as exc:
        raise AffidavitError(
            f"a batch worker process died ({exc}); the rows written so far are kept: "
            "run the same command again to resume (fewer --workers if memory ran out)"
        ) from exc


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
