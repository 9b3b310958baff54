"""The words a question names a document by: its name's and its title's. That document's
lines need not repeat them, and a question that names one document of several ("in the
Apache License") is read in that document alone, without them."""

from __future__ import annotations

from weakref import ref

from affidavit.gates.support import document_nouns, naming_terms
from affidavit.index.retrieval import Retriever
from affidavit.index.scope import Scope
from affidavit.index.words.word_index import WordIndex
from affidavit.text.abbreviations import acronyms
from affidavit.text.analyzer import Analyzer, name_terms
from affidavit.text.reading import Reading
from affidavit.text.words import written_word_spans

# A title is the document's first lines, when short: a heading and a subtitle ("GNU
# GENERAL PUBLIC LICENSE" / "Version 2, June 1991"; "NICS Firearm Background Checks" /
# "November - 2015"). A first line of prose is no title.
TITLE_LINES = 2
TITLE_WORDS = 12


def document_title(retriever: Retriever, document: str) -> str:
    """The document's title lines, joined; "" when its first line is not short. A dash
    set apart between words is a title's separator ("November - 2015"), said as a space
    so that the date reads whole."""
    said: list[str] = []
    for position in range(TITLE_LINES):
        line = retriever.line_at(document, position)
        if line is None or len(line.text.split()) > TITLE_WORDS:
            break
        said.append(line.text)
    return " ".join(said).replace(" - ", " ")


class DocumentNaming:
    """A question's key terms as each document is asked them: without the words that
    name that document (support.naming_terms)."""

    def __init__(
        self,
        retriever: Retriever,
        question: str,
        question_terms: frozenset[str],
        analyzer: Analyzer,
    ) -> None:
        self._retriever = retriever
        self._question = question
        self._terms = question_terms
        self._analyzer = analyzer
        self._asked: dict[str, frozenset[str]] = {}

    def narrowed(self, reading: Reading) -> tuple[str | Reading, Scope | None]:
        """The question as retrieval reads it, and the scope of the one document it names
        (``named_document``): ranked there without the words that name it. Without such
        a document, ``reading`` and no scope."""
        named = named_document(self._retriever, self._question, self._terms, self._analyzer)
        if named is None:
            return reading, None
        naming = self._terms - self.asked_of(named)
        said = without_naming(self._question, naming, self._analyzer)
        return (said if self._analyzer.terms(said) else reading), named_scope(named)

    def asked_of(self, document: str) -> frozenset[str]:
        """The key terms a line of ``document`` must carry."""
        if document not in self._asked:
            naming = naming_terms(
                self._terms,
                document,
                self._analyzer,
                title=document_title(self._retriever, document),
                question=self._question,
            )
            self._asked[document] = self._terms - naming
        return self._asked[document]


def named_document(
    retriever: Retriever, question: str, question_terms: frozenset[str], analyzer: Analyzer
) -> str | None:
    """The one stored document the question calls by name: "in the Apache License" of
    apache-2.0.txt, "the Mozilla Public License" of the document so titled, "the LGPL" of
    lgpl-3.0.txt. A name is the capitalised words before a noun that names a kind of
    document ("License", "Policy"), or an acronym; the document whose name and title hold
    most of its words is the one, when no other holds as many. None otherwise."""
    said = name_words(question, analyzer)
    if not said:
        return None
    index = retriever.words()
    if len(index.document_names) < 2:
        return None
    nouns = document_nouns(analyzer.language)
    telling = frozenset(analyzer.terms(" ".join(said))) - nouns
    if not telling:
        return None
    books = _titled_names(retriever, index)
    overlaps = sorted(
        ((len(telling & terms), name) for name, terms in books.items() if telling & terms),
        key=lambda found: (-found[0], found[1]),
    )
    if not overlaps or (len(overlaps) > 1 and overlaps[0][0] == overlaps[1][0]):
        return None
    return overlaps[0][1]


def name_words(question: str, analyzer: Analyzer) -> list[str]:
    """The words a question names a document by: the capitalised words right before a
    noun of a kind of document ("Mozilla Public" of "the Mozilla Public License"), the
    version after it ("2" of "License version 2"), and its acronyms ("LGPL")."""
    nouns = document_nouns(analyzer.language)
    written = [question[start:end] for start, end in written_word_spans(question)]
    found: list[str] = list(acronyms(question))
    for at, word in enumerate(written):
        if not word[:1].isupper() or analyzer.term(word.lower()) not in nouns:
            continue
        before = at
        while before > 0 and written[before - 1][:1].isupper() and at - before < 4:
            before -= 1
        found.extend(written[before:at])
        # "License version 2", "License, v. 2.0": the version the name goes with.
        after = written[at + 1 : at + 3]
        if after and after[0].lower() in ("version", "v", "v."):
            found.extend(after[1:2])
    return list(dict.fromkeys(found))


# The last word index (one generation of a store) seen, held weakly, with its documents'
# name and title terms: read once a generation, not once a question.
_BOOKS: list[tuple[ref[WordIndex], dict[str, frozenset[str]]]] = []


def _titled_names(retriever: Retriever, index: WordIndex) -> dict[str, frozenset[str]]:
    """Each document's name and title terms, read once a generation of the store."""
    if _BOOKS and _BOOKS[0][0]() is index:
        return _BOOKS[0][1]
    analyzer = Analyzer("en")
    books = {
        name: frozenset(name_terms(name, analyzer))
        | frozenset(analyzer.terms(document_title(retriever, name)))
        for name in index.document_names
    }
    _BOOKS[:] = [(ref(index), books)]
    return books


def named_scope(name: str) -> Scope:
    """The scope of the one document a question names, said as inferred in the audit."""
    return Scope({"documents": [name], "named_by_the_question": True}, frozenset({name}))


def without_naming(question: str, naming: frozenset[str], analyzer: Analyzer) -> str:
    """The question without the words that name its document: within that document they
    say nothing of which line answers ("Mozilla Public License" is every notice's)."""
    kept = [
        question[start:end]
        for start, end in written_word_spans(question)
        if analyzer.term(question[start:end].lower()) not in naming
    ]
    return " ".join(kept)
