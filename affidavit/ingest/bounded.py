"""Reading an untrusted file within bounds of time, memory and unpacked size, on worker
processes that live for the whole ingest. The memory bound is on memory used (the
worker's resident pages, watched by the parent), not on address space reserved."""

from __future__ import annotations

import gc
import multiprocessing
import os
import resource
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from affidavit.errors import IngestError, IngestWarning
from affidavit.ingest.formats.dispatch import read_document
from affidavit.ingest.formats.format_table import check_before_reading
from affidavit.ingest.formats.pacing import send_asks_to
from affidavit.runtime import die_with_parent, forking, leave_interrupts_to_parent

_PAGE = resource.getpagesize()
_MB = 1024 * 1024
_RAISE = "raise the limit with Memory.ingest(..., limits=IngestLimits(...)) if you trust the file"
# The default time bound of one file (IngestLimits.seconds_for). NOTE: a 1.0 MB, 500-page
# PDF (bench/long_pdf.py) reads in 21-41 s here, against a bound of 150 s: a slow machine
# has room; a looping parser on a small file gives up after BASE_SECONDS.
BASE_SECONDS = 30.0
SECONDS_PER_MB = 120.0
MAX_SECONDS = 600.0
# The default memory bound (IngestLimits.memory_for). NOTE: the same 500-page PDF adds a few
# hundred MB; a 1 MB PDF whose stream inflates to 256 MB or 1 GB ran past 60 s under a flat
# 4 GB bound (bench/hostile_corpus.py).
BASE_MEMORY_MB = 1024
MEMORY_PER_MB = 64
MAX_MEMORY_MB = 4096
# How often the parent, waiting for replies, reads each busy worker's resident memory.
# NOTE: a bound on address space (RLIMIT_AS) failed OCR in a fresh process: the ONNX
# runtime's threads reserve about 1.4 GB of it (malloc arenas, stacks) to use 450-660 MB,
# so a scanned page ended in std::bad_alloc under the 1024 MB default. Resident memory is
# what a reading uses; read every POLL_SECONDS, it is overshot by what a reading can
# write between two reads. Measured (peak added, by getrusage; 2 cores at load 7): a
# reader writing 64 MB blocks as fast as it can held 221 MB under a 200 MB bound and
# 1,040 MB under 1,024; a 3 GB zlib bomb inflating in one call 209 and 1,039 MB. The
# parent reads only while it waits for replies, not while it writes a document it has
# (a few ms to a second), when a worker may run further past its bound.
POLL_SECONDS = 0.02
# However much time a reading asks for (formats/pacing.py: a page read by OCR asks for its
# own), its deadline never moves past this long after it started.
MAX_ASKED_SECONDS = 3600.0


@dataclass(frozen=True, slots=True)
class IngestLimits:
    """Per-file bounds for reading a document. A PDF whose objects reference each other in
    a loop never returns from its parser; a deflate bomb or a DOCX holding 500 MB of XML
    eats memory until the machine swaps."""

    # NOTE: the defaults pass a 500-page PDF (about 80 s and a few hundred MB here) and stop
    # the hostile files that never would.
    # Wall time to read one file; None: a bound that grows with the file's size
    # (``seconds_for``), so a 243-byte PDF that sends its parser round a loop is stopped
    # in half a minute, and a long report still has the time it needs.
    seconds: float | None = None
    # Resident memory the reading may add to the worker that reads it (isolated only);
    # None: a bound that grows with the file's size (``memory_for``), so a 1 MB PDF that
    # inflates to a gigabyte fails at once on memory rather than parsing for minutes.
    memory_mb: int | None = None
    unpacked_mb: int = 256  # what a zip container (DOCX) may unpack to
    isolated: bool = True  # read in a worker process (False: in this one, unbounded)

    def seconds_for(self, size: int) -> float:
        """The wall time a file of ``size`` bytes may take: ``seconds`` if set, else
        BASE_SECONDS and SECONDS_PER_MB of the file, at most MAX_SECONDS."""
        if self.seconds is not None:
            return self.seconds
        return min(MAX_SECONDS, BASE_SECONDS + SECONDS_PER_MB * size / 1_000_000)

    def memory_for(self, size: int) -> int:
        """The megabytes reading a file of ``size`` bytes may add: ``memory_mb`` if set,
        else BASE_MEMORY_MB and MEMORY_PER_MB of the file, at most MAX_MEMORY_MB."""
        if self.memory_mb is not None:
            return self.memory_mb
        return int(min(MAX_MEMORY_MB, BASE_MEMORY_MB + MEMORY_PER_MB * size / 1_000_000))


def read_bounded(path: Path, limits: IngestLimits) -> tuple[list[Any], list[str]]:
    """The units of ``path`` as ``read_document`` reads them, within ``limits``, and the
    IngestWarnings the reading gave (what it left out on purpose)."""
    if not limits.isolated:
        _check_unpacked(path, limits)
        return _read_warned(path)
    with Readers() as readers:
        return finish_reading(readers.start(path, limits), limits)


@dataclass(slots=True)
class Reading:
    """A file being read by a worker of ``readers``, sent to it at ``started``; what
    came back, once it has (``reply``)."""

    path: Path
    worker: Any
    pipe: Connection
    started: float
    readers: Readers
    size: int  # the file's bytes, which set its time and memory bounds
    resident: int  # the worker's own resident bytes when the file was sent
    memory_bound: int  # the resident bytes reading it may add
    deadline: float  # when its time is up: its size's bound, moved by what it asked for
    may_ask: bool  # whether asks move the deadline (not when IngestLimits.seconds is set)
    asked_for: str = ""  # the last step it asked for time for
    reply: tuple[str, Any] | None = None

    def ask(self, seconds: float, step: str) -> None:
        """Time asked for ``step``: the deadline moves to ``seconds`` from now if that is
        later, never past ``MAX_ASKED_SECONDS`` from the start."""
        if self.may_ask:
            latest = self.started + MAX_ASKED_SECONDS
            self.deadline = min(max(self.deadline, time.monotonic() + seconds), latest)
            self.asked_for = step


# NOTE: a worker forked for each file cost 25-35 ms a file at 100 MB (the fork copies the
# page tables of a large process, and the pages both then write are copied), a third of the
# ingest of 4,000 files.
class Readers:
    """Bounded workers that live for a whole ingest: each reads one file at a time.

    Workers are forked, so nothing is loaded twice. One that runs past
    ``IngestLimits.seconds``, grows past its memory bound or fails is stopped (a fresh one
    takes its place); the bounds count from where the worker stands when each file is
    sent. Replies are collected as they come, whichever file they answer, so a worker
    never waits for a long file on another to be taken first; while the parent waits for
    them it reads each busy worker's resident memory every ``POLL_SECONDS``.
    """

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._idle: list[tuple[Any, Connection]] = []
        self._busy: dict[Connection, Reading] = {}

    def __enter__(self) -> Readers:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def free(self) -> bool:
        """Whether a file started now would be read at once."""
        return len(self._busy) < self.workers

    def start(
        self, path: Path, limits: IngestLimits, then: Callable[[list[Any]], Any] | None = None
    ) -> Reading:
        """Start reading ``path`` within ``limits`` on an idle worker (a new one if none
        is idle); the worker hands what it read to ``then`` and returns that instead."""
        _check_unpacked(path, limits)
        if self._idle:
            worker, pipe = self._idle.pop()
        else:
            context = multiprocessing.get_context("fork")
            pipe, theirs = context.Pipe()
            worker = context.Process(target=_serve, args=(theirs, os.getpid()), daemon=True)
            with forking():
                worker.start()
            theirs.close()
        resident = _resident_bytes(worker.pid) or 0
        pipe.send((path, then))
        size, now = _size(path), time.monotonic()
        reading = Reading(
            path,
            worker,
            pipe,
            now,
            self,
            size,
            resident,
            memory_bound=limits.memory_for(size) * _MB,
            deadline=now + limits.seconds_for(size),
            may_ask=limits.seconds is None,
        )
        self._busy[pipe] = reading
        return reading

    def collect(self, waiting_for: Reading, limits: IngestLimits) -> None:
        """Take in what the workers have sent, waiting until something has (a reply, or
        an ask for time), a worker has grown past its memory bound (stopped, its reply
        says so) or the time of ``waiting_for`` is up (its IngestError then)."""
        while True:
            left = waiting_for.deadline - time.monotonic()
            ready = wait(list(self._busy), timeout=min(max(left, 0.0), POLL_SECONDS))
            if ready:
                self._take(ready)
                return
            if self._stop_overgrown():
                return
            if left <= 0:
                self._stop(waiting_for)
                took = waiting_for.deadline - waiting_for.started
                limit = "the limit for its size"
                if waiting_for.asked_for:
                    limit += f", and the time it asked for {waiting_for.asked_for}"
                raise IngestError(
                    waiting_for.path, f"reading it took longer than {took:g} s ({limit})", _RAISE
                )

    def _stop_overgrown(self) -> bool:
        """Stop each busy worker holding more than its reading's memory bound beyond what
        it held when the file was sent; its reply is the megabytes it had added."""
        stopped = False
        for reading in list(self._busy.values()):
            held = _resident_bytes(reading.worker.pid)
            if held is not None and held - reading.resident > reading.memory_bound:
                self._stop(reading)
                reading.reply = ("memory", (held - reading.resident) // _MB)
                stopped = True
        return stopped

    def _take(self, ready: list[Any]) -> None:
        for ready_pipe in ready:
            reading = self._busy[ready_pipe]  # type: ignore[index]
            try:
                sent = reading.pipe.recv()
            except EOFError:
                sent = ("gone", reading.worker)
            if sent[0] == "time":
                reading.ask(*sent[1:])
                continue
            del self._busy[reading.pipe]
            reading.reply = sent
            if sent[0] in ("read", "ingest_error"):
                self._idle.append((reading.worker, reading.pipe))
            else:
                _stop(reading.worker, reading.pipe)

    def _stop(self, reading: Reading) -> None:
        self._busy.pop(reading.pipe, None)
        _stop(reading.worker, reading.pipe)

    def close(self) -> None:
        """Stop every worker, reading or not."""
        for worker, pipe in [*self._idle, *((r.worker, r.pipe) for r in self._busy.values())]:
            _stop(worker, pipe)
        self._idle, self._busy = [], {}


def _stop(worker: Any, pipe: Connection) -> None:
    if worker.is_alive():
        worker.kill()
    worker.join()
    pipe.close()


def finish_reading(reading: Reading, limits: IngestLimits) -> tuple[Any, list[str]]:
    """What the reading's worker read (or made of it) and the IngestWarnings it gave, or
    the IngestError of a bound it hit, naming the file and the limit (the store is left as
    it was: the ingest's one transaction rolls back). Its time counts from its start, not
    from this call."""
    while reading.reply is None:
        reading.readers.collect(reading, limits)
    status, payload = reading.reply
    path = reading.path
    if status == "read":
        read, said = payload
        return read, list(said)
    if status == "ingest_error":
        raise IngestError(*payload)
    if status == "memory":
        bound = limits.memory_for(reading.size)
        held = f" (it held {payload} MB when stopped)" if payload is not None else ""
        raise IngestError(path, f"reading it needed more than {bound} MB{held}", _RAISE)
    if status == "gone":
        raise IngestError(
            path,
            f"the reader stopped without a result (exit code {payload.exitcode}); it may "
            f"have needed more than {limits.memory_for(reading.size)} MB",
            _RAISE,
        )
    raise IngestError(path, f"the reader failed: {payload}", "report this file as a bug")


def _serve(pipe: Connection, parent: int) -> None:
    """A reader: a file in, what was read out, until the pipe closes or
    the parent dies (killed, it takes its readers with it)."""
    die_with_parent(parent)
    leave_interrupts_to_parent()
    send_asks_to(lambda seconds, step: pipe.send(("time", seconds, step)))
    # NOTE: the parent's objects came with the fork: set apart, no collection walks them
    # again (nor writes to their pages). Reading the 20 MB corpus: 9.4-10.4 -> 8.5-9.7 s.
    gc.freeze()
    while True:
        try:
            path, then = pipe.recv()
        except EOFError:
            return
        pipe.send(_read_within(path, then))


def _read_within(path: Path, then: Callable[[list[Any]], Any] | None) -> tuple[str, Any]:
    # The time and memory bounds are kept by the parent, which stops this worker.
    try:
        units, said = _read_warned(path)
        return "read", (then(units) if then is not None else units, said)
    except IngestError as error:
        return "ingest_error", (error.path, error.problem, error.hint)
    except MemoryError:
        return "memory", None
    except Exception as error:  # noqa: BLE001 — reported to the parent as an IngestError
        return "error", f"{type(error).__name__}: {error}"


def _read_warned(path: Path) -> tuple[list[Any], list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", IngestWarning)
        units = read_document(path)
    said = [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]
    return units, said


def _resident_bytes(pid: int | None) -> int | None:
    """The resident memory process ``pid`` holds of its own (anonymous pages: the heap,
    not the files and libraries it maps, which the system can drop and read again), or
    None where the system does not say (no /proc, or the process is gone)."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
            fields = statm.read().split()
        return (int(fields[1]) - int(fields[2])) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def _check_unpacked(path: Path, limits: IngestLimits) -> None:
    """A container (a DOCX, a gzip file) is measured before it is opened: a few kilobytes
    may unpack to gigabytes."""
    check_before_reading(path, limits.unpacked_mb)


def _size(path: Path) -> int:
    """The file's size in bytes (0 when it cannot be read: the reader says why)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0
