"""Words as the index sees them: Turkish-aware folding, tokens, stems, stop words, language.

One analyser per language turns text into index terms. Lines are analysed with their
document's language and questions with their own, so an English stem meets an English
stem. Folding happens after stemming (Snowball wants the real letters: Turkish ı/ş/ğ,
Spanish ñ) and then strips accents, so "canción" and "cancion" meet.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import Stemmer
from spacy.lang.en.stop_words import STOP_WORDS as _EN_STOP
from spacy.lang.es.stop_words import STOP_WORDS as _ES_STOP
from spacy.lang.tr.stop_words import STOP_WORDS as _TR_STOP

from affidavit.text.lang.irregular import BASE_FORMS
from affidavit.text.number_words import LANGUAGE_NUMBER_WORDS

LANGUAGES = ("en", "es", "tr")
_STEMMER_NAMES = {"en": "english", "es": "spanish", "tr": "turkish"}

# Numbers stay whole ("1,260.00", "3.5"), and a decimal keeps its value when a unit letter
# is glued to it ("£59.1m" -> 59.1, m; "445.0p"); otherwise runs of letters/digits, so a
# code stays one term ("1040NR"). Apostrophes split ("İstanbul'da" -> istanbul, da)
# because Turkish case suffixes follow one.
_TOKEN = re.compile(r"\d+(?:[.,]\d+)+(?=[^\W\d_])|\d+(?:[.,]\d+)*(?![^\W_])|[^\W_]+", re.UNICODE)

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?:\D|$))")

# NOTE: spaCy's lists carry words that answer questions ("first", "last", "name", number
# words); the index keeps those, so they are taken back out of the stop lists.
# The number words are the digit veto's own list (text/numbers.py), plus the tens and
# "hundred" that spaCy also counts as stop words.
_KEEP = LANGUAGE_NUMBER_WORDS["en"] | {"forty", "fifty", "sixty", "hundred"}
_KEEP |= {
    "first",
    "last",
    "name",
    "top",
    "bottom",
    "front",
    "back",
    "side",
    "call",
    "empty",
    "full",
    "fire",
    "bill",
    "part",
    "move",
    "show",
    "mill",
    "amount",
    "serious",
    "former",
    "latter",
    "became",
    "become",
    "least",
    "most",
    "many",
    "much",
    "well",
    "never",
}
STOP_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(w for w in _EN_STOP if w not in _KEEP),
    "es": frozenset(_ES_STOP),
    "tr": frozenset(_TR_STOP),
}
_ALL_STOP = frozenset().union(*STOP_WORDS.values())


def lower(text: str, language: str = "en") -> str:
    """Lower-case, mapping Turkish İ/I correctly where the text is Turkish."""
    if language == "tr":
        text = text.replace("İ", "i").replace("I", "ı")
    else:
        # Python lowers "İ" to "i" + combining dot, which would split the word.
        text = text.replace("İ", "I")
    return text.lower()


def strip_accents(word: str) -> str:
    """Drop combining marks and fold dotless ı so accented and plain spellings meet."""
    if word.isascii():
        return word
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("ı", "i")


def words(text: str, language: str = "en") -> list[str]:
    """Lower-cased word tokens of ``text`` (no stemming, stop words kept)."""
    return _TOKEN.findall(lower(text, language))


@lru_cache(maxsize=8)
def _stemmer(language: str) -> Stemmer.Stemmer:
    stemmer = Stemmer.Stemmer(_STEMMER_NAMES.get(language, "english"))
    stemmer.maxCacheSize = 200_000
    return stemmer


class Analyzer:
    """Text to index terms for one language: tokens, minus stop words, stemmed, folded."""

    def __init__(self, language: str = "en") -> None:
        self.language = language if language in _STEMMER_NAMES else "en"
        self._stop = STOP_WORDS.get(self.language, STOP_WORDS["en"])
        self._stem = _stemmer(self.language).stemWord
        self._cache: dict[str, str | None] = {}

    def term(self, word: str) -> str | None:
        """The index term for one lower-cased token, or None for a stop word."""
        cached = self._cache.get(word, "")
        if cached != "":
            return cached
        if word in self._stop:
            result = None
        elif word[0].isdigit():
            # "1,200" and "1200" are one number; "1ª" and "1a" one word.
            result = strip_accents(_THOUSANDS.sub("", word))
        else:
            # "fell" is "fall" (irregular.py); the token itself is what is cached, or a
            # word read before would change how the next one reads.
            base = BASE_FORMS.get(word, word) if self.language == "en" else word
            # "did" is "do", a stop word too
            result = None if base in self._stop else strip_accents(self._stem(base))
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


def content_words(text: str, language: str = "en") -> list[str]:
    """The words of ``text`` that carry content: not stop words in any of our languages."""
    return [w for w in words(text, language) if w not in _ALL_STOP and len(w) > 1 or w.isdigit()]


_LANG_PROBES = {
    "en": frozenset("the of and to in is was that for with as by on are from".split()),
    "es": frozenset(
        "el la de que y en los las del se por con para una es su al qué cuál quién quiénes "
        "cuándo dónde cuántos cuántas cuánto cómo".split()
    ),
    "tr": frozenset(
        "ve bir bu için ile da de olarak olan daha çok gibi ise en kim kimdi kimdir nerede "
        "hangi kaç neden niçin mi mı mu mü nedir".split()
    ),
}


def detect_language(text: str, *, sample: int = 4000, default: str = "en") -> str:
    """Guess en/es/tr from function-word counts (``default`` when nothing speaks)."""
    tokens = words(text[:sample] if len(text) > sample else text)
    counts = {lang: sum(1 for t in tokens if t in probe) for lang, probe in _LANG_PROBES.items()}
    # Turkish letters are a strong signal even in short questions.
    if any(c in text for c in "ğışİĞŞ"):
        counts["tr"] += 3
    if any(c in text for c in "ñ¿¡"):
        counts["es"] += 3
    best = max(LANGUAGES, key=lambda lang: (counts[lang], lang == "en"))
    return best if counts[best] > 0 else default
