"""One shard: an ordinary store that can take its part of an ingest in two steps, so that
a sharded ingest is all or nothing.

``prepare`` reads the shard's files into documents and spools them to a file beside the
shard, touching nothing in the store; only when every shard has prepared without an
error does each ``commit`` write its spool in one transaction. A bad file anywhere
raises before any shard is written, and every spool is discarded."""

from __future__ import annotations

import gc
import os
import pickle
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affidavit.archive import Heard, ShardParts, heard
from affidavit.errors import AffidavitError
from affidavit.gates import refused_downgrades
from affidavit.memory.one_store import StoreMemory
from affidavit.results import UnreadFile
from affidavit.runtime import give_back_freed_memory
from affidavit.store import PreparedDocument

if TYPE_CHECKING:
    from affidavit.ingest import IngestLimits  # read when typed only: its module reads files


class Shard(StoreMemory):
    """A shard's store, opened as one store's Memory is, with the two steps of a sharded
    ingest, and its part in the driver's answer (archive/shard_parts.py)."""

    _spool: Path | None = None
    _parts: ShardParts | None = None

    def call(self, method: str, args: Sequence[Any], kwargs: dict[str, Any]) -> Heard:
        """``method(*args, **kwargs)`` of this store, and the warnings it gave (a Ray
        worker's would be lost; the sharded store gives them again where it was called)."""
        return heard(getattr(self, method), args, kwargs)

    @property
    def parts(self) -> ShardParts:
        """This shard's part in the driver's answer (archive/shard_parts.py), made once."""
        if self._parts is None:
            self._parts = ShardParts(self._retriever, self._replies)
        return self._parts

    def part(self, name: str, *args: Any) -> Any:
        """The driver's archive's call ``name`` of this shard (archive/shard_parts.py)."""
        return getattr(self.parts, name)(*args)

    def holding(self, names: Sequence[str]) -> list[str]:
        """Which of ``names`` this shard holds a document of."""
        held = set(self.documents())
        return [name for name in names if name in held]

    def prepare(
        self,
        named: Sequence[tuple[str, str]],
        *,
        source: str,
        date: str | None,
        limits: IngestLimits | None,
        replace_trusted: bool,
    ) -> tuple[list[str], list[UnreadFile]]:
        """Read ``named`` (file, document name) into documents spooled beside the store,
        writing nothing in it; the readers' warnings and the files that could not be read
        (the driver says whether they fail the ingest). An IngestError (one that would
        replace a document of higher trust) leaves no spool."""
        self.discard()
        pairs = [(Path(file), name) for file, name in named]
        warnings: list[str] = []
        failed: list[UnreadFile] = []
        folder = Path(self.path).parent if self.path else None
        handle, spooled = tempfile.mkstemp(prefix=".spool-", dir=folder)
        try:
            with os.fdopen(handle, "wb") as spool:
                documents = self._prepared(pairs, warnings, failed, source, date, limits, None)
                if not replace_trusted:  # refused now, before any shard writes
                    documents = refused_downgrades(documents, self._store.document_source)
                for document in documents:
                    pickle.dump(document, spool, protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:
            os.unlink(spooled)
            raise
        self._spool = Path(spooled)
        unread = {file.document for file in failed}
        self._named = [(file, name) for file, name in pairs if name not in unread]
        return warnings, failed

    def commit(self, *, replace_trusted: bool) -> list[str]:
        """Write the spooled documents in one transaction and bring the indexes up to
        date; the near-copy and health warnings."""
        if self._spool is None:
            raise AffidavitError(f"{self.path}: commit without a prepared ingest")
        warnings: list[str] = []
        try:
            self._store_prepared(
                _spooled(self._spool), self._named, warnings, replace_trusted, None
            )
        finally:
            self.discard()
        self._read_back()
        return warnings

    def _read_back(self) -> None:
        """The indexes the ingest built, dropped and read again from the store's cache,
        as a reopened store reads them. What the ingest left in this worker's heap (its
        scratch, the graph's corpus as read) is given back before the questions come.
        NOTE: at 1 GB on 8 shards the largest worker peaked at 2,029 MB asking after its
        ingest, where the same store reopened peaked at 1,428 MB; at 100 MB the read-back
        takes about 1 s."""
        retriever = self._retriever
        retriever.leave_warm()  # everything cached under this generation first
        retriever.forget()
        gc.collect()
        give_back_freed_memory()
        retriever.words().warm_blocks()
        retriever.meaning()
        retriever.graph()
        # What the driver's partition path asks of it (archive/shard_entities.py).
        retriever.phrases()

    def discard(self) -> None:
        """Forget a prepared ingest (its spool deleted)."""
        if self._spool is not None:
            self._spool.unlink(missing_ok=True)
            self._spool = None


def _spooled(path: Path) -> Iterator[PreparedDocument]:
    with path.open("rb") as spool:
        while True:
            try:
                yield pickle.load(spool)
            except EOFError:
                return
