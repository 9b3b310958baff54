"""Typed answer spans in an evidence line: people, places, times, counts, codes, contacts..."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from affidavit.question import AnswerType
from affidavit.scorer import LABEL_FIT
from affidavit.text import LENGTH_OF_TIME, entity_pipeline, label_end, pattern_spans

_CAPITALISED = re.compile(
    r"(?<![\w])[A-ZÁÉÍÓÚÑÇĞİÖŞÜ][\w’'-]*(?:\s(?:de|del|la|van|von|of|the|y)?\s?"
    r"[A-ZÁÉÍÓÚÑÇĞİÖŞÜ][\w’'-]*)*"
)
_NAMED = (AnswerType.PERSON, AnswerType.PLACE, AnswerType.ENTITY, AnswerType.TITLE)
# Codes and contacts: spaCy's guesses inside them are noise ("11368V" as a DATE, the "1" of
# "1-800-829-1040" as a CARDINAL). An address is not here: its city is a fine GPE.
_NOT_ENTITIES = frozenset({"EMAIL", "URL", "PHONE", "CODE", "CODE_SHAPE", "DIGIT_GROUPS"})


# Labels spaCy gives both to points in time and to lengths of it ("380 years" is a DATE).
_POINTS = frozenset({"DATE", "TIME"})


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
    """Spans of ``text`` that could answer a question of type ``wanted``, best fit first.

    English lines go through spaCy's NER (the re-uploaded en_core_web_sm, NER pipe only,
    loaded on first use); every language also gets the regular expressions of text/spans.py
    (codes, e-mail, URLs, phones, addresses, dates, money, percentages, quantities,
    durations, numbers), and capitalised runs stand in for names where NER is absent.
    """
    fits = LABEL_FIT.get(wanted)
    if not fits:
        return []
    found: dict[tuple[int, int], Span] = {}

    labelled = label_end(text)  # "(2) Capital purchase obligations", "2. Pay the fee"

    def offer(span_text: str, start: int, end: int, label: str) -> None:
        fit = fits.get(label, 0.0)
        if fit <= 0:
            return
        if (
            wanted is AnswerType.DURATION
            and label in _POINTS
            and not LENGTH_OF_TIME.search(span_text)
        ):
            return  # "today", "last Friday", "a long day" say when, not how long
        if start < labelled and end <= labelled:
            return  # a footnote's or a list's label, never a figure
        if wanted in _NAMED and not any(c.isalpha() for c in span_text):
            return  # NER on upper-case table text calls dates names; a name has letters
        key = (start, end)
        if key not in found or found[key].fit < fit:
            found[key] = Span(span_text, start, end, label, fit)

    patterned = pattern_spans(text, language, titles=wanted is AnswerType.TITLE)
    whole = [(s, e) for _, s, e, label in patterned if label in _NOT_ENTITIES]
    entities = _entities(text) if language == "en" else ()
    for span_text, start, end, label in entities:
        # An entity holding a code stays ("Schedule 5" as a LAW); one inside a code goes.
        if not any(s <= start and end <= e for s, e in whole):
            offer(span_text, start, end, label)
    # A bare number inside a date ("by the end of 1350") is a time, never a count.
    dated = [(s, e) for _, s, e, label in entities if label in ("DATE", "TIME")]
    for span_text, start, end, label in patterned:
        if label == "NUMBER" and any(s <= start and end <= e for s, e in dated):
            continue
        offer(span_text, start, end, label)
    if language != "en" and wanted in _NAMED:
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
