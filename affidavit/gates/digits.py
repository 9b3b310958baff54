"""The digit veto, the gate's first and non-negotiable tier.

Any number a sentence writes (in digits, or in words up to twenty) that its evidence does
not carry vetoes the sentence outright. Spellings are normalised before comparing
("1,200" = "1200", "7%" = "7 percent", "three" = "3"). Dates are compared whole: a date
the sentence writes must agree, on every part it names, with a date the evidence writes,
in whatever form ("2019-05-03" is carried by "May 3, 2019"; "February 2, 1832" is not
carried by "February 9, 1832", even though the evidence has a 2 in February's place).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from affidavit.gates.decision import GateDecision
from affidavit.reasons import Reason
from affidavit.text.numbers import carried_numbers, number_words_in, numbers_in

_MONTH_NAMES = (
    ("january", "jan", "enero", "ocak"),
    ("february", "feb", "febrero", "şubat"),
    ("march", "mar", "marzo", "mart"),
    ("april", "apr", "abril", "nisan"),
    ("may", "mayo", "mayıs"),
    ("june", "jun", "junio", "haziran"),
    ("july", "jul", "julio", "temmuz"),
    ("august", "aug", "agosto", "ağustos"),
    ("september", "sep", "sept", "septiembre", "eylül"),
    ("october", "oct", "octubre", "ekim"),
    ("november", "nov", "noviembre", "kasım"),
    ("december", "dec", "diciembre", "aralık"),
)
MONTHS = {name: number for number, names in enumerate(_MONTH_NAMES, 1) for name in names}
# Each month's English name, the way a date is written back for the veto to read.
MONTH_NAMES = tuple(names[0] for names in _MONTH_NAMES)


def stamp_words(day: str) -> str:
    """An ISO day as words ("2022-05-25": "25 may 2022"), for matching a question that
    names the day a turn was said."""
    year, month, number = day[:10].split("-")
    return f"{int(number)} {MONTH_NAMES[int(month) - 1]} {year}"


_MONTH = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(\d{3,4})"
# Each pattern names its groups' roles in order: d(ay), m(onth name), y(ear), n(umeric month).
_DATE_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"\b{_YEAR}-(\d{{1,2}})-(\d{{1,2}})\b"), "ynd"),
    (re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.I), "mdy"),
    (re.compile(rf"\b{_DAY}\s+(?:de\s+)?{_MONTH},?\s+(?:de\s+)?{_YEAR}\b", re.I), "dmy"),
    (re.compile(rf"\b{_MONTH}\s+{_DAY}\b(?!,?\s+\d)", re.I), "md"),
    (re.compile(rf"\b{_DAY}\s+(?:de\s+)?{_MONTH}\b(?!,?\s+(?:de\s+)?\d)", re.I), "dm"),
    (re.compile(rf"\b{_MONTH}\s+(?:de\s+)?{_YEAR}\b", re.I), "my"),
    (re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{2,4})\b"), "xxy"),
)


@dataclass(frozen=True, slots=True)
class WrittenDate:
    year: int | None
    month: int | None
    day: int | None
    start: int
    end: int

    def agrees_with(self, other: WrittenDate) -> bool:
        return all(
            mine is None or mine == theirs
            for mine, theirs in (
                (self.year, other.year),
                (self.month, other.month),
                (self.day, other.day),
            )
        )


@lru_cache(maxsize=65536)
def dates_in(text: str) -> tuple[WrittenDate, ...]:
    """Every date ``text`` writes, as its parts; numeric d/m forms yield both readings."""
    found: list[WrittenDate] = []
    taken: list[tuple[int, int]] = []
    for pattern, roles in _DATE_FORMS:
        for match in pattern.finditer(text):
            if any(s < match.end() and match.start() < e for s, e in taken):
                continue
            taken.append((match.start(), match.end()))
            found.extend(_readings(match, roles))
    return tuple(found)


def _readings(match: re.Match[str], roles: str) -> list[WrittenDate]:
    parts: dict[str, int | None] = {"y": None, "m": None, "d": None}
    numeric: list[int] = []
    for role, value in zip(roles, match.groups(), strict=True):
        if role == "m":
            parts["m"] = MONTHS[value.lower().rstrip(".")]
        elif role == "x":
            numeric.append(int(value))
        elif role == "n":
            parts["m"] = int(value)
        else:
            parts[role] = int(value)
    start, end = match.start(), match.end()
    if numeric:  # 03/04/2024: month-first in the U.S., day-first elsewhere
        first, second = numeric
        return [
            WrittenDate(parts["y"], first, second, start, end),
            WrittenDate(parts["y"], second, first, start, end),
        ]
    return [WrittenDate(parts["y"], parts["m"], parts["d"], start, end)]


def written_numbers(text: str, language: str | None = None) -> list[str]:
    """The numbers a sentence commits to: in digits and in its language's words to twenty."""
    return numbers_in(text) + number_words_in(text, committing=True, language=language)


def evidence_numbers(lines: Iterable[str]) -> set[str]:
    """Every quantity the evidence carries, in digits or in words."""
    carried: set[str] = set()
    for line in lines:
        carried |= carried_numbers(line)
    return carried


def unsupported_numbers(
    candidate: str, evidence: Iterable[str], language: str | None = None
) -> list[str]:
    """The numbers and dates ``candidate`` writes that ``evidence`` does not carry."""
    lines = list(evidence)
    carried = evidence_numbers(lines)
    evidence_dates = [d for line in lines for d in dates_in(line)]
    missing: list[str] = []
    readings: dict[tuple[int, int], list[WrittenDate]] = {}
    for date in dates_in(candidate):
        readings.setdefault((date.start, date.end), []).append(date)
    spans = list(readings)
    for (start, end), ways in readings.items():
        # A date is carried when one of its readings agrees with an evidence date.
        if not any(w.agrees_with(other) for w in ways for other in evidence_dates):
            missing.append(candidate[start:end])
    # Numbers outside dates are compared one by one.
    plain = candidate
    for start, end in sorted(spans, reverse=True):
        plain = plain[:start] + " " * (end - start) + plain[end:]
    missing.extend(n for n in written_numbers(plain, language) if n not in carried)
    return sorted(set(missing))


def digit_veto(
    candidate: str, evidence: Iterable[str], language: str | None = None
) -> GateDecision:
    """Veto ``candidate`` if it writes a number or date that no evidence line carries."""
    unsupported = unsupported_numbers(candidate, evidence, language)
    if unsupported:
        return GateDecision(
            "digit_veto",
            False,
            Reason.DIGIT_VETO.value,
            "not in the cited evidence: " + ", ".join(unsupported),
        )
    return GateDecision("digit_veto", True, None, "every number is carried by the evidence")
