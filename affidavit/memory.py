"""The front door: a Memory ingests documents, finds evidence lines and answers from them.

    with Memory("notes.sqlite") as memory:
        memory.ingest("contracts/")
        answer = memory.ask("When does the lease end?")

Every write is one transaction; every answer passes the exit gate or is refused with a
catalogued reason. The word index is derived from the stored lines and cached in the
store under its generation, so reopening a store does not re-read any document.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from affidavit.engine.default import DefaultEngine
from affidavit.engine.protocol import Candidate, Engine
from affidavit.engine.shape import read_shape
from affidavit.errors import IngestError
from affidavit.evidence_block import census, evidence_block
from affidavit.gates.exit import GateDecision, digit_veto, support
from affidavit.index.text import Analyzer, detect_language
from affidavit.index.words import WordIndex
from affidavit.ingest.pipeline import content_hash, prepare_document
from affidavit.ingest.readers import iter_document_files, read_document, read_text
from affidavit.reasons import Reason
from affidavit.results import Answer, Evidence
from affidavit.store.prepared import PreparedDocument
from affidavit.store.sqlite import Store

# How many ranked lines ask() reads before building the evidence block and census.
RETRIEVE_DEPTH = 50

Progress = Callable[[int, int, str], None]


class Memory:
    """A store of documents as verbatim lines, searchable and answerable with citations."""

    def __init__(self, path: str | Path | None = None, *, engine: Engine | None = None) -> None:
        self._store = Store(path)
        self.engine: Engine = engine if engine is not None else DefaultEngine()
        self._words: WordIndex | None = None
        self._words_generation = -1

    # -- lifecycle --

    def close(self) -> None:
        """Close the store (safe to call twice); a file store is left with a warm index."""
        if self._store.is_open and self._store.path is not None:
            self._word_index()  # so the next open does not rebuild it
        self._store.close()
        self._words = None

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def path(self) -> str | None:
        return self._store.path

    # -- ingest --

    def ingest(
        self,
        path: str | Path | Sequence[str | Path],
        *,
        name: str | None = None,
        date: str | None = None,
        progress: Progress | None = None,
    ) -> list[str]:
        """Ingest a file, a folder (recursively) or a list of them; returns document names.

        All files are read and split before anything is written, and then written in one
        transaction: one bad file raises IngestError and leaves the store unchanged.
        An unchanged document (same content hash) is skipped; a changed one is replaced.
        """
        roots = [Path(path)] if isinstance(path, str | Path) else [Path(p) for p in path]
        if name is not None and len(roots) > 1:
            raise IngestError(None, "name= applies to one file or folder", "ingest them one by one")
        named: list[tuple[Path, str]] = []
        for root in roots:
            named.extend(_name_files(root, name))
        _refuse_name_clashes(named)
        prepared: list[PreparedDocument] = []
        for done, (file, doc_name) in enumerate(named):
            if progress is not None:
                progress(done, len(named), doc_name)
            try:
                digest = content_hash(file.read_bytes())
            except OSError as exc:
                raise IngestError(
                    file,
                    f"cannot read the file ({exc.strerror or exc})",
                    "check the path and its permissions",
                ) from exc
            if self._store.document_hash(doc_name) == digest:
                continue
            units = read_document(file)
            prepared.append(
                prepare_document(units, name=doc_name, digest=digest, path=str(file), date=date)
            )
        if progress is not None:
            progress(len(named), len(named), "")
        self._write(prepared)
        return [doc_name for _, doc_name in named]

    def ingest_text(self, text: str, *, name: str, date: str | None = None) -> str:
        """Ingest a string as a document called ``name``; returns the name."""
        if not name or not name.strip():
            raise IngestError(None, "a text needs a document name", "pass name='...'")
        digest = content_hash(text.encode("utf-8"))
        if self._store.document_hash(name) != digest:
            units = read_text(text, name=name)
            self._write([prepare_document(units, name=name, digest=digest, date=date)])
        return name

    def _write(self, prepared: list[PreparedDocument]) -> None:
        # The word index is rebuilt lazily, on the next search or at close: many small
        # ingests in a row must not each pay for a rebuild of the whole index.
        if prepared:
            self._store.write_documents(prepared)

    # -- retrieval --

    def _word_index(self) -> WordIndex:
        generation = self._store.generation()
        if self._words is not None and self._words_generation == generation:
            return self._words
        payload = self._store.cached("words", generation)
        if payload is not None:
            index = WordIndex.from_bytes(payload)
        else:
            index = WordIndex.build(
                self._store.documents(), self._store.line_rows(), self._store.window_rows()
            )
            self._store.cache("words", generation, index.to_bytes())
        self._words, self._words_generation = index, generation
        return index

    def search(self, query: str, *, k: int = 10) -> list[Evidence]:
        """The ``k`` lines that best match ``query``, best first (ties in document order)."""
        index = self._word_index()
        if index.size == 0 or k <= 0:
            return []
        # A question too short to show its language is read in the store's own.
        language = detect_language(query, default=index.main_language)
        ranked = index.top(index.scores(query, language), k)
        rows = self._store.lines_by_id([line_id for line_id, _ in ranked])
        hits = []
        for line_id, score in ranked:
            document, position, kind, text, cells, _ = rows[line_id]
            hits.append(
                Evidence(
                    document,
                    position,
                    text,
                    kind,
                    score,
                    {c: v for c, v in cells} if cells else None,
                )
            )
        return hits

    # -- answering --

    def ask(
        self,
        question: str,
        *,
        asked_at: str | None = None,
        speaker: str | None = None,
    ) -> Answer:
        """Answer ``question`` from the store with citations, or refuse and say why."""
        audit: dict[str, Any] = {
            "engine": self.engine.name,
            "asked_at": asked_at,
            "speaker": speaker,
        }
        if self._store.count_lines() == 0:
            return _refusal(question, Reason.EMPTY_STORE, audit)
        shape = read_shape(question)
        audit["shape"] = shape.to_dict()
        analyzer = Analyzer(shape.language)
        if not analyzer.terms(question):
            return _refusal(question, Reason.EMPTY_QUESTION, audit)
        hits = self.search(question, k=RETRIEVE_DEPTH)
        if not hits:
            return _refusal(question, Reason.NO_EVIDENCE, audit)
        block = evidence_block(hits)
        audit["evidence_block"] = [e.dateline() for e in block]
        audit["census"] = census(hits)
        candidates = self.engine.propose(question, shape, block)
        audit["candidates"] = [c.to_dict() for c in candidates]
        decisions: list[dict[str, Any]] = []
        audit["gate"] = decisions
        question_terms = [t for t in (analyzer.term(w) for w in shape.content_words) if t]
        for number, candidate in enumerate(candidates):
            verdicts = _judge(candidate, block, question_terms, analyzer)
            decisions.extend({"candidate": number, **v.to_dict()} for v in verdicts)
            if all(v.passed for v in verdicts):
                cited = [block[i] for i in candidate.cites]
                return Answer(question, candidate.text, candidate.value, False, None, cited, audit)
        return _refusal(question, _why_refused(candidates, decisions), audit)

    # -- introspection --

    def stats(self) -> dict[str, Any]:
        stats: dict[str, Any] = dict(self._store.stats())
        stats["path"] = self._store.path
        return stats

    def documents(self) -> list[str]:
        return self._store.document_names()


def _name_files(root: Path, name: str | None) -> list[tuple[Path, str]]:
    """(file, document name) for a file or every supported file under a folder."""
    if root.is_dir():
        files = iter_document_files(root)
        if not files:
            raise IngestError(
                root,
                "no supported documents in this folder",
                "point at .txt, .md, .csv, .tsv, .html, .pdf or .docx files",
            )
        prefix = f"{name}/" if name else ""
        return [(f, prefix + f.relative_to(root).as_posix()) for f in files]
    if not root.exists():
        raise IngestError(root, "no such file or folder", "check the path")
    return [(root, name or root.name)]


def _refuse_name_clashes(named: list[tuple[Path, str]]) -> None:
    seen: dict[str, Path] = {}
    for file, doc_name in named:
        if doc_name in seen and seen[doc_name].resolve() != file.resolve():
            raise IngestError(
                file,
                f"would replace {seen[doc_name]}: both are named {doc_name!r}",
                "ingest their folder instead, or give one of them another name with name=",
            )
        seen[doc_name] = file


def _judge(
    candidate: Candidate, block: Sequence[Evidence], question_terms: list[str], analyzer: Analyzer
) -> list[GateDecision]:
    if not candidate.cites or any(not 0 <= i < len(block) for i in candidate.cites):
        return [
            GateDecision(
                "citation",
                False,
                Reason.NO_CANDIDATE.value,
                "the candidate cites no line of the evidence block",
            )
        ]
    cited = [block[i].text for i in candidate.cites]
    cited_terms = {t for text in cited for t in analyzer.terms(text)}
    return [digit_veto(candidate.text, cited), support(question_terms, cited_terms)]


def _why_refused(candidates: Sequence[Candidate], decisions: list[dict[str, Any]]) -> Reason:
    if not candidates:
        return Reason.NO_CANDIDATE
    failed = {d["reason"] for d in decisions if not d["passed"]}
    if failed == {Reason.DIGIT_VETO.value}:
        return Reason.DIGIT_VETO
    if Reason.WEAK_EVIDENCE.value in failed:
        return Reason.WEAK_EVIDENCE
    if Reason.DIGIT_VETO.value in failed:
        return Reason.DIGIT_VETO
    return Reason.NO_CANDIDATE


def _refusal(question: str, reason: Reason, audit: dict[str, Any]) -> Answer:
    audit.setdefault("gate", [])
    return Answer(question, reason.text, None, True, reason.value, [], audit)


__all__ = ["Memory"]
