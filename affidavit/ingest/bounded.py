"""Reading an untrusted file within bounds: time, memory and unpacked size.

A PDF whose objects reference each other in a loop never returns from its parser; a
deflate bomb or a DOCX holding 500 MB of XML eats memory until the machine swaps. So each
file is read in a worker process (forked, so nothing is loaded twice) that is stopped when
it runs past ``IngestLimits.seconds``, that the kernel stops from growing past
``IngestLimits.memory_mb`` beyond what it started with, and whose zip containers (DOCX) are
measured before they are opened. A bound hit is an IngestError naming the file and the
limit; the store is never touched, because ingest writes only after every file is read.
"""

from __future__ import annotations

import multiprocessing
import resource
import time
import warnings
import zipfile
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from affidavit.errors import IngestError, IngestWarning
from affidavit.ingest.readers import read_document

_PAGE = resource.getpagesize()
_RAISE = "raise the limit with Memory.ingest(..., limits=IngestLimits(...)) if you trust the file"


@dataclass(frozen=True, slots=True)
class IngestLimits:
    """Per-file bounds for reading a document. The defaults pass a 500-page PDF (about
    80 s and a few hundred MB here) and stop the hostile files that never would."""

    seconds: float = 600.0  # wall time to read one file
    memory_mb: int = 4096  # memory the reading may add to the process it started in
    unpacked_mb: int = 256  # what a zip container (DOCX) may unpack to
    isolated: bool = True  # read in a worker process (False: in this one, unbounded)


def read_bounded(path: Path, limits: IngestLimits) -> tuple[list[Any], list[str]]:
    """The units of ``path`` as ``read_document`` reads them, within ``limits``, and the
    IngestWarnings the reading gave (what it left out on purpose)."""
    if not limits.isolated:
        _check_unpacked(path, limits)
        return _read_warned(path)
    return finish_reading(start_reading(path, limits), limits)


@dataclass(slots=True)
class Reading:
    """A file being read in its own worker process, started at ``started``."""

    path: Path
    worker: Any
    receive: Connection
    started: float


def start_reading(path: Path, limits: IngestLimits) -> Reading:
    """Start reading ``path`` in a worker bounded by ``limits``. Several readings may run
    at once: each is bounded on its own."""
    _check_unpacked(path, limits)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(target=_read_in_worker, args=(path, limits, send), daemon=True)
    worker.start()
    send.close()
    return Reading(path, worker, receive, time.monotonic())


def finish_reading(reading: Reading, limits: IngestLimits) -> tuple[list[Any], list[str]]:
    """The units the reading's worker read and the IngestWarnings it gave, or the
    IngestError of a bound it hit. Its time counts from its start, not from this call."""
    path, worker, receive = reading.path, reading.worker, reading.receive
    try:
        left = limits.seconds - (time.monotonic() - reading.started)
        if not receive.poll(max(left, 0.0)):  # poll(0) still sees a result already sent
            raise IngestError(
                path, f"reading it took longer than {limits.seconds:g} s (the limit)", _RAISE
            )
        try:
            status, payload = receive.recv()
        except EOFError:
            raise IngestError(
                path,
                f"the reader stopped without a result (exit code {worker.exitcode}); it may "
                f"have needed more than {limits.memory_mb} MB",
                _RAISE,
            ) from None
    finally:
        abandon(reading)
    if status == "units":
        units, said = payload
        return list(units), list(said)
    if status == "ingest_error":
        raise IngestError(*payload)
    if status == "memory":
        raise IngestError(path, f"reading it needed more than {limits.memory_mb} MB", _RAISE)
    raise IngestError(path, f"the reader failed: {payload}", "report this file as a bug")


def abandon(reading: Reading) -> None:
    """Stop the reading's worker if it still runs, and let it go."""
    if reading.worker.is_alive():
        reading.worker.kill()
    reading.worker.join()
    reading.receive.close()


def _read_in_worker(path: Path, limits: IngestLimits, send: Connection) -> None:
    # The worker starts with the parent's memory; the bound is what reading may add.
    in_use = _address_space_bytes()
    ceiling = in_use + limits.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
    try:
        send.send(("units", _read_warned(path)))
    except IngestError as error:
        send.send(("ingest_error", (error.path, error.problem, error.hint)))
    except MemoryError:
        send.send(("memory", None))
    except Exception as error:  # noqa: BLE001 — reported to the parent as an IngestError
        send.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        send.close()


def _read_warned(path: Path) -> tuple[list[Any], list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", IngestWarning)
        units = read_document(path)
    said = [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]
    return units, said


def _address_space_bytes() -> int:
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def _check_unpacked(path: Path, limits: IngestLimits) -> None:
    """A zip container (DOCX) is measured before it is opened: a few kilobytes may
    unpack to gigabytes."""
    if path.suffix.lower() != ".docx" or not zipfile.is_zipfile(path):
        return
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError):
        return  # the DOCX reader says what is wrong with it
    if unpacked > limits.unpacked_mb * 1024 * 1024:
        raise IngestError(
            path,
            f"it unpacks to {unpacked / 1024 / 1024:.0f} MB, more than the "
            f"{limits.unpacked_mb} MB limit",
            _RAISE,
        )
