"""The front door: a Memory ingests documents (ingesting.py), finds evidence lines,
answers and audits. Every write is one transaction; every answer passes the exit gate or
is refused with a catalogued reason; every line carries the trust of its source, and
nothing below the speaking threshold is said or cited as fact."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from affidavit.answer.archive import StoreArchive
from affidavit.answer.ask import answer
from affidavit.answer.verify import verify
from affidavit.batch import BatchReport, Opener, Sharing, run_batch
from affidavit.engine.default.engine import DefaultEngine
from affidavit.engine.protocol import Engine, ListsEvents
from affidavit.errors import InputError, readable
from affidavit.index.health import HealthCalls
from affidavit.index.meaning.encoder import Encoder, bundled_encoder
from affidavit.index.meaning.late import Reranker, meaning_channel
from affidavit.index.retrieval import DocumentHit, Retriever
from affidavit.ingest.lookalike import StoredNames
from affidavit.memory.ingesting import IngestCalls, Progress
from affidavit.options import Filters
from affidavit.records.calls import RecordCalls
from affidavit.records.distil import Event
from affidavit.records.told import Records
from affidavit.results import Answer, EntityCount, Evidence, Neighbour, Verdict
from affidavit.store.calls import reads, store_errors
from affidavit.store.replies import StoredReplies
from affidavit.store.sqlite import Store
from affidavit.store.upkeep import UpkeepCalls
from affidavit.text.nlp import entity_pipeline, parse_pipeline
from affidavit.trust import SPEAKING_THRESHOLD


class Memory(IngestCalls, RecordCalls, UpkeepCalls, HealthCalls):
    """A store of documents as verbatim lines, searchable and answerable with citations.

    In short::

        with Memory("notes.sqlite") as memory:
            memory.ingest("contracts/")
            answer = memory.ask("When does the lease end?")
            verdict = memory.verify("The lease ends on 1 May 2025.")
    """

    # The class a sharded store's folder is opened as (affidavit/shards registers it).
    _sharded: ClassVar[Any] = None

    def __new__(cls, path: str | Path | None = None, **options: Any) -> Memory:
        # Memory(folder, shards=N) makes a sharded store and Memory(folder) opens one: the
        # front door is the same, the class behind it the sharded one.
        sharded = cls._sharded
        if cls is Memory and sharded is not None:
            if options.get("shards") is not None or sharded.owns(path):
                return super().__new__(sharded)
        return super().__new__(cls)

    @classmethod
    def _open_sharded_as(cls, sharded: type[Memory]) -> None:
        """Open a sharded store's folder as ``sharded`` (called once, by affidavit.shards)."""
        cls._sharded = sharded

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
        """Open (or create) a store; ``path=None`` keeps it in memory.

        ``dense`` turns the meaning channel on (the default) or off. ``encoder`` is any
        object with the Encoder protocol (a model2vec ``StaticModel``, say); the bundled
        multilingual static model by default. ``reranker`` reorders candidate lines (the
        Reranker protocol); by default late interaction over the encoder's word pieces
        when the encoder has them. A write waits up to ``timeout`` seconds for another
        process's write to finish, then raises StoreError naming the holder. A store file
        this process may not write is opened read-only: searched and asked, not written;
        ``read_only=True`` opens an existing store so whatever the permissions (a batch's
        workers do).

        ``shards=N`` makes a sharded store in the folder ``path`` (N stores and a
        manifest; documents split by a hash of their names); ``Memory(folder)`` opens it
        again. Its shards answer on Ray actors with ``cluster`` (``local``, ``auto`` or
        ``ray://HOST:PORT``, as ``ray.init`` takes), else in this process; see
        affidavit/shards. Both are for a sharded store only.
        """
        if shards is not None or cluster is not None:
            raise InputError(
                "shards" if shards is not None else "cluster",
                f"{str(path)!r} is not a sharded store's folder",
                "a sharded store is made in a folder: Memory(folder, shards=N)",
            )
        self._store = Store(path, timeout=timeout, read_only=read_only)
        # How this Memory was opened, so a batch's workers open the same one.
        self._opened_with: dict[str, Any] = {
            "dense": dense,
            "speaking_threshold": speaking_threshold,
            "encoder": encoder,
            "reranker": reranker,
        }
        self._replies = StoredReplies(self._store)
        self._records = Records(self._store)
        self._names = StoredNames()  # the stored names' keys, for the look-alike check
        self.engine: Engine = engine if engine is not None else DefaultEngine()
        self.speaking_threshold = speaking_threshold
        encoder, reranker = meaning_channel(dense, encoder, reranker)
        self._retriever = Retriever(
            self._store, speaking_threshold=speaking_threshold, encoder=encoder, reranker=reranker
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
    def build_indexes(self, *, progress: Progress | None = None) -> None:
        """Build what the next question would otherwise pay for (the word index, the
        meaning vectors of new lines, the entity graph) and cache it in a file store; ingest
        does at its end, ingest_text and ingest_dialogue for their lines (the word index's
        additions are joined at the first question, and what they built is cached at
        close).
        ``progress(done, total, stage)`` hears each stage and the lines encoded."""
        self._retriever.build(progress)

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def path(self) -> str | None:
        return self._store.path

    # -- retrieval, answers, audits --

    @reads
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
        """The ``k`` lines that best match ``query``, best first (ties in document order).

        Lines of every trust are shown, each with its ``trust``; only lines at or above
        the speaking threshold can be cited by ask() or support a verify().
        ``documents``, ``source``, ``min_trust``, ``since`` and ``until`` choose the
        documents searched, as ask's do.
        """
        readable(query, "the query")
        scope = self._retriever.scope(Filters(documents, source, min_trust, since, until))
        return self._retriever.search(query, k, scope)

    @reads
    def search_documents(self, query: str, *, k: int = 10) -> list[DocumentHit]:
        """The ``k`` documents that best match ``query``, best first.

        Documents are ranked by reciprocal rank fusion (K = 60, order only) of the word
        ranking (each document's best line) and the meaning ranking (its profiles), so
        a question in another language, or in other words, still finds its document.
        With ``dense=False`` the word ranking alone decides.
        """
        if k <= 0:
            return []
        return self._retriever.fused_documents(readable(query, "the query"))[:k]

    @reads
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
        """Answer ``question`` from the store with citations, or refuse and say why.

        ``asked_at`` (ISO day, default: none) is the day "how long ago" counts to;
        ``speaker`` is who asks, so an English question's "I", "me" and "my" are read as
        that name (the audit's ``read_as`` shows the question as read).
        ``min_probability`` (0 to 1) is the reader's probability below which an answer
        it judges is refused as ``unlikely``; by default the shipped threshold, chosen on
        SQuAD 2.0 where half the questions have no answer. Lower it where most questions
        have one (0 answers whatever the gate passes); the gate's tiers hold either way.

        The evidence may be limited to some documents: ``documents`` (a name, or a list
        of names and glob patterns such as ``"licences/*.pdf"``), ``source`` (a source of
        ``affidavit.Source``, or several), ``min_trust`` (0 to 1) and ``since``/``until``
        (ISO days, the documents' own dates, both ends included; an undated document is
        outside any range). Every filter given must hold. Nothing outside them is read,
        counted or cited (the audit's ``scope`` says what was asked and which documents
        matched). A name or pattern that matches no stored document is an InputError.
        """
        checked_ask(question, speaker, min_probability)
        use_replies = getattr(self.engine, "use_replies", None)
        if use_replies is not None:  # a model engine caches its replies in this store
            use_replies(self._replies)
        return answer(
            question,
            StoreArchive(self._retriever),
            self.engine,
            asked_at=asked_at,
            speaker=speaker,
            min_probability=min_probability,
            scope=self._retriever.scope(Filters(documents, source, min_trust, since, until)),
        )

    @store_errors
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
        """Answer a question set; returns its rows in input order (a BatchReport).

        ``questions``: a JSONL file (``{"id", "question", "asked_at"?, "speaker"?}`` a
        line) or a list of strings or such mappings. A row is the answer's ``to_dict()``
        with the question's ``id`` and ``line``, or ``{"id", "line", "error"}`` for a line
        that is not a question. ``workers`` processes (default: one per CPU) open this
        store read-only; ``cluster`` (``ray://HOST:PORT``, ``auto`` or ``local``) answers
        on Ray. With ``out`` each row is written there in order as it comes, and a run
        interrupted any way is resumed by the same call (``keep_rows=False``: rows only
        written, counted). ``progress``: a bar with rate and ETA, or a callable given
        (rows done, rows in all)."""
        sharing = None
        if self.path is not None:  # workers elsewhere open this store as this Memory is
            options = {**self._opened_with, "engine": self.engine, "read_only": True}

            def forked(path: str) -> Memory:
                # Forked from here, a worker has this Memory's indexes (pages shared until
                # written): reading them again costs each what this one paid. NOTE: SQuAD
                # dev store, 2 workers: first row after 4.4 s reading them, 3.6-4.0 s not.
                worker = Memory(path, **options)
                worker._retriever.adopt(self._retriever)  # the same store file
                return worker

            bundled = options["dense"] and options["encoder"] is None  # its models preload
            sharing = Sharing(
                self.path,
                Opener(Memory, options),
                preload=(bundled_encoder, entity_pipeline, parse_pipeline) if bundled else (),
                forked=forked,
                warm=None if self._store.read_only else self.build_indexes,
            )
        return run_batch(
            self,
            questions,
            sharing=sharing,
            workers=workers,
            progress=progress,
            out=out,
            cluster=cluster,
            keep_rows=keep_rows,
        )

    @reads
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
        """Audit ``text`` sentence by sentence against the store (see affidavit.answer.verify);
        ``documents``, ``source``, ``min_trust``, ``since`` and ``until`` audit it against
        the documents they choose alone, as ask's do."""
        readable(text, "the text to verify")
        if question is not None:
            readable(question, "the question")
        scope = self._retriever.scope(Filters(documents, source, min_trust, since, until))
        return verify(text, StoreArchive(self._retriever), question=question, scope=scope)

    @store_errors
    def remove(self, document: str) -> int:
        """Take ``document`` out of the store with everything drawn from it (its lines,
        their windows, the records it witnesses), in one transaction, as a retention
        request asks; returns how many lines went. A name the store does not hold is an
        InputError."""
        readable(document, "the document name")
        told = self._records.told_by_name(document)
        if told is not None:
            raise InputError(
                "document",
                f"{document!r} is the line of told record {told.id}",
                f"forget the record instead: forget({told.id})",
            )
        removed = self._store.remove_document(document)
        if removed is None:
            raise InputError(
                "document", f"no document {document!r} in the store", "list them with documents()"
            )
        self._retriever.words()  # the index lets the document go now, not at the next ask
        return removed

    @reads
    def line(self, document: str, position: int) -> Evidence | None:
        """The stored line at ``position`` of ``document`` (as a citation names it), or None."""
        return self._retriever.line_at(document, position)

    @reads  # -- the entity graph --
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


def checked_ask(question: str, speaker: str | None, min_probability: float | None) -> None:
    """An InputError for an ask's question, speaker or probability that cannot be asked
    (one store's ask and a sharded store's check alike)."""
    readable(question, "the question")
    if speaker is not None:
        readable(speaker, "the speaker")
    if min_probability is not None and not 0.0 <= min_probability <= 1.0:
        raise InputError(
            "min_probability", f"{min_probability!r} is not a probability", "give 0 to 1"
        )
