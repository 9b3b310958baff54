"""Spanish: the words the language layer reads by list (stop words, numbers, months, the
function words that tell the language, abbreviations)."""

from __future__ import annotations

from spacy.lang.es.stop_words import STOP_WORDS as _SPACY_STOP_WORDS

NUMBER_WORDS: dict[str, int] = {
    "cero": 0,
    "uno": 1,
    "una": 1,
    "dos": 2,
    "tres": 3,
    "cuatro": 4,
    "cinco": 5,
    "seis": 6,
    "siete": 7,
    "ocho": 8,
    "nueve": 9,
    "diez": 10,
    "once": 11,
    "doce": 12,
    "trece": 13,
    "catorce": 14,
    "quince": 15,
    "dieciséis": 16,
    "diecisiete": 17,
    "dieciocho": 18,
    "diecinueve": 19,
    "veinte": 20,
}
PRONOUN_NUMBERS = frozenset({"uno", "una"})
# Words that are also ordinary words (English "once"; "una" the article) never count.
AMBIGUOUS_NUMBER_WORDS = frozenset({"once", "una"})
SCALE_WORDS = frozenset({"cien", "ciento", "mil", "millón", "millones"})

STOP_WORDS = frozenset(_SPACY_STOP_WORDS)

MONTHS: tuple[tuple[str, ...], ...] = tuple(
    (name,)
    for name in (
        "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre"
    ).split()
)
WEEKDAYS: tuple[str, ...] = ()

PROBES = frozenset(
    "el la de que y en los las del se por con para una es su al qué cuál quién quiénes "
    "cuándo dónde cuántos cuántas cuánto cómo".split()
)
# The words that negate a clause.
NEGATIONS = frozenset(
    {"no", "nunca", "ni", "ninguno", "ninguna", "nada", "nadie", "sin", "jamás", "tampoco"}
)
YES = frozenset({"sí", "si"})
NO = frozenset({"no"})

ABBREVIATIONS: dict[str, str] = {
    "núm": "número",
    "nº": "número",
    "art": "artículo",
    "pág": "página",
    "tel": "teléfono",
    "dpto": "departamento",
    "admón": "administración",
}

# Question words and the English ones they are, longest phrases first: a Spanish question
# asked of English lines is read in English (records/gloss.py).
QUESTION_WORDS: dict[str, str] = {
    "en qué año": "in what year",
    "a qué distancia": "how far",
    "qué tan lejos": "how far",
    "qué edad": "how old",
    "cuánto tiempo": "how long",
    "por qué": "why",
    "de dónde": "where from",
    "a quiénes": "who",
    "a quién": "who",
    "de quién": "whose",
    "cuántos": "how many",
    "cuántas": "how many",
    "cuánto": "how much",
    "cuánta": "how much",
    "cuán": "how",
    "quiénes": "who",
    "quién": "who",
    "cuándo": "when",
    "dónde": "where",
    "adónde": "where",
    "cómo": "how",
    "cuáles": "what",
    "cuál": "what",
    "qué": "what",
}
