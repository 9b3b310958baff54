"""Text to index terms, one analyser a language: tokens, less stop words, stemmed, folded."""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

from affidavit.text.filenames import without_extensions
from affidavit.text.lang import VOCABULARIES, vocabulary
from affidavit.text.lang.irregular import BASE_FORMS
from affidavit.text.lang.spelling import AMERICAN
from affidavit.text.tokens import strip_accents, words

_STEMMER_NAMES = {"en": "english", "es": "spanish", "tr": "turkish"}
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?:\D|$))")
STOP_WORDS: dict[str, frozenset[str]] = {
    language: words_of.stop_words for language, words_of in VOCABULARIES.items()
}


@lru_cache(maxsize=8)
def _stemmer(language: str) -> Stemmer.Stemmer:
    stemmer = Stemmer.Stemmer(_STEMMER_NAMES.get(language, "english"))
    stemmer.maxCacheSize = 200_000
    return stemmer


def stem(word: str, language: str) -> str:
    """The Snowball stem of one folded word of ``language``, its letters as written (the
    index terms strip accents after stemming; a word list keyed by spelling needs them):
    "eczaneleri" is "eczane", "bölgelerinde" "bölge"."""
    return _stemmer(language).stemWord(word) or word


class Analyzer:
    """Text to index terms for one language: tokens, minus stop words, stemmed, folded.

    Lines are analysed with their document's language and questions with their own, so an
    English stem meets an English stem.
    """

    def __init__(self, language: str = "en") -> None:
        self.language = language if language in _STEMMER_NAMES else "en"
        self._stop = vocabulary(self.language).stop_words
        self._stem = _stemmer(self.language).stemWord
        self._cache: dict[str, str | None] = {}

    def term(self, word: str) -> str | None:
        """The index term for one folded token, or None for a stop word."""
        cached = self._cache.get(word, "")
        if cached != "":
            return cached
        if word in self._stop:
            result = None
        elif word[0].isdigit():
            # "1,200" and "1200" are one number; "1ª" and "1a" one word.
            result = strip_accents(_THOUSANDS.sub("", word))
        else:
            # "fell" is "fall" (lang/irregular.py), "licence" is "license" (lang/spelling.py);
            # the token itself is what is cached, or a word read before would change how
            # the next one reads.
            base = word
            if self.language == "en":
                base = AMERICAN.get(word, word)
                base = BASE_FORMS.get(base, base)
            # "did" is "do", a stop word too. Accents go after stemming (Snowball wants the
            # real letters: Turkish ı/ş/ğ, Spanish ñ), so "canción" and "cancion" meet.
            # A suffix read alone ("ları" of "DNA'ları") stems to nothing: it stays itself.
            result = None if base in self._stop else strip_accents(self._stem(base) or base)
        self._cache[word] = result
        return result

    def terms(self, text: str) -> list[str]:
        term = self.term
        return [t for t in map(term, words(text, self.language)) if t is not None]


@lru_cache(maxsize=8)
def analyzer_for(language: str) -> Analyzer:
    """One Analyzer per language for the process: any of a language reads a word the
    same, and this one keeps the words it has read."""
    return Analyzer(language)


def name_terms(name: str, analyzer: Analyzer) -> list[str]:
    """The index terms of a document's name; the extensions that end it (".txt",
    ".txt.gz") say its format, not what it is about, and are left out."""
    return list(_name_terms(name, analyzer.language))


@lru_cache(maxsize=4096)
def _name_terms(name: str, language: str) -> tuple[str, ...]:
    # The gates ask this of every line they read; a name's terms never change.
    analyzer = analyzer_for(language)
    tokens = words(without_extensions(name), language)
    return tuple(t for t in (analyzer.term(w) for w in tokens) if t)
