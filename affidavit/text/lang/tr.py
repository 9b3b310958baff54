"""Turkish: the words the language layer reads by list (stop words, numbers, months, the
function words that tell the language, abbreviations)."""

from __future__ import annotations

from spacy.lang.tr.stop_words import STOP_WORDS as _SPACY_STOP_WORDS

NUMBER_WORDS: dict[str, int] = {
    "sıfır": 0,
    "bir": 1,
    "iki": 2,
    "üç": 3,
    "dört": 4,
    "beş": 5,
    "altı": 6,
    "yedi": 7,
    "sekiz": 8,
    "dokuz": 9,
    "on": 10,
    "onbir": 11,
    "oniki": 12,
    "yirmi": 20,
}
PRONOUN_NUMBERS: frozenset[str] = frozenset()
# Words that are also ordinary words (English "on"; "bir" the article) never count.
AMBIGUOUS_NUMBER_WORDS = frozenset({"on", "bir"})
SCALE_WORDS = frozenset({"yüz", "bin", "milyon", "milyar"})

STOP_WORDS = frozenset(_SPACY_STOP_WORDS)

MONTHS: tuple[tuple[str, ...], ...] = tuple(
    (name,)
    for name in "ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık".split()
)
WEEKDAYS: tuple[str, ...] = ()

PROBES = frozenset(
    "ve bir bu için ile da de olarak olan daha çok gibi ise en kim kimdi kimdir nerede "
    "hangi kaç neden niçin mi mı mu mü nedir".split()
)
# The words that negate a clause.
NEGATIONS = frozenset({"değil", "yok", "hiç", "asla", "hiçbir"})
YES = frozenset({"evet"})
NO = frozenset({"hayır", "hayir"})

ABBREVIATIONS: dict[str, str] = {"no": "numara", "tel": "telefon", "md": "madde"}

# Question words and the English ones they are, longest phrases first: a Turkish question
# asked of English lines is read in English (records/gloss.py). Turkish asks at the end of
# the clause; the gloss moves the English question word to the front.
QUESTION_WORDS: dict[str, str] = {
    "ne zaman": "when",
    "ne kadar uzakta": "how far",
    "ne kadar uzak": "how far",
    "ne kadar": "how much",
    "kaç yaşında": "how old",
    "kaç yaşındaydı": "how old",
    "hangi yıl": "what year",
    "hangi yılda": "in what year",
    "kaç": "how many",
    "kim": "who",
    "kimdir": "who",
    "kimdi": "who",
    "kimin": "whose",
    "kime": "who",
    "kimi": "who",
    "kimler": "who",
    "kimlerdir": "who",
    "hangi": "which",
    "hangisi": "which",
    "hangileri": "which",
    "nerede": "where",
    "nereye": "where",
    "nereden": "where from",
    "neresi": "where",
    "neresidir": "where",
    "neden": "why",
    "niçin": "why",
    "niye": "why",
    "nasıl": "how",
    "nedir": "what",
    "neydi": "what",
    "neyi": "what",
    "neye": "what",
    "neler": "what",
    "nelerdir": "what",
    "ne": "what",
}
