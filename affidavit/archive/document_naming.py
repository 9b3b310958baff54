"""The words a question names a document by: its name's and its title's. That document's
lines need not repeat them, and a question that names one document of several ("in the
Apache License") is read in that document alone, without them."""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import ref

from affidavit.gates import naming_terms
from affidavit.index import Retriever, Scope, WordIndex
from affidavit.question import Question
from affidavit.text import Analyzer, Reading, dates_in, name_terms

# A title is the document's first line, when short, and the version or date under it
# ("GNU GENERAL PUBLIC LICENSE" / "Version 2, June 1991"; "NICS Firearm Background
# Checks" / "November - 2015"). A first line of prose is no title, nor a copyright line
# under a title a subtitle.
TITLE_WORDS = 12
SUBTITLE_WORDS = 6


def document_title(retriever: Retriever, document: str) -> str:
    """The document's title: its first line when short, with the line under it when
    that gives the version or date ("Version 2, June 1991", "November - 2015"); "" when
    the first line is not short. A dash set apart between words is a title's separator,
    said as a space so that the date reads whole."""
    first = retriever.line_at(document, 0)
    if first is None or len(first.text.split()) > TITLE_WORDS:
        return ""
    said = [first.text]
    second = retriever.line_at(document, 1)
    if second is not None and _is_subtitle(second.text.replace(" - ", " ")):
        said.append(second.text)
    return " ".join(said).replace(" - ", " ")


def _is_subtitle(line: str) -> bool:
    """A short line that gives a version or a date, and nothing else much."""
    if len(line.split()) > SUBTITLE_WORDS:
        return False
    return bool(dates_in(line)) or line.lower().startswith(("version", "v."))


class DocumentNaming:
    """A question's key terms as each document is asked them: without the words that
    name that document (support.naming_terms). With no question (a sentence verified
    alone) no terms are asked."""

    def __init__(self, retriever: Retriever, asked: Question | None, analyzer: Analyzer) -> None:
        self._retriever = retriever
        self._question = asked
        self._terms = asked.key_terms if asked is not None else frozenset()
        self._analyzer = analyzer
        self._asked: dict[str, frozenset[str]] = {}

    def narrowed(self, asked: Question) -> tuple[str | Reading, Scope | None]:
        """The question as retrieval reads it, and the scope of the one document it names
        (``named_document``): ranked there without the words that name it. Without such
        a document, its reading and no scope."""
        named = self._named()
        if named is None:
            return asked.reading, None
        said = asked.without(self._terms - self.asked_of(named))
        return (said if self._analyzer.terms(said) else asked.reading), named_scope(named)

    def asked_of(self, document: str) -> frozenset[str]:
        """The key terms a line of ``document`` must carry."""
        if document not in self._asked:
            acronyms = self._question.naming[1] if self._question is not None else frozenset()
            naming = naming_terms(
                self._terms,
                document,
                self._analyzer,
                title=self._title(document),
                acronym_terms=acronyms,
            )
            self._asked[document] = self._terms - naming
        return self._asked[document]

    # The two reads of the store, which a sharded store's naming asks of its shards.

    def _named(self) -> str | None:
        if self._question is None:
            return None
        return named_document(self._retriever, self._question.naming)

    def _title(self, document: str) -> str:
        return title_of(self._retriever, self._retriever.words(), document)


def named_document(
    retriever: Retriever, naming: tuple[frozenset[str], frozenset[str]]
) -> str | None:
    """The one stored document the question calls by name: "in the Apache License" of
    apache-2.0.txt, "the Mozilla Public License" of the document so titled, "the LGPL" of
    lgpl-3.0.txt. ``naming`` are the question's naming words (Question.naming): a title's
    words it writes out, matched against each document's name and title, at least half of
    them held; and its acronyms, a file name holding one ("U.S." names no stored
    document). The document holding most of them is the one, when no other holds as many;
    None otherwise."""
    if len(retriever.words().document_names) < 2:
        return None
    return the_one_named(names_held(retriever, naming))


def names_held(
    retriever: Retriever, naming: tuple[frozenset[str], frozenset[str]]
) -> list[tuple[int, str]]:
    """How many of the question's naming words each document of the store holds (those
    holding any): ``named_document``'s count, before the one is chosen."""
    phrase, shortened = naming
    if not phrase and not shortened:
        return []
    index = retriever.words()
    books = _titled_names(retriever, index)
    scored = []
    for slot, name in enumerate(index.document_names):
        by_phrase = len(phrase & books[name])
        held = by_phrase if 2 * by_phrase >= len(phrase) else 0
        held += sum(1 for t in shortened if slot in index.name_terms.get(t, ()))
        if held:
            scored.append((held, name))
    return scored


def the_one_named(scored: list[tuple[int, str]]) -> str | None:
    """The document holding most naming words, when no other holds as many."""
    scored = sorted(scored, key=lambda found: (-found[0], found[1]))
    if not scored or (len(scored) > 1 and scored[0][0] == scored[1][0]):
        return None
    return scored[0][1]


@dataclass
class _Titles:
    """The titles read in one generation of a store (its word index, held weakly), each
    read once; and, once a question named a document, every document's name and title
    terms."""

    index: ref[WordIndex]
    titles: dict[str, str] = field(default_factory=dict)
    books: dict[str, frozenset[str]] | None = None


# The generation last read: a question reads its documents' titles from here, not anew.
_LAST: list[_Titles] = []


def _read_in(index: WordIndex) -> _Titles:
    if not _LAST or _LAST[0].index() is not index:
        _LAST[:] = [_Titles(ref(index))]
    return _LAST[0]


def title_of(retriever: Retriever, index: WordIndex, document: str) -> str:
    """``document_title``, read once a generation of the store (``index``)."""
    titles = _read_in(index).titles
    if document not in titles:
        titles[document] = document_title(retriever, document)
    return titles[document]


def _titled_names(retriever: Retriever, index: WordIndex) -> dict[str, frozenset[str]]:
    """Each document's name and title terms, read once a generation of the store."""
    read = _read_in(index)
    if read.books is None:
        analyzer = Analyzer("en")
        read.books = {
            name: frozenset(name_terms(name, analyzer))
            | frozenset(analyzer.terms(title_of(retriever, index, name)))
            for name in index.document_names
        }
    return read.books


def named_scope(name: str) -> Scope:
    """The scope of the one document a question names, said as inferred in the audit."""
    return Scope({"documents": [name], "named_by_the_question": True}, frozenset({name}))
