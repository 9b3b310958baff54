"""What a message shows for an index term: the word the text wrote, never the analyser's
stem ("harness", not "har"; "puppies", not "puppi"). The gates compare stems; the user
reads words."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from affidavit.text.analyzer import Analyzer
from affidavit.text.tokens import words_as_written


@dataclass(frozen=True, slots=True)
class Wording:
    """Each index term of a text with the first word of the text that reads as it."""

    forms: tuple[tuple[str, str], ...] = ()  # (term, word as written), in text order

    @classmethod
    def of(cls, text: str, analyzer: Analyzer) -> Wording:
        """The words of ``text`` for its terms as ``analyzer`` reads them."""
        found: dict[str, str] = {}
        for token, written in words_as_written(text, analyzer.language):
            term = analyzer.term(token)
            if term is not None and term not in found:
                found[term] = written
        return cls(tuple(found.items()))

    def word(self, term: str) -> str:
        """The word written for ``term``; the term itself when the text never wrote it."""
        return next((written for t, written in self.forms if t == term), term)

    def words(self, terms: Iterable[str]) -> list[str]:
        """The words written for ``terms``, each once, in the order the text wrote them
        (terms it never wrote after, as given)."""
        given = {t: i for i, t in enumerate(dict.fromkeys(terms))}
        at = {t: i for i, (t, _) in enumerate(self.forms)}
        ordered = sorted(given, key=lambda t: at.get(t, len(at) + given[t]))
        return list(dict.fromkeys(self.word(t) for t in ordered))


# No text's words: every term is shown as itself (callers with no question to word it).
NO_WORDING = Wording()
