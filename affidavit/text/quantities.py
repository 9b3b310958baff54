"""Reading a text as number binding (gates/binding.py) compares it: numbers and dates as
quantities, words as terms; and a figure's scale, currency and sign as a cell writes it."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from affidavit.text.abbreviations import is_abbreviation
from affidavit.text.analyzer import Analyzer
from affidavit.text.dates import dates_in
from affidavit.text.numbers import (
    AMBIGUOUS_NUMBER_WORDS,
    LANGUAGE_NUMBER_WORDS,
    NUMBER_WORDS,
    PRONOUN_NUMBERS,
    canonical,
    numbers_in,
)
from affidavit.text.tokens import fold, letter_runs

_TOKEN = re.compile(
    r"(\d{1,3}(?:,\d{3})+(?!\d)|\d+)(\.\d+)?(?:(?:st|nd|rd|th)(?![^\W_]))?|[^\W\d_]+"
    r"|[;:()\[\]]|\.(?=\s|$)",
    re.UNICODE,
)
_WORD_BEFORE = re.compile(r"[^\W\d_]+$")
_PERCENT_AFTER = re.compile(r"(?:\s?|-)(?:%|percent\b|per cent\b|por ciento\b)", re.IGNORECASE)
_PERCENT_BEFORE = re.compile(r"(?:%|\byüzde)\s*$", re.IGNORECASE)
# Words that only say a number is a percent ("7 percent"); the number's flag carries that.
PERCENT_WORDS = frozenset({"percent", "yüzde"})
# What may stand between the two ends of a range or list sharing one percent sign:
# "30–60%", "30 to 60%", "30 y 60 %".
_RANGE_JOINT = re.compile(r"\s*(?:[–—-]|to|and|or|a|y|o|ile|ve|,)\s*", re.IGNORECASE)
# Clause joints end a company as a number does: "... in the USA and 3,000 in Europe".
_JOINTS = frozenset({"and", "or", "but", "y", "o", "pero", "ve", "veya", "ama"})


@dataclass(frozen=True, slots=True)
class QuantityToken:
    number: str | None = None  # canonical number
    term: str | None = None  # index term of a word (None: stop word, date, joint)
    stop: bool = False  # a joint, a bracket, a date, or a number: ends a company
    decimal: bool = False  # written with a fraction part
    worded: bool = False  # written as a word ("three")
    date: bool = False
    date_numbers: frozenset[str] = frozenset()  # a date's year and day, as numbers
    year: int | None = None  # a date's year
    percent: bool = False  # written as a percent ("7%", "7 percent", "%7", "yüzde 7")

    def writes(self, number: str, *, decimal: bool = False) -> bool:
        if decimal and self.worded:
            return False  # "3.00" is a measurement; "three" is a count
        return self.number == number or number in self.date_numbers

    def writes_as(self, claimed: QuantityToken, *, percent_asked: bool = False) -> bool:
        """Whether this token writes ``claimed``'s number as the same kind of quantity.

        A percent is carried only by a percent, and a plain number by a date only as
        its year: "30" members are not "30%" of a city, nor "11" the day of "11 November".
        When the question asks for a percentage, a bare "61" may be read as "61 per cent".
        """
        if claimed.number is None:
            return False
        if claimed.percent != self.percent and not (percent_asked and not claimed.percent):
            return False
        if self.date:
            return claimed.number == str(self.year)
        return self.writes(claimed.number, decimal=claimed.decimal)


def read_tokens(text: str, analyzer: Analyzer, *, committing: bool) -> list[QuantityToken]:
    """``text`` as quantity tokens: a number knows its canonical value, its decimals, and
    whether it was written as a word or a percent; a date is one token, with its year and
    day. Clause joints, full stops and numbers end a number's company (``company_side``)."""
    dates = dates_in(text)
    tokens: list[QuantityToken] = []
    spans: dict[int, tuple[int, int]] = {}  # where each number token is written
    for match in _TOKEN.finditer(text):
        within = [d for d in dates if d.start <= match.start() < d.end]
        if within:
            if not tokens or not tokens[-1].date:
                parts = {str(p) for d in within for p in (d.year, d.day) if p is not None}
                year = next((d.year for d in within if d.year is not None), None)
                tokens.append(
                    QuantityToken(stop=True, date=True, date_numbers=frozenset(parts), year=year)
                )
        elif match.group(1):
            spans[len(tokens)] = match.span()
            tokens.append(
                QuantityToken(
                    number=canonical(match.group(1), match.group(2)),
                    stop=True,
                    decimal=bool(match.group(2)),
                    percent=_is_percent(text, match.start(), match.end()),
                )
            )
        elif match.group(0) in ";:.":
            # A clause joint or a full stop ("!" is a factorial, not a stop); the full stop
            # of an abbreviation ("Cat. No. 11368V") ends nothing.
            before = _WORD_BEFORE.search(text, 0, match.start())
            if not (match.group(0) == "." and before and is_abbreviation(before.group(0))):
                tokens.append(QuantityToken(stop=True))
        elif match.group(0) in "()[]":
            tokens.append(QuantityToken())  # a bracket keeps "(born 1960)" and "(n − 1)!" together
        else:
            word = fold(match.group(0), analyzer.language)
            if word in _JOINTS:
                tokens.append(QuantityToken(stop=True))
            elif (
                word in LANGUAGE_NUMBER_WORDS.get(analyzer.language, NUMBER_WORDS.keys())
                and word not in AMBIGUOUS_NUMBER_WORDS
                and not (committing and word in PRONOUN_NUMBERS)
            ):
                spans[len(tokens)] = match.span()
                tokens.append(
                    QuantityToken(
                        number=str(NUMBER_WORDS[word]),
                        stop=True,
                        worded=True,
                        percent=_is_percent(text, match.start(), match.end()),
                    )
                )
            elif word in PERCENT_WORDS:
                tokens.append(QuantityToken())  # "7 percent" is "7%": its number says so
            else:
                term = analyzer.term(word)
                # Single letters ("°F", a possessive's s) are no company.
                tokens.append(QuantityToken(term=term if term and len(term) > 1 else None))
    return _share_percent_signs(text, tokens, spans)


def _share_percent_signs(
    text: str, tokens: list[QuantityToken], spans: dict[int, tuple[int, int]]
) -> list[QuantityToken]:
    """A range or list with one percent sign is all percents: "30–60%", "30 y 60 %"."""
    at = sorted(spans)
    for earlier, later in reversed(list(zip(at, at[1:], strict=False))):
        if tokens[later].percent and not tokens[earlier].percent:
            between = text[spans[earlier][1] : spans[later][0]]
            if _RANGE_JOINT.fullmatch(between):
                tokens[earlier] = replace(tokens[earlier], percent=True)
    return tokens


@lru_cache(maxsize=8)
def percent_terms(language: str) -> frozenset[str]:
    """The index terms of the words that ask for a percentage."""
    analyzer = Analyzer(language)
    asked = ("percent", "percentage", "per cent", "porcentaje", "yüzde")
    return frozenset(t for w in asked for t in analyzer.terms(w))


def _is_percent(text: str, start: int, end: int) -> bool:
    """ "7%", "7 percent", "7-percent", "siete por ciento", and Turkish "%7", "yüzde 7"."""
    after = _PERCENT_AFTER.match(text, end)
    return after is not None or _PERCENT_BEFORE.search(text[:start]) is not None


def company_side(tokens: list[QuantityToken], at: int, step: int, reach: int) -> set[str]:
    """A number's *company* on one side (``step`` -1 or 1): the nearest content terms, up
    to ``reach`` of them, until a stop token."""
    found: set[str] = set()
    index = at + step
    while 0 <= index < len(tokens) and len(found) < reach:
        token = tokens[index]
        if token.stop:
            break
        if token.term is not None:
            found.add(token.term)
        index += step
    return found


# A percentage, or a rate's change in (percentage) points, is a percent claim.
CLAIMED_FIGURE = re.compile(
    r"(?<![\w.])[-−]?\d[\d,]*(?:\.(\d+))?\s*(%|(?:percentage )?points?\b|percent\b|per cent\b)?",
    re.I,
)


# -- a figure as a cell or a caption writes it: its scale, currency and sign --

# Scale words as reports write them, in a caption, a header or a cell: "(in millions)",
# "$'000", "£m", "(Dollars in Thousands)", "en miles", "milyon".
SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_SCALE_WORDS = (
    ("billion", re.compile(r"\bbillions?\b|\bbn\b|\bmil millones\b|\bmilyar", re.I)),
    ("million", re.compile(r"\bmillions?\b|(?<=[$€£¥])\s*m\b|\bmm\b|\bmillones\b|\bmilyon", re.I)),
    ("thousand", re.compile(r"\bthousands?\b|[’']000\b|\ben miles\b|\bbin (?:tl|lira)\b", re.I)),
)
CURRENCIES = {"$": "$", "€": "€", "£": "£", "¥": "¥", "usd": "$", "eur": "€", "gbp": "£"}
# Dollars of other countries, told apart so that they never add up: "NT$" beside "US$"
# is a translation of the same figure, not a second one. "US$" is the plain dollar.
_DOLLARS = {"us": "$", "nt": "NT$", "a": "A$", "au": "A$", "c": "C$", "ca": "C$"}
_DOLLARS |= {"hk": "HK$", "s": "S$", "sg": "S$", "nz": "NZ$", "r": "R$"}
_CURRENCY = re.compile(r"\b(?:us|nt|au?|ca?|hk|sg?|nz|r)\$|[$€£¥]|\b(?:usd|eur|gbp)\b", re.I)
_PERCENT = re.compile(r"%|\bper ?cent\b|\bpercentage\b|\bpor ciento\b|\byüzde\b", re.I)
_NEGATIVE = re.compile(r"^\s*[$€£¥]?\s*\(.*\d.*\)\s*%?\s*$|^\s*[$€£¥]?\s*[-−–]\s*[$€£¥]?\s*\d")
_UNIT_WORDS = frozenset(
    "million millions thousand thousands billion billions m mn mm bn k percent per cent "
    "usd eur gbp us rmb nt tl millones mil milyon milyar bin".split()
)
_EMPTY_CELL = re.compile(r"^\s*(?:[-−–—]+|n/?a|nm|\*)?\s*$", re.I)


def scale_of(text: str) -> str:
    """The scale word a caption, header or cell states, or ""."""
    for name, pattern in _SCALE_WORDS:
        if pattern.search(text):
            return name
    return ""


def currency_of(text: str) -> str:
    found = _CURRENCY.search(text)
    if not found:
        return ""
    written = found.group(0).lower()
    return (
        _DOLLARS[written[:-1]] if len(written) > 1 and written[-1] == "$" else CURRENCIES[written]
    )


def is_percent_text(text: str) -> bool:
    return _PERCENT.search(text) is not None


def read_number(written: str) -> float | None:
    """The one number a cell writes, with its sign: "$  1,452.4" → 1452.4, "(9.9)" → −9.9.

    None for an empty cell, a dash, a cell holding more or fewer than one number, or one
    whose words are not a unit or scale.
    """
    if _EMPTY_CELL.match(written):
        return None
    found = numbers_in(written)
    if len(found) != 1:
        return None
    # Only a figure with its unit: "2039 or indefinite" and "(190) bps" are not amounts.
    words = letter_runs(written)
    if any(word.lower() not in _UNIT_WORDS for word in words):
        return None
    number = abs(float(found[0]))
    return -number if _NEGATIVE.match(written) else number
