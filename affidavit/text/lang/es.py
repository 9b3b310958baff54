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
    "cuántas veces": "how many times",
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

# Words whose English is one of the few content words too frequent for the bundled model
# to place (its vector is int8 noise: "new", "first", "time"; tools/build_labels.py), so no
# label of the model can name them.
COMMON_WORDS: dict[str, str] = {
    **dict.fromkeys(("nuevo", "nueva", "nuevos", "nuevas"), "new"),
    **dict.fromkeys(("primer", "primero", "primera", "primeros", "primeras"), "first"),
    **dict.fromkeys(("tiempo",), "time"),
    **dict.fromkeys(("vez", "veces"), "times"),
    **dict.fromkeys(("gente", "personas", "pueblo"), "people"),
    **dict.fromkeys(("bueno", "buena", "buenos", "buenas", "buen"), "good"),
    **dict.fromkeys(("hombre",), "man"),
    **dict.fromkeys(("hombres",), "men"),
    **dict.fromkeys(("hijo",), "son"),
    **dict.fromkeys(("uso", "usa", "usan", "usar", "usó", "usaron", "utiliza", "utilizan"), "use"),
    **dict.fromkeys(("dijo", "dijeron"), "said"),
    **dict.fromkeys(("manera", "modo"), "way"),
    **dict.fromkeys(("necesita", "necesitan", "necesidad", "necesidades"), "need"),
    # The few function words a question's computation is read by ("between 2018 and 2019",
    # "from 2018 to 2019"), so the English reading keeps them. NOTE: not "de": "el promedio
    # del total de 2018 y 2019" read "average of total of 2018 and 2019" is a sum.
    **dict.fromkeys(("y", "e"), "and"),
    # The copula after the question word, which English computations are read by ("what
    # was the average total ...").
    **dict.fromkeys(("es",), "is"),
    **dict.fromkeys(("son",), "are"),
    **dict.fromkeys(("fue", "era"), "was"),
    **dict.fromkeys(("fueron", "eran"), "were"),
    **dict.fromkeys(("entre",), "between"),
    **dict.fromkeys(("desde",), "from"),
    **dict.fromkeys(("hasta",), "to"),
    **dict.fromkeys(("para",), "for"),
    **dict.fromkeys(("en",), "in"),
    # How a question asks a name ("¿Cómo se llama...?": what is it called?).
    **dict.fromkeys(
        ("llama", "llaman", "llamaba", "llamaban", "llamó", "llamado", "llamada"), "called"
    ),
    **dict.fromkeys(("denomina", "denominan", "denominado", "denominada"), "called"),
    # The words a question asks for a computation by, which the lines need not hold.
    **dict.fromkeys(("promedio", "media"), "average"),
    **dict.fromkeys(("total",), "total"),
    **dict.fromkeys(("suma",), "sum"),
    **dict.fromkeys(("diferencia",), "difference"),
    **dict.fromkeys(("cambio", "variación"), "change"),
    **dict.fromkeys(("porcentaje",), "percentage"),
    **dict.fromkeys(("aumento", "incremento"), "increase"),
    **dict.fromkeys(("disminución", "descenso"), "decrease"),
    **dict.fromkeys(("proporción", "razón"), "ratio"),
}

# Light verbs and copulas a reading leaves out (see tr.py); the stop words hold them here.
LIGHT_WORD_STARTS: tuple[str, ...] = ()
