"""The library's own words for a computed answer, in English, Spanish and Turkish: the
engine names operations and phrases; it never writes a word of a computed answer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affidavit.plans.interpreter import Outcome
from affidavit.plans.values import POINTS, Kind, Value
from affidavit.results import Evidence
from affidavit.text import day_written, fold, format_number, rounded, time_written, when_told

PLACES = 2  # computed numbers are rounded half away from zero to two decimals

_LEAD = {
    "en": {
        "sum": "The total is",
        "difference": "The difference is",
        "percent_change": "The change is",
        "ratio": "The ratio is",
        "average": "The average is",
        "count": "The count is",
        "max": "The largest is",
        "min": "The smallest is",
        "compare": "The answer is",
        "latest": "The latest is",
        "first": "The first is",
        "days_between": "The time between is",
        "anchor": "The value is",
        "gather": "The values are",
        "order": "In order:",
        "filter": "The values kept are",
        "tally_by_month": "By month:",
    },
    "es": {
        "sum": "El total es",
        "difference": "La diferencia es",
        "percent_change": "La variación es",
        "ratio": "La razón es",
        "average": "El promedio es",
        "count": "El recuento es",
        "max": "El mayor es",
        "min": "El menor es",
        "compare": "La respuesta es",
        "latest": "El más reciente es",
        "first": "El primero es",
        "days_between": "El tiempo transcurrido es",
        "anchor": "El valor es",
        "gather": "Los valores son",
        "order": "En orden:",
        "filter": "Los valores que quedan son",
        "tally_by_month": "Por mes:",
    },
    "tr": {
        "sum": "Toplam:",
        "difference": "Fark:",
        "percent_change": "Değişim:",
        "ratio": "Oran:",
        "average": "Ortalama:",
        "count": "Sayı:",
        "max": "En büyüğü:",
        "min": "En küçüğü:",
        "compare": "Yanıt:",
        "latest": "En sonuncusu:",
        "first": "İlki:",
        "days_between": "Aradaki süre:",
        "anchor": "Değer:",
        "gather": "Değerler:",
        "order": "Sırayla:",
        "filter": "Kalan değerler:",
        "tally_by_month": "Aylara göre:",
    },
}
_SCALE_WORD = {
    "en": {"thousand": "thousand", "million": "million", "billion": "billion"},
    "es": {"thousand": "mil", "million": "millones", "billion": "mil millones"},
    "tr": {"thousand": "bin", "million": "milyon", "billion": "milyar"},
}
_DAYS = {"en": "days", "es": "días", "tr": "gün"}
_IN_SCALE = {
    "en": {"thousand": "in thousands", "million": "in millions", "billion": "in billions"},
    "es": {"thousand": "en miles", "million": "en millones", "billion": "en miles de millones"},
    "tr": {"thousand": "bin olarak", "million": "milyon olarak", "billion": "milyar olarak"},
}
_POINTS = {"en": "percentage points", "es": "puntos porcentuales", "tr": "yüzde puan"}
_FROM = {"en": "from", "es": "a partir de", "tr": "kaynak"}
_DATE_LEAD = {"en": "The date is", "es": "La fecha es", "tr": "Tarih:"}
_TOLD = {"en": "read from", "es": "leído de", "tr": "okunan:"}
_STAMP = {
    "en": "the day it was told: the turn names no other time",
    "es": "el día en que se contó: el turno no nombra otro momento",
    "tr": "anlatıldığı gün: konuşma başka bir zaman belirtmiyor",
}
_ROUNDED = {"en": "rounded to 2 decimals", "es": "redondeado a 2 decimales", "tr": "2 ondalığa"}


def say(outcome: Outcome, language: str) -> tuple[str, Any]:
    """The answer sentence and the answer's bare value for a plan's outcome.

    The sentence is built from the final step's typed value and the store's own labels of
    its inputs, with the number's unit, scale and stated rounding, so a reviewer reads the
    result and the inputs it came from in one line.
    """
    lang = language if language in _LEAD else "en"
    value = outcome.value
    lead = _LEAD[lang].get(outcome.final_op, _LEAD[lang]["anchor"])
    if value.kind == Kind.DATE and outcome.final_op == "anchor":
        lead = _DATE_LEAD[lang]
    sentence = f"{lead} {said_value(outcome, lang)}"
    if _looked_up(outcome) and value.scale and value.kind == Kind.AMOUNT:
        # The cell leaves its scale to the table's header or caption: say it.
        sentence += f" ({_IN_SCALE[lang][value.scale]})"
    told = _told(value)
    if outcome.final_op == "anchor" and told is not None:
        # The words the day was read from, and the day they were said.
        words, said_on = told
        sentence += f" ({_TOLD[lang]} {words!r}, {day_written(said_on, lang)})"
    elif outcome.final_op == "anchor" and value.kind == Kind.DATE and _stamped(value):
        sentence += f" ({_STAMP[lang]})"
    inputs = outcome.inputs()
    if outcome.final_op not in ("anchor", "gather") and inputs:
        shown = "; ".join(f"{v.label} = {_input_written(v, lang)}" for v in inputs[:8])
        sentence += f" ({_FROM[lang]} {shown}"
        sentence += f"; {_ROUNDED[lang]})" if _is_computed(value) else ")"
    return sentence + ".", bare(value)


def _told(value: Value) -> tuple[str, str] | None:
    """The words a value was read from in a dialogue turn ("yesterday") and the day the
    turn was said; None for a value from any other line."""
    for source in value.sources:
        if source.written and source.line.date:
            return source.written, source.line.date
    return None


def _stamped(value: Value) -> bool:
    """A day that is the stamp of the turn it was read from (the turn named no time)."""
    return any(s.line.date and s.line.date[:10] == value.text for s in value.sources)


def _input_written(value: Value, language: str) -> str:
    """An input as its line writes it; a day read from a turn's "yesterday", as the day
    with the words it was read from."""
    told = _told(value) if value.kind == Kind.DATE else None
    if told is not None:
        return f"{written(value, language)} ({told[0]!r})"
    source = value.sources[0] if value.sources else None
    return (source.written if source is not None else "") or written(value, language)


def _is_computed(value: Value) -> bool:
    """A number the plan computed, said with its rounding (not a count or a day count)."""
    return (
        value.number is not None
        and value.kind not in (Kind.COUNT, Kind.DURATION)
        and not value.sources
    )


def written(value: Value, language: str = "en") -> str:
    """A typed value as the answer writes it: "$-12.6 million", "-22.22%", "34 days"."""
    if value.kind == Kind.LIST:
        return ", ".join(written(item, language) for item in value.items) or "—"
    if value.kind == Kind.DATE and (value.text[:4].isdigit() or value.text.startswith("..")):
        return time_written(value.text, _told(value), language)
    if value.number is None:
        return value.text or value.label
    number = format_number(value.number, PLACES)
    if value.kind == Kind.PERCENT:
        return f"{number} {_POINTS[language]}" if value.unit == POINTS else f"{number}%"
    if value.kind == Kind.DURATION:
        return f"{number} {_DAYS[language]}"
    if value.kind == Kind.COUNT:
        prefix = f"{value.text}: " if value.text else ""
        return f"{prefix}{number}"
    scale = _SCALE_WORD[language].get(value.scale, "")
    money = f"{value.unit}{number}" if value.unit else number
    return f"{money} {scale}".strip()


def _looked_up(outcome: Outcome) -> bool:
    """A plan that only read cells or lines (nothing computed)."""
    return outcome.final_op in ("anchor", "gather")


def said_value(outcome: Outcome, language: str = "en") -> str:
    """The answer's value without the sentence around it: a look-up quoted as its line
    writes it, a computed value as the library writes it."""
    return (quoted if _looked_up(outcome) else written)(outcome.value, language)


def quoted(value: Value, language: str = "en") -> str:
    """A value looked up, not computed, as its line writes it ("(140,687)", "$ 83.14",
    "39%"): a reviewer finds those very characters in the cited cell. A value with no one
    written source (a day read from a turn, a row's label) is written as ``written``."""
    if value.kind == Kind.LIST:
        return ", ".join(quoted(item, language) for item in value.items) or "—"
    written_as = value.sources[0].written.strip() if len(value.sources) == 1 else ""
    if value.number is not None and value.kind != Kind.DURATION and written_as:
        return written_as
    return written(value, language)


def bare(value: Value) -> Any:
    """The answer's value: a number rounded as said, a date or name, or a list of them."""
    if value.kind == Kind.LIST:
        return [bare(item) for item in value.items]
    if value.number is not None:
        number = rounded(value.number, PLACES)
        return int(number) if value.kind == Kind.COUNT or number == int(number) else number
    return value.text or value.label


def told_time(text: str, cited: Sequence[Evidence]) -> tuple[str, str, str] | None:
    """A time lifted from a turn as its words ("last week") read against the day the turn
    was said: (the answer sentence, the ISO time, the time as said), or None when the text
    is not a relative time or no cited turn carries it."""
    for line in cited:
        if not line.date or fold(text) not in fold(line.text):
            continue
        when = when_told(text, line.date)
        if when is None or len(when.words) < len(text.strip(" .!,")) - 1:
            continue  # the text says more than a time: leave it as written
        said = time_written(when.day, (when.words, when.said_on))
        sentence = f"{said} (read from {when.words!r}, {day_written(when.said_on)})"
        return sentence[:1].upper() + sentence[1:], when.day, said
    return None
