"""Number words to twenty in English, Spanish and Turkish: language data shared by the index
(which keeps them as terms) and the gates (which read them as numbers), kept below both so
neither imports the other for it."""

from __future__ import annotations

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
AMBIGUOUS_NUMBER_WORDS = frozenset({"on", "once", "una", "bir"})
_TURKISH = frozenset(
    {
        "sıfır",
        "bir",
        "iki",
        "üç",
        "dört",
        "beş",
        "altı",
        "yedi",
        "sekiz",
        "dokuz",
        "on",
        "onbir",
        "oniki",
        "yirmi",
    }
)
_ENGLISH = frozenset(
    {
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    }
)
# Each language reads only its own number words: "quince" is a fruit in English.
LANGUAGE_NUMBER_WORDS: dict[str, frozenset[str]] = {
    "en": _ENGLISH,
    "tr": _TURKISH,
    "es": frozenset(NUMBER_WORDS) - _ENGLISH - _TURKISH,
}

__all__ = ["AMBIGUOUS_NUMBER_WORDS", "LANGUAGE_NUMBER_WORDS", "NUMBER_WORDS"]
