"""Files to prepared documents for Memory.ingest: each read within its bounds and split
into lines (one file per core at a time), the unchanged ones skipped, with progress."""

from __future__ import annotations

import errno
import functools
import os
import stat
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from affidavit.errors import IngestError
from affidavit.ingest.bounded import IngestLimits, Readers, Reading, finish_reading, read_bounded
from affidavit.ingest.formats.dispatch import storable_path
from affidavit.ingest.prepare import content_hash, prepare_document
from affidavit.options import Progress
from affidavit.results import (
    INDEX_STAGE,  # what an ingest's progress hears before a stage
    UnreadFile,
)
from affidavit.runtime import usable_cores
from affidavit.store import PreparedDocument
from affidavit.text import addresses_a_model

# What may be read ahead of the file being taken, while a long one holds a worker.
AHEAD_FILES = 64
AHEAD_BYTES = 64 * 1024 * 1024
# A file's work: None (unchanged), its reading under way, the document and its warnings, or
# the IngestError that stopped it.
Job = Reading | tuple[PreparedDocument, list[str]] | IngestError | None


# A file is hashed a piece at a time: memory holds one piece, never the file.
HASH_PIECE = 1 << 20


# The files of an ingest, each with its document's name (ingest/naming.py).
NamedFiles = Sequence[tuple[Path, str]]


@dataclass(frozen=True, slots=True)
class Ingesting:
    """How an ingest reads and writes its files: Memory.ingest's keywords, checked."""

    source: str  # who vouches for the text
    date: str | None  # ISO, stamped on every document
    limits: IngestLimits | None
    progress: Progress | None
    replace_trusted: bool  # may a lower-trust source replace a document
    keep_going: bool  # store what reads, and list what does not


def prepare_files(
    named: Sequence[tuple[Path, str]],
    *,
    known_hash: Callable[[str], str | None],
    source: str,
    trust: float,
    date: str | None,
    limits: IngestLimits,
    warnings: list[str],
    failed: list[UnreadFile],
    progress: Progress | None = None,
) -> Iterator[PreparedDocument]:
    """Each changed file of ``named`` (file, document name) as a prepared document, in
    order; what a reader left out is added to ``warnings``, and each file that cannot be
    read to ``failed`` (the others are read on: the caller says whether one failure fails
    the ingest). ``progress(done, total, name)`` is called before each file and once at
    the end with ``done == total``. Memory.ingest writes what this yields, as it is
    yielded, in one transaction; nothing here touches the store but ``known_hash``, which
    says which documents are unchanged.

    Files are read and split into lines by bounded workers that live for the whole
    ingest, one file per core at a time (see bounded.py), while this process takes the
    documents in order. NOTE: reading in workers and splitting sentences here, on
    splitters fed runs of paragraphs, kept one core waiting on the other: a small file's
    paragraphs are one run. A whole file a worker keeps both busy, and a worker's spaCy
    vocabulary warms over the files it reads.
    """
    workers = usable_cores() if limits.isolated and len(named) > 1 else 1
    upcoming = iter(named)
    ahead: deque[tuple[Path, str, int, Job]] = deque()  # file, name, bytes, job: in order
    done = 0
    with Readers(workers) as readers:
        while done < len(named):
            # Files start while a worker is free and what is read ahead stays small.
            while (
                (readers.free if limits.isolated else not ahead)
                and len(ahead) < AHEAD_FILES
                and sum(size for _, _, size, _ in ahead) < AHEAD_BYTES
                and (following := next(upcoming, None)) is not None
            ):
                file, doc_name = following
                job = _begun(file, doc_name, known_hash, source, trust, date, limits, readers)
                ahead.append((file, doc_name, _size(file), job))
            file, doc_name, size, job = ahead[0]
            if isinstance(job, Reading) and job.reply is None:
                try:
                    readers.collect(job, limits)  # any reply frees a worker for the next file
                except IngestError as error:  # its time is up (its worker is stopped)
                    ahead[0] = (file, doc_name, size, error)
                continue
            ahead.popleft()
            if progress is not None:
                progress(done, len(named), doc_name)
            done += 1
            if job is None:  # unchanged
                continue
            if isinstance(job, Reading):
                try:
                    job = finish_reading(job, limits)
                except IngestError as error:
                    job = error
            if isinstance(job, IngestError):
                failed.append(unread(file, doc_name, job))
                continue
            prepared, said = job
            warnings.extend(f"{doc_name}: {line}" for line in [*said, *addressing(prepared)])
            yield prepared
    if progress is not None:
        progress(len(named), len(named), "")


def unread(file: Path, doc_name: str, error: IngestError) -> UnreadFile:
    """The file an IngestError was raised for, and why, as an ingest's report lists it."""
    path = error.path or storable_path(str(file))
    return UnreadFile(path, doc_name, error.problem, error.hint)


def unread_error(failed: Sequence[UnreadFile]) -> IngestError:
    """One IngestError naming every file of ``failed``: the error of the one file itself
    when only one failed."""
    if len(failed) == 1:
        return IngestError(failed[0].path, failed[0].problem, failed[0].hint)
    listed = "".join(f"\n  {file}" for file in failed)
    return IngestError(
        None,
        f"{len(failed)} files could not be read, so none was stored:{listed}",
        "mend or remove them, or pass keep_going=True (--keep-going) to store the others",
    )


def _size(file: Path) -> int:
    try:
        return file.stat().st_size
    except OSError:
        return 0


def _begun(
    file: Path,
    doc_name: str,
    known_hash: Callable[[str], str | None],
    source: str,
    trust: float,
    date: str | None,
    limits: IngestLimits,
    readers: Readers,
) -> Job:
    """The job of ``file`` begun (see _begin), or the IngestError that stopped it."""
    try:
        return _begin(file, doc_name, known_hash, source, trust, date, limits, readers)
    except IngestError as error:
        return error


def _begin(
    file: Path,
    doc_name: str,
    known_hash: Callable[[str], str | None],
    source: str,
    trust: float,
    date: str | None,
    limits: IngestLimits,
    readers: Readers,
) -> Job:
    """None for an unchanged document; else its reading, started on ``readers`` (or,
    unisolated, the prepared document and its warnings)."""
    digest = _file_digest(file, source, date)  # the bounded reader reads it again, apart
    if known_hash(doc_name) == digest:
        return None
    prepare = functools.partial(
        prepare_document,
        name=doc_name,
        digest=digest,
        path=storable_path(str(file)),
        origin=origin_of(file),
        date=date,
        source=source,
        trust=trust,
    )
    if not limits.isolated:
        units, said = read_bounded(file, limits)
        return prepare(units), said
    return readers.start(file, limits, prepare)


def origin_of(file: Path) -> str:
    """Where a document read from ``file`` comes from: its absolute path (links kept as
    named), as the store keeps it."""
    return storable_path(os.path.abspath(file))


def _file_digest(file: Path, source: str, date: str | None) -> str:
    """The content hash of ``file``, read in pieces, once it is known to be a regular file.

    The file is opened without blocking and checked on the open descriptor, so a FIFO or
    a device given by name (or swapped in after a check) is refused at once: read whole,
    a FIFO never ends and ``/dev/zero`` fills memory before any bound applies."""
    try:
        handle = os.open(file, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise IngestError(
                file, "a link that loops, or a chain of more than 40 links", "give the file itself"
            ) from exc
        raise IngestError(
            file,
            f"cannot read the file ({exc.strerror or exc})",
            "check the path and its permissions",
        ) from exc
    with os.fdopen(handle, "rb") as opened:
        if not stat.S_ISREG(os.fstat(opened.fileno()).st_mode):
            raise IngestError(
                file, "not a regular file (a FIFO, device or socket)", "give a regular file"
            )
        try:
            return content_hash(iter(lambda: opened.read(HASH_PIECE), b""), source, date)
        except OSError as exc:
            raise IngestError(
                file, f"cannot read the file ({exc.strerror or exc})", "check the file"
            ) from exc


def addressing(document: PreparedDocument) -> list[str]:
    """A warning for each line of ``document`` that gives orders to its reader or a model
    (text/addressing.py): kept as text, never obeyed, and shown to the reviewer."""
    return [
        f"line {line.position} speaks to its reader or a model, kept as text and never "
        f"obeyed: {line.text[:80]!r}"
        for line in document.lines
        if addresses_a_model(line.text)
    ]


def replaced_from(
    document: PreparedDocument, origin: str | None, given: str | None
) -> str | None:
    """A warning when ``document`` replaces a stored one of its name that was read from
    another file, or from a text (``origin`` and ``given``: where the stored one was read
    from, as Store.document_origin says); None when it comes from the same place."""
    # A document stored before origins were kept has only the path it was given by.
    before = origin or (storable_path(os.path.abspath(given)) if given else None)
    if before == document.origin:
        return None
    was = f"read from {origin or given}" if before else "given as a text"
    now = f"from {document.origin}" if document.origin else "with a text"
    return f"{document.name}: replaces the document {was}, {now}"


def checked_date(date: str | None, name: str | None) -> str | None:
    """An ISO 8601 date (or date-time), normalised, or an IngestError naming the document."""
    if date is None:
        return None
    try:
        return datetime.fromisoformat(date.strip()).isoformat()
    except ValueError as exc:
        raise IngestError(
            name, f"date {date!r} is not an ISO 8601 date", "write it as YYYY-MM-DD"
        ) from exc


def index_stages(progress: Progress | None) -> Progress | None:
    """An ingest's index stages told to its ``progress``, named apart from its files
    (``"index: meaning vectors"``)."""
    if progress is None:
        return None
    told = progress
    return lambda done, total, stage: told(done, total, INDEX_STAGE + stage)
