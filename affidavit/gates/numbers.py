"""Numbers as the gates compare them: "1,200" = "1200", "7 percent" = "7%", "three" = 3.

A number is normalised to a canonical decimal string, so two spellings of one quantity
compare equal and any other digit does not.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache

# Thousands separators only where they group by three, so "3,5" stays two numbers.
_NUMBER = re.compile(r"(?<!\w)(?<!\d\.)(\d{1,3}(?:,\d{3})+(?!\d)|\d+)(\.\d+)?")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)

NUMBER_WORDS: dict[str, int] = {
    word: value
    for value, spellings in enumerate(
        [
            ("zero", "cero", "sıfır"),
            ("one", "uno", "una", "bir"),
            ("two", "dos", "iki"),
            ("three", "tres", "üç"),
            ("four", "cuatro", "dört"),
            ("five", "cinco", "beş"),
            ("six", "seis", "altı"),
            ("seven", "siete", "yedi"),
            ("eight", "ocho", "sekiz"),
            ("nine", "nueve", "dokuz"),
            ("ten", "diez", "on"),
            ("eleven", "once", "onbir"),
            ("twelve", "doce", "oniki"),
            ("thirteen", "trece"),
            ("fourteen", "catorce"),
            ("fifteen", "quince"),
            ("sixteen", "dieciséis"),
            ("seventeen", "diecisiete"),
            ("eighteen", "dieciocho"),
            ("nineteen", "diecinueve"),
            ("twenty", "veinte", "yirmi"),
        ]
    )
    for word in spellings
}
# Words that are also ordinary words in one of the languages never count as numbers.
_AMBIGUOUS = frozenset({"on", "once", "una", "bir"})


def canonical(digits: str, fraction: str | None = None) -> str:
    """Canonical decimal text: no separators, no trailing fractional zeros.

    A whole number written with a leading zero ("02", "007") is kept as written: it is a
    code or a perturbation, not another spelling of 2.
    """
    if fraction is None and len(digits) > 1 and digits.startswith("0"):
        return digits
    try:
        value = Decimal(digits.replace(",", "") + (fraction or ""))
    except InvalidOperation:
        return digits
    text = format(value.normalize(), "f")
    return text


def numbers_in(text: str) -> list[str]:
    """Every number written in digits in ``text``, canonicalised, in order."""
    return [canonical(m.group(1), m.group(2)) for m in _NUMBER.finditer(text)]


# "one" is as often a pronoun ("the older one", "one of the") as a count: a sentence that
# writes it commits to no number, but evidence that writes it does carry a 1.
PRONOUN_NUMBERS = frozenset({"one", "uno", "una"})


def number_words_in(text: str, *, committing: bool = False) -> list[str]:
    """Numbers written out as words (up to twenty), canonicalised.

    With ``committing`` (the words a sentence commits to, not those evidence carries),
    words that are as often pronouns as numbers are left out.
    """
    found = []
    for word in _WORD.findall(text.lower()):
        if word in NUMBER_WORDS and word not in _AMBIGUOUS:
            if committing and word in PRONOUN_NUMBERS:
                continue
            found.append(str(NUMBER_WORDS[word]))
    return found


@lru_cache(maxsize=65536)
def carried_numbers(text: str) -> frozenset[str]:
    """All quantities ``text`` carries, in digits or in words."""
    return frozenset(numbers_in(text)) | frozenset(number_words_in(text))
