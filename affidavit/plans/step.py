"""One step being run, shared by the primitives (plans/primitives.py): how a plan dies
(Death), how a step reads its phrases, literals and earlier results, how every anchored
input is checked against its own line, and how a chosen item is said."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from affidavit.gates import unsupported_numbers
from affidavit.plans.ground import Ground
from affidavit.plans.plan import Step
from affidavit.plans.values import Kind, Source, Value, in_scale

NUMERIC = frozenset({Kind.AMOUNT, Kind.PERCENT, Kind.COUNT, Kind.DURATION, Kind.NUMBER})


class Death(StrEnum):
    """How a plan dies. Codes are stable; the audit names the step and the detail."""

    UNKNOWN_OP = "unknown_op"
    UNANCHORED = "unanchored_phrase"
    AMBIGUOUS = "ambiguous_anchor"
    DANGLING = "dangling_reference"
    BAD_ARGUMENT = "bad_argument"
    UNIT_MISMATCH = "unit_mismatch"
    SCALE_MISMATCH = "scale_mismatch"
    EMPTY = "empty_list"
    UNDEFINED = "undefined_result"
    NO_DATE = "no_date"
    UNCARRIED = "input_not_carried"
    REPEATED = "repeated_input"
    DISAGREES = "stated_figure_disagrees"


class PlanDied(Exception):
    def __init__(self, death: Death, step: int, detail: str) -> None:
        super().__init__(f"step {step + 1}: {death.value}: {detail}")
        self.death, self.step, self.detail = death, step, detail

    def to_dict(self) -> dict[str, Any]:
        return {"death": self.death.value, "step": self.step + 1, "detail": self.detail}


class Running:
    """One step being run: its arguments resolved, its deaths raised with its number."""

    def __init__(self, number: int, step: Step, results: dict[str, Value], ground: Ground):
        self.number, self.step, self.results, self.ground = number, step, results, ground
        self.anchored: list[Value] = []
        self.dropped: list[str] = []  # items of an engine's list the store does not hold

    def die(self, death: Death, detail: str) -> PlanDied:
        return PlanDied(death, self.number, detail)

    def phrase(self, key: str) -> str:
        given = self.step.args.get(key)
        if not isinstance(given, str) or not given.strip():
            raise self.die(Death.BAD_ARGUMENT, f"{self.step.op} needs a phrase {key!r}")
        return given

    def literal(self, key: str, default: Any = None) -> Any:
        return self.step.args.get(key, default)

    def ref(self, key: str) -> Value:
        given = self.step.args.get(key)
        if not isinstance(given, str):
            raise self.die(Death.BAD_ARGUMENT, f"{self.step.op} needs one result as {key!r}")
        return self.results[given]

    def items(self, key: str = "of", *, may_be_empty: bool = False) -> list[Value]:
        """The argument as a list of values: one list result, or several single results."""
        given = self.step.args.get(key)
        if given is None:
            raise self.die(Death.BAD_ARGUMENT, f"{self.step.op} needs {key!r}")
        names = given if isinstance(given, list) else [given]
        values: list[Value] = []
        for name in names:
            found = self.results[name]
            values.extend(found.items if found.kind == Kind.LIST else [found])
        if not values and not may_be_empty:
            raise self.die(Death.EMPTY, f"{self.step.op} was given an empty list")
        return values

    def numbers(self, values: Sequence[Value]) -> tuple[list[float], Value]:
        """The values' numbers in one unit and scale (the first's), or the plan dies:
        arithmetic refuses to mix kinds, units or unconverted scales."""
        first = values[0]
        for value in values:
            if value.kind not in NUMERIC or value.number is None:
                raise self.die(Death.UNIT_MISMATCH, f"{value.label or value.kind} is not a number")
            if value.kind != first.kind:
                raise self.die(Death.UNIT_MISMATCH, f"{first.kind} and {value.kind} do not mix")
            if value.unit and first.unit and value.unit != first.unit:
                raise self.die(Death.UNIT_MISMATCH, f"{first.unit} and {value.unit} do not mix")
            if value.scale != first.scale and not (value.scale and first.scale):
                raise self.die(
                    Death.SCALE_MISMATCH,
                    f"{value.label} is in {value.scale or 'units'}, "
                    f"{first.label} in {first.scale or 'units'}",
                )
        unit = next((v.unit for v in values if v.unit), "")
        like = Value(first.kind, 0.0, unit=unit, scale=first.scale)
        return [in_scale(v, first.scale) for v in values], like


def result_like(like: Value, number: float, kind: Kind | None = None) -> Value:
    kind = kind or like.kind
    if kind in (Kind.PERCENT, Kind.COUNT):
        return Value(kind, number)
    return Value(kind, number, unit=like.unit, scale=like.scale)


def with_sources(value: Value, line: Any, written: str, label: str = "") -> Value:
    return Value(
        value.kind,
        value.number,
        value.unit,
        value.scale,
        value.text,
        sources=(Source(line, "", written),),
        label=label or value.label,
    )


def checked(s: Running, value: Value) -> Value:
    """The gate on every input: what the value writes must be carried by its own line."""
    for source in value.sources:
        if source.written and unsupported_numbers(source.written, [source.line.text]):
            raise s.die(Death.UNCARRIED, f"{source.written!r} is not in its line")
    s.anchored.append(value)
    return value


def listed(s: Running, items: Sequence[Value], label: str) -> Value:
    """A list result; with ``say``, each item said as its year, date, row or column (each
    once, in order)."""
    if s.literal("say") is not None:
        kept: list[Value] = []
        for item in items:
            one = said(s, item)
            if all((one.text, one.number) != (o.text, o.number) for o in kept):
                kept.append(one)
        items = kept
    return Value(Kind.LIST, items=tuple(items), label=label)


def is_dated(value: Value) -> bool:
    """Does the value state a date (a cell under a dated column, a day a line tells)?"""
    return value.text[:4].isdigit()


def date_key(s: Running, value: Value) -> str:
    if not is_dated(value):
        raise s.die(Death.NO_DATE, f"{value.label or 'an item'} states no date")
    return value.text


def said(s: Running, item: Value) -> Value:
    """What of a chosen item is the answer: its value, its date, its row or its column."""
    say = s.literal("say", "value")
    if say == "year":
        year = date_key(s, item)[:4]
        return Value(Kind.DATE, text=year, sources=item.sources, label=item.label)
    if say == "date":
        return Value(Kind.DATE, text=date_key(s, item), sources=item.sources, label=item.label)
    if say in ("row", "column"):
        source = item.sources[0] if item.sources else None
        text = ""
        if source is not None and say == "column":
            text = source.column
        elif source is not None and source.line.cells:
            text = next(iter(source.line.cells.values()))  # the row's label, as written
        elif source is not None:
            text = item.label  # a line anchored by a phrase: the phrase it was found by
        if not text:
            raise s.die(Death.BAD_ARGUMENT, f"{item.label} has no {say} to say")
        return Value(Kind.ENTITY, text=text, sources=item.sources, label=item.label)
    return item
