"""The ingest half of the front door: files, folders, texts and dialogues read, written in
one transaction each, and the indexes brought up to date; written here so the facade
(front.py) stays a screen of calls (Memory inherits them)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any
from warnings import warn

from affidavit.errors import IngestError, IngestWarning, readable
from affidavit.gates.entry import admit, refused_downgrades
from affidavit.index.health import measure
from affidavit.index.retrieval import Retriever
from affidavit.ingest.bounded import IngestLimits
from affidavit.ingest.dialogue import prepare_dialogue, read_dialogue
from affidavit.ingest.files import addressing, checked_date, index_stages, prepare_files
from affidavit.ingest.lookalike import StoredNames
from affidavit.ingest.naming import named_files
from affidavit.ingest.pipeline import content_hash, prepare_document
from affidavit.ingest.readers.formats import read_text
from affidavit.results import IngestReport
from affidavit.store.calls import store_errors
from affidavit.store.parts import document_keys
from affidavit.store.prepared import PreparedDocument
from affidavit.store.resemblance import repeat_warnings
from affidavit.store.sqlite import Store

Progress = Callable[[int, int, str], None]


class IngestCalls:
    """Documents into the store, and the indexes brought up to date."""

    _store: Store
    _retriever: Retriever
    _names: StoredNames
    speaking_threshold: float

    @store_errors
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
    ) -> IngestReport:
        """Ingest a file, a folder (recursively) or a list of them; returns the document
        names (an IngestReport: a list, with ``warnings`` naming what was skipped).

        ``source`` says who vouches for the text (operator, document or stranger) and so
        the trust its lines carry. Files are read, split and written one at a time in
        one transaction (the store's write lock is held for the whole ingest; readers
        go on reading): one bad file raises IngestError and leaves the store unchanged.
        An unchanged document is skipped; a changed one is replaced. Each file is read
        within ``limits`` (time, memory, unpacked size; see IngestLimits): a file that
        passes one is an IngestError naming it and the limit.
        A document is not replaced by one from a lower-trust source (a stranger's text
        under a document's name) unless ``replace_trusted`` says so.

        The indexes are then brought up to date, so the first question pays for none;
        ``progress(done, total, name)`` hears each file, then each index stage as
        ``"index: STAGE"``.
        """
        admit(source, threshold=self.speaking_threshold)  # an unknown source fails first
        named_as = str(path) if isinstance(path, str | Path) else ", ".join(map(str, path))
        date = checked_date(date, named_as)
        named, warnings = named_files(path, name)
        prepared = self._prepared(named, warnings, source, date, limits, progress)
        self._store_prepared(prepared, named, warnings, replace_trusted, progress)
        return IngestReport((doc_name for _, doc_name in named), warnings)

    def _prepared(
        self,
        named: Sequence[tuple[Path, str]],
        warnings: list[str],
        source: str,
        date: str | None,
        limits: IngestLimits | None,
        progress: Progress | None,
    ) -> Iterable[PreparedDocument]:
        """The changed files of ``named`` (file, document name) read into documents, one
        at a time as they are taken; what a reader left out goes to ``warnings``."""
        admission = admit(source, threshold=self.speaking_threshold)
        return prepare_files(
            named,
            known_hash=self._store.document_hash,
            source=admission.source.value,
            trust=admission.trust,
            date=date,
            limits=limits or IngestLimits(),
            warnings=warnings,
            progress=progress,
        )

    def _store_prepared(
        self,
        prepared: Iterable[PreparedDocument],
        named: Sequence[tuple[Path, str]],
        warnings: list[str],
        replace_trusted: bool,
        progress: Progress | None,
    ) -> None:
        """Write ``prepared`` in one transaction, bring the indexes up to date and add the
        near-copy and health warnings of ingest (a sharded store's shards do the same)."""
        # Each document is written as it is read (one transaction: memory holds a few
        # documents, never the corpus). The word index is left to the index stages: they
        # start the entity graph's worker first, so the two are built on both cores at once.
        if self._write(prepared, replace_trusted, words=False):
            # NOTE: at 20.9 MB the first ask after an ingest took 16 s, later ones 0.1 s.
            self._retriever.build(index_stages(progress))
        added = [name for _, name in named]
        with self._store.reading():
            warnings += repeat_warnings(self._store.conn, added)
            held = set(added)
            others = [name for _, name, _, _ in document_keys(self._store) if name not in held]
        warnings += self._names.warnings(others, added)
        if not self._store.read_only:
            health = measure(self._retriever)  # the trend across ingests
            if health.warning:
                warnings.append(f"retrieval's health: {health.warning}")

    @store_errors
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
        readable(text, f"the text of {name}")
        admission = admit(source, name=name, threshold=self.speaking_threshold)
        digest = content_hash(
            text.encode("utf-8"), admission.source.value, checked_date(date, name)
        )
        if self._store.document_hash(name) != digest:
            source, trust = admission.source.value, admission.trust
            units = read_text(text, name=name)
            document = prepare_document(
                units, name=name, digest=digest, date=date, source=source, trust=trust
            )
            self._write([document], replace_trusted)
            with self._store.reading():
                said = repeat_warnings(self._store.conn, [name])
                others = [other for _, other, _, _ in document_keys(self._store) if other != name]
            spoken = [f"{name}: {line}" for line in addressing(document)]
            for warning in [*said, *self._names.warnings(others, [name]), *spoken]:
                warn(warning, IngestWarning, stacklevel=3)
        return name

    @store_errors
    def ingest_dialogue(
        self,
        sessions: Any,
        *,
        name: str,
        source: str = "document",
        replace_trusted: bool = False,
    ) -> list[str]:
        """Ingest a conversation, one document a session (``{name}/session-{N}``); returns
        the document names.

        ``sessions`` is a LoCoMo sample or its ``conversation`` (a mapping), JSONL turn
        records (``{"session", "date", "speaker", "text"}``, optional ``"caption"``), or a
        path to a ``.json`` or ``.jsonl`` file of either. Each turn is a line that keeps
        its speaker and its session's date; a shared image's caption is a line of its own
        beside its turn. Every session is read before anything is written, then all are
        written in one transaction; an unchanged session is skipped, and a session from a
        higher-trust source is replaced only with ``replace_trusted``.
        """
        if not name or not name.strip():
            raise IngestError(None, "a dialogue needs a name", "pass name='...'")
        admission = admit(source, name=name, threshold=self.speaking_threshold)
        sessions_read = read_dialogue(sessions, name=name)
        prepared = prepare_dialogue(
            sessions_read, name=name, source=admission.source.value, trust=admission.trust
        )
        changed = [p for p in prepared if self._store.document_hash(p.name) != p.content_hash]
        if changed:
            self._write(changed, replace_trusted)
        return [p.name for p in prepared]

    def _write(
        self, prepared: Iterable[PreparedDocument], trusted: bool, words: bool = True
    ) -> int:
        """Store the documents, all or nothing; how many were written."""
        if not trusted:
            prepared = refused_downgrades(prepared, self._store.document_source)
        written = self._store.write_documents(prepared)
        if written and words:
            # The word index takes in the new documents now, analysing their lines only
            # and caching a part of their size (index/words/parts.py): closing the store
            # writes nothing for it, and the next question only joins it to the whole
            # (index/words/held.py). The entity graph grows by their lines too, unless a
            # mining is due (Retriever.grow_graph), and so do the line vectors (their
            # lines encoded, a text once a process).
            self._retriever.take_in_words()
            self._retriever.grow_graph()
            self._retriever.meaning()
        return written
