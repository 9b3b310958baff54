"""One store's memory: a store file (or one in memory) read through its retriever. The calls
every memory makes alike come from memory/common.py; here is what one store does its own
way: how it opens, what an answer reads (StoreArchive), where a batch's workers come
from, and the entity graph's and records' calls (records/calls.py, store/upkeep.py,
index/health.py, memory/ingesting.py). Memory is this, at the front door; so is each
shard of a sharded store (memory/shard.py)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from affidavit.archive import Archive, StoreArchive, keep_every_frame
from affidavit.batch import Opener, Sharing
from affidavit.engine import DefaultEngine, ListsEvents
from affidavit.errors import InputError
from affidavit.index import (
    DocumentHit,
    HealthCalls,
    Retriever,
    Scope,
    bundled_encoder,
    meaning_channel,
)
from affidavit.ingest import StoredNames
from affidavit.memory.common import MemoryCalls
from affidavit.memory.ingesting import IngestCalls
from affidavit.options import Filters, Progress
from affidavit.records import Event, RecordCalls, Records
from affidavit.results import EntityCount, Evidence, Neighbour
from affidavit.store import (
    Replies,
    Store,
    StoredReplies,
    UpkeepCalls,
    guarded,
    reading,
    reads,
    store_errors,
)
from affidavit.text import entity_pipeline, parse_pipeline


class StoreMemory(IngestCalls, RecordCalls, UpkeepCalls, HealthCalls, MemoryCalls):
    """A memory over one store (see the module's docstring)."""

    def _open(self, path: str | Path | None, *, shards: int | None, cluster: str | None) -> None:
        if shards is not None or cluster is not None:
            raise InputError(
                "shards" if shards is not None else "cluster",
                f"{str(path)!r} is not a sharded store's folder",
                "a sharded store is made in a folder: Memory(folder, shards=N)",
            )
        opened = self._opened_with
        self._store = Store(path, timeout=opened["timeout"], read_only=opened["read_only"])
        self._replies = StoredReplies(self._store)
        self._records = Records(self._store)
        self._names = StoredNames()  # the stored names' keys, for the look-alike check
        encoder, reranker = meaning_channel(opened["dense"], opened["encoder"], opened["reranker"])
        self._retriever = Retriever(
            self._store,
            speaking_threshold=self.speaking_threshold,
            encoder=encoder,
            reranker=reranker,
        )

    def _list_events(self, lines: Sequence[Evidence]) -> Sequence[Event]:
        """What the engine lists of ``lines`` for distil; the default engine's reading of
        each sentence's tree when the engine lists none of its own."""
        lister = self.engine if isinstance(self.engine, ListsEvents) else DefaultEngine()
        return lister.events(lines)

    # -- lifecycle --

    def close(self) -> None:
        """Close the store (safe to call twice); a file store is left with a warm index."""
        try:
            if self._store.is_open and self._store.path is not None:
                self._retriever.leave_warm()
        finally:
            self._store.close()
            self._retriever.forget()

    @store_errors
    def build_indexes(self, *, progress: Progress | None = None, frames: bool = False) -> None:
        """Build what the next question would otherwise pay for (the word index, the
        meaning vectors of new lines, the entity graph) and cache it in a file store; ingest
        does at its end, ingest_text and ingest_dialogue for their lines (the word index's
        additions are joined at the first question, and what they built is cached at
        close). With ``frames``, also read the clause frames of every line of its English
        documents that has none kept (about 5 ms a line), which ``verify`` otherwise reads
        the first time it judges a line.
        ``progress(done, total, stage)`` hears each stage and the lines encoded."""
        self._retriever.build(progress)
        if frames:
            with guarded(self._store):
                keep_every_frame(self._store, progress)

    @property
    def path(self) -> str | None:
        return self._store.path

    # -- what an answer, an audit and a search read --

    def _reading(self) -> AbstractContextManager[None]:
        return reading(self._store)

    def _guarded(self) -> AbstractContextManager[None]:
        return guarded(self._store)

    def _scope(self, filters: Filters) -> Scope | None:
        return self._retriever.scope(filters)

    def _archive(self) -> Archive:
        return StoreArchive(self._retriever)

    def _reply_cache(self) -> Replies:
        return self._replies

    def _lines(self, query: str, k: int, scope: Scope | None) -> list[Evidence]:
        return self._retriever.search(query, k, scope)

    def _documents_for(self, query: str, k: int) -> list[DocumentHit]:
        return self._retriever.fused_documents(query)[:k]

    def _removed(self, document: str) -> int | None:
        told = self._records.told_by_name(document)
        if told is not None:
            raise InputError(
                "document",
                f"{document!r} is the line of told record {told.id}",
                f"forget the record instead: forget({told.id})",
            )
        removed = self._store.remove_document(document)
        if removed is not None:
            self._retriever.words()  # the index lets the document go now, not at the next ask
        return removed

    def _sharing(self, workers: int | None, cluster: str | None) -> Sharing | None:
        """Workers elsewhere open this store read-only, as this memory was opened; none
        can share an in-memory store."""
        if self.path is None:
            return None
        options: dict[str, Any] = {**self._opened_with, "read_only": True}
        opens = type(self)

        def forked(path: str) -> StoreMemory:
            # Forked from here, a worker has this memory's indexes (pages shared until
            # written): reading them again costs each what this one paid. NOTE: SQuAD
            # dev store, 2 workers: first row after 4.4 s reading them, 3.6-4.0 s not.
            worker = opens(path, **options)
            worker._retriever.adopt(self._retriever)  # the same store file
            return worker

        bundled = options["dense"] and options["encoder"] is None  # its models preload
        return Sharing(
            self.path,
            Opener(opens, options),
            preload=(bundled_encoder, entity_pipeline, parse_pipeline) if bundled else (),
            forked=forked,
            warm=None if self._store.read_only else self.build_indexes,
        )

    # -- the entity graph --

    @reads
    def line(self, document: str, position: int) -> Evidence | None:
        """The stored line at ``position`` of ``document`` (as a citation names it), or None."""
        return self._retriever.line_at(document, position)

    @reads
    def entities(self, *, top: int = 50) -> list[EntityCount]:
        """The store's entities, most mentioned first (ties by name): see
        index/entities/mining.py."""
        return self._retriever.entity_counts(top)

    @reads
    def neighbours(self, entity: str, *, top: int = 10) -> list[Neighbour]:
        """The entities mentioned together with ``entity``, heaviest edge first.

        Each carries its weight (Dunning's log-likelihood ratio) and the lines that
        witness it; an entity no line mentions with it is not a neighbour.
        """
        return self._retriever.neighbours(entity, top)

    @reads
    def cooccurrences(self, a: str, b: str) -> list[Evidence]:
        """The lines that mention both entities, in store order."""
        return self._retriever.cooccurrences(a, b)
