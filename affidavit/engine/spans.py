"""Typed answer spans in an evidence line: people, places, times, counts, amounts.

English lines go through spaCy's NER (the re-uploaded en_core_web_sm, NER pipe only,
loaded on first use); every language also gets regular expressions for numbers, money,
percentages and dates, and capitalised runs stand in for names where NER is absent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from affidavit.engine.shape import AnswerType
from affidavit.nlp import entity_pipeline

# How well an NER label answers each type: 1.0 is a direct answer, lower is a fallback.
_LABEL_FIT: dict[AnswerType, dict[str, float]] = {
    AnswerType.PERSON: {"PERSON": 1.0, "ORG": 0.6, "NORP": 0.5, "NAME": 0.5},
    AnswerType.PLACE: {"GPE": 1.0, "LOC": 1.0, "FAC": 0.9, "ORG": 0.4, "NAME": 0.5},
    AnswerType.TIME: {"DATE": 1.0, "TIME": 0.9, "YEAR": 0.9},
    AnswerType.COUNT: {"CARDINAL": 1.0, "QUANTITY": 0.8, "NUMBER": 0.7, "MONEY": 0.3},
    AnswerType.AMOUNT: {
        "MONEY": 1.0,
        "QUANTITY": 1.0,
        "PERCENT": 0.8,
        "CARDINAL": 0.7,
        "NUMBER": 0.6,
        "DATE": 0.3,
        "TIME": 0.5,
    },
    AnswerType.PERCENT: {"PERCENT": 1.0, "NUMBER": 0.3},
    AnswerType.ENTITY: {
        "ORG": 1.0,
        "PRODUCT": 0.9,
        "WORK_OF_ART": 0.9,
        "EVENT": 0.9,
        "NORP": 0.8,
        "LAW": 0.8,
        "LANGUAGE": 0.8,
        "PERSON": 0.5,
        "GPE": 0.4,
        "NAME": 0.5,
    },
}

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|enero|febrero|marzo|abril|mayo|junio|"
    "julio|agosto|septiembre|octubre|noviembre|diciembre|ocak|şubat|mart|nisan|mayıs|haziran|"
    "temmuz|ağustos|eylül|ekim|kasım|aralık"
)
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "PERCENT",
        re.compile(
            r"(?:%\s?\d+(?:[.,]\d+)?|\d+(?:[.,]\d+)?\s?(?:%|percent\b|per cent\b|"
            r"por ciento\b))",
            re.I,
        ),
    ),
    (
        "MONEY",
        re.compile(
            r"(?:[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|thousand|"
            r"trillion|bn|m)\b)?|\d[\d,]*(?:\.\d+)?\s?(?:million |billion )?"
            r"(?:dollars|euros|pounds|yen|lira|TL|USD|EUR)\b)",
            re.I,
        ),
    ),
    (
        "DATE",
        re.compile(
            r"\b(?:\d{1,2}(?:st|nd|rd|th)?\s(?:de\s)?(?:" + _MONTHS + r")\.?"
            r"(?:\s(?:de\s)?\d{4})?|(?:" + _MONTHS + r")\.?\s\d{1,2}(?:st|nd|rd|th)?"
            r"(?:,?\s\d{4})?|(?:" + _MONTHS + r")\s\d{4}|\d{1,2}/\d{1,2}/\d{2,4}|"
            r"\d{4}-\d{2}-\d{2})\b",
            re.I,
        ),
    ),
    ("YEAR", re.compile(r"\b(?:1[0-9]|20)\d{2}s?\b")),
    ("NUMBER", re.compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])")),
)
_CAPITALISED = re.compile(
    r"(?<![\w])[A-ZÁÉÍÓÚÑÇĞİÖŞÜ][\w’'-]*(?:\s(?:de|del|la|van|von|of|the|y)?\s?"
    r"[A-ZÁÉÍÓÚÑÇĞİÖŞÜ][\w’'-]*)*"
)


_NAMED = (AnswerType.PERSON, AnswerType.PLACE, AnswerType.ENTITY)


@dataclass(frozen=True, slots=True)
class Span:
    text: str
    start: int
    end: int
    label: str
    fit: float  # how directly this label answers the wanted type (0..1]


@lru_cache(maxsize=4096)
def _entities(text: str) -> tuple[tuple[str, int, int, str], ...]:
    doc = entity_pipeline()(text)
    return tuple((e.text, e.start_char, e.end_char, e.label_) for e in doc.ents)


def typed_spans(text: str, wanted: AnswerType, language: str = "en") -> list[Span]:
    """Spans of ``text`` that could answer a question of type ``wanted``, best fit first."""
    fits = _LABEL_FIT.get(wanted)
    if not fits:
        return []
    found: dict[tuple[int, int], Span] = {}

    def offer(span_text: str, start: int, end: int, label: str) -> None:
        fit = fits.get(label, 0.0)
        if fit <= 0:
            return
        if wanted in _NAMED and not any(c.isalpha() for c in span_text):
            return  # NER on upper-case table text calls dates names; a name has letters
        key = (start, end)
        if key not in found or found[key].fit < fit:
            found[key] = Span(span_text, start, end, label, fit)

    entities = _entities(text) if language == "en" else ()
    for span_text, start, end, label in entities:
        offer(span_text, start, end, label)
    # A bare number inside a date ("by the end of 1350") is a time, never a count.
    dated = [(s, e) for _, s, e, label in entities if label in ("DATE", "TIME")]
    for label, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if label in ("DATE", "YEAR"):
                dated.append((m.start(), m.end()))
            elif label == "NUMBER" and any(s <= m.start() and m.end() <= e for s, e in dated):
                continue
            offer(m.group(0), m.start(), m.end(), label)
    if language != "en" and wanted in (AnswerType.PERSON, AnswerType.PLACE, AnswerType.ENTITY):
        for m in _CAPITALISED.finditer(text):
            if m.start() > 0 or " " in m.group(0):
                offer(m.group(0), m.start(), m.end(), "NAME")
    spans = sorted(found.values(), key=lambda s: (-s.fit, s.start, s.end))
    # A span inside a longer one that fits at least as well adds nothing.
    return [
        s
        for s in spans
        if not any(
            o is not s and o.start <= s.start and s.end <= o.end and o.fit >= s.fit for o in spans
        )
    ]
