"""The calls every memory makes the same way, written once: how one is opened, the checks
at the door, the scope read into one value, and the ask, audit, search, ingest and batch
composed over the few parts each kind of store makes its own way (the hooks at the end:
one store's in memory/one_store.py and memory/ingesting.py, a sharded store's in
shards/sharded.py)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Self, Unpack

from affidavit.answer import Archive, answer, verify
from affidavit.batch import BatchReport, Sharing, run_batch
from affidavit.engine import DefaultEngine, Engine
from affidavit.errors import IngestError, InputError, readable
from affidavit.gates import admit
from affidavit.index import DocumentHit, Encoder, Reranker, Scope
from affidavit.ingest import Ingesting, IngestLimits, NamedFiles, checked_date, named_files
from affidavit.options import AskKeywords, Filters, Progress, ScopeKeywords, checked
from affidavit.results import Answer, Evidence, IngestReport, UnreadFile, Verdict
from affidavit.store import Replies
from affidavit.trust import SPEAKING_THRESHOLD


class MemoryCalls(ABC):
    """What Memory and ShardedMemory do alike (see the module's docstring); a kind of store
    that leaves a hook unwritten cannot be opened."""

    engine: Engine
    speaking_threshold: float

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
        self.engine = engine if engine is not None else DefaultEngine()
        self.speaking_threshold = speaking_threshold
        # How this memory was opened: its shards, or a batch's workers, open their stores
        # the same way.
        self._opened_with: dict[str, Any] = {
            "engine": self.engine,
            "speaking_threshold": speaking_threshold,
            "encoder": encoder,
            "reranker": reranker,
            "dense": dense,
            "timeout": timeout,
            "read_only": read_only,
        }
        self._open(path, shards=shards, cluster=cluster)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def close(self) -> None:
        """Close the store (safe to call twice)."""
        raise NotImplementedError

    # -- documents in and out --

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
        """Ingest a file, a folder (recursively) or a list of them; returns the document
        names (an IngestReport: a list, with ``warnings`` naming what was skipped, and
        ``failed`` the files that could not be read).

        A file given alone is named by its file name; a folder's files by the folder's
        name and their path inside it (``projA/notes.txt``); ``name`` stands for either.
        ``source`` says who vouches for the text (operator, document or stranger) and so
        the trust its lines carry. Every file is read, within ``limits`` (time, memory,
        unpacked size; see IngestLimits), and the documents are written in one
        transaction (the store's write lock is held for the whole ingest; readers go on
        reading). A file that cannot be read fails the ingest: an IngestError naming every
        such file, and the store unchanged; with ``keep_going`` the others are stored and
        the report's ``failed`` lists the rest, each with its reason. An unchanged
        document is skipped; a changed one is replaced (the report's warnings say so when
        the new one comes from another file). A document is not replaced by one from a
        lower-trust source (a stranger's text under a document's name) unless
        ``replace_trusted`` says so. Interrupted (Ctrl-C), it raises IngestInterrupted,
        saying which documents were written and which were not.

        The indexes are then brought up to date, so the first question pays for none;
        ``progress(done, total, name)`` hears each file, then each index stage as
        ``"index: STAGE"``. A sharded store is written all or nothing across its shards:
        every shard first reads its files, and only when none failed (or with
        ``keep_going``) does each write them.
        """
        admit(source, threshold=self.speaking_threshold)  # an unknown source fails first
        named_as = str(path) if isinstance(path, str | Path) else ", ".join(map(str, path))
        date = checked_date(date, named_as)
        named, warnings = named_files(path, name)
        how = Ingesting(source, date, limits, progress, replace_trusted, keep_going)
        failed: list[UnreadFile] = []
        with self._guarded():
            self._ingest_files(named, warnings, failed, how)
        unread = {file.document for file in failed}
        return IngestReport((n for _, n in named if n not in unread), warnings, failed)

    def ingest_text(
        self,
        text: str,
        *,
        name: str,
        date: str | None = None,
        source: str = "document",
        replace_trusted: bool = False,
    ) -> str:
        """Ingest a string as a document called ``name``; returns the name. A document of
        that name from a higher-trust source is replaced only with ``replace_trusted``."""
        if not name or not name.strip():
            raise IngestError(None, "a text needs a document name", "pass name='...'")
        readable(name, "the document name")
        with self._guarded():
            return self._ingest_text(text, name, date, source, replace_trusted)

    def ingest_dialogue(
        self, sessions: Any, *, name: str, source: str = "document", replace_trusted: bool = False
    ) -> list[str]:
        """Ingest a conversation, one document a session (``{name}/session-{N}``); returns
        the document names.

        ``sessions`` is a LoCoMo sample or its ``conversation`` (a mapping), JSONL turn
        records (``{"session", "date", "speaker", "text"}``, optional ``"caption"``), or a
        path to a ``.json`` or ``.jsonl`` file of either. Each turn is a line that keeps
        its speaker and its session's date; a shared image's caption is a line of its own
        beside its turn. Every session is read before anything is written, then all are
        written in one transaction (a sharded store keeps a conversation on one shard); an
        unchanged session is skipped, and a session from a higher-trust source is
        replaced only with ``replace_trusted``.
        """
        if not name or not name.strip():
            raise IngestError(None, "a dialogue needs a name", "pass name='...'")
        with self._guarded():
            return self._ingest_dialogue(sessions, name, source, replace_trusted)

    def remove(self, document: str) -> int:
        """Take ``document`` out of the store with everything drawn from it (its lines,
        their windows, the records it witnesses), in one transaction, as a retention
        request asks; returns how many lines went. A name the store does not hold is an
        InputError."""
        readable(document, "the document name")
        with self._guarded():
            removed = self._removed(document)
        if removed is None:
            raise InputError(
                "document", f"no document {document!r} in the store", "list them with documents()"
            )
        return removed

    # -- lines, answers, audits --

    def search(self, query: str, *, k: int = 10, **scope: Unpack[ScopeKeywords]) -> list[Evidence]:
        """The ``k`` lines that best match ``query``, best first (ties in document order).

        Lines of every trust are shown, each with its ``trust``; only lines at or above
        the speaking threshold can be cited by ask() or support a verify().
        ``documents``, ``source``, ``min_trust``, ``since`` and ``until`` choose the
        documents searched, as ask's do.
        """
        checked(scope, ScopeKeywords, "search")
        readable(query, "the query")
        with self._reading():
            chosen = self._scope(Filters.of(scope))
            return self._lines(query, k, chosen) if k > 0 else []

    def search_documents(self, query: str, *, k: int = 10) -> list[DocumentHit]:
        """The ``k`` documents that best match ``query``, best first.

        Documents are ranked by reciprocal rank fusion (K = 60, order only) of the word
        ranking (each document's best line) and the meaning ranking (its profiles), so
        a question in another language, or in other words, still finds its document.
        With ``dense=False`` the word ranking alone decides.
        """
        readable(query, "the query")
        if k <= 0:
            return []
        with self._reading():
            return self._documents_for(query, k)

    def ask(self, question: str, **options: Unpack[AskKeywords]) -> Answer:
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
        matched). A name or pattern that matches no stored document is an InputError, and
        so is a keyword ask does not take.
        """
        checked(options, AskKeywords, "ask")
        speaker, least = options.get("speaker"), options.get("min_probability")
        checked_ask(question, speaker, least)
        with self._reading():
            use_replies = getattr(self.engine, "use_replies", None)
            if use_replies is not None:  # a model engine caches its replies in the store
                use_replies(self._reply_cache())
            return answer(
                question,
                self._archive(),
                self.engine,
                asked_at=options.get("asked_at"),
                speaker=speaker,
                min_probability=least,
                scope=self._scope(Filters.of(options)),
            )

    def verify(
        self, text: str, *, question: str | None = None, **scope: Unpack[ScopeKeywords]
    ) -> Verdict:
        """Audit ``text`` sentence by sentence against the store (see affidavit.answer.pipeline);
        ``documents``, ``source``, ``min_trust``, ``since`` and ``until`` audit it against
        the documents they choose alone, as ask's do."""
        checked(scope, ScopeKeywords, "verify")
        readable(text, "the text to verify")
        if question is not None:
            readable(question, "the question")
        with self._reading():
            chosen = self._scope(Filters.of(scope))
            return verify(text, self._archive(), question=question, scope=chosen)

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
        line, and ask's scope keys) or a list of strings or such mappings. A line may
        hold ``"claim"`` instead of ``"question"`` (and the scope keys): it is verified.
        A row is the answer's ``to_dict()`` with the question's ``id`` and ``line``; a
        claim's, ``{"id", "line", "kind": "verify"}`` and its Verdict's ``to_dict()``;
        ``{"id", "line", "error"}`` for a line that is neither. ``workers`` processes
        (default: one per CPU) open this store read-only; ``cluster`` (``ray://HOST:PORT``,
        ``auto`` or ``local``) answers on Ray. A sharded store answers each question on
        its shards (the ``cluster`` it was opened with), so takes neither. With ``out``
        each row is written there in order as it comes, and a run interrupted any way is
        resumed by the same call (``keep_rows=False``: rows only written, counted).
        ``progress``: a bar with rate and ETA, or a callable given (rows done, rows in
        all)."""
        with self._guarded():
            sharing = self._sharing(workers, cluster)
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

    # -- what each kind of store does its own way --

    @abstractmethod
    def _open(self, path: str | Path | None, *, shards: int | None, cluster: str | None) -> None:
        """Open the store at ``path`` as ``_opened_with`` says."""
        raise NotImplementedError

    @abstractmethod
    def _reading(self) -> AbstractContextManager[None]:
        """One snapshot for a whole read, its failures as StoreError."""
        raise NotImplementedError

    @abstractmethod
    def _guarded(self) -> AbstractContextManager[None]:
        """A call's failures of the store as StoreError."""
        raise NotImplementedError

    @abstractmethod
    def _scope(self, filters: Filters) -> Scope | None:
        """The documents ``filters`` choose (None: no filter)."""
        raise NotImplementedError

    @abstractmethod
    def _archive(self) -> Archive:
        """The documents one question is answered from (answer/archive.py)."""
        raise NotImplementedError

    @abstractmethod
    def _reply_cache(self) -> Replies:
        """Where a model engine keeps its replies."""
        raise NotImplementedError

    @abstractmethod
    def _lines(self, query: str, k: int, scope: Scope | None) -> list[Evidence]:
        raise NotImplementedError

    @abstractmethod
    def _documents_for(self, query: str, k: int) -> list[DocumentHit]:
        raise NotImplementedError

    @abstractmethod
    def _ingest_files(
        self, named: NamedFiles, warnings: list[str], failed: list[UnreadFile], how: Ingesting
    ) -> None:
        """Read and write ``named`` (file, document name) as ``how`` says; what a reader
        left out goes to ``warnings``, the files that cannot be read to ``failed`` (an
        IngestError naming them unless ``how.keep_going``)."""
        raise NotImplementedError

    @abstractmethod
    def _ingest_text(
        self, text: str, name: str, date: str | None, source: str, trusted: bool
    ) -> str:
        raise NotImplementedError

    @abstractmethod
    def _ingest_dialogue(self, sessions: Any, name: str, source: str, trusted: bool) -> list[str]:
        raise NotImplementedError

    @abstractmethod
    def _removed(self, document: str) -> int | None:
        """The lines ``document`` took with it (None: the store holds no such document)."""
        raise NotImplementedError

    @abstractmethod
    def _sharing(self, workers: int | None, cluster: str | None) -> Sharing | None:
        """What lets a batch's workers elsewhere answer as this memory does (None: they
        cannot; the batch is answered here)."""
        raise NotImplementedError


def checked_ask(question: str, speaker: str | None, min_probability: float | None) -> None:
    """An InputError for an ask's question, speaker or probability that cannot be asked."""
    readable(question, "the question")
    if speaker is not None:
        readable(speaker, "the speaker")
    if min_probability is not None and not 0.0 <= min_probability <= 1.0:
        raise InputError(
            "min_probability", f"{min_probability!r} is not a probability", "give 0 to 1"
        )
