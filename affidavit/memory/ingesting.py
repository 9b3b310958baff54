"""One store's ingest: files, folders, texts and dialogues read, written in one transaction
each, and the indexes brought up to date (the calls are written once for every memory in
memory/common.py; these are one store's parts of them, which Memory inherits)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from warnings import warn

from affidavit import ingest
from affidavit.errors import IngestInterrupted, IngestWarning, readable
from affidavit.gates import admit, refused_downgrades
from affidavit.index import Retriever, measure
from affidavit.options import Progress
from affidavit.results import UnreadFile
from affidavit.store import PreparedDocument, Store, document_names, repeat_warnings

if TYPE_CHECKING:
    from affidavit.ingest import Ingesting, IngestLimits, NamedFiles, StoredNames

# NOTE: ingest's readers are read through its face when a document is read (ingest.read_text
# ...), not imported with this module: a process that only asks never reads a file, and
# importing them (the format dispatch with lxml, yaml and the HTML readers) was about 0.07 s
# of a cold ask's start.


class IngestCalls:
    """Documents into the store, and the indexes brought up to date."""

    _store: Store
    _retriever: Retriever
    _names: StoredNames
    speaking_threshold: float

    def _ingest_files(
        self, named: NamedFiles, warnings: list[str], failed: list[UnreadFile], how: Ingesting
    ) -> None:
        """Read ``named`` (file, document name) and write them in one transaction (memory/
        common.py ``ingest``); an interrupt says which documents were written."""
        prepared = self._prepared(
            named, warnings, failed, how.source, how.date, how.limits, how.progress
        )
        written: list[str] = []
        generation = self._store.generation()
        try:
            read = _taken(prepared, failed, how.keep_going)
            self._store_prepared(read, named, warnings, how.replace_trusted, how.progress, written)
        except KeyboardInterrupt as stop:
            # The write's one transaction either committed (the generation moved on) or
            # rolled back; an interrupt after it stopped the index stages.
            kept = written if self._store.generation() != generation else []
            left = [doc_name for _, doc_name in named if doc_name not in set(kept)]
            raise IngestInterrupted(kept, left) from stop

    def _prepared(
        self,
        named: Sequence[tuple[Path, str]],
        warnings: list[str],
        failed: list[UnreadFile],
        source: str,
        date: str | None,
        limits: IngestLimits | None,
        progress: Progress | None,
    ) -> Iterable[PreparedDocument]:
        """The changed files of ``named`` (file, document name) read into documents, one
        at a time as they are taken; what a reader left out goes to ``warnings``, the files
        that cannot be read to ``failed``. A file stored under its name from before a
        folder's documents were named by the folder takes the place of that document."""
        admission = admit(source, threshold=self.speaking_threshold)
        legacy = ingest.legacy_names(named, self._store.legacy_files())
        documents = ingest.prepare_files(
            named,
            known_hash=self._store.document_hash,
            source=admission.source.value,
            trust=admission.trust,
            date=date,
            limits=limits or ingest.IngestLimits(),
            warnings=warnings,
            failed=failed,
            progress=progress,
        )
        return (
            replace(document, replaces=legacy[document.name])
            if document.name in legacy
            else document
            for document in documents
        )

    def _store_prepared(
        self,
        prepared: Iterable[PreparedDocument],
        named: Sequence[tuple[Path, str]],
        warnings: list[str],
        replace_trusted: bool,
        progress: Progress | None,
        written: list[str] | None = None,
    ) -> None:
        """Write ``prepared`` in one transaction, bring the indexes up to date and add the
        near-copy and health warnings of ingest (a sharded store's shards do the same);
        the names written go to ``written`` as they are written."""
        # Each document is written as it is read (one transaction: memory holds a few
        # documents, never the corpus). The word index is left to the index stages: they
        # start the entity graph's worker first, so the two are built on both cores at once.
        told = self._told_replacing(prepared, warnings, written)
        if self._write(told, replace_trusted, words=False):
            # NOTE: at 20.9 MB the first ask after an ingest took 16 s, later ones 0.1 s.
            self._retriever.build(ingest.index_stages(progress))
        added = [name for _, name in named]
        with self._store.reading():
            warnings += repeat_warnings(self._store.conn, added)
            stored = document_names(self._store)
        warnings += self._names.warnings(stored, added)
        if not self._store.read_only:
            health = measure(self._retriever)  # the trend across ingests
            if health.warning:
                warnings.append(f"retrieval's health: {health.warning}")

    def _told_replacing(
        self,
        documents: Iterable[PreparedDocument],
        warnings: list[str],
        written: list[str] | None = None,
    ) -> Iterator[PreparedDocument]:
        """The documents as they pass to be written, a warning for each that replaces a
        stored one read from another file (or takes the place of one stored under its old
        name), each name added to ``written``."""
        for document in documents:
            stored = self._store.document_origin(document.name)
            if stored is not None:
                said = ingest.replaced_from(document, *stored)
                if said:
                    warnings.append(said)
            if document.replaces is not None:
                warnings.append(
                    f"{document.name}: takes the place of {document.replaces!r}, the same "
                    "file stored before a folder's documents were named by the folder"
                )
            if written is not None:
                written.append(document.name)
            yield document

    def _ingest_text(
        self, text: str, name: str, date: str | None, source: str, trusted: bool
    ) -> str:
        """Ingest ``text`` as the document ``name`` (memory/common.py ``ingest_text``)."""
        readable(text, f"the text of {name}")
        admission = admit(source, name=name, threshold=self.speaking_threshold)
        digest = ingest.content_hash(
            text.encode("utf-8"), admission.source.value, ingest.checked_date(date, name)
        )
        if self._store.document_hash(name) != digest:
            source, trust = admission.source.value, admission.trust
            units = ingest.read_text(text, name=name)
            document = ingest.prepare_document(
                units, name=name, digest=digest, date=date, source=source, trust=trust
            )
            stored = self._store.document_origin(name)
            replaced = ingest.replaced_from(document, *stored) if stored is not None else None
            self._write([document], trusted)
            with self._store.reading():
                said = repeat_warnings(self._store.conn, [name])
                held = document_names(self._store)
            spoken = [f"{name}: {line}" for line in ingest.addressing(document)]
            told = [replaced] if replaced else []
            for warning in [*told, *said, *self._names.warnings(held, [name]), *spoken]:
                warn(warning, IngestWarning, stacklevel=3)
        return name

    def _ingest_dialogue(self, sessions: Any, name: str, source: str, trusted: bool) -> list[str]:
        """Ingest the conversation ``sessions`` as ``name`` (memory/common.py
        ``ingest_dialogue``): every session read, then all written in one transaction."""
        admission = admit(source, name=name, threshold=self.speaking_threshold)
        sessions_read = ingest.read_dialogue(sessions, name=name)
        prepared = ingest.prepare_dialogue(
            sessions_read, name=name, source=admission.source.value, trust=admission.trust
        )
        changed = [p for p in prepared if self._store.document_hash(p.name) != p.content_hash]
        if changed:
            self._write(changed, trusted)
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
            # (index/words/held_words.py: held, joined to the whole by the next question or
            # once the additions make a quarter of it, and cached as a part with the others
            # not yet cached). The entity graph grows by their lines too, its mining's counts
            # with them (Retriever.grow_graph, index/entities/mined_counts.py), and so do
            # the line vectors (their lines encoded, a text once a process).
            self._retriever.take_in_words()
            self._retriever.grow_graph()
            self._retriever.meaning()
        return written


def _taken(
    documents: Iterable[PreparedDocument],
    failed: list[UnreadFile],
    keep_going: bool,
) -> Iterator[PreparedDocument]:
    """The documents read, then, once every file has been tried, an IngestError naming
    every file that could not be read (so the ingest's transaction stores none of them)
    unless ``keep_going``."""
    yield from documents
    if failed and not keep_going:
        raise ingest.unread_error(failed)
