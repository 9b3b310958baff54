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
    "ne tür": "what kind of",
    "kaç tane": "how many",
    "kaçtır": "how many",
    "hangisidir": "which is",
    "nasıldır": "how is",
    "nelere": "what",
    "kaç kez": "how many times",
    "kaç kere": "how many times",
    "kaç defa": "how many times",
    "kaç": "how many",
    "kim": "who",
    "kimdir": "who is",
    "kimdi": "who was",
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
    "nedir": "what is",
    "neydi": "what was",
    "neyi": "what",
    "neye": "what",
    "neler": "what",
    "nelerdir": "what are",
    "ne": "what",
}

# Words whose English is one of the few content words too frequent for the bundled model
# to place (its vector is int8 noise: "new", "first", "time"; tools/build_labels.py), so no
# label of the model can name them.
COMMON_WORDS: dict[str, str] = {
    **dict.fromkeys(("yeni",), "new"),
    **dict.fromkeys(("ilk",), "first"),
    **dict.fromkeys(("zaman", "süre"), "time"),
    **dict.fromkeys(("kez", "kere", "defa"), "times"),
    **dict.fromkeys(("insanlar", "halk", "kişi", "kişiler"), "people"),
    **dict.fromkeys(("iyi",), "good"),
    **dict.fromkeys(("adam",), "man"),
    **dict.fromkeys(("adamlar", "erkekler"), "men"),
    **dict.fromkeys(("oğul", "oğlu"), "son"),
    **dict.fromkeys(("kullanır", "kullanılır", "kullanmak", "kullanılan", "kullanım"), "use"),
    **dict.fromkeys(("dedi", "söyledi"), "said"),
    **dict.fromkeys(("yol", "şekilde", "biçimde"), "way"),
    **dict.fromkeys(("ihtiyaç", "ihtiyacı", "gerek"), "need"),
    # The few function words a question's computation is read by ("between 2018 and 2019").
    **dict.fromkeys(("ve",), "and"),
    **dict.fromkeys(("arasında", "arasındaki"), "between"),
    **dict.fromkeys(("için",), "for"),
    # The words a question asks for a computation by, which the lines need not hold.
    **dict.fromkeys(("ortalama", "ortalaması"), "average"),
    **dict.fromkeys(("toplam", "toplamı"), "total"),
    **dict.fromkeys(("fark", "farkı"), "difference"),
    **dict.fromkeys(("değişim", "değişimi", "değişiklik"), "change"),
    **dict.fromkeys(("yüzde", "yüzdesi"), "percentage"),
    **dict.fromkeys(("artış", "artışı"), "increase"),
    **dict.fromkeys(("azalış", "azalma", "düşüş"), "decrease"),
    **dict.fromkeys(("oran", "oranı"), "ratio"),
}

# How the light verbs and copulas begin ("etmiştir": has done, "olmaktadır": is being,
# "sahiptir": has, "meydana gelmiştir": occurred): they carry tense and person, not what a
# question asks about, so a reading in another language leaves them out.
LIGHT_WORD_STARTS: tuple[str, ...] = (
    "etmiş",
    "ettiğ",
    "edil",
    "eder",
    "etmekte",
    "etti",
    "olmuş",
    "olmak",
    "oldu",
    "olan",
    "olduğ",
    "olarak",
    "yapmış",
    "yapıl",
    "yaptı",
    "yapan",
    "almış",
    "vardı",
    "vardır",
    "değil",
    "sahip",
    "meydana",
    "hakkında",
    "tane",
    "hale",
    "gelmekte",
    "gelmiş",
)
