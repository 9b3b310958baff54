"""What answering reads of the documents held: the ``Archive`` that ask() is given, and
one store's (``StoreArchive``), which reads them through its retriever and the organs of
this room. A sharded store gives ask() another archive (archive/sharded_archive.py), which asks
its shards and merges their replies: ask() reads nothing of a store but through these
calls, so the same composing and gating run over one store or many.

For the last organ (answer/whole.py), a store small enough to read whole, every line of it
dated (a conversation's turns), gives all its lines in the order they were told
(``whole_telling``); a store of more lines, or with an undated line, does not."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from affidavit.archive.census import Census, take_census
from affidavit.archive.currency import Drawn, Stale, current_first
from affidavit.archive.document_naming import DocumentNaming
from affidavit.archive.line_frames import kept_frames
from affidavit.archive.nearby_tables import tables_around
from affidavit.archive.told_of import ToldOf, told_of
from affidavit.frames import Frame
from affidavit.gates import KeyWords
from affidavit.index import Retrieved, Retriever, Scope, as_evidence
from affidavit.question import Question
from affidavit.records import Gloss, across_languages
from affidavit.results import Evidence
from affidavit.store import StoredFrames
from affidavit.text import Analyzer, Reading

# A store of at most this many lines is read whole (an engine reads it as one block).
WHOLE_LINES = 200


def whole_telling(retriever: Retriever, scope: Scope | None) -> list[Evidence] | None:
    """Every citable line of the store (of the scope's documents), oldest telling first,
    when there are at most WHOLE_LINES of them and each is dated; None otherwise."""
    index = retriever.words()
    if index.size == 0 or index.size > WHOLE_LINES:
        return None
    store = retriever.store
    with store.reading():
        ids = [row[0] for row in store.line_rows()]
        lines = list(store.lines_by_id(ids).values())
    if scope is not None:
        lines = [line for line in lines if scope.keeps(line.document)]
    lines = [line for line in lines if retriever.speaks(line)]
    if not lines or any(not line.date for line in lines):
        return None
    lines.sort(key=lambda line: (line.date or "", line.document_id, line.position))
    return [as_evidence(line) for line in lines]


# A candidate that passed the gate, as ask() keeps it (answer/state.py), read here for its
# candidate and cited lines (archive/currency.py).
Passed = TypeVar("Passed", bound=Drawn)


class Naming(Protocol):
    """How a question names the documents: the one it asks of, and, for each document,
    the key terms its lines must carry (archive/document_naming.py's DocumentNaming)."""

    def narrowed(self, asked: Question) -> tuple[str | Reading, Scope | None]: ...

    def asked_of(self, document: str) -> frozenset[str]: ...


class Archive(Protocol):
    """The documents one question is answered from, read through these calls only."""

    @property
    def size(self) -> int:
        """How many lines are indexed (none: the store is empty)."""
        ...

    @property
    def main_language(self) -> str:
        """The language most documents are in."""
        ...

    @property
    def term_weight(self) -> Callable[[str], float]:
        """How rare a term is among the lines (Lucene IDF; 0 when no line holds it). The
        judges, the scorer and the plans weigh words by it: one store hands its word
        index's own, so weighing a word calls no code of this room."""
        ...

    def across_languages(self, text: str, language: str, scope: Scope | None) -> Gloss | None:
        """``text``, asked in ``language``, read in the store's (records/gloss.py), or
        None when it needs no reading."""
        ...

    def naming(self, asked: Question | None, analyzer: Analyzer) -> Naming:
        """How the question ``asked`` names the stored documents (none without one)."""
        ...

    def retrieve(
        self,
        query: str | Reading,
        *,
        asked: Question | None,
        scope: Scope | None,
        partitioned: bool = True,
    ) -> Retrieved:
        """The evidence for ``query``: lines ranked (those that hold the kind of answer
        ``asked`` wants first) and their subsets (Retriever.retrieve; verify's, with no
        question, never takes the partition path)."""
        ...

    def tables_around(self, hits: list[Evidence]) -> list[Evidence]:
        """The lines around the best table rows among ``hits``."""
        ...

    def frames_of(self, texts: Sequence[str]) -> list[tuple[Frame, ...]]:
        """Each line's clause frames, read once and kept where the store can keep them."""
        ...

    def census(self, keys: KeyWords, analyzer: Analyzer, scope: Scope | None) -> Census:
        """The documents that speak of ``keys``, counted (archive/census.py)."""
        ...

    def told_of(
        self,
        terms: frozenset[str],
        speakers: set[str],
        analyzer: Analyzer,
        scope: Scope | None,
    ) -> ToldOf | None:
        """Whose the question's words are across the conversation (archive/told_of.py)."""
        ...

    def whole_telling(self, scope: Scope | None) -> list[Evidence] | None:
        """A small store's every dated line, oldest first (``whole_telling``)."""
        ...

    def current_first(
        self, passed: list[Passed], analyzer: Analyzer
    ) -> tuple[list[Passed], list[Stale]]:
        """``passed`` with candidates from records that no longer hold moved last."""
        ...


class StoreArchive:
    """One store's documents, read through its retriever. Made for one question: the word
    index is taken once (one generation check), and every call reads that generation."""

    def __init__(self, retriever: Retriever) -> None:
        self._retriever = retriever
        self._index = retriever.words()

    @property
    def size(self) -> int:
        return self._index.size

    @property
    def main_language(self) -> str:
        return self._index.main_language

    @property
    def term_weight(self) -> Callable[[str], float]:
        return self._index.idf

    def frames_of(self, texts: Sequence[str]) -> list[tuple[Frame, ...]]:
        return kept_frames(StoredFrames(self._retriever.store), texts)

    def across_languages(self, text: str, language: str, scope: Scope | None) -> Gloss | None:
        return across_languages(text, language, self._retriever, scope)

    def naming(self, asked: Question | None, analyzer: Analyzer) -> Naming:
        return DocumentNaming(self._retriever, asked, analyzer)

    def retrieve(
        self,
        query: str | Reading,
        *,
        asked: Question | None,
        scope: Scope | None,
        partitioned: bool = True,
    ) -> Retrieved:
        holds_answer = asked.holds_answer if asked is not None else None
        return self._retriever.retrieve(
            query, holds_answer=holds_answer, scope=scope, partitioned=partitioned
        )

    def tables_around(self, hits: list[Evidence]) -> list[Evidence]:
        return tables_around(self._retriever, hits)

    def census(self, keys: KeyWords, analyzer: Analyzer, scope: Scope | None) -> Census:
        return take_census(self._retriever, keys, analyzer, scope)

    def told_of(
        self,
        terms: frozenset[str],
        speakers: set[str],
        analyzer: Analyzer,
        scope: Scope | None,
    ) -> ToldOf | None:
        return told_of(self._retriever, terms, speakers, analyzer, scope)

    def whole_telling(self, scope: Scope | None) -> list[Evidence] | None:
        return whole_telling(self._retriever, scope)

    def current_first(
        self, passed: list[Passed], analyzer: Analyzer
    ) -> tuple[list[Passed], list[Stale]]:
        return current_first(passed, self._retriever.store, analyzer)
