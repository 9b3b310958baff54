"""Typed answer spans in an evidence line: people, places, times, counts, codes, contacts..."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from affidavit.question.shape import AnswerType
from affidavit.text.nlp import entity_pipeline
from affidavit.text.spans import LENGTH_OF_TIME, Tier, patterns_for

# How well a label answers each type: 1.0 is a direct answer, lower is a fallback.
# spaCy's labels are upper case (DATE, ORG...); the regex labels are text/spans.py's.
_LABEL_FIT: dict[AnswerType, dict[str, float]] = {
    AnswerType.PERSON: {"PERSON": 1.0, "ORG": 0.6, "NORP": 0.5, "NAME": 0.5},
    AnswerType.PLACE: {
        "GPE": 1.0,
        "LOC": 1.0,
        "ADDRESS": 1.0,
        "FAC": 0.9,
        "ORG": 0.4,
        "NAME": 0.5,
    },
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
    # A code after its cue word ("Cat. No. 11368V") answers directly; one known only by its
    # look (letters with digits, digit groups) less so; a phone number only as a last resort.
    AnswerType.IDENTIFIER: {"CODE": 1.0, "CODE_SHAPE": 0.8, "DIGIT_GROUPS": 0.6, "PHONE": 0.4},
    AnswerType.EMAIL: {"EMAIL": 1.0},
    AnswerType.PHONE: {"PHONE": 1.0},
    AnswerType.URL: {"URL": 1.0},
    AnswerType.QUANTITY: {
        "QUANTITY": 1.0,
        "PERCENT": 0.3,
        "CARDINAL": 0.4,
        "NUMBER": 0.3,
        "DURATION": 0.2,
    },
    # spaCy calls "380 years" and "five to ten years" DATE; "how long is the bridge" may
    # still be answered by a length.
    AnswerType.DURATION: {
        "DURATION": 1.0,
        "TIME": 0.7,
        "DATE": 0.5,
        "QUANTITY": 0.4,
        "CARDINAL": 0.3,
        "NUMBER": 0.3,
    },
    AnswerType.TITLE: {
        "WORK_OF_ART": 1.0,
        "QUOTED": 0.9,
        "LAW": 0.9,
        "TITLE_CASE": 0.7,
        "PRODUCT": 0.5,
        "ORG": 0.3,
        "EVENT": 0.3,
    },
}

_CAPITALISED = re.compile(
    r"(?<![\w])[A-ZÁÉÍÓÚÑÇĞİÖŞÜ][\w’'-]*(?:\s(?:de|del|la|van|von|of|the|y)?\s?"
    r"[A-ZÁÉÍÓÚÑÇĞİÖŞÜ][\w’'-]*)*"
)
_NAMED = (AnswerType.PERSON, AnswerType.PLACE, AnswerType.ENTITY, AnswerType.TITLE)
# Codes and contacts: spaCy's guesses inside them are noise ("11368V" as a DATE, the "1" of
# "1-800-829-1040" as a CARDINAL). An address is not here: its city is a fine GPE.
_NOT_ENTITIES = frozenset({"EMAIL", "URL", "PHONE", "CODE", "CODE_SHAPE", "DIGIT_GROUPS"})


# What each tier may not overlap: a later span never cuts into an earlier, more specific one.
_YIELDS_TO: dict[Tier, frozenset[Tier]] = {
    Tier.WHOLE: frozenset({Tier.WHOLE}),
    Tier.DATE: frozenset({Tier.WHOLE}),
    Tier.SHAPE: frozenset({Tier.WHOLE, Tier.DATE}),
    Tier.MEASURE: frozenset({Tier.WHOLE}),
    Tier.NUMBER: frozenset({Tier.WHOLE, Tier.DATE, Tier.SHAPE}),
    Tier.TITLE: frozenset(),
}
# A title may hold a code ("Instructions for Form 1040NR") but not a phone number or URL.
_NOT_IN_TITLES = frozenset({"EMAIL", "URL", "PHONE", "ADDRESS"})


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


@lru_cache(maxsize=4096)
def _regex_spans(text: str, language: str, titles: bool) -> tuple[tuple[str, int, int, str], ...]:
    """(text, start, end, label) of every pattern match, each tier yielding to those above.

    Whole spans (e-mail, URL, phone, address, codes) are read first and nothing reads
    inside them; a date may not cut into one; digit groups overlap neither; a bare number
    sits in no date or code. Measures overlap freely, as they always have.
    """
    found: list[tuple[str, int, int, str]] = []
    claimed: list[tuple[int, int, Tier, str]] = []
    for spec in patterns_for(language):
        if spec.tier is Tier.TITLE and not titles:
            continue
        if spec.needs and not any(c in text for c in spec.needs):
            continue
        yields_to = _YIELDS_TO[spec.tier]
        for m in spec.pattern.finditer(text):
            start, end = m.span(spec.group)
            if start < 0 or start == end:
                continue
            blockers = (
                (s, e)
                for s, e, tier, label in claimed
                if (label in _NOT_IN_TITLES if spec.tier is Tier.TITLE else tier in yields_to)
            )
            if any(s < end and start < e for s, e in blockers):
                continue
            claimed.append((start, end, spec.tier, spec.label))
            found.append((text[start:end], start, end, spec.label))
    return tuple(found)


# The mark a footnote opens with: "(1)", "(iv)", "1)" at the start of its line.
_FOOTNOTE_MARK = re.compile(r"^\s*\(?(?:\d{1,2}|[ivx]{1,4}|[a-z])\)\s+(?=\S)", re.I)


def typed_spans(text: str, wanted: AnswerType, language: str = "en") -> list[Span]:
    """Spans of ``text`` that could answer a question of type ``wanted``, best fit first.

    English lines go through spaCy's NER (the re-uploaded en_core_web_sm, NER pipe only,
    loaded on first use); every language also gets the regular expressions of text/spans.py
    (codes, e-mail, URLs, phones, addresses, dates, money, percentages, quantities,
    durations, numbers), and capitalised runs stand in for names where NER is absent.
    """
    fits = _LABEL_FIT.get(wanted)
    if not fits:
        return []
    found: dict[tuple[int, int], Span] = {}

    marker = _FOOTNOTE_MARK.match(text)

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
        if marker and start < marker.end() and end <= marker.end():
            return  # "(2) Capital purchase obligations ...": the footnote's mark, no figure
        if wanted in _NAMED and not any(c.isalpha() for c in span_text):
            return  # NER on upper-case table text calls dates names; a name has letters
        key = (start, end)
        if key not in found or found[key].fit < fit:
            found[key] = Span(span_text, start, end, label, fit)

    patterned = _regex_spans(text, language, wanted is AnswerType.TITLE)
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
