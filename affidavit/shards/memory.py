"""A sharded store behind the Memory front door: ``Memory(folder, shards=N)`` makes one,
``Memory(folder)`` opens it again. Every call is asked of the shards (as Ray actors with
``cluster=``, else in this process). A search, an answer and an audit are made once, here,
over every shard's lines (shards/archive.py): as one store holding them all makes them."""

from __future__ import annotations

import warnings as warnings_module
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from affidavit.answer.ask import answer
from affidavit.answer.verify import verify
from affidavit.batch import BatchReport, run_batch
from affidavit.engine.default.engine import DefaultEngine
from affidavit.engine.protocol import Engine
from affidavit.errors import IngestError, InputError, StoreError, readable
from affidavit.gates.entry import admit
from affidavit.index.entities.phrases import PhraseQuestion
from affidavit.index.meaning.encoder import Encoder
from affidavit.index.meaning.late import Reranker, meaning_channel
from affidavit.index.retrieval import DocumentHit
from affidavit.index.scope import Scope
from affidavit.index.scope import StoredDocument as Filtered
from affidavit.ingest.bounded import IngestLimits
from affidavit.ingest.files import checked_date, unread_error
from affidavit.ingest.naming import named_files
from affidavit.memory import Memory, Progress, checked_ask
from affidavit.options import Filters
from affidavit.results import (
    Answer,
    Evidence,
    IngestReport,
    UnreadFile,
    Verdict,
)
from affidavit.shards.archive import ShardedArchive
from affidavit.shards.counts import StoreCounts
from affidavit.shards.group import Call, LocalShards, RayShards
from affidavit.shards.holdings import ShardHoldings
from affidavit.shards.manifest import is_sharded, open_manifest
from affidavit.store.replies import CachedReply
from affidavit.trust import SPEAKING_THRESHOLD

# The calls of a shard that change its lines (and so its word counts).
_WRITES = frozenset({"commit", "ingest_text", "ingest_dialogue", "remove"})


class ShardedMemory(ShardHoldings, Memory):
    """A store split by document over N shard files in one folder, each shard held open on
    its own (a Ray actor with ``cluster=``): each finds its lines, and the answer is made
    once over them all, as one store makes it. Made and opened through Memory::

        with Memory("estate/", shards=4, cluster="local") as memory:
            memory.ingest("policies/")
            answer = memory.ask("Who approves a purchase over 10,000 euros?")
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        shards: int | None = None,
        cluster: str | None = None,
        engine: Engine | None = None,
        speaking_threshold: float = SPEAKING_THRESHOLD,
        encoder: Encoder | None = None,
        reranker: Reranker | None = None,
        dense: bool = True,
        timeout: float = 5.0,
        read_only: bool = False,
    ) -> None:
        if path is None:
            raise InputError("path", "a sharded store needs a folder", "pass a folder's path")
        self._manifest = open_manifest(path, shards)
        self.engine = engine if engine is not None else DefaultEngine()
        self.speaking_threshold = speaking_threshold
        options: dict[str, Any] = {"engine": self.engine, "encoder": encoder, "dense": dense}
        options |= {"speaking_threshold": speaking_threshold, "reranker": reranker}
        options |= {"timeout": timeout, "read_only": read_only}
        # The driver reorders every shard's lines late, as one store reorders its own.
        self._reranker = meaning_channel(dense, encoder, reranker)[1]
        paths = [str(p) for p in self._manifest.paths()]
        self._shards: LocalShards | RayShards = (
            LocalShards(paths, options) if cluster is None else RayShards(paths, options, cluster)
        )
        # Every shard's word counts, held between questions (shards/counts.py).
        self._counts = StoreCounts(self._parts_asked, self._manifest.count)

    @classmethod
    def owns(cls, path: str | Path | None) -> bool:
        """Whether ``path`` is a sharded store's folder (Memory opens it as this class)."""
        return is_sharded(path)

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

    def _ask(self, calls: Mapping[int, Call]) -> dict[int, Any]:
        written = [at for at, (method, _, _) in calls.items() if method in _WRITES]
        if written:  # dropped first: a write that fails part way may have changed them
            self._counts.forget(written)
        replies, failures = self._shards.ask_each(calls)
        if failures:
            raise min(failures.items())[1]  # the first shard's, whatever order they failed in
        return {at: self._warned(reply) for at, reply in sorted(replies.items())}

    @staticmethod
    def _warned(reply: tuple[Any, list[tuple[str, type[Warning]]]]) -> Any:
        """A shard's reply, its warnings given again here (a Ray worker's are not seen)."""
        answer, warned = reply
        for message, category in warned:
            warnings_module.warn(message, category, stacklevel=5)
        return answer

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

    def build_indexes(self, *, progress: Progress | None = None) -> None:
        """Build each shard's indexes (``progress`` hears each shard done)."""
        for at in range(self._manifest.count):
            self._each("build_indexes", only=[at])
            if progress is not None:
                progress(at + 1, self._manifest.count, "index: shards")

    @property
    def path(self) -> str | None:
        return str(self._manifest.folder)

    # -- ingest --

    def ingest(
        self,
        path: str | Path | Sequence[str | Path],
        *,
        name: str | None = None,
        date: str | None = None,
        source: str = "document",
        progress: Progress | None = None,
        limits: IngestLimits | None = None,
        replace_trusted: bool = False,
        keep_going: bool = False,
    ) -> IngestReport:
        """As Memory.ingest, all or nothing across the shards: every shard first reads its
        files (on its Ray worker, all at once), and only when none failed (or with
        ``keep_going``) does each write them and bring its indexes up to date.
        ``progress`` hears the files as a whole when every shard has read its own, then
        the indexes."""
        admit(source, threshold=self.speaking_threshold)
        named_as = str(path) if isinstance(path, str | Path) else ", ".join(map(str, path))
        date = checked_date(date, named_as)
        named, warnings = named_files(path, name)
        homes = self._holders([doc_name for _, doc_name in named])
        parts: dict[int, list[tuple[str, str]]] = {}
        for file, doc_name in named:
            parts.setdefault(homes[doc_name], []).append((str(file), doc_name))
        if progress is not None:
            progress(0, len(named), named[0][1] if named else "")
        options = {
            "source": source,
            "date": date,
            "limits": limits,
            "replace_trusted": replace_trusted,
        }
        try:
            read = self._ask({at: ("prepare", (pairs,), options) for at, pairs in parts.items()})
        except BaseException:
            self._each("discard", only=parts)
            raise
        failed: list[UnreadFile] = []
        for at in sorted(read):
            said, unread = read[at]
            warnings += said
            failed += unread
        if failed and not keep_going:
            self._each("discard", only=parts)
            raise unread_error(failed)
        if progress is not None:
            progress(len(named), len(named), "")
            progress(0, 1, "index: shards")
        written = self._committed(parts, replace_trusted)
        for at in sorted(written):
            warnings += written[at]
        self._ready()
        if progress is not None:
            progress(1, 1, "index: shards")
        unread_names = {file.document for file in failed}
        stored = (doc_name for _, doc_name in named if doc_name not in unread_names)
        return IngestReport(stored, warnings, failed)

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
        return {at: self._warned(reply) for at, reply in sorted(replies.items())}

    def ingest_text(
        self,
        text: str,
        *,
        name: str,
        date: str | None = None,
        source: str = "document",
        replace_trusted: bool = False,
    ) -> str:
        if not name or not name.strip():
            raise IngestError(None, "a text needs a document name", "pass name='...'")
        options = {"name": name, "date": date, "source": source, "replace_trusted": replace_trusted}
        at = self._holders([readable(name, "the document name")])[name]
        return self._ask({at: ("ingest_text", (text,), options)})[at]

    def ingest_dialogue(
        self,
        sessions: Any,
        *,
        name: str,
        source: str = "document",
        replace_trusted: bool = False,
    ) -> list[str]:
        """As Memory.ingest_dialogue; every session of a conversation goes to one shard
        (the one its name chooses), so its sessions are written in one transaction."""
        if not name or not name.strip():
            raise IngestError(None, "a dialogue needs a name", "pass name='...'")
        at = self._manifest.shard_of(name)
        if isinstance(sessions, Path):
            sessions = str(sessions)
        options = {"name": name, "source": source, "replace_trusted": replace_trusted}
        return self._ask({at: ("ingest_dialogue", (sessions,), options)})[at]

    # -- retrieval, answers, audits --

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        documents: str | Sequence[str] | None = None,
        source: str | Sequence[str] | None = None,
        min_trust: float | None = None,
        since: str | None = None,
        until: str | None = None,
    ) -> list[Evidence]:
        """As Memory.search: each shard's ``k`` best lines under the whole store's word
        statistics, merged by score."""
        readable(query, "the query")
        if k <= 0:
            return []
        scope = self._scope_of(Filters(documents, source, min_trust, since, until))
        return self._archive().search(query, k, scope)

    def search_documents(self, query: str, *, k: int = 10) -> list[DocumentHit]:
        """As Memory.search_documents: every shard's documents ranked together."""
        readable(query, "the query")
        if k <= 0:
            return []
        return self._archive().documents(query, k)

    def _archive(self) -> ShardedArchive:
        """The shards' documents for one call (shards/archive.py)."""
        return ShardedArchive(self._parts_asked, self._manifest.count, self._counts, self._reranker)

    def ask(
        self,
        question: str,
        *,
        asked_at: str | None = None,
        speaker: str | None = None,
        min_probability: float | None = None,
        documents: str | Sequence[str] | None = None,
        source: str | Sequence[str] | None = None,
        min_trust: float | None = None,
        since: str | None = None,
        until: str | None = None,
    ) -> Answer:
        """As Memory.ask, answered once over every shard's lines (shards/archive.py): each
        shard finds its lines, and the driver draws the evidence block from the merged
        ranking, proposes and gates as one store does."""
        checked_ask(question, speaker, min_probability)
        filters = Filters(documents, source, min_trust, since, until)
        use_replies = getattr(self.engine, "use_replies", None)
        if use_replies is not None:  # a model engine keeps its replies in the first shard
            use_replies(_FirstShardReplies(self._parts_asked))
        return answer(
            question,
            self._archive(),
            self.engine,
            asked_at=asked_at,
            speaker=speaker,
            min_probability=min_probability,
            scope=self._scope_of(filters),
        )

    def _parts_asked(self, calls: Mapping[int, tuple[str, tuple[Any, ...]]]) -> dict[int, Any]:
        """Each shard's part (shards/parts.py) in the driver's answer."""
        return self._ask({at: ("part", (name, *args), {}) for at, (name, args) in calls.items()})

    def _scope_of(self, filters: Filters) -> Scope | None:
        """The scope ``filters`` choose among every shard's documents, as one store's."""
        if filters.is_empty():
            return None
        facts = self._each("part", "document_facts")
        return Scope.resolve(filters, [Filtered(*f) for listed in facts for f in listed])

    def verify(
        self,
        text: str,
        *,
        question: str | None = None,
        documents: str | Sequence[str] | None = None,
        source: str | Sequence[str] | None = None,
        min_trust: float | None = None,
        since: str | None = None,
        until: str | None = None,
    ) -> Verdict:
        """As Memory.verify, audited once over every shard's lines (shards/archive.py)."""
        readable(text, "the text to verify")
        if question is not None:
            readable(question, "the question")
        filters = Filters(documents, source, min_trust, since, until)
        return verify(text, self._archive(), question=question, scope=self._scope_of(filters))

    def batch(
        self,
        questions: str | Path | Iterable[str | Mapping[str, Any]],
        *,
        workers: int | None = None,
        progress: bool | Callable[[int, int], None] = True,
        out: str | Path | None = None,
        cluster: str | None = None,
        keep_rows: bool = True,
    ) -> BatchReport:
        """As Memory.batch; each question is asked of every shard at once, so the shards'
        cluster (``cluster=`` when the store was opened) does the work, not ``workers``."""
        if cluster is not None or workers not in (None, 1):
            raise InputError(
                "cluster" if cluster is not None else "workers",
                "a sharded store answers a batch on its shards",
                "open it with Memory(folder, cluster=...) and leave workers and cluster out",
            )
        return run_batch(
            self, questions, workers=1, progress=progress, out=out, keep_rows=keep_rows
        )

    def remove(self, document: str) -> int:
        readable(document, "the document name")
        holders = [at for at, held in enumerate(self._each("holding", [document])) if held]
        if not holders:
            raise InputError(
                "document", f"no document {document!r} in the store", "list them with documents()"
            )
        return sum(self._each("remove", document, only=holders))

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


Memory._open_sharded_as(ShardedMemory)
