"""The interpreter: runs a plan's steps over anchored values, or kills the plan and says why.

Only the primitives of plan.OPERATIONS run, and only on phrases the ground anchors. Every
input of a computation is a cell or line the store holds, so the trace lets a reviewer
redo the arithmetic: each step keeps its inputs (with their citations) and its result.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any

from affidavit.composer.ground import Ground, date_of
from affidavit.composer.plan import OPERATIONS, Plan, Step
from affidavit.composer.values import Kind, Source, Value, in_scale, read_cell, read_number
from affidavit.gates.digits import unsupported_numbers
from affidavit.gates.numbers import numbers_in

NUMERIC = frozenset({Kind.AMOUNT, Kind.PERCENT, Kind.COUNT, Kind.DURATION, Kind.NUMBER})
# A number as a line writes it, with its currency, sign, parentheses and percent sign.
_WRITTEN_NUMBER = re.compile(r"[$€£¥]?\s?\(?[-−]?\d[\d,]*(?:\.\d+)?\)?\s?%?")


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


class PlanDied(Exception):
    def __init__(self, death: Death, step: int, detail: str) -> None:
        super().__init__(f"step {step + 1}: {death.value}: {detail}")
        self.death, self.step, self.detail = death, step, detail

    def to_dict(self) -> dict[str, Any]:
        return {"death": self.death.value, "step": self.step + 1, "detail": self.detail}


@dataclass
class Outcome:
    value: Value
    final_op: str
    trace: list[dict[str, Any]] = field(default_factory=list)

    def inputs(self) -> list[Value]:
        """The anchored values the answer rests on, in the order the plan took them."""
        seen: list[Value] = []
        for entry in self.trace:
            for value in entry["_anchored"]:
                if value not in seen:
                    seen.append(value)
        return seen

    def audit(self) -> list[dict[str, Any]]:
        return [{k: v for k, v in entry.items() if not k.startswith("_")} for entry in self.trace]


def run(plan: Plan, ground: Ground, *, now: str | None = None) -> Outcome:
    """Execute ``plan`` over ``ground``; raises PlanDied naming the step and the death."""
    results: dict[str, Value] = {}
    if now:
        results["now"] = Value(Kind.DATE, text=now, label="the asking day")
    trace: list[dict[str, Any]] = []
    value: Value | None = None
    for number, step in enumerate(plan.steps):
        if step.op not in OPERATIONS:
            raise PlanDied(Death.UNKNOWN_OP, number, f"no primitive is called {step.op!r}")
        for name in step.references():
            if name not in results:
                raise PlanDied(Death.DANGLING, number, f"{name!r} is not an earlier result")
        context = _Step(number, step, results, ground)
        value = _OPS[step.op](context)
        results[step.out] = value
        trace.append(
            {
                "step": number + 1,
                "op": step.op,
                "args": dict(step.args),
                "out": step.out,
                "inputs": [_input(v) for v in context.anchored],
                "result": value.to_dict(),
                **({"dropped": context.dropped} if context.dropped else {}),
                "_anchored": context.anchored,
            }
        )
    assert value is not None  # a parsed plan has at least one step
    return Outcome(value, plan.steps[-1].op, trace)


def _input(value: Value) -> dict[str, Any]:
    return {"label": value.label, **value.to_dict(), "cites": [s.to_dict() for s in value.sources]}


class _Step:
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
        """The values' numbers in one unit and scale (the first's), or the plan dies."""
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


def _result(like: Value, number: float, kind: Kind | None = None) -> Value:
    kind = kind or like.kind
    if kind in (Kind.PERCENT, Kind.COUNT):
        return Value(kind, number)
    return Value(kind, number, unit=like.unit, scale=like.scale)


# -- anchoring ------------------------------------------------------------------------------


def _anchor(s: _Step) -> Value:
    if "row" in s.step.args or "column" in s.step.args:
        # Without a column, the row must hold one value (a table of one value column).
        row = s.phrase("row")
        column = s.phrase("column") if "column" in s.step.args else ""
        found = s.ground.cells(row, column, tight=bool(s.literal("tight", False)))
        if not found:
            raise s.die(Death.UNANCHORED, f"no cell stands in a row {row!r} and column {column!r}")
        best_rank, best = found[0]
        rivals = [v for rank, v in found[1:] if rank == best_rank and v.number != best.number]
        if rivals:
            raise s.die(
                Death.AMBIGUOUS,
                f"{row!r} × {column!r} is both {best.label} and {rivals[0].label}",
            )
        return _checked(s, best)
    phrase = s.phrase("phrase")
    lines = s.ground.statements(phrase)
    if not lines:
        raise s.die(Death.UNANCHORED, f"no line says {phrase!r}")
    if s.literal("as") == "mention":
        mention = Value(Kind.ENTITY, text=phrase, label=phrase)
        return _checked(s, _with_sources(mention, lines[0], phrase))
    said = set(numbers_in(phrase))
    for line in lines:
        stated = [n for n in numbers_in(line.text) if n not in said and not _is_year(n)]
        if len(stated) == 1:
            written = _written_around(line.text, stated[0])
            value = read_cell(written, line.text)
            if value is not None:
                return _checked(s, _with_sources(value, line, written, label=phrase))
    raise s.die(Death.AMBIGUOUS, f"no line says {phrase!r} with exactly one number")


def _written_around(text: str, canonical: str) -> str:
    """The number as the line writes it, with its sign, currency and percent sign."""
    for match in _WRITTEN_NUMBER.finditer(text):
        if numbers_in(match.group(0)) == [canonical]:
            return match.group(0).strip()
    return canonical


def _is_year(number: str) -> bool:
    return number.isdigit() and len(number) == 4 and 1800 <= int(number) <= 2100


def _with_sources(value: Value, line: Any, written: str, label: str = "") -> Value:
    return Value(
        value.kind,
        value.number,
        value.unit,
        value.scale,
        value.text,
        sources=(Source(line, "", written),),
        label=label or value.label,
    )


def _checked(s: _Step, value: Value) -> Value:
    """The gate on every input: what the value writes must be carried by its own line."""
    for source in value.sources:
        if source.written and unsupported_numbers(source.written, [source.line.text]):
            raise s.die(Death.UNCARRIED, f"{source.written!r} is not in its line")
    s.anchored.append(value)
    return value


def _gather(s: _Step) -> Value:
    args = s.step.args
    if "row" in args:
        rows = s.ground.row(s.phrase("row"))
        if not rows:
            raise s.die(Death.UNANCHORED, f"no row is labelled {args['row']!r}")
        if len(rows) > 1 and rows[1][0] == rows[0][0]:
            raise s.die(Death.AMBIGUOUS, f"more than one row is labelled {args['row']!r}")
        items = rows[0][1]
    elif "column" in args:
        columns = s.ground.column(s.phrase("column"))
        if len(columns) != 1:
            raise s.die(
                Death.UNANCHORED if not columns else Death.AMBIGUOUS,
                f"{len(columns)} tables have a column {args['column']!r}",
            )
        items = columns[0]
    elif "items" in args:
        items = _verified_items(s)
    elif "section" in args:
        items = s.ground.section(s.phrase("section"))
        if not items:
            raise s.die(Death.UNANCHORED, f"no rows stand under {args['section']!r}")
    elif "of" in args:
        items = s.items()  # earlier results, listed in the order given
    else:
        phrase = s.phrase("phrase")
        lines = s.ground.statements(phrase)
        if not lines:
            raise s.die(Death.UNANCHORED, f"no line says {phrase!r}")
        items = [_mention(line, phrase) for line in lines]
    for item in items:
        if item.sources and item not in s.anchored and "of" not in args:
            _checked(s, item)
    return _listed(s, items, str(next(iter(args.values()))))


def _listed(s: _Step, items: Sequence[Value], label: str) -> Value:
    """A list result; with ``say``, each item said as its year, date, row or column (each
    once, in order)."""
    if s.literal("say") is not None:
        said: list[Value] = []
        for item in items:
            one = _said(s, item)
            if all((one.text, one.number) != (o.text, o.number) for o in said):
                said.append(one)
        items = said
    return Value(Kind.LIST, items=tuple(items), label=label)


def _verified_items(s: _Step) -> list[Value]:
    """The engine's list, checked item by item: an item no line says is dropped (and the
    trace says so), an item said twice is kept once. A count is the length of what stays."""
    given = s.step.args["items"]
    if not isinstance(given, list) or not all(isinstance(p, str) for p in given):
        raise s.die(Death.BAD_ARGUMENT, "gather items must be a list of phrases")
    kept: list[Value] = []
    seen: set[frozenset[str]] = set()
    for phrase in given:
        lines = s.ground.statements(phrase)
        key = s.ground.terms(phrase)
        if not lines:
            s.dropped.append(f"{phrase!r}: no line says it")
        elif key in seen:
            s.dropped.append(f"{phrase!r}: the same item as one kept")
        else:
            seen.add(key)
            kept.append(_with_sources(Value(Kind.ENTITY, text=phrase, label=phrase), lines[0], ""))
    return kept


def _mention(line: Any, phrase: str) -> Value:
    return _with_sources(Value(Kind.TEXT, text=date_of(line.text), label=line.text), line, "")


# -- choosing -------------------------------------------------------------------------------


def _date_key(s: _Step, value: Value) -> str:
    if not value.text or not value.text[:4].isdigit():
        raise s.die(Death.NO_DATE, f"{value.label or 'an item'} states no date")
    return value.text


def _said(s: _Step, item: Value) -> Value:
    """What of a chosen item is the answer: its value, its date, its row or its column."""
    say = s.literal("say", "value")
    if say == "year":
        year = _date_key(s, item)[:4]
        return Value(Kind.DATE, text=year, sources=item.sources, label=item.label)
    if say == "date":
        return Value(Kind.DATE, text=_date_key(s, item), sources=item.sources, label=item.label)
    if say in ("row", "column"):
        source = item.sources[0] if item.sources else None
        text = (source.column if say == "column" else item.label.split(",")[0]) if source else ""
        if not text:
            raise s.die(Death.BAD_ARGUMENT, f"{item.label} has no {say} to say")
        return Value(Kind.ENTITY, text=text, sources=item.sources, label=item.label)
    return item


def _latest(s: _Step) -> Value:
    return _said(s, _dated(s, latest=True))


def _first(s: _Step) -> Value:
    return _said(s, _dated(s, latest=False))


def _dated(s: _Step, *, latest: bool) -> Value:
    """The item of the latest (or first) date; two items of that date are no answer."""
    items = s.items()
    keys = [_date_key(s, v) for v in items]
    chosen = max(keys) if latest else min(keys)
    at = [v for v, k in zip(items, keys, strict=True) if k == chosen]
    if len({(v.number, v.text) for v in at}) > 1:
        raise s.die(Death.AMBIGUOUS, f"{len(at)} items are dated {chosen}")
    return at[0]


def _extreme(largest: bool) -> Callable[[_Step], Value]:
    def choose(s: _Step) -> Value:
        items = s.items()
        numbers, _ = s.numbers(items)
        pick = max if largest else min
        best = pick(range(len(items)), key=lambda i: (numbers[i], -i if largest else i))
        return _said(s, items[best])

    return choose


def _compare(s: _Step) -> Value:
    items = s.items()
    if len(items) < 2:
        raise s.die(Death.BAD_ARGUMENT, "compare needs two values or more")
    return _extreme(bool(s.literal("largest", True)))(s)


def _order(s: _Step) -> Value:
    items = s.items()
    descending = bool(s.literal("descending", False))
    if s.literal("by", "value") == "date":
        keyed = sorted(items, key=lambda v: _date_key(s, v), reverse=descending)
    else:
        numbers, _ = s.numbers(items)
        order = sorted(range(len(items)), key=lambda i: numbers[i], reverse=descending)
        keyed = [items[i] for i in order]
    return Value(Kind.LIST, items=tuple(keyed), label="ordered")


def _filter(s: _Step) -> Value:
    items = s.items()
    kept = list(items)
    for key, keep in (("before", lambda d, c: d < c), ("after", lambda d, c: d > c)):
        cutoff = s.literal(key)
        if cutoff is not None:
            kept = [v for v in kept if keep(_date_key(s, v)[: len(str(cutoff))], str(cutoff))]
    for key, keep in (("above", lambda n, c: n > c), ("below", lambda n, c: n < c)):
        bound = s.literal(key)
        if bound is not None:
            limit = bound if isinstance(bound, int | float) else read_number(str(bound))
            if limit is None:
                raise s.die(Death.BAD_ARGUMENT, f"{key} {bound!r} is not a number")
            numbers, _ = s.numbers(kept) if kept else ([], None)
            kept = [v for v, n in zip(kept, numbers, strict=True) if keep(n, limit)]
    return _listed(s, kept, "filtered")


# -- arithmetic -----------------------------------------------------------------------------


def _count(s: _Step) -> Value:
    items = s.items(may_be_empty=True)
    distinct = {(v.text.casefold(), v.label.casefold(), v.number) for v in items}
    return Value(Kind.COUNT, float(len(distinct)))


def _distinct_cells(s: _Step, values: list[Value]) -> list[Value]:
    """Adding or averaging one cell twice is an anchoring slip, never a computation."""
    seen: set[tuple[str, int, str]] = set()
    for value in values:
        for source in value.sources:
            key = (source.line.document, source.line.position, source.column)
            if key in seen:
                raise s.die(Death.REPEATED, f"{value.label} is taken twice")
            seen.add(key)
    return values


def _sum(s: _Step) -> Value:
    numbers, like = s.numbers(_distinct_cells(s, s.items()))
    return _result(like, sum(numbers))


def _average(s: _Step) -> Value:
    numbers, like = s.numbers(_distinct_cells(s, s.items()))
    return _result(like, sum(numbers) / len(numbers))


def _difference(s: _Step) -> Value:
    (a, b), like = s.numbers([s.ref("of"), s.ref("minus")])
    return _result(like, a - b)


def _ratio(s: _Step) -> Value:
    (a, b), _ = s.numbers([s.ref("of"), s.ref("to")])
    if b == 0:
        raise s.die(Death.UNDEFINED, "the ratio's denominator is zero")
    if s.literal("percent", False):
        return Value(Kind.PERCENT, a / b * 100)
    return Value(Kind.NUMBER, a / b)


def _percent_change(s: _Step) -> Value:
    (old, new), _ = s.numbers([s.ref("from"), s.ref("to")])
    if old == 0:
        raise s.die(Death.UNDEFINED, "a change from zero has no percentage")
    return Value(Kind.PERCENT, (new - old) / old * 100)


def _days_between(s: _Step) -> Value:
    days: list[date] = []
    for key in ("from", "to"):
        text = _date_key(s, s.ref(key))
        try:
            days.append(date.fromisoformat(text[:10]))
        except ValueError:
            raise s.die(
                Death.NO_DATE, f"{text!r} is not a whole date (year, month and day)"
            ) from None
    return Value(Kind.DURATION, float(abs((days[1] - days[0]).days)))


def _tally_by_month(s: _Step) -> Value:
    months: dict[str, int] = {}
    for item in s.items():
        key = _date_key(s, item)
        if len(key) < 7:
            raise s.die(Death.NO_DATE, f"{item.label} states a year but no month")
        months[key[:7]] = months.get(key[:7], 0) + 1
    tallies = tuple(Value(Kind.COUNT, float(n), text=m, label=m) for m, n in sorted(months.items()))
    return Value(Kind.LIST, items=tallies, label="by month")


_OPS: dict[str, Callable[[_Step], Value]] = {
    "anchor": _anchor,
    "gather": _gather,
    "latest": _latest,
    "first": _first,
    "order": _order,
    "filter": _filter,
    "count": _count,
    "sum": _sum,
    "difference": _difference,
    "ratio": _ratio,
    "percent_change": _percent_change,
    "average": _average,
    "min": _extreme(False),
    "max": _extreme(True),
    "compare": _compare,
    "days_between": _days_between,
    "tally_by_month": _tally_by_month,
}
assert set(_OPS) == OPERATIONS
