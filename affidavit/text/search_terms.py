"""A text read once for search: its language and its index terms, so retrieval and the
stages after it never detect the language or cut the words again."""

from __future__ import annotations

from dataclasses import dataclass

from affidavit.text.abbreviations import short_forms
from affidavit.text.analyzer import analyzer_for
from affidavit.text.language import detect_language


@dataclass(frozen=True, slots=True)
class Reading:
    """``text`` as the index reads it: its ``language``, its index ``terms`` in order, and
    the terms ``searched`` (with the words a document may write for the text's: "cat" for
    "catalog", "due" for a deadline)."""

    text: str
    language: str
    terms: tuple[str, ...]
    searched: tuple[str, ...]
    short_forms: tuple[str, ...] = ()  # the words a document may write for the text's


def read_for_search(text: str, language: str | None = None, default: str = "en") -> Reading:
    """Read ``text`` in ``language`` (detected when not given; ``default`` when the text
    shows none: a question too short to show its language is read in the store's)."""
    language = language or detect_language(text, default=default)
    analyzer = analyzer_for(language)
    short = tuple(short_forms(text, language))
    terms = tuple(analyzer.terms(text))
    searched = tuple(analyzer.terms(" ".join([text, *short]))) if short else terms
    return Reading(text, language, terms, searched, short)
