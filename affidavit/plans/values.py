"""Typed values a plan computes with, read from the cells and lines the store holds."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from affidavit.results import Evidence
from affidavit.text import SCALES, currency_of, is_percent_text, read_number, scale_of


class Kind(StrEnum):
    AMOUNT = "amount"
    PERCENT = "percent"
    COUNT = "count"
    DATE = "date"
    DURATION = "duration"  # a number of days
    NUMBER = "number"  # a ratio: no unit
    LIST = "list"
    ENTITY = "entity"
    TEXT = "text"


# The unit of a percentage's change in points (a percent value's only unit).
POINTS = "points"


@dataclass(frozen=True, slots=True)
class Source:
    """Where an input value stands: a line, and the cell of it when it is a table row."""

    line: Evidence
    column: str = ""  # the cell's column name ("" for a value read from running text)
    written: str = ""  # the value exactly as the cell or line writes it

    def to_dict(self) -> dict[str, Any]:
        return {
            "document": self.line.document,
            "position": self.line.position,
            "column": self.column,
            "written": self.written,
            "text": self.line.text,
        }


@dataclass(frozen=True, slots=True)
class Value:
    """A value knows what it is (an amount with its currency and scale, a percent, a count,
    a date at its precision, a list...) and where it came from, so the interpreter can
    refuse to add dollars to percent and a reviewer can trace every input to its cell."""

    kind: Kind
    number: float | None = None
    unit: str = ""  # a currency sign for amounts
    scale: str = ""  # "", "thousand", "million", "billion"
    text: str = ""  # a date's ISO form at its precision, an entity's name, a label
    items: tuple[Value, ...] = ()
    sources: tuple[Source, ...] = field(default=(), compare=False)
    label: str = ""  # what the value is of, in the store's words ("Total sales, 2019")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.number is not None:
            out["number"] = self.number
        for key in ("unit", "scale", "text", "label"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.items:
            out["items"] = [item.to_dict() for item in self.items]
        return out


def read_cell(written: str, context: str = "", *, names: str | None = None) -> Value | None:
    """A cell (or a number in a line) as a typed value, its number read with the gate's own
    reader (text/quantities.py: a report's "(9.9)" is −9.9); ``context`` is its column name,
    the table's header and caption, which state the unit and scale the cell leaves out.
    ``names`` (its column name and row label), where given, alone says whether a cell
    without a percent sign is a percentage: a header's "%Chg" column or a caption's
    "except percentages" says nothing of the columns beside it."""
    number = read_number(written)
    if number is None:
        return None
    named = context if names is None else names
    if is_percent_text(written) or (not currency_of(written) and _only_percent(named)):
        return Value(Kind.PERCENT, number)
    unit = currency_of(written) or currency_of(context)
    scale = scale_of(written) or scale_of(context)
    return Value(Kind.AMOUNT, number, unit=unit, scale=scale)


def _only_percent(context: str) -> bool:
    """A column headed "%" or "Change %" holds percents even where its cells omit the sign."""
    return bool(context) and is_percent_text(context) and not currency_of(context)


def in_scale(value: Value, scale: str) -> float:
    """The value's number restated in another scale (thousands to millions, say)."""
    assert value.number is not None
    return value.number * SCALES.get(value.scale, 1.0) / SCALES.get(scale, 1.0)
