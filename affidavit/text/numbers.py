"""Numbers as the gates compare them: "1,200" = "1200", "7 percent" = "7%", "three" = 3.

A number is normalised to a canonical decimal string, so two spellings of one quantity
compare equal and any other digit does not.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# How an answer writes a number is the foundation's (results.py: the CLI and the audit
# report write an audit's numbers so too); the names stay importable from here.
from affidavit.results import format_number, rounded

# The words live below the index and the gates; their names stay importable from here.
from affidavit.text.number_words import (
    AMBIGUOUS_NUMBER_WORDS,
    LANGUAGE_NUMBER_WORDS,
    NUMBER_WORDS,
)

__all__ = [
    "AMBIGUOUS_NUMBER_WORDS",
    "LANGUAGE_NUMBER_WORDS",
    "NUMBER_WORDS",
    "canonical",
    "format_number",
    "rounded",
    "carried_numbers",
    "fractions_in",
    "number_words_in",
    "numbers_in",
]

# Thousands separators only where they group by three, so "3,5" stays two numbers.
# A minus sign counts only where it cannot be a hyphen or a range ("1990-1995", "MS-DOS").
_NUMBER = re.compile(
    r"(?:(?<![\w.\-−])([-−]))?(?<!\w)(?<!\d\.)(\d{1,3}(?:,\d{3})+(?!\d)|\d+)(\.\d+)?"
)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def canonical(digits: str, fraction: str | None = None, sign: str | None = None) -> str:
    """Canonical decimal text: no separators, no trailing fractional zeros, "-" for a minus.

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
PRONOUN_NUMBERS = frozenset({"one", "uno", "una"})
# ... but "one million", "uno mil" always commit to a number.
SCALE_WORDS = frozenset(
    {
        "hundred",
        "thousand",
        "million",
        "billion",
        "trillion",
        "cien",
        "ciento",
        "mil",
        "millón",
        "millones",
        "yüz",
        "bin",
        "milyon",
        "milyar",
    }
)


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
    tokens = _WORD.findall(text.lower())
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
