"""The batch in worker processes on this machine: each opens the store read-only, runs
its numeric libraries on one thread, and exits when its parent does; rows come back in
input order.

On Linux, when this process runs no other thread, workers are forked from it after the
bundled models are loaded here, so they start at once and share those pages; elsewhere
they fork from a fork server that loaded the models once (or are spawned). A fork never
touches the parent's SQLite connection: each worker opens its own.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from threadpoolctl import threadpool_limits
from tqdm import tqdm
from tqdm.std import TqdmDefaultWriteLock

from affidavit.batch.questions import Item
from affidavit.batch.worker import (
    AHEAD_PER_WORKER,
    Answering,
    Recipe,
    Row,
    Written,
    long_lived_heap,
    written,
)
from affidavit.errors import AffidavitError

if TYPE_CHECKING:
    from affidavit.memory import Memory

PARENT_CHECK_SECONDS = 0.5  # how soon a worker whose parent was killed exits
# Thread pools of numpy's BLAS and of the tokenizers, for workers started from a clean
# interpreter; a forked worker limits the pools it inherited with threadpoolctl.
THREAD_VARIABLES = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "RAYON_NUM_THREADS": "1",
    "TOKENIZERS_PARALLELISM": "false",
}

# The worker's Memory (its heap frozen after its first answer: it is the batch's process).
_worker: Answering | None = None
_worker_failure: BaseException | None = None
_encoded = False  # rows sent back as their answer-file lines
# The parent's Memory, its indexes read: a worker forked from it takes them as they are.
_parent: Memory | None = None


def in_processes(
    recipe: Recipe,
    pending: Sequence[Item],
    workers: int,
    warmed: Memory | None = None,
    *,
    encoded: bool = False,
) -> Iterator[Row | Written]:
    """The rows of ``pending`` in order, answered by ``workers`` processes (``encoded``:
    each as its answer-file line); forked ones take the indexes ``warmed`` (the
    parent's Memory over the same store) holds."""
    global _parent
    ahead = workers * AHEAD_PER_WORKER
    _parent = warmed
    try:
        with (
            _one_thread_each(),
            long_lived_heap() as settle,
            ProcessPoolExecutor(
                workers,
                mp_context=_context(recipe),
                initializer=_open_worker,
                initargs=(recipe, encoded),
            ) as pool,
        ):
            settle()  # before the workers fork: they inherit the models frozen
            running: dict[Future[Row | Written], int] = {}
            finished: dict[int, Row | Written] = {}
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
    finally:
        _parent = None


def _context(recipe: Recipe) -> Any:
    """How workers start. NOTE: measured on 2 cores, 800 SQuAD questions: spawned
    workers gave their first row 5.8 s after the start (importing and loading the
    models, each on a contended core), against 2.2 s for one process."""
    methods = multiprocessing.get_all_start_methods()
    # A fork copies only the calling thread: a lock another thread held would stay held
    # in the child for ever. tqdm's monitor (started by any bar, even a hidden one) is
    # the exception: the worker replaces the one lock it takes (see _open_worker).
    others = [t for t in threading.enumerate() if t is not threading.current_thread()]
    alone = all(t.name == "tqdm_monitor" for t in others)
    if sys.platform == "linux" and "fork" in methods and alone:
        if recipe.bundled_models:
            import affidavit.batch.preload  # noqa: F401 — loads them here, once
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        if recipe.bundled_models:
            context.set_forkserver_preload(["affidavit.batch.preload"])
        return context
    return multiprocessing.get_context("spawn")


@contextmanager
def _one_thread_each() -> Iterator[None]:
    """Workers started meanwhile run their numeric libraries on one thread each.

    NOTE: measured on 2 cores, 200 SQuAD questions: two processes whose OpenBLAS took
    every core answered 10.9 q/s each, with one thread each 24.7 q/s each. A variable
    the user has set is left as it is."""
    saved = {name: os.environ.get(name) for name in THREAD_VARIABLES}
    for name, value in THREAD_VARIABLES.items():
        os.environ.setdefault(name, value)
    try:
        yield
    finally:
        for name, before in saved.items():
            if before is None:
                os.environ.pop(name, None)


def _open_worker(recipe: Recipe, encoded: bool) -> None:
    global _worker, _worker_failure, _encoded
    # Ctrl-C reaches the whole process group: the parent stops the run and keeps what
    # was written; the workers must not each print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    threadpool_limits(limits=1)  # a forked worker inherits the parent's BLAS pool size
    tqdm.set_lock(TqdmDefaultWriteLock())  # not the one a forked-away monitor may hold
    _encoded = encoded
    try:
        memory = recipe.open()
        if _parent is not None:
            # Forked: the parent's indexes are in this process already (pages shared
            # until written); reading them from the store again would cost each worker
            # what the parent paid. NOTE: measured on the SQuAD dev store, 2 workers:
            # first row 4.4 s after the start when each read them, 3.6-4.0 s taking them
            # (3.4 s for one in-process worker).
            memory._retriever.adopt(_parent._retriever)  # noqa: SLF001 - same store file
        _worker = Answering(memory)
    except BaseException as exc:  # raised again with the first question, in the parent
        _worker_failure = exc


def _exit_with_parent(parent: int) -> None:
    """End this worker once its parent is gone: a batch killed with SIGKILL cannot stop
    its workers, and an orphan would hold its memory (and a core) for ever."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


def _answer_in_worker(item: Item) -> Row | Written:
    if _worker_failure is not None:
        raise _worker_failure
    assert _worker is not None
    row = _worker(item)
    return written(row) if _encoded else row
