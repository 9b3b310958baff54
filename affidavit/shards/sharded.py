"""A sharded store's own calls: what ShardedMemory (memory/memory.py) does its own way, over
the calls every memory makes alike (memory/common.py). Every call is asked of the shards
(as Ray actors with ``cluster=``, else in this process). A search, an answer and an audit
are made once, on the driver, over every shard's lines (archive/sharded_archive.py): as one store
holding them all makes them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affidavit import ingest
from affidavit.archive import (
    Archive,
    Call,
    LocalShards,
    OpensShard,
    RayShards,
    ShardCalls,
    ShardedArchive,
)
from affidavit.batch import Sharing
from affidavit.errors import InputError, StoreError
from affidavit.index import DocumentFacts, DocumentHit, PhraseQuestion, Scope, meaning_channel
from affidavit.options import Filters, Progress
from affidavit.results import Evidence, UnreadFile
from affidavit.shards.holdings import ShardHoldings
from affidavit.shards.manifest import open_manifest
from affidavit.store import CachedReply, Replies

if TYPE_CHECKING:  # ingest's readers are imported when an ingest reads (memory/common.py)
    from affidavit.ingest import Ingesting, NamedFiles


class ShardedCalls(ShardHoldings):
    """A sharded store's own calls (see the module's docstring); ``opens_shard`` opens each
    shard's store (memory/shard.py's Shard)."""

    opens_shard: OpensShard
    _opened_with: dict[str, Any]
    # A round of calls asked of the shards, and a round of their parts in the driver's
    # answer (archive/shard_group.py's ShardCalls).
    _ask: Callable[[Mapping[int, Call]], dict[int, Any]]
    _parts_asked: Callable[[Mapping[int, tuple[str, tuple[Any, ...]]]], dict[int, Any]]

    def _open(self, path: str | Path | None, *, shards: int | None, cluster: str | None) -> None:
        if path is None:
            raise InputError("path", "a sharded store needs a folder", "pass a folder's path")
        self._manifest = open_manifest(path, shards)
        options = self._opened_with
        # The driver reorders every shard's lines late, as one store reorders its own.
        channel = meaning_channel(options["dense"], options["encoder"], options["reranker"])
        self._reranker = channel[1]
        paths = [str(p) for p in self._manifest.paths()]
        self._shards: LocalShards | RayShards = (
            LocalShards(self.opens_shard, paths, options)
            if cluster is None
            else RayShards(self.opens_shard, paths, options, cluster)
        )
        self._calls = ShardCalls(self._shards, self._manifest.count)
        self._ask, self._parts_asked = self._calls.ask, self._calls.parts
        # Every shard's word counts, held between questions (archive/store_counts.py).
        self._counts = self._calls.counts

    @property
    def shard_count(self) -> int:
        return self._manifest.count

    # -- the shards asked --

    def _each(
        self, method: str, *args: Any, only: Iterable[int] | None = None, **kwargs: Any
    ) -> list[Any]:
        """``method`` asked of every shard (or of ``only`` these), the replies in shard order."""
        chosen = range(self._manifest.count) if only is None else sorted(set(only))
        return list(self._ask({at: (method, args, kwargs) for at in chosen}).values())

    def _holders(self, names: Sequence[str]) -> dict[str, int]:
        """The shard each of ``names`` lives on: the one holding it, else its own by the rule."""
        held: dict[str, int] = {}
        for at, holding in enumerate(self._each("holding", list(names))):
            for name in holding:
                held.setdefault(name, at)
        return {name: held.get(name, self._manifest.shard_of(name)) for name in names}

    # -- lifecycle --

    def close(self) -> None:
        shards = getattr(self, "_shards", None)
        if shards is not None:
            shards.close()

    def build_indexes(self, *, progress: Progress | None = None, frames: bool = False) -> None:
        """Build each shard's indexes (``progress`` hears each shard done). A sharded store
        keeps no clause frames (its lines are judged on the driver): ``frames`` is refused."""
        if frames:
            raise InputError(
                "frames",
                "a sharded store keeps no clause frames (verify reads them as it judges)",
                "call build_indexes() without frames=True",
            )
        for at in range(self._manifest.count):
            self._each("build_indexes", only=[at])
            if progress is not None:
                progress(at + 1, self._manifest.count, "index: shards")

    @property
    def path(self) -> str | None:
        return str(self._manifest.folder)

    # -- ingest: all or nothing across the shards --

    def _ingest_files(
        self, named: NamedFiles, warnings: list[str], failed: list[UnreadFile], how: Ingesting
    ) -> None:
        """Every shard first reads its files (on its Ray worker, all at once), and only
        when none failed (or with ``keep_going``) does each write them and bring its
        indexes up to date. ``progress`` hears the files as a whole when every shard has
        read its own, then the indexes."""
        progress = how.progress
        homes = self._holders([doc_name for _, doc_name in named])
        parts: dict[int, list[tuple[str, str]]] = {}
        for file, doc_name in named:
            parts.setdefault(homes[doc_name], []).append((str(file), doc_name))
        if progress is not None:
            progress(0, len(named), named[0][1] if named else "")
        options: dict[str, Any] = {"source": how.source, "date": how.date, "limits": how.limits}
        options["replace_trusted"] = how.replace_trusted
        try:
            read = self._ask({at: ("prepare", (pairs,), options) for at, pairs in parts.items()})
        except BaseException:
            self._each("discard", only=parts)
            raise
        for at in sorted(read):
            said, unread = read[at]
            warnings += said
            failed += unread
        if failed and not how.keep_going:
            self._each("discard", only=parts)
            raise ingest.unread_error(failed)
        if progress is not None:
            progress(len(named), len(named), "")
            progress(0, 1, "index: shards")
        written = self._committed(parts, how.replace_trusted)
        for at in sorted(written):
            warnings += written[at]
        self._ready()
        if progress is not None:
            progress(1, 1, "index: shards")

    def _ready(self) -> None:
        """Every shard made ready for the partition path (ShardParts.ready) in the ingest,
        not at the first question (at 1 GB on 8 shards: 4.0 s, against 0.3 s before)."""
        asked = self._counts.asked_of(PhraseQuestion([], frozenset()))
        self._parts_asked({at: ("ready", (asked[at],)) for at in range(self._manifest.count)})

    def _committed(self, parts: Mapping[int, object], replace_trusted: bool) -> dict[int, Any]:
        """Each prepared shard's spool written (its warnings), or a StoreError naming the
        shards that wrote before one failed: nothing read is left unwritten silently."""
        calls = {at: ("commit", (), {"replace_trusted": replace_trusted}) for at in parts}
        replies, failures = self._shards.ask_each(calls)
        if failures:
            at, failure = min(failures.items())
            wrote = ", ".join(self._manifest.files[w] for w in sorted(replies)) or "none"
            self._each("discard", only=parts)
            raise StoreError(
                self._manifest.folder / self._manifest.files[at],
                f"failed while writing its documents ({failure}); shards that wrote: {wrote}",
                "run the same ingest again: what is stored is skipped",
            ) from failure
        return {at: self._calls.warned(reply) for at, reply in sorted(replies.items())}

    def _ingest_text(
        self, text: str, name: str, date: str | None, source: str, trusted: bool
    ) -> str:
        options = {"name": name, "date": date, "source": source, "replace_trusted": trusted}
        at = self._holders([name])[name]
        return self._ask({at: ("ingest_text", (text,), options)})[at]

    def _ingest_dialogue(self, sessions: Any, name: str, source: str, trusted: bool) -> list[str]:
        """Every session of a conversation goes to one shard (the one its name chooses),
        so its sessions are written in one transaction."""
        at = self._manifest.shard_of(name)
        if isinstance(sessions, Path):
            sessions = str(sessions)
        options = {"name": name, "source": source, "replace_trusted": trusted}
        return self._ask({at: ("ingest_dialogue", (sessions,), options)})[at]

    def _removed(self, document: str) -> int | None:
        holders = [at for at, held in enumerate(self._each("holding", [document])) if held]
        return sum(self._each("remove", document, only=holders)) if holders else None

    # -- what an answer, an audit and a search read: every shard's lines, merged --

    def _reading(self) -> AbstractContextManager[None]:
        return nullcontext()  # each shard reads its own snapshot, call by call

    def _guarded(self) -> AbstractContextManager[None]:
        return nullcontext()  # each shard's failures leave it as its StoreError

    def _archive(self) -> Archive:
        return self._sharded_archive()

    def _sharded_archive(self) -> ShardedArchive:
        """The shards' documents for one call (archive/sharded_archive.py)."""
        return ShardedArchive(self._parts_asked, self._manifest.count, self._counts, self._reranker)

    def _scope(self, filters: Filters) -> Scope | None:
        """The scope ``filters`` choose among every shard's documents, as one store's."""
        if filters.is_empty():
            return None
        facts = self._each("part", "document_facts")
        return Scope.resolve(filters, [DocumentFacts(*f) for listed in facts for f in listed])

    def _reply_cache(self) -> Replies:
        return _FirstShardReplies(self._parts_asked)  # a model engine's, in the first shard

    def _lines(self, query: str, k: int, scope: Scope | None) -> list[Evidence]:
        """Each shard's ``k`` best lines under the whole store's word statistics, merged
        by score."""
        return self._sharded_archive().search(query, k, scope)

    def _documents_for(self, query: str, k: int) -> list[DocumentHit]:
        return self._sharded_archive().documents(query, k)

    def _sharing(self, workers: int | None, cluster: str | None) -> Sharing | None:
        """None: each question is asked of every shard at once, so the shards' cluster
        (``cluster=`` when the store was opened) does the work, not ``workers``."""
        if cluster is not None or workers not in (None, 1):
            raise InputError(
                "cluster" if cluster is not None else "workers",
                "a sharded store answers a batch on its shards",
                "open it with Memory(folder, cluster=...) and leave workers and cluster out",
            )
        return None

    def line(self, document: str, position: int) -> Evidence | None:
        found = [line for line in self._each("line", document, position) if line is not None]
        return found[0] if found else None


class _FirstShardReplies:
    """A model engine's reply cache, kept in the store of a sharded store's first shard."""

    def __init__(self, ask: Callable[[Mapping[int, tuple[str, tuple[Any, ...]]]], dict]) -> None:
        self._ask = ask

    def get(self, key: str) -> CachedReply | None:
        return self._ask({0: ("reply", (key,))})[0]

    def put(self, key: str, model: str, prompt_version: str, reply: CachedReply) -> None:
        self._ask({0: ("keep_reply", (key, model, prompt_version, reply))})
