"""The shape reader: what kind of answer a question asks for, in English, Spanish or Turkish.

The shape binds: an engine proposes only answers of the expected type, and a question
whose type finds nothing in the evidence is refused rather than answered with prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from affidavit.index.text import content_words, detect_language, lower


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


@dataclass(frozen=True, slots=True)
class Shape:
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

# Ordered: the first rule that matches decides. Patterns run on Turkish-aware lower case.
_RULES: tuple[tuple[str, AnswerType], ...] = (
    (
        r"\b(?:what|which) (?:percentage|percent|proportion|share)\b|\bqué porcentaje\b|"
        r"\byüzde kaç",
        AnswerType.PERCENT,
    ),
    (r"\bhow many\b|\bcu[aá]nt[oa]s\b|\bkaç\b|\bnumber of\b", AnswerType.COUNT),
    (
        r"\bhow (?:much|long|old|far|big|large|tall|high|heavy|wide|deep|often)\b|"
        r"\bcu[aá]nto\b|\bne kadar\b|\bwhat (?:amount|price|cost|size)\b|"
        r"\bwhat (?:is|was|are|were) the (?:price|cost|amount|value|total|population)\b",
        AnswerType.AMOUNT,
    ),
    (
        r"\bwhen\b|\bcu[aá]ndo\b|\bne zaman\b|\b(?:what|which|in what|qué|hangi) " + _TIME_NOUNS,
        AnswerType.TIME,
    ),
    (
        r"\bwhere\b|\bd[oó]nde\b|\bnere(?:de|ye|den|si)\b|\b(?:what|which|qué|cuál|hangi) "
        + _PLACE_NOUNS,
        AnswerType.PLACE,
    ),
    (
        r"\bwho(?:m|se)?\b|\bqui[eé]n(?:es)?\b|\bkim(?:di|dir|in|e|i|ler|lerdi)?\b|"
        r"\b(?:what|which|qué) " + _PERSON_NOUNS,
        AnswerType.PERSON,
    ),
    (r"\b(?:what|which|qué|cuál|hangi) " + _ENTITY_NOUNS, AnswerType.ENTITY),
    (r"\bwhy\b|\bpor qu[eé]\b|\bneden\b|\bniçin\b|\bniye\b", AnswerType.REASON),
)
_COMPILED = tuple((re.compile(p), t) for p, t in _RULES)


def read_shape(question: str) -> Shape:
    language = detect_language(question)
    folded = lower(question, language)
    for pattern, answer_type in _COMPILED:
        match = pattern.search(folded)
        if match:
            cue = set(match.group(0).split())
            words = tuple(w for w in content_words(question, language) if w not in cue)
            return Shape(answer_type, match.group(0), language, words)
    return Shape(AnswerType.DESCRIPTION, "", language, tuple(content_words(question, language)))
