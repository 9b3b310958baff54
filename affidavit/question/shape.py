"""The shape reader: what kind of answer a question asks for, in English, Spanish or Turkish."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import StrEnum

from affidavit.text import content_words, detect_language, fold


class AnswerType(StrEnum):
    PERSON = "person"
    PLACE = "place"
    TIME = "time"
    COUNT = "count"
    AMOUNT = "amount"
    PERCENT = "percent"
    ENTITY = "entity"  # a name of something: organisation, work, group
    REASON = "reason"
    DESCRIPTION = "description"  # what/which/how: the supporting sentence is the answer
    IDENTIFIER = "identifier"  # a code or number that names: III-52.4, 11368V, Form W-8BEN
    EMAIL = "email"
    PHONE = "phone"  # telephone, fax, toll-free and TTY numbers
    URL = "url"
    QUANTITY = "quantity"  # a measure with its unit: 340 miles, 617 ft, 100–106 °F
    DURATION = "duration"  # a length of time: 380 years, five to ten years, one shift
    TITLE = "title"  # the title of a document or work


@dataclass(frozen=True, slots=True)
class Shape:
    """What kind of answer a question asks for. The shape binds: an engine proposes only
    answers of the expected type, and a question whose type finds nothing in the evidence
    is refused rather than answered with prose."""

    answer_type: AnswerType
    cue: str  # the words that decided the type
    language: str
    content_words: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "answer_type": self.answer_type.value,
            "cue": self.cue,
            "language": self.language,
            "content_words": list(self.content_words),
        }


_PLACE_NOUNS = (
    r"(?:city|country|state|place|region|river|town|county|continent|island|"
    r"location|area|province|nation|ciudad|país|lugar|región|río|şehir|ülke|yer|bölge|nehir)"
)
_TIME_NOUNS = (
    r"(?:year|years|date|day|month|century|decade|time|period|era|año|fecha|"
    r"día|mes|siglo|yıl|yılında|tarih|gün|ay|yüzyıl)"
)
_PERSON_NOUNS = (
    r"(?:person|man|woman|king|queen|president|author|scientist|leader|"
    r"emperor|pope|artist|player|persona|hombre|mujer|rey|kişi|kral)"
)
_ENTITY_NOUNS = (
    r"(?:company|organization|organisation|group|team|party|band|university|"
    r"agency|empresa|organización|grupo|equipo|şirket|kurum|takım)"
)

# -- the kinds a question names as its answer: "what is the X number / website / title" --
_DETERMINER = r"(?:the|its|their|his|her|your|our|this|that|these|those|a|an)"
# Words before the head noun ("the SSA's phone number"): none a verb, wh-word or article.
_MODIFIER = (
    r"(?:(?!(?:did|does|do|is|was|are|were|be|been|should|must|can|could|will|would|has|have|"
    r"had|may|might|when|where|who|why|how|if|after|before|while|since|until|happened|of|in|"
    rf"for|to|from|with|on|at|by|{_DETERMINER})\b)[\w.'’/&-]+\s)"
)
# The head noun must end its phrase: "which email claims ..." or "what is the speed limit"
# ask for something else than an e-mail or a speed.
_HEAD_END = (
    r"(?=\s+(?:of|for|to|at|on|in|from|by|with|under|near|is|was|are|were|did|does|do|should|"
    r"can|must|will|would|has|have|had|listed|given|used|shown|printed)\b|\s*[?.,!;:]|\s*$)"
)


def _asks_for(
    nouns: str, *, modifiers: str = "{0,3}", end: str = _HEAD_END, bare: bool = True
) -> tuple[str, ...]:
    """What/which questions whose head noun, one of ``nouns``, is the cue.

    "What speed ..." (``bare``) names the noun right after the wh-word; with a copula the
    noun may follow a determiner and modifiers ("What is Jacksonville's hottest recorded
    temperature?"). Without one, no modifier is allowed: "What makes day length constant"
    asks for a cause, not a day.
    """
    with_copula = (
        r"\b(?:what|which)(?:'s|’s| is| was| are| were)\s"
        rf"(?:{_DETERMINER}\s)?{_MODIFIER}{modifiers}(?P<cue>{nouns}){end}"
    )
    if not bare:
        return (with_copula,)
    return (rf"\b(?:what|which)\s(?P<cue>{nouns}){end}", with_copula)


_CUAL = (
    r"\b(?:cu[aá]l(?:es)?|qu[eé])(?: es| era| fue| son| eran| ser[aá])?\s"
    r"(?:(?:el|la|los|las|su|sus|un|una)\s)?"
)
_TURKISH_ASKS = r"\s+(?:ne(?:dir|ydi)?|hangisi(?:dir)?|kaçtır)\b"
# A count takes a plural head ("number of deaths"); a name-like number takes one thing
# ("the number of the regulation on hot work permits"). Adjectives that stand for plural
# people are counted too. Every word before the head must look singular, so "the new
# members killed" is still a count.
_PLURAL_ALONE = (
    r"(?:people|men|women|children|persons|staff|personnel|police|cattle|data|deer|fish|sheep|"
    r"troops|dead|wounded|injured|killed|missing|homeless|unemployed|poor|elderly|young|"
    r"faithful)\b"
)
_SINGULAR = rf"(?!{_PLURAL_ALONE})[a-z][\w-]*(?:ss|us|is|[^s\W])"
_NP_END = (
    r"(?=\s+(?:on|in|for|of|that|which|who|whom|was|is|were|are|did|does|do|to|with|by|under|"
    r"about|from|at|per)\b|\s*[?.,]|$)"
)
_DOCUMENTS = (
    r"(?:document|report|instructions|book|form|act|law|bill|publication|paper|article|study|"
    r"film|movie|song|album|novel|poem|play|opera|treaty|regulation|statute|directive|"
    r"standard|manual|handbook|guide|chapter|policy|programme|program|series|thesis|journal|"
    r"magazine|newspaper|painting|speech|letter|memo|notice|bulletin|treatise|manuscript|"
    r"brochure|pamphlet|leaflet|resolution|decree|memoir)s?"
)
_DOCUMENTS_ES = (
    r"(?:libro|informe|documento|ley|decreto|reglamento|formulario|obra|pel[ií]cula|canci[oó]n|"
    r"novela|art[ií]culo|revista|peri[oó]dico|tratado|manual|gu[ií]a|publicaci[oó]n)"
)
# Turkish names a document's title as its possessed name: "kitabın adı" (the book's name).
_DOCUMENTS_TR = (
    r"(?:kitab[ıi]n|raporun|belgenin|yasan[ıi]n|kanunun|eserin|makalenin|filmin|formun|"
    r"talimatlar[ıi]n|yönetmeliğin|romanın|dergin[ıi]n|gazetenin|antlaşmanın)"
)
_DURATION_UNITS = r"(?:years|months|weeks|days|hours|minutes|seconds|decades|centuries|generations)"
_MEASURE_UNITS = (
    r"(?:miles|kilometres|kilometers|km|metres|meters|feet|inches|yards|pounds|kilograms|kg|"
    r"tons|tonnes|gallons|litres|liters|barrels|acres|hectares|degrees|square)"
)
_LENGTHY_THINGS = (
    r"(?:river|road|bridge|tunnel|wall|coast(?:line)?|border|runway|pipeline|canal|railway|"
    r"railroad|line|track|trail|street|avenue|boulevard|highway|cable|ship|boat|beach|island|"
    r"lake|route|building|tower|fence|dam|path)s?"
)
# Head nouns that name a figure (a sum of money, a rate, a balance): "what was the hurdle
# rate" asks for a number as surely as "how much".
_FIGURE_NOUNS = (
    r"(?:amounts?|values?|costs?|prices?|expenses?|expenditures?|fees?|charges?|revenues?|"
    r"income|earnings|sales|profits?|losses|balances?|payments?|rates?|exposure|reserves?|"
    r"dividends?|salary|salaries|wages?|debt|proceeds|turnover|margin|budget)"
)
# The counting words that turn "number" into a count: "the total number of members".
_COUNTING = (
    r"(?:total|average|overall|combined|exact|approximate|estimated|maximum|minimum|largest|"
    r"smallest|greatest|highest|lowest|mean|median|whole|current|present|final|official|"
    r"actual|annual|daily|yearly|monthly|record|same|net)"
)

# Ordered: the first rule with a matching pattern decides. Patterns run on Turkish-aware
# lower case. A pattern's "cue" group, when it has one, holds the words that name the type;
# the words around it ("catalog" in "what is the catalog number") stay content words.
_RULES: tuple[tuple[AnswerType, tuple[str, ...]], ...] = (
    # "What does ITP stand for?": the words it spells out; "stand for" names no key word a
    # line must write ("ITP (Intent To Package)").
    (
        AnswerType.DESCRIPTION,
        (r"\b(?P<cue>stands? for|short for|(?:full|long) form of)\b(?!\s+(?:what|which)\b)",),
    ),
    (
        AnswerType.PERCENT,
        (
            r"\b(?:what|which) (?:percentage|percent|proportion|share)\b|\bqué porcentaje\b|"
            r"\byüzde kaç",
        ),
    ),
    # -- contacts --
    (
        AnswerType.EMAIL,
        (
            *_asks_for(r"e-?mail(?: address(?:es)?)?"),
            # "To what address are new bug reports e-mailed?": the address of an e-mail.
            r"\b(?:what|which) (?P<cue>address)\b(?=.*\be-?mail(?:ed|s)?\b)",
            _CUAL + r"(?P<cue>correo(?: electr[oó]nico)?|direcci[oó]n de correo"
            r"(?: electr[oó]nico)?|e-?mail)\b",
            r"\b(?P<cue>e-?posta(?: adresi)?)" + _TURKISH_ASKS,
        ),
    ),
    (
        AnswerType.PHONE,
        (
            *_asks_for(
                r"(?:tele)?phone(?: number)?|fax(?: number)?|toll-free (?:number|line)|hotline|"
                r"tty(?:/tdd)?(?: number)?|tdd(?: number)?"
            ),
            r"\bwhat (?:\w+ )?(?P<cue>number) (?:should|do|does|can|must|would|to)\b.*"
            r"\b(?:call|dial|fax)\b",
            r"\b(?P<cue>numbers?) to (?:call|dial)\b|\bcall (?:what|which) (?P<cue2>number)\b",
            _CUAL + r"(?P<cue>(?:n[uú]mero de )?(?:tel[eé]fono|fax))\b",
            r"\b(?P<cue>(?:telefon|faks|fax)(?: numaras[ıi])?)" + _TURKISH_ASKS,
        ),
    ),
    (
        AnswerType.URL,
        (
            *_asks_for(r"web ?site|web address|web ?page|url|link|home ?page|internet address"),
            r"\bwhere\b.*\b(?P<cue>download\w*|online|web ?site|on the (?:web|internet))\b",
            _CUAL + r"(?P<cue>sitio web|p[aá]gina web|direcci[oó]n web|url|enlace)\b",
            r"\bd[oó]nde\b.*\b(?P<cue>descarga\w*|en l[ií]nea|sitio web|p[aá]gina web)\b",
            r"\b(?P<cue>(?:web|internet) (?:sitesi|adresi))" + _TURKISH_ASKS,
            r"\b(?P<cue>nereden indir)\w*",
        ),
    ),
    # -- titles of documents and works --
    (
        AnswerType.TITLE,
        (
            *_asks_for(r"titles?"),
            r"\b(?:what|which)(?:'s| is| was| are| were)? (?:the )?(?:full |official |exact |"
            r"complete |original )?(?P<cue>name) of (?:the|this|these|that|those|a|an|his|her|"
            r"its|their) (?:[\w'’-]+ ){0,2}" + _DOCUMENTS + r"\b",
            r"\bwhat (?:is|was|are|were) (?:the|this|that|these|those|his|her|its|their) "
            r"(?:[\w'’-]+ ){0,2}" + _DOCUMENTS + r" (?P<cue>called|titled|entitled|named)\b",
            _CUAL + r"(?P<cue>t[ií]tulo)\b",
            r"\bc[oó]mo se (?P<cue>titula\w*|llama\w*) (?:el|la|los|las|este|esta) "
            + _DOCUMENTS_ES
            + r"\b",
            r"\b(?P<cue>başlığı)" + _TURKISH_ASKS,
            r"\b" + _DOCUMENTS_TR + r" (?P<cue>ad[ıi]|ismi)" + _TURKISH_ASKS,
        ),
    ),
    # -- deadlines and dates named as the answer; "how far back" asks for a date --
    (
        AnswerType.TIME,
        (
            r"\bby (?:what|which) (?P<cue>date|time|day|month|year)\b|\b(?P<cue2>by when)\b",
            *_asks_for(r"deadlines?|due dates?|dates?|day|cut-?off(?: date)?"),
            r"\bhow far back\b|\bdat(?:es?|ing) back\b|\bhow soon\b",
            _CUAL + r"(?P<cue>plazo|fecha(?: l[ií]mite| de vencimiento)?|d[ií]a)\b",
            r"\bfecha l[ií]mite\b|\b(?:hasta|para) cu[aá]ndo\b|\bantes de qu[eé] fecha\b",
            r"\bson (?:tarih|gün)\w*|\bne zamana kadar\b|\ben geç\b",
            r"\b(?P<cue>tarihi|günü)" + _TURKISH_ASKS,
        ),
    ),
    # -- identifiers: codes and numbers that name one thing --
    # "Exceeds what number?", "What number did early Greeks not regard as a number?" (SQuAD)
    # ask for a value; "what is the number" and "what number should I call" do not.
    (AnswerType.COUNT, (rf"\b{_COUNTING} number\b", r"\b(?:what|which) number\b(?! to\b)")),
    (
        AnswerType.IDENTIFIER,
        (
            # "the catalog number of the instructions" names; a bare "the number of ..."
            # names only one thing (the singular rule below) and else counts.
            *_asks_for(r"number|no\.", modifiers="{1,3}", bare=False),
            *_asks_for(r"number|no\.", modifiers="{0}", end=r"(?!\s+of\b)" + _HEAD_END, bare=False),
            *_asks_for(r"code|id|identifier|isbn|issn|rin|docket|serial"),
            rf"\b(?P<cue>number of) {_DETERMINER} (?:{_SINGULAR} ){{0,2}}{_SINGULAR}{_NP_END}",
            # NOTE: "Which regulation covers working at height?" is left to the phrase
            # reader (engine/rules/phrases.py), which answers it with "Regulation
            # III-52.1", kind and code.
            r"\bwhat (?P<cue>form number)\b",
            _CUAL + r"(?P<cue>n[uú]mero|c[oó]digo|identificador|referencia|expediente)\b"
            r"(?!\s+de\s+(?:(?:los|las)\s+)?[a-záéíóúñü]+s\b)",
            r"\b(?P<cue>numaras[ıi]|numarasını|kodu|kodunu|no'?su|numaralı)\b",
        ),
    ),
    (
        AnswerType.PLACE,
        (
            *_asks_for(r"(?:mailing |postal |street |office |home |business )?address(?:es)?"),
            _CUAL + r"(?P<cue>direcci[oó]n(?: postal)?)\b",
            r"\b(?P<cue>adresi)" + _TURKISH_ASKS,
        ),
    ),
    # -- measures: a length of something is a quantity, a length of time a duration --
    (
        AnswerType.QUANTITY,
        (
            r"\b(?P<cue>how long) (?:is|was|are|were) (?:(?:the|a|an|its|their) )?"
            r"(?:[\w'’.-]+ ){0,3}" + _LENGTHY_THINGS + r"\b",
        ),
    ),
    (
        AnswerType.DURATION,
        (
            rf"\bhow long\b|\bhow much time\b|\bhow many {_DURATION_UNITS}\b",
            *_asks_for(r"duration|length of time"),
            r"\bcu[aá]nto tiempo\b|\bcu[aá]nto (?:dur|tard)\w*|\bdurante cu[aá]nto\b",
            r"\bcu[aá]nt[oa]s (?:años|meses|semanas|días|horas|minutos|segundos|décadas|siglos)\b",
            r"\bne kadar (?:süre|zaman|sür\w*|uzun sür\w*)",
            r"\bkaç (?:yıl|sene|ay|hafta|gün|saat|dakika|saniye|yüzyıl)(?:l[ıi]k)?\b",
        ),
    ),
    (
        AnswerType.QUANTITY,
        (
            r"\bhow (?:far|tall|high|heavy|wide|deep|fast|thick|hot|cold|warm|steep)\b",
            rf"\b(?P<cue>how much) (?:\w+ ){{0,5}}weigh\w*|\bhow many {_MEASURE_UNITS}\b",
            *_asks_for(
                r"distance|weight|length|height|width|depth|speed(?: limit)?|velocity|"
                r"temperature|altitude|elevation|mass|volume|capacity|diameter|radius|thickness"
            ),
            r"\b(?:what|which)(?:'s| is| was) the (?:total |land |surface )?(?P<cue>area)"
            r"(?=\s+of\b|\s*\?)",
            r"\b(?:a )?qu[eé] (?:distancia|altura|longitud|profundidad|velocidad|temperatura|"
            r"anchura|peso)\b|\bqu[eé] tan (?:lejos|alt[oa]|pesad[oa]|r[aá]pid[oa]|"
            r"profund[oa]|larg[oa]|anch[oa])\b|\bcu[aá]nto (?:mide|miden|med[ií]a|pesa|pesan|"
            r"pesaba)\b",
            r"\b(?:a )?cu[aá]nt[oa]s (?:kil[oó]metros|metros|millas|kilos|kilogramos|toneladas|"
            r"grados|litros|galones|barriles|hect[aá]reas|acres|pies)\b",
            _CUAL + r"(?P<cue>altura|distancia|longitud|superficie|velocidad|temperatura|"
            r"profundidad|anchura|extensi[oó]n|área|peso)\b",
            r"\bne kadar (?:uzak|yüksek|ağır|hızlı|derin|geniş|sıcak|soğuk)\w*",
            r"\bkaç (?:metre|kilometre|km|mil|kilo|kilogram|ton|derece|fit|litre|varil|hektar|"
            r"dönüm|mph)\b",
            r"\b(?:mesafe(?:si)?|uzaklığı|yüksekliği|ağırlığı|hızı|sıcaklığı|derinliği|"
            r"genişliği|uzunluğu|boyu|alanı)\s+(?:ne(?:dir)?|ne kadar|kaç\w*)\b",
        ),
    ),
    # -- counts, amounts, times, places, people, names, reasons --
    # "What was the reason for the increase in revenue?" and "What caused it?" ask why,
    # before "number of" or a figure noun later in the question can claim them.
    (
        AnswerType.REASON,
        (
            r"^\W*(?:what|which)(?:'s|’s| is| was| are| were) the (?:main |primary |principal "
            r"|key |major )?(?P<cue>reasons?|causes?|drivers?)\b(?= for\b| of\b| behind\b)",
            r"^\W*what (?P<cue>caused|drove|led to|contributed to)\b",
            r"^\W*(?:cu[aá]l(?:es)? (?:fue|fueron|es|son) )?(?:la|las) (?P<cue>razón|razones|"
            r"causa|causas|motivo|motivos) (?:de|del|por)\b|^\W*qu[eé] (?P<cue2>caus[oó])\b",
            r"\b(?P<cue>nedeni|sebebi)\s+(?:ne(?:dir)?|nelerdir)\b",
        ),
    ),
    (
        AnswerType.COUNT,
        (r"\bhow many\b|\bcu[aá]nt[oa]s\b|\bkaç\b|\bnumber of\b|\bn[uú]mero de\b|\bsayısı\b",),
    ),
    (
        AnswerType.AMOUNT,
        (
            r"\bhow (?:much|old|big|large|often|frequently)\b|\bcu[aá]nto\b|\bne kadar\b|"
            r"\bwhat (?:amount|price|cost|size)\b|"
            r"\bwhat (?:is|was|are|were) the (?:price|cost|amount|value|total|population)\b",
            # "What was the compensation expense in 2019?": a head noun that names a sum of
            # money or a rate asks for a figure, however many words stand before it; without
            # a determiner ("What is lease related and other charges?") it asks what it is.
            # The noun stays a content word: "expense" is what the line must be about.
            r"\b(?:what|which)(?:'s|’s| is| was| are| were)\s"
            rf"{_DETERMINER}\s{_MODIFIER}{{0,5}}(?P<figure>{_FIGURE_NOUNS})"
            rf"(?:(?=\s+per\b)|{_HEAD_END})",
        ),
    ),
    (
        AnswerType.TIME,
        (
            # NOTE: unaccented "cuando" mid-question is the conjunction ("...inventó Toyota
            # cuando los compradores...", XQuAD), not the question word.
            r"\bwhen\b|\bcuándo\b|^\W*cuando\b|\bne zaman\b|\b(?:what|which|in what|qué|hangi) "
            + _TIME_NOUNS,
        ),
    ),
    (
        AnswerType.PLACE,
        (
            r"\bwhere\b|\bd[oó]nde\b|\bnere(?:de|ye|den|si)\b|\b(?:what|which|qué|cuál|hangi) "
            + _PLACE_NOUNS,
        ),
    ),
    (
        AnswerType.PERSON,
        (
            r"\bwho(?:m|se)?\b|\bqui[eé]n(?:es)?\b|\bkim(?:di|dir|in|e|i|ler|lerdi)?\b|"
            r"\b(?:what|which|qué) " + _PERSON_NOUNS,
        ),
    ),
    (AnswerType.ENTITY, (r"\b(?:what|which|qué|cuál|hangi) " + _ENTITY_NOUNS,)),
    (AnswerType.REASON, (r"\bwhy\b|\bpor qu[eé]\b|\bneden\b|\bniçin\b|\bniye\b",)),
)


# NOTE: compiled when a question first reaches a rule, not at import: a cold `affidavit
# ask` compiled all 79 (about 50 ms) where most questions stop at one of the first rules.
_compiled = functools.cache(re.compile)


def read_shape(question: str, language: str | None = None) -> Shape:
    """What kind of answer ``question`` asks for, read in ``language`` (detected when
    not given). Rules, not a parse: a question that names its answer's kind ("what is the
    catalog number / phone number / website / title / deadline") is read first, then the
    wh-word decides."""
    language = language or detect_language(question)
    # A gloss in brackets ("the catalog number (Cat. No.) of Form W-9") repeats what it
    # follows: the kind is read from the question around it.
    folded = _GLOSS.sub("", fold(question, language))
    for answer_type, patterns in _RULES:
        for pattern in patterns:
            match = _compiled(pattern).search(folded)
            if match:
                cue = _cue(match)
                kept = cue.split() if match.groupdict().get("figure") is None else []
                words = tuple(w for w in content_words(question, language) if w not in kept)
                return Shape(answer_type, cue, language, words)
    return Shape(AnswerType.DESCRIPTION, "", language, tuple(content_words(question, language)))


_GLOSS = re.compile(r"\s*\([^()]{1,30}\)")


def _cue(match: re.Match[str]) -> str:
    """The words that named the type: the pattern's cue group if it matched, else the match."""
    named = [text for text in match.groupdict().values() if text]
    return named[0] if named else match.group(0)
