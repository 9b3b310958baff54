"""The batch in worker processes on this machine: each opens the store read-only, runs
its numeric libraries on one thread, and exits when its parent does; rows come back in
input order."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from threadpoolctl import threadpool_limits
from tqdm import tqdm
from tqdm.std import TqdmDefaultWriteLock

from affidavit.batch.questions import Item
from affidavit.batch.worker import (
    AHEAD_PER_WORKER,
    Answerer,
    Answering,
    Opener,
    Row,
    Sharing,
    Written,
    written,
)
from affidavit.errors import AffidavitError
from affidavit.runtime import (
    ENCODER_AHEAD_VARIABLE,
    PRELOAD_VARIABLE,
    die_with_parent,
    loader_names,
    long_lived_heap,
)

PARENT_CHECK_SECONDS = 0.5  # how soon a worker whose parent was killed exits
# Thread pools of numpy's BLAS and of the tokenizers, for workers started from a clean
# interpreter; a forked worker limits the pools it inherited with threadpoolctl.
THREAD_VARIABLES = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "RAYON_NUM_THREADS": "1",
    "TOKENIZERS_PARALLELISM": "false",
    # The reader's encoder reads in the asking thread: another thread would take the core
    # another worker answers on (on 2 cores, 400 SQuAD questions, two workers: 17.8-19.6 s
    # and 32-36 s of CPU with a reading thread each, 17.1-17.3 s and 31 s without).
    ENCODER_AHEAD_VARIABLE: "0",
}

# The worker's Answerer (its heap frozen after its first answer: it is the batch's process).
_worker: Answering | None = None
_worker_failure: BaseException | None = None
_encoded = False  # rows sent back as their answer-file lines
# How a worker forked from the parent opens the store, taking what the parent holds.
_forked: Callable[[str], Answerer] | None = None


def in_processes(
    sharing: Sharing,
    pending: Sequence[Item],
    workers: int,
    *,
    encoded: bool = False,
) -> Generator[Row | Written, None, None]:
    """The rows of ``pending`` in order, answered by ``workers`` processes (``encoded``:
    each as its answer-file line); forked ones open the store with ``sharing.forked``."""
    global _forked
    ahead = workers * AHEAD_PER_WORKER
    _forked = sharing.forked
    try:
        with (
            _one_thread_each(),
            long_lived_heap() as settle,
            _start_method(sharing) as context,
            ProcessPoolExecutor(
                workers,
                mp_context=context,
                initializer=_open_worker,
                initargs=(sharing.opener, sharing.path, encoded),
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
        _forked = None


@contextmanager
def _start_method(sharing: Sharing) -> Iterator[Any]:
    """How workers start, with the models of ``sharing.preload`` loaded where they fork
    from. On Linux, when this process runs no other thread, they are forked from it after
    the models are loaded here, so they start at once and share those pages; elsewhere
    they fork from a fork server that loaded the models once (or are spawned).

    NOTE: measured on 2 cores, 800 SQuAD questions: spawned workers gave their first row
    5.8 s after the start (importing and loading the models, each on a contended core),
    against 2.2 s for one process."""
    methods = multiprocessing.get_all_start_methods()
    # A fork copies only the calling thread: a lock another thread held would stay held
    # in the child for ever. tqdm's monitor (started by any bar, even a hidden one) is
    # the exception: the worker replaces the one lock it takes (see _open_worker).
    others = [t for t in threading.enumerate() if t is not threading.current_thread()]
    alone = all(t.name == "tqdm_monitor" for t in others)
    if sys.platform == "linux" and "fork" in methods and alone:
        for load in sharing.preload:  # here, once
            load()
        yield multiprocessing.get_context("fork")
    elif "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        with _fork_server_loads(context, sharing):
            yield context
    else:
        yield multiprocessing.get_context("spawn")


@contextmanager
def _fork_server_loads(context: Any, sharing: Sharing) -> Iterator[None]:
    """A fork server started meanwhile (with the first worker, in this environment)
    imports the opener's code, then batch/preload.py calls the loaders of
    ``sharing.preload``: a fork server is told what to load by module name only."""
    if not sharing.preload:
        yield
        return
    code = getattr(sharing.opener.open, "__module__", None)
    context.set_forkserver_preload([*([code] if code else []), "affidavit.batch.preload"])
    before = os.environ.get(PRELOAD_VARIABLE)
    os.environ[PRELOAD_VARIABLE] = loader_names(sharing.preload)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(PRELOAD_VARIABLE, None)
        else:
            os.environ[PRELOAD_VARIABLE] = before


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


def _open_worker(opener: Opener, path: str, encoded: bool) -> None:
    global _worker, _worker_failure, _encoded
    # Ctrl-C reaches the whole process group: the parent stops the run and keeps what
    # was written; the workers must not each print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(os.getppid())  # at once where the kernel can; else the watchdog
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    threadpool_limits(limits=1)  # a forked worker inherits the parent's BLAS pool size
    tqdm.set_lock(TqdmDefaultWriteLock())  # not the one a forked-away monitor may hold
    _encoded = encoded
    try:
        # Forked, the worker takes what the parent holds (see Memory.batch); started
        # afresh, it opens the store as the opener it was sent says. Either way it opens
        # its own SQLite connection, never touching the parent's.
        answerer = _forked(path) if _forked is not None else opener(path)
        _worker = Answering(answerer)
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
