"""Files to prepared documents: each named file read within its bounds and split, the
unchanged ones skipped, with progress reported per file.

Memory.ingest writes what this yields in one transaction; nothing here touches the store
except through the ``known_hash`` lookup that says which documents are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path

from affidavit.errors import IngestError
from affidavit.ingest.bounded import IngestLimits, read_bounded
from affidavit.ingest.pipeline import content_hash, prepare_document
from affidavit.ingest.readers import storable_path
from affidavit.store.prepared import PreparedDocument

Progress = Callable[[int, int, str], None]


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
    name)`` is called before each file and once at the end with ``done == total``."""
    for done, (file, doc_name) in enumerate(named):
        if progress is not None:
            progress(done, len(named), doc_name)
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
            continue
        units, left_out = read_bounded(file, limits)
        warnings.extend(f"{doc_name}: {said}" for said in left_out)
        yield prepare_document(
            units,
            name=doc_name,
            digest=digest,
            path=storable_path(str(file)),
            date=date,
            source=source,
            trust=trust,
        )
    if progress is not None:
        progress(len(named), len(named), "")


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
