"""Files to prepared documents: each named file read within its bounds and split (one
file per core at a time), the unchanged ones skipped, with progress reported per file.

Memory.ingest writes what this yields in one transaction; nothing here touches the store
except through the ``known_hash`` lookup that says which documents are unchanged.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from affidavit.errors import IngestError
from affidavit.index.graph_build import usable_cores
from affidavit.ingest.bounded import (
    IngestLimits,
    Reading,
    abandon,
    finish_reading,
    read_bounded,
    start_reading,
)
from affidavit.ingest.pipeline import content_hash, prepare_document
from affidavit.ingest.readers import storable_path
from affidavit.ingest.sentences import splitters
from affidavit.store.prepared import PreparedDocument

Progress = Callable[[int, int, str], None]
# A file's work: None (unchanged), its reading and how to prepare what it reads, or done.
Job = (
    tuple[Reading, Callable[[list[Any]], PreparedDocument]]
    | tuple[PreparedDocument, list[str]]
    | None
)


def prepare_files(
    named: Sequence[tuple[Path, str]],
    *,
    known_hash: Callable[[str], str | None],
    source: str,
    trust: float,
    date: str | None,
    limits: IngestLimits,
    warnings: list[str],
    progress: Progress | None = None,
) -> Iterator[PreparedDocument]:
    """Each changed file of ``named`` (file, document name) as a prepared document, in
    order; what a reader left out is added to ``warnings``. ``progress(done, total,
    name)`` is called before each file and once at the end with ``done == total``.

    Files are read in bounded workers, one per core at a time, each with its own bounds
    (see bounded.py), and prepared here in order while the next ones are read; their
    sentences are split by splitters that live for the whole ingest (sentences.py).
    NOTE: splitting in each file's reader measured slower (84 ms a file against 32 here):
    a fork a file starts from this process's spaCy vocabulary, never warmed by the files
    before; the splitters' vocabularies warm over the files.
    """
    at_once = usable_cores() if limits.isolated and len(named) > 1 else 1
    upcoming = iter(named)
    started: deque[tuple[str, Job]] = deque()
    # Sentences are split on every core while the files are (ingest/sentences.py).
    with splitters(usable_cores() if len(named) > 1 else 1):
        try:
            for done in range(len(named)):
                while len(started) < at_once and (following := next(upcoming, None)) is not None:
                    file, doc_name = following
                    started.append(
                        (doc_name, _begin(file, doc_name, known_hash, source, trust, date, limits))
                    )
                doc_name, job = started.popleft()
                if progress is not None:
                    progress(done, len(named), doc_name)
                if job is None:  # unchanged
                    continue
                if isinstance(job[0], Reading):
                    reading, prepare = job
                    units, said = finish_reading(reading, limits)
                    job = (prepare(units), said)
                prepared, said = job
                warnings.extend(f"{doc_name}: {line}" for line in said)
                yield prepared
        finally:
            for _, job in started:
                if job is not None and isinstance(job[0], Reading):
                    abandon(job[0])
    if progress is not None:
        progress(len(named), len(named), "")


def _begin(
    file: Path,
    doc_name: str,
    known_hash: Callable[[str], str | None],
    source: str,
    trust: float,
    date: str | None,
    limits: IngestLimits,
) -> Job:
    """None for an unchanged document; else its reading, started, and how to prepare
    what it reads (or, unisolated, the prepared document and its warnings)."""
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise IngestError(
            file,
            f"cannot read the file ({exc.strerror or exc})",
            "check the path and its permissions",
        ) from exc
    digest = content_hash(data, source, date)
    del data  # the bounded reader reads the file again, in its own process
    if known_hash(doc_name) == digest:
        return None
    prepare = functools.partial(
        prepare_document,
        name=doc_name,
        digest=digest,
        path=storable_path(str(file)),
        date=date,
        source=source,
        trust=trust,
    )
    if not limits.isolated:
        units, said = read_bounded(file, limits)
        return prepare(units), said
    return start_reading(file, limits), prepare


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


# What an ingest's progress hears before an index stage's name, to tell it from a file's.
INDEX_STAGE = "index: "


def index_stages(progress: Progress | None) -> Progress | None:
    """An ingest's index stages told to its ``progress``, named apart from its files
    (``"index: meaning vectors"``)."""
    if progress is None:
        return None
    told = progress
    return lambda done, total, stage: told(done, total, INDEX_STAGE + stage)
