"""English: the words the language layer reads by list (stop words, numbers, months, days,
the function words that tell the language, abbreviations)."""

from __future__ import annotations

from spacy.lang.en.stop_words import STOP_WORDS as _SPACY_STOP_WORDS

NUMBER_WORDS: dict[str, int] = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
# "one" is as often a pronoun ("the older one") as a count.
PRONOUN_NUMBERS = frozenset({"one"})
AMBIGUOUS_NUMBER_WORDS: frozenset[str] = frozenset()
SCALE_WORDS = frozenset({"hundred", "thousand", "million", "billion", "trillion"})

# NOTE: spaCy's list carries words that answer questions ("first", "last", "name", number
# words); the index keeps those, so they are taken back out: the number words to twenty,
# the tens and "hundred" that spaCy also counts, and these.
_KEPT = frozenset(NUMBER_WORDS) | {"forty", "fifty", "sixty", "hundred"}
_KEPT |= frozenset(
    "first last name top bottom front back side call empty full fire bill part move show "
    "mill amount serious former latter became become least most many much well never".split()
)
STOP_WORDS = frozenset(w for w in _SPACY_STOP_WORDS if w not in _KEPT)

# Each month's spellings, January first: the full name first.
MONTHS: tuple[tuple[str, ...], ...] = (
    ("january", "jan"),
    ("february", "feb"),
    ("march", "mar"),
    ("april", "apr"),
    ("may",),
    ("june", "jun"),
    ("july", "jul"),
    ("august", "aug"),
    ("september", "sep", "sept"),
    ("october", "oct"),
    ("november", "nov"),
    ("december", "dec"),
)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# Function words whose count tells a text's language.
PROBES = frozenset("the of and to in is was that for with as by on are from".split())
# The words that negate a clause.
NEGATIONS = frozenset(
    {"not", "no", "never", "nor", "neither", "none", "nobody", "nothing", "without", "cannot"}
)
YES = frozenset({"yes", "yeah", "correct", "true"})
NO = frozenset({"no", "not", "false", "incorrect"})

# Written abbreviations (capitalised, closed by a full stop) and the words they stand for.
ABBREVIATIONS: dict[str, str] = {
    "no": "number",
    "cat": "catalog",
    "pub": "publication",
    "publ": "publication",
    "reg": "regulation",
    "regs": "regulations",
    "sec": "section",
    "art": "article",
    "para": "paragraph",
    "ch": "chapter",
    "vol": "volume",
    "fig": "figure",
    "ref": "reference",
    "dept": "department",
    "div": "division",
    "admin": "administration",
    "govt": "government",
    "natl": "national",
    "intl": "international",
    "assn": "association",
    "univ": "university",
    "corp": "corporation",
    "inc": "incorporated",
    "ltd": "limited",
    "co": "company",
    "tel": "telephone",
    "ph": "phone",
    "ext": "extension",
    "amt": "amount",
    "qty": "quantity",
    "approx": "approximately",
    "est": "established",
    "acct": "account",
    "dist": "district",
    "ave": "avenue",
    "blvd": "boulevard",
    "rd": "road",
    "mt": "mount",
    "jan": "january",
    "feb": "february",
    "mar": "march",
    "apr": "april",
    "aug": "august",
    "sep": "september",
    "sept": "september",
    "oct": "october",
    "nov": "november",
    "dec": "december",
}

# English is the language the others are read into: its question words need no reading.
QUESTION_WORDS: dict[str, str] = {}

# English is the language the others are read into: its common words need no reading.
COMMON_WORDS: dict[str, str] = {}

# Light verbs and copulas a reading leaves out (see tr.py); the stop words hold them here.
LIGHT_WORD_STARTS: tuple[str, ...] = ()
