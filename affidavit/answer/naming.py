"""The words a question names a document by, which that document's lines need not repeat:
its name's and its title's, read once per question for each document it reads."""

from __future__ import annotations

from affidavit.gates.support import naming_terms
from affidavit.index.retrieval import Retriever
from affidavit.text.analyzer import Analyzer

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
