"""Numbers as the gates compare them: "1,200" = "1200", "7 percent" = "7%", "three" = 3."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from affidavit.text.lang import VOCABULARIES
from affidavit.text.tokens import LETTER_RUN

# Every language's number words to twenty and their values (no spelling is two numbers).
NUMBER_WORDS: dict[str, int] = {
    word: value for words in VOCABULARIES.values() for word, value in words.number_words.items()
}
# Each language reads only its own number words: "quince" is a fruit in English.
LANGUAGE_NUMBER_WORDS: dict[str, frozenset[str]] = {
    language: frozenset(words.number_words) for language, words in VOCABULARIES.items()
}
# Words that are also ordinary words in one of the languages never count as numbers.
AMBIGUOUS_NUMBER_WORDS = frozenset().union(
    *(words.ambiguous_number_words for words in VOCABULARIES.values())
)

# A figure as a question writes a bound: "above $50 million", "less than 1,500".
BOUND_FIGURE = r"[$€£]?\s?[\d,.]+"

# Thousands separators only where they group by three, so "3,5" stays two numbers.
# A minus sign counts only where it cannot be a hyphen or a range ("1990-1995", "MS-DOS").
_NUMBER = re.compile(
    r"(?:(?<![\w.\-−])([-−]))?(?<!\w)(?<!\d\.)(\d{1,3}(?:,\d{3})+(?!\d)|\d+)(\.\d+)?"
)


def canonical(digits: str, fraction: str | None = None, sign: str | None = None) -> str:
    """Canonical decimal text: no separators, no trailing fractional zeros, "-" for a minus;
    so two spellings of one quantity compare equal and any other digit does not.

    Done on the text, not through a float or Decimal, so no digit is ever rounded away.
    A whole number written with a leading zero ("02", "007") is kept as written: it is a
    code or a perturbation, not another spelling of 2.
    """
    whole = digits.replace(",", "")
    if fraction is None and len(whole) > 1 and whole.startswith("0"):
        return ("-" if sign else "") + whole
    whole = whole.lstrip("0") or "0"
    tail = (fraction or "").lstrip(".").rstrip("0")
    text = f"{whole}.{tail}" if tail else whole
    return ("-" if sign and text != "0" else "") + text


def numbers_in(text: str) -> list[str]:
    """Every number written in digits in ``text``, canonicalised, in order."""
    digits = [canonical(m.group(2), m.group(3), m.group(1)) for m in _NUMBER.finditer(text)]
    return digits + fractions_in(text)


# "one" is as often a pronoun ("the older one", "one of the") as a count: a sentence that
# writes it commits to no number, but evidence that writes it does carry a 1.
PRONOUN_NUMBERS = frozenset().union(*(words.pronoun_numbers for words in VOCABULARIES.values()))
# ... but "one million", "uno mil" always commit to a number.
SCALE_WORDS = frozenset().union(*(words.scale_words for words in VOCABULARIES.values()))


def number_words_in(
    text: str, *, committing: bool = False, language: str | None = None
) -> list[str]:
    """Numbers written out as words (up to twenty), canonicalised.

    With ``committing`` (the words a sentence commits to, not those evidence carries),
    words that are as often pronouns as numbers are left out unless a scale word follows
    ("one million"). With ``language``, only that language's number words count.
    """
    vocabulary = LANGUAGE_NUMBER_WORDS.get(language or "", NUMBER_WORDS.keys())
    found = []
    tokens = LETTER_RUN.findall(text.lower())
    for at, word in enumerate(tokens):
        if word in vocabulary and word not in AMBIGUOUS_NUMBER_WORDS:
            scaled = at + 1 < len(tokens) and tokens[at + 1] in SCALE_WORDS
            if committing and word in PRONOUN_NUMBERS and not scaled:
                continue  # "the older one", "one of the": no number is said
            found.append(str(NUMBER_WORDS[word]))
    return found


def fractions_in(text: str) -> list[str]:
    """Vulgar fractions ("½", "¾") as canonical decimals."""
    found = []
    for char in text:
        if "\u00bc" <= char <= "\u00be" or "\u2150" <= char <= "\u215e":
            whole, _, tail = f"{unicodedata.numeric(char):.6f}".partition(".")
            found.append(canonical(whole, "." + tail))
    return found


@lru_cache(maxsize=65536)
def carried_numbers(text: str) -> frozenset[str]:
    """All quantities ``text`` carries, in digits or in words."""
    return frozenset(numbers_in(text)) | frozenset(number_words_in(text))


def rounded(number: float, places: int = 2) -> float:
    """Round half away from zero at ``places`` decimals, and drop a float's noise."""
    shifted = abs(number) * 10**places
    whole = int(shifted + 0.5 + 1e-9)
    result = whole / 10**places
    return -result if number < 0 and whole else result


def format_number(number: float, places: int = 2) -> str:
    """A number as an answer writes it: grouped thousands, at most ``places`` decimals."""
    value = rounded(number, places)
    text = f"{abs(value):,.{places}f}".rstrip("0").rstrip(".") if places else f"{abs(value):,.0f}"
    return f"-{text}" if value < 0 else text


def written_numbers(text: str, language: str | None = None) -> list[str]:
    """The numbers a sentence commits to: in digits and in its language's words to twenty."""
    return numbers_in(text) + number_words_in(text, committing=True, language=language)


def evidence_numbers(lines: Iterable[str]) -> set[str]:
    """Every quantity the evidence carries, in digits or in words."""
    carried: set[str] = set()
    for line in lines:
        carried |= carried_numbers(line)
    return carried


_PLAIN_COUNT = re.compile(r"^\s*(\d{1,3}(?:,\d{3})+|\d+)\s*$")


def plain_count(text: str) -> int | None:
    """The whole number ``text`` is, written in digits alone ("1,024"), or None."""
    count = _PLAIN_COUNT.match(text)
    return int(count.group(1).replace(",", "")) if count else None


# An amount as a table cell writes one ("1,452.4", "(9.9)", "$130", "12 %", "20181"),
# never a year, a date or a unit alone.
_AMOUNT = re.compile(
    r"\d[\d,]*\.\d|\d{1,3},\d{3}|[$€£¥]\s*\(?\d|^\(\d|\d\s*%|^[-−]?\d{1,3}$|^\d{5,}$"
)


def looks_like_an_amount(cell: str) -> bool:
    """Does the cell write an amount (not words, a year, a date or a unit)?"""
    return _AMOUNT.search(cell) is not None


_FIGURE_ONLY = re.compile(r"^[\s$€£¥%+\-−–.,()0-9]*[0-9][\s$€£¥%+\-−–.,()0-9]*$")


def is_figure_only(text: str) -> bool:
    """Is ``text`` a figure and nothing else: digits with signs, currency and brackets
    ("2015", "$1,200.50", "(12%)")?"""
    return _FIGURE_ONLY.match(text) is not None


# Spanish and Turkish: "1.345.596" groups thousands with dots; "3,5" marks a decimal.
_DOTTED_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+")
_COMMA_DECIMAL = re.compile(r"\d+,\d{1,2}")


def english_number(written: str) -> str:
    """A number as English writes it: Spanish and Turkish group thousands with dots and
    mark decimals with a comma ("1.345.596" is 1,345,596; "3,5" is 3.5); a number that
    is neither is left as written."""
    if _DOTTED_THOUSANDS.fullmatch(written):
        return written.replace(".", ",")
    if _COMMA_DECIMAL.fullmatch(written):
        return written.replace(",", ".")
    return written
