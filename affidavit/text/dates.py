"""Dates as texts write them: read into their parts, and written back in words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from affidavit.text.lang import VOCABULARIES
from affidavit.text.years import COLUMN_YEAR, YEAR

# Each number to twenty by its English name, for writing a count back.
NUMBER_NAMES = {value: word for word, value in VOCABULARIES["en"].number_words.items()}

# Every language's month spellings, and the month each names (1 = January).
MONTHS = {
    name: number
    for words in VOCABULARIES.values()
    for number, names in enumerate(words.months, 1)
    for name in names
}
# Each month's English name, the way a date is written back for the veto to read.
MONTH_NAMES = tuple(names[0] for names in VOCABULARIES["en"].months)


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
    """A date at the precision it is written with ("May 3, 2019", "March 1974"): a part
    it does not write is None; ``start`` and ``end`` are where it is written."""

    year: int | None
    month: int | None
    day: int | None
    start: int
    end: int

    def agrees_with(self, other: WrittenDate) -> bool:
        """Compared part by part, on the parts this date writes: "2019-05-03" and "May 3,
        2019" are one date, and "February 2, 1832" is not "February 9, 1832"."""
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


# An English month named with its year, and maybe a day: "August 2019", "May 3, 2019".
MONTH_AND_YEAR = re.compile(
    rf"\b(?P<month>{'|'.join(MONTH_NAMES)})\s+(?:\d{{1,2}},?\s+)?(?P<year>{YEAR})\b", re.I
)


# "August 31,2019": a date whose day and year run together, not the amount "31,201".
_MONTH_DAY_YEAR = re.compile(
    rf"^(?:{'|'.join(name[:3] for name in MONTH_NAMES)})[a-z]*\.?\s+\d{{1,2}},\s*{YEAR}$",
    re.I,
)


def is_month_day_year(text: str) -> bool:
    """Is ``text`` an English month, a day and a year, and nothing else ("Aug. 31, 2019")?"""
    return _MONTH_DAY_YEAR.match(text) is not None


# -- a table column's date --

_DAY_COMMA_YEAR = re.compile(rf"\b(\d{{1,2}}),({YEAR})\b")
_FISCAL_SHORT = re.compile(r"\bF[Yy]?\s?[’']?(?:20)?([0-4]\d)\b")
# A year with a footnote digit run into it: "20181", "FY181 $M" (reports group amounts
# of five digits: "20,181").
_YEAR_MARKED = re.compile(rf"(?<![\w,.$])({YEAR}|FY\s?\d\d)[1-9](?![\w,.%])", re.I)


def spaced_dates(text: str) -> str:
    """A day and its year run together by a missing space ("August 31,2019") written
    apart, so the year reads as a year: four digits after a comma are no thousands; and a
    fiscal year in short ("FY19", "F19", "FY'19", "FY2019") as its year, 2019; a column
    named by a year with its footnote digit run in ("20181", "FY181") as that year."""
    text = _YEAR_MARKED.sub(r"\1", text)
    return _FISCAL_SHORT.sub(r"20\1", _DAY_COMMA_YEAR.sub(r"\1, \2", text))


def column_date(column: str) -> str:
    """The date a column stands for ("Years Ended September 30, 2019" → 2019-09-30), at its
    precision, or "" when it names none."""
    column = spaced_dates(column)
    dates = [d for d in dates_in(column) if d.year is not None]
    if dates:
        last = dates[-1]
        parts = [f"{last.year:04d}", *(f"{p:02d}" for p in (last.month, last.day) if p)]
        return "-".join(parts[: 1 + (last.month is not None) + (last.day is not None)])
    years = COLUMN_YEAR.findall(column)
    return years[-1] if years else ""


# -- an answer's date --

_BARE_YEAR = re.compile(r"^\s*(?:in\s+|the\s+year\s+)?(\d{3,4})\s*$", re.I)
# The order of a numeric date's day and month ("03/04/2024": March in the U.S., April in
# Spain and Turkey).
_MONTH_FIRST = {"en": True, "es": False, "tr": False}


def date_value(text: str, language: str = "en") -> str:
    """The date ``text`` states, as ISO at its own precision ("May 3, 2019" is
    2019-05-03, "March 1974" 1974-03, "1974" 1974); ``text`` itself when it states none
    whole, or more than one."""
    year = _BARE_YEAR.match(text)
    if year:
        return year.group(1)
    dates = dates_in(text)
    if len(dates) == 2 and (dates[0].start, dates[0].end) == (dates[1].start, dates[1].end):
        # A numeric date's two readings: the language's order decides.
        dates = dates[:1] if _MONTH_FIRST.get(language, True) else dates[1:]
    # One date, written as most of the text ("on May 3, 2019").
    if len(dates) == 1:
        (date,) = dates
        rest = (text[: date.start] + text[date.end :]).strip(" ,.").lower()
        if len(rest.split()) <= 2 and date.year is not None and date.month is not None:
            if date.day is not None:
                return f"{date.year:04d}-{date.month:02d}-{date.day:02d}"
            return f"{date.year:04d}-{date.month:02d}"
    return text


# -- written back --


def in_words(iso: str, *, capital: bool = False) -> str:
    """An ISO year, month or day in words, as the date reader reads them back ("2022",
    "may 2022", "25 may 2022"; with ``capital``, "25 May 2022")."""
    parts = iso.split("-")
    if len(parts) == 1:
        return parts[0]
    month = MONTH_NAMES[int(parts[1]) - 1]
    month = month.capitalize() if capital else month
    return f"{month} {parts[0]}" if len(parts) == 2 else f"{int(parts[2])} {month} {parts[0]}"


def month_in_words(value: str) -> str:
    """An ISO year-month as the date reader reads it ("1974-03": "march 1974"); any
    other text as it is."""
    month = _ISO_MONTH.fullmatch(value)
    if month and 1 <= int(month.group(2)) <= 12:
        return in_words(value)
    return value


_ISO_MONTH = re.compile(r"(\d{4})-(\d{2})")


def day_written(iso: str, language: str = "en") -> str:
    """An ISO day at its precision as English writes it ("7 May 2023", "June 2023",
    "2023"); other languages keep the ISO form, which no reader misreads."""
    parts = iso[:10].split("-")
    if language != "en" or not all(p.isdigit() for p in parts):
        return iso[:10]
    if len(parts) == 1:
        return parts[0]
    return in_words(iso[:10], capital=True)


def time_written(iso: str, told: tuple[str, str] | None = None, language: str = "en") -> str:
    """A time as English writes it: a day, month or year as ``day_written``; an interval
    of days read from a turn's words said on a day (``told``: the words and the day) as
    its relation to that day ("the week before 9 June 2023", "the weekend after 8 May
    2023", "two weeks before 11 August 2023"); a time open at its start, vague as its
    words ("a few years ago": "some years before May 2023"). Other languages keep the ISO
    form."""
    if "/" not in iso:
        return day_written(iso, language)
    first, last = iso.split("/", 1)
    if language != "en":
        return iso
    if first == "..":
        return _vaguely_before(last, told[0] if told else "")
    start, end = date.fromisoformat(first), date.fromisoformat(last)
    span = "weekend" if (end - start).days == 1 else "week"
    if told is None:
        return f"{day_written(first)} to {day_written(last)}"
    said_on = told[1]
    said = date.fromisoformat(said_on[:10])
    if end < said:
        weeks = (said - end).days // 7 + 1
        if span == "week" and weeks > 1 and (said - end).days % 7 == 1:
            return f"{_weeks(weeks)} weeks before {day_written(said_on)}"
        return f"the {span} before {day_written(said_on)}"
    if start > said:
        return f"the {span} after {day_written(said_on)}"
    return f"the {span} of {day_written(said_on)}"


def _vaguely_before(day: str, words: str) -> str:
    """ "a few years ago" said on 8 May 2023 is "some years before May 2023": the unit the
    words give, the day of saying no more precisely than that unit deserves."""
    unit = next((u for u in ("year", "month", "week", "day") if u in words.lower()), "")
    if unit == "year" or unit == "month":
        return f"some {unit}s before {day_written(day[:7])}"
    if unit:
        return f"some {unit}s before {day_written(day)}"
    if "recent" in words.lower():
        return f"shortly before {day_written(day)}"
    return f"some time before {day_written(day)}"


def _weeks(count: int) -> str:
    """A count of weeks as a sentence writes it: in words from two to eight, else digits."""
    return NUMBER_NAMES[count] if 2 <= count <= 8 else str(count)
