"""The regular expressions that find typed spans in a line, per language, compiled once;
and the fast shapes that tell what a line could hold."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache

from affidavit.text.dates import MONTHS
from affidavit.text.years import YEAR_SINCE_1000


class Tier(StrEnum):
    """How a pattern's spans sit among the others' (see ``pattern_spans``)."""

    WHOLE = "whole"  # read as one token: nothing inside it is a date, code or number
    DATE = "date"
    SHAPE = "shape"  # digit groups read as a code (an ISBN): yields to whole spans and dates
    MEASURE = "measure"  # money, percentages, quantities, durations
    NUMBER = "number"  # a bare number: yields to every span above but measures
    TITLE = "title"  # read only when a title is asked for


@dataclass(frozen=True, slots=True)
class SpanPattern:
    label: str
    pattern: re.Pattern[str]
    tier: Tier
    group: int = 0  # the span is this group of the match (a quoted title without its quotes)
    # A line holding none of these strings is not searched at all: most patterns need a
    # digit, and a plain substring test is ~50x cheaper than a regex scan of a sentence.
    needs: tuple[str, ...] = tuple("0123456789")


# -- building blocks --

# The month names are the date reader's own (text/dates.py), longest first.
_MONTHS = "|".join(sorted(MONTHS, key=len, reverse=True))
_DIGITS = r"\d{1,3}(?:[,.]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"
_NUMBER_WORDS = {
    "en": (
        r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
        r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|"
        r"five|six|seven|eight|nine))?|a hundred|hundreds of|thousands of|several|a few"
    ),
    "es": (
        r"un|una|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|quince|"
        r"veinte|treinta|cuarenta|cincuenta|cien|varios|varias"
    ),
    # NOTE: Turkish "on" (ten) only ever meets Turkish units here, never English "on days".
    "tr": r"bir|iki|üç|dört|beş|altı|yedi|sekiz|dokuz|on|yirmi|otuz|kırk|elli|yüz|birkaç",
}
# A range reads as one value: "5 to 15 years", "100–106 °F", "30 ila 50 bin".
_RANGE = {"en": r"to|and|or", "es": r"a|y|o", "tr": r"ila|ile|veya"}

_DURATION_UNITS = {
    "en": (
        r"years?|yrs?|months?|weeks?|days?|hours?|hrs?|minutes?|mins?|seconds?|decades?|"
        r"century|centuries|fortnights?|nights?|shifts?"
    ),
    "es": r"años?|mes|meses|semanas?|días?|horas?|minutos?|segundos?|décadas?|siglos?|turnos?",
    # The suffix keeps "dört günlük" (four-day) and "10 yıldır" (for ten years) whole.
    "tr": r"(?:yıl|sene|ay|hafta|gün|saat|dakika|saniye|yüzyıl)(?:l[ıiuü]k|d[ıiuü]r|t[ıiuü]r)?",
}
_SHARED_UNITS = (
    r"mph|km/h|km/s|kph|knots?|Hz|kHz|MHz|GHz|°\s?[CF]|km²|m²|km2|sq\.? ?(?:mi|km|ft|m)|"
    r"kWh|MWh|GWh|kW|MW|GW|Btu|BTU|kcal|mm|cm|km|kg|mg|lbs?|oz|ft|bbl|ha|m|g"
)
_QUANTITY_UNITS = {
    "en": (
        r"(?:square |cubic )?(?:metres?|meters?|kilometres?|kilometers?|centimetres?|"
        r"centimeters?|millimetres?|millimeters?|miles?|feet|foot|inches|inch|yards?)|"
        r"nautical miles|miles per hour|kilometres per hour|kilometers per hour|grams?|"
        r"kilograms?|kilos?|tonnes?|tons?|pounds?|ounces?|litres?|liters?|gallons?|barrels?|"
        r"bushels?|acres?|hectares?|degrees(?: (?:Celsius|Fahrenheit|C|F))?|watts?|volts?|"
        r"horsepower|calories|kelvins?|hertz|revolutions per minute|rpm"
    ),
    "es": (
        r"metros?(?: cuadrados| cúbicos)?|kilómetros?(?: cuadrados)?|centímetros?|milímetros?|"
        r"millas?(?: por hora)?|pies|pulgadas?|gramos?|kilogramos?|kilos?|toneladas?|libras?|"
        r"litros?|galones|galón|barriles|barril|hectáreas?|acres|grados(?: centígrados| "
        r"Celsius| Fahrenheit)?|vatios"
    ),
    # NOTE: "mil" is a mile in Turkish but a thousand in Spanish, hence units per language.
    "tr": (
        r"metrekare|kilometrekare|metre|kilometre|santimetre|milimetre|mil|fit|inç|gram|"
        r"kilogram|kilo|ton|litre|varil|galon|hektar|dönüm|derece"
    ),
}
_MONEY_SCALES = {
    "en": r"million|billion|thousand|trillion|bn|m|k",
    "es": r"mil millones|millones|millón|mil|billones",
    "tr": r"milyon|milyar|bin",
}
_CURRENCY_WORDS = {
    "en": r"dollars|euros|pounds|pence|cents|yen|lira|TL|USD|EUR|GBP",
    "es": r"dólares|euros|pesos|libras|liras|USD|EUR",
    "tr": r"dolar|euro|avro|sterlin|lira|TL|USD|EUR",
}

# A money span holds a currency sign or word (case as written: "Dollars" opens no sentence).
_MONEY_SIGNS = (
    *"$€£¥₺",
    *"dollar dólar euro pound pence cents yen lira TL USD EUR GBP peso libra sterlin avro".split(),
)

# The identifier itself: letters, digits, and - . / joints, holding at least one digit.
_CODE_TOKEN = r"(?=[A-Za-z0-9./-]*\d)[A-Za-z0-9]+(?:[-./][A-Za-z0-9]+)*"
# Words after which a code follows. "No." and "ID" are case-sensitive: "no" is a word.
_CODE_CUES = (
    r"\b(?:(?-i:Cat|Doc|Docket|Case|Ref|Serial|Account|Acct)\.?\s)?(?-i:Nos?|N\.?º|n\.?º|ID|RIN)\.?"
    r"|\b(?:number(?:\s(?:is|was))?|docket|case|forms?|pub\.|publications?|regulations?|reg\."
    r"|rule|notice|isbn(?:-1[03])?|issn|codes?|reference|serial|section|sec\.|schedules?"
    r"|bulletin|article|art\.|chapter|line|box|page|núm\.|número|expediente|ley|decreto"
    r"|reglamento|artículo|formulario|código|referencia|kanun|yönetmelik|madde)"
    r"|#|§"
)
_CITY_ZIP = r"[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}, [A-Z]{2} \d{5}(?:-\d{4})?\b"
_STREET = (
    r"\d{1,5} (?:[A-Z][\w.'-]*\s){1,3}(?:Street|St\.|Avenue|Ave\.|Road|Rd\.|Boulevard|"
    r"Blvd\.|Drive|Dr\.|Lane|Way|Place|Square|Court|Highway|Parkway)"
    r"(?:,?\s(?:Room|Suite|Ste\.|Floor|Apt\.?)\s\w+)?"
)
_URL_PATH_CHAR = r"[\w%?=&#~+-]"
_URL_PATH = rf"(?:/(?:{_URL_PATH_CHAR}|[.:,](?={_URL_PATH_CHAR}))*)*"
# PDF text wraps a URL after a slash ("www.irs.gov/pub/ irs-irbs/irb97-10.pdf"): the piece
# after the break is joined when it looks like a path, not an English word.
_URL_WRAP = (
    r"(?:(?<=/)\s(?!(?:and|or|to|for|the|in|on|at|under|then|y|o|ve|veya)\b)[a-z0-9_]"
    rf"(?:{_URL_PATH_CHAR}|[.:,](?={_URL_PATH_CHAR}))*{_URL_PATH})?"
)
_TLDS = r"gov|com|org|net|edu|int|mil|info|io|es|tr|uk|eu|de|fr"
# Without "www." only the generic endings: "años.Es" is a missing space, not a site.
_BARE_TLDS = r"gov|com|org|net|edu|int|mil"

_CAP = r"[A-ZÁÉÍÓÚÑÇĞİÖŞÜ]"
_TITLE_WORD = rf"(?:[A-Z](?:\.[A-Z])+\.|{_CAP}[\w’'-]*(?:\.[\w-]+)*|\d\w*(?:-[A-Z0-9]+)*)"
_TITLE_JOIN = (
    r"(?:of|the|for|and|on|in|to|a|an|at|by|with|from|de|del|la|las|los|el|y|en|para|sobre|"
    r"ve|ile|için|&)"
)


def _compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


# NOTE: every pattern was written against real lines of the project's corpora (the IRS
# 1040NR instructions, the USDA energy round-up, SQuAD and XQuAD articles); the lines are
# in tests/engine/test_answer_types.py.
def _build(language: str) -> tuple[SpanPattern, ...]:
    """The patterns of ``language``, in order: codes and contacts (e-mail, URL, phone, cued
    identifiers, postal addresses) read whole; then dates, codes by their shape, measures
    (money, percentages, quantities, durations), bare numbers and titles."""
    return (
        # -- read whole --
        *_contacts(),
        *_codes(),
        # -- dates, whole and partial --
        *_dates(),
        # -- three and more digit groups (ISBN), unless a date or phone reads them --
        SpanPattern(
            "DIGIT_GROUPS",
            _compile(r"(?<![\w.-])\d+(?:-\d+){2,}(?![\w-])"),
            Tier.SHAPE,
            needs=("-",),
        ),
        # -- measures --
        *_measures(language),
        SpanPattern(
            "NUMBER",
            _compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])"),
            Tier.NUMBER,
        ),
        # -- titles: quoted, or a run of capitalised words --
        *_titles(),
    )


def _contacts() -> tuple[SpanPattern, ...]:
    """E-mail addresses, URLs, phone numbers (bare or after their cue) and postal
    addresses, each read whole."""
    return (
        SpanPattern(
            "EMAIL", _compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+"), Tier.WHOLE, needs=("@",)
        ),
        SpanPattern(
            "URL",
            _compile(
                rf"(?:https?://|www\.\s?)[\w-]+(?:\.(?:\s(?=(?:{_TLDS})\b))?[\w-]+)+"
                rf"{_URL_PATH}{_URL_WRAP}|(?<![\w@./-])[A-Za-z][\w-]*(?:\.[\w-]+)*\."
                rf"(?:{_BARE_TLDS})\b{_URL_PATH}",
                re.I,
            ),
            Tier.WHOLE,
            needs=("www", "WWW", "http", "HTTP", *(f".{tld}" for tld in _BARE_TLDS.split("|"))),
        ),
        SpanPattern(
            "PHONE",
            _compile(
                # toll-free with letters ("1-800-TAX-FORM"), then North American forms,
                # then international ones written with a leading +.
                r"(?<![\w-])1-8\d\d-(?:[A-Z0-9]{2,}-)?[A-Z0-9]{3,}(?![\w-])"
                r"|(?<![\w-])(?:\d{1,2}-)?\d{3}-\d{3}-\d{4}(?![\w-])"
                r"|(?<![\w)])\(\d{3}\)\s?\d{3}[-.\s]\d{4}(?!\d)"
                r"|(?<![\w+])\+\d{1,3}(?:[\s.-]?(?:\(\d{1,4}\)|\d{1,4})){2,6}(?![\d])"
            ),
            Tier.WHOLE,
        ),
        SpanPattern(
            "PHONE",
            _compile(
                r"\b(?:tel(?:éfono|efon)?|phone|telephone|fax|faks)\.?:?\s*"
                r"(\(?\d[\d()\s.-]{5,}\d)",
                re.I,
            ),
            Tier.WHOLE,
            group=1,
            needs=("el", "EL", "hone", "HONE", "ax", "AX", "aks", "AKS"),
        ),
        SpanPattern(
            "ADDRESS",
            _compile(
                rf"(?:(?:P\.\s?O\.\s?Box \d+|{_STREET}),?\s?)?{_CITY_ZIP}"
                rf"|P\.\s?O\.\s?Box \d+|{_STREET}"
            ),
            Tier.WHOLE,
        ),
    )


def _codes() -> tuple[SpanPattern, ...]:
    """Identifiers read whole: after a cue ("Form", "No.", "§"), before a Turkish law's
    "sayılı", or by their look (capitals with digits)."""
    return (
        SpanPattern(
            "CODE",
            _compile(rf"(?:{_CODE_CUES})\s?(?:(?-i:No)\.\s?)?[:#]?\s?({_CODE_TOKEN})", re.I),
            Tier.WHOLE,
            group=1,
        ),
        # Turkish names a law by its number first: "5237 sayılı Türk Ceza Kanunu".
        SpanPattern(
            "CODE",
            _compile(rf"(?<![\w.-])({_CODE_TOKEN})(?=\s(?:sayılı|numaralı)\b)"),
            Tier.WHOLE,
            1,
            needs=("sayılı", "numaralı"),
        ),
        # A code by its look: capitals with digits (1040NR, DHAW20190001, 2019-NM-035-AD).
        # Read whole, before dates, so "1099-R" never offers the year 1099.
        SpanPattern(
            "CODE_SHAPE",
            _compile(
                r"(?<![\w@/.#-])(?=[A-Z0-9./-]*\d)(?=[0-9./-]*[A-Z])[A-Z0-9]+(?:[-./][A-Z0-9]+)*"
                r"(?![\w@/-])"
            ),
            Tier.WHOLE,
        ),
    )


def _dates() -> tuple[SpanPattern, ...]:
    """Dates written whole, centuries and decades, and bare years."""
    return (
        SpanPattern(
            "DATE",
            _compile(
                r"\b(?:\d{1,2}(?:st|nd|rd|th)?\s(?:de\s)?(?:" + _MONTHS + r")\.?"
                r"(?:\s(?:de\s)?\d{4})?|(?:" + _MONTHS + r")\.?\s\d{1,2}(?:st|nd|rd|th)?"
                r"(?:,?\s\d{4})?|(?:" + _MONTHS + r")\s(?:de\s)?\d{4}|\d{1,2}/\d{1,2}/\d{2,4}|"
                r"\d{4}-\d{2}-\d{2})\b",
                re.I,
            ),
            Tier.DATE,
        ),
        SpanPattern(
            "DATE",
            _compile(
                r"\b(?:(?:early|mid|late)[\s-])?(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|"
                r"fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|"
                r"fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|"
                r"twenty-first)[\s-]centur(?:y|ies)(?:\s(?:BC|AD|BCE|CE)\b)?"
                r"|\bsiglos?\s[XVI]+\b(?:\s(?:y|al?)\s[XVI]+\b)?"
                r"|\bdécada\sde(?:l|\slos)?\s\d{2,4}\b|\blos\saños\s\d{2,4}\b"
                r"|\b\d{1,2}\.\s?yüzyıl|\b\d{2,4}['’]?l[ae]r",
                re.I,
            ),
            Tier.DATE,
            needs=("entur", "iglo", "écada", "años", "yüzyıl", "'l", "’l"),
        ),
        SpanPattern("YEAR", _compile(r"\b(?:1[0-9]|20)\d{2}s?\b"), Tier.DATE),
    )


def _measures(language: str) -> tuple[SpanPattern, ...]:
    """Percentages, money, quantities and durations, read with ``language``'s number
    words, ranges, units and currencies."""
    words = _NUMBER_WORDS[language]
    value = rf"(?:{_DIGITS}|{words})"
    ranged = rf"{value}(?:\s?(?:[-–—]|{_RANGE[language]})\s?{value})?"
    measured = rf"(?:{_DIGITS})(?:\s?(?:[-–—]|{_RANGE[language]})\s?(?:{_DIGITS}))?"
    scales = _MONEY_SCALES[language]
    return (
        SpanPattern(
            "PERCENT",
            _compile(
                r"(?:%\s?\d+(?:[.,]\d+)?|\d+(?:[.,]\d+)?\s?(?:%|percent\b|per cent\b|"
                r"por ciento\b)|\byüzde\s\d+(?:[.,]\d+)?)",
                re.I,
            ),
            Tier.MEASURE,
        ),
        SpanPattern(
            "MONEY",
            _compile(
                rf"(?:(?<![A-Za-z])(?:US|A|C|NZ|HK|R)?[$€£¥₺]\s?\d[\d,.]*\d(?:\s?(?:{scales})\b)?"
                rf"|(?<![A-Za-z])(?:US|A|C|NZ|HK|R)?[$€£¥₺]\s?\d(?:\s?(?:{scales})\b)?"
                rf"|\b\d[\d,.]*(?:\s(?:{scales}))?\s?(?:de\s)?(?:{_CURRENCY_WORDS[language]})\b)",
                re.I,
            ),
            Tier.MEASURE,
            needs=_MONEY_SIGNS,
        ),
        # Pence as British reports write a share price: "445.0p".
        SpanPattern("MONEY", _compile(r"(?<![\w.,])\d+(?:\.\d+)?p\b"), Tier.MEASURE),
        SpanPattern(
            "QUANTITY",
            _compile(
                rf"(?<![\w.,])(?:{measured})\s?(?:{_SHARED_UNITS})(?![\w/²])"
                rf"|(?<![\w.,])(?:{ranged})[\s-](?:{_QUANTITY_UNITS[language]})\b",
            ),
            Tier.MEASURE,
            needs=(),
        ),
        SpanPattern(
            "DURATION",
            _compile(
                rf"(?<![\w.,])(?:{ranged})[\s-](?:{_DURATION_UNITS[language]})\b(?![\s-]old\b)",
                re.I,
            ),
            Tier.MEASURE,
            needs=(),
        ),
    )


def _titles() -> tuple[SpanPattern, ...]:
    """Titles: a quoted phrase without its quotes, or a run of capitalised words (read only
    when a title is asked for)."""
    return (
        SpanPattern(
            "QUOTED", _compile(r"[“\"«]([^”\"»\n]{2,150})[”\"»]"), Tier.TITLE, 1, needs=tuple('“"«')
        ),
        SpanPattern(
            "TITLE_CASE",
            _compile(
                rf"(?<![\w’'])(?:[A-Z](?:\.[A-Z])+\.|{_CAP}[\w’'-]*(?:\.[\w-]+)*)"
                rf"(?:\s(?:{_TITLE_JOIN}\s){{0,3}}{_TITLE_WORD})+"
            ),
            Tier.TITLE,
            needs=(),
        ),
    )


# NOTE: each language's patterns are compiled when a line of it is first read, not on
# import: the three took 39 ms of a cold `affidavit ask` that reads English alone.
@cache
def patterns_for(language: str) -> tuple[SpanPattern, ...]:
    """The span patterns for a line in ``language`` (English's for any other)."""
    return _build(language if language in _RANGE else "en")


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


@lru_cache(maxsize=4096)
def pattern_spans(
    text: str, language: str, *, titles: bool = False
) -> tuple[tuple[str, int, int, str], ...]:
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


# -- what a line could hold, read fast (text/typed_values.py reads them) --

# A year from 1000 on, a decade ("1990s"), or a century named.
YEAR_OR_CENTURY = re.compile(
    rf"\b{YEAR_SINCE_1000}s?\b|\bcentur(?:y|ies)\b|\bsiglo\b|\byüzyıl", re.I
)
# A code: letters and digits run together, or three digits or more.
CODE_SHAPE = re.compile(r"\b(?=[\w.-]*\d)(?=[\w.-]*[A-Za-z-])[\w][\w.-]*\w\b|\b\d{3,}\b")
EMAIL_SHAPE = re.compile(r"\S+@\S+\.\w+")
URL_SHAPE = re.compile(r"\bhttps?://|\bwww\.|\b\w+\.(?:gov|com|org|net|edu)\b", re.I)
PHONE_SHAPE = re.compile(r"\d{3}\D{0,2}\d{3}\D?\d{4}|\d{2,4}[ -]\d{3,4}[ -]\d{3,4}")

# A length of time: a count, right before a unit, not counted back from now ("3 years",
# "five to ten years", "a few months", "an hour"; not "two days ago").
LENGTH_OF_TIME = re.compile(
    r"\b(?:\d[\d.,]*|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"twenty|thirty|forty|fifty|hundreds?|thousands?|several|(?:a\s+)?few|(?:a\s+)?couple"
    r"(?:\s+of)?|many)\s+(?:more\s+)?(?:seconds?|minutes?|hours?|days?|nights?|weeks?|"
    r"months?|years?|decades?|centuries|century|generations?|millenni(?:a|um))\b(?!\s+ago\b)",
    re.I,
)
