"""Words: case folding (Turkish dotted and dotless i), accents, and the tokens of a text.
Every room reads words through these: the index's terms, the gates' comparisons, the
readers' letter runs."""

from __future__ import annotations

import functools
import re
import unicodedata

from affidavit.text.lang import VOCABULARIES

# The classes every word pattern is built from: a letter, a letter or digit, and Python's
# word character (a letter, a digit or an underscore).
LETTER = r"[^\W\d_]"
LETTER_OR_DIGIT = r"[^\W_]"
WORD_CHARACTER = r"\w"
LETTER_RUN = re.compile(rf"{LETTER}+")
_WORD_RUN = re.compile(rf"{WORD_CHARACTER}+")
_WORD_OF_TWO_LETTERS = re.compile(rf"{LETTER}{{2,}}")
# A word as a speaker writes it: an apostrophe inside keeps "I'm" and "don't" whole.
_SPOKEN_WORD = re.compile(rf"{LETTER_OR_DIGIT}+(?:'{LETTER_OR_DIGIT}+)?")
# A word as written with what may stand inside it: "Smith's", "U.S.", "self-employed".
_WRITTEN_WORD = re.compile(rf"{LETTER_OR_DIGIT}[\w'’.-]*")
# A word as asked, case kept, with its inner apostrophes and hyphens: "Broncos'u", "1562'de".
_ASKED_WORD = re.compile(
    rf"\d+(?:[.,]\d+)+(?:['’]{LETTER}+)?|{LETTER_OR_DIGIT}+(?:['’-]{LETTER_OR_DIGIT}+)*"
)
# A value a sentence writes: a number, or a capitalised word that does not open it.
_VALUE = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w'-]*|\b\d[\d,.]*\b")

# Numbers stay whole ("1,260.00", "3.5"), and a decimal keeps its value when a unit letter
# is glued to it ("£59.1m" -> 59.1, m; "445.0p"); otherwise runs of letters/digits, so a
# code stays one term ("1040NR"). Apostrophes split ("İstanbul'da" -> istanbul, da)
# because Turkish case suffixes follow one.
_TOKEN = re.compile(
    rf"\d+(?:[.,]\d+)+(?={LETTER})|\d+(?:[.,]\d+)*(?!{LETTER_OR_DIGIT})|{LETTER_OR_DIGIT}+",
    re.UNICODE,
)
# A term set in quotation marks, straight or curly ("“Contributor”", '"Source" form').
_QUOTED_TERM = '[“"]([^”"]{{1,{longest}}})[”"]'
_ALL_STOP = frozenset().union(*(v.stop_words for v in VOCABULARIES.values()))


def fold(text: str, language: str = "en") -> str:
    """Lower-case for comparing, mapping Turkish İ/I correctly where the text is Turkish."""
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
    """Folded word tokens of ``text`` (no stemming, stop words kept). Folding happens
    before tokenizing, so "İstanbul" is one word."""
    return _TOKEN.findall(fold(text, language))


def words_as_written(text: str, language: str = "en") -> list[tuple[str, str]]:
    """Each token ``words`` reads in ``text`` (folded), with the text it was read from as
    ``text`` writes it ("Harness", not "harness"): what a message shows for a term."""
    folded = fold(text, language)
    # Folding keeps the length of nearly every text; where it does not, the folded token
    # is the best spelling there is.
    aligned = len(folded) == len(text)
    return [
        (m.group(), text[m.start() : m.end()] if aligned else m.group())
        for m in _TOKEN.finditer(folded)
    ]


def asked_words(text: str) -> list[str]:
    """The words of ``text`` as written (case kept), a Turkish case ending after an
    apostrophe kept with its word ("Broncos'u"), a number whole ("1,345,596")."""
    return _ASKED_WORD.findall(text)


def letter_runs(text: str) -> list[str]:
    """The runs of letters of ``text``, as written (no digits, no case folding)."""
    return LETTER_RUN.findall(text)


def content_words(text: str, language: str = "en") -> list[str]:
    """The words of ``text`` that carry content: not stop words in any of our languages."""
    return [w for w in words(text, language) if w not in _ALL_STOP and len(w) > 1 or w.isdigit()]


def writes_whole(text: str, phrase: str) -> bool:
    """Does ``text`` write ``phrase`` whole, in any case: not inside a longer word or
    number ("15" is not written by "150")?"""
    return _whole(phrase).search(text) is not None


# NOTE: compiled once a phrase: an ask's judges test the same few phrases against many
# lines, and re's own cache of 512 patterns turned over every ask (2.6 ms an ask over the
# compliance set's 40 documents).
@functools.lru_cache(maxsize=4096)
def _whole(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){re.escape(phrase)}(?![\w])", re.IGNORECASE)


def holds_a_word(text: str) -> bool:
    """Does ``text`` hold a word of two letters or more (not only digits and signs)?"""
    return _WORD_OF_TWO_LETTERS.search(text) is not None


def spoken_words(text: str) -> list[str]:
    """The words of ``text`` as a speaker writes them ("I'm" whole), case as written."""
    return _SPOKEN_WORD.findall(text)


def written_word_spans(text: str) -> list[tuple[int, int]]:
    """Where each word of ``text`` stands, with the apostrophes, stops and hyphens inside it
    ("Smith's", "U.S."), as (start, end)."""
    return [match.span() for match in _WRITTEN_WORD.finditer(text)]


def values_written(text: str) -> list[str]:
    """The values a sentence writes: its numbers, and its capitalised words but the first."""
    return _VALUE.findall(text)


def count_words(text: str) -> int:
    """How many runs of word characters ``text`` holds (a line's length in words)."""
    return len(_WORD_RUN.findall(text))


@functools.lru_cache(maxsize=4)
def _quoting(longest: int) -> re.Pattern[str]:
    return re.compile(_QUOTED_TERM.format(longest=longest))


def quoted_terms(text: str, longest: int = 80) -> list[str]:
    """The terms ``text`` sets in quotation marks, as written, each of at most
    ``longest`` characters (a longer quotation is a passage, not a term)."""
    return _quoting(longest).findall(text)
