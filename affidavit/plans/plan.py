"""The plan language: a short list of typed steps an engine proposes and the library runs.
Parsing checks the form only; what the steps mean is the interpreter's to judge."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from affidavit.errors import EngineError

# The primitives the interpreter knows. A plan naming anything else dies.
OPERATIONS = frozenset(
    {
        "anchor",
        "gather",
        "latest",
        "first",
        "order",
        "filter",
        "count",
        "sum",
        "difference",
        "ratio",
        "percent_change",
        "average",
        "min",
        "max",
        "compare",
        "days_between",
        "tally_by_month",
    }
)
# A step's arguments are of three sorts, fixed per argument name. References to earlier
# results (``now`` names the asking day when the question has one): ``column_of`` is an
# anchor whose cell must stand in the same column as an earlier result's cell; ``stated`` a
# percentage change as a cell states it (the answer when the change computed agrees with
# it).
REFERENCE_ARGS = frozenset({"of", "minus", "to", "from", "column_of", "stated"})
# Phrases the store must anchor. ``named`` is what an anchored event is answered as
# ("Susie" of "Jolene adopt Susie", which its line must write); ``cells`` the cells whose
# row label and column name the phrase both writes, in the order it names them
# (plans/named.py). ``items`` is a list of phrases, each checked against the store.
PHRASE_ARGS = frozenset({"phrase", "row", "column", "named", "cells"})
# Literals.
LITERAL_ARGS = frozenset(
    {
        "before",  # a date cutoff
        "after",
        "above",  # a bound
        "below",
        "descending",
        "by",
        "largest",
        # what of a chosen item is the answer: its value, year, date, row or column
        "say",
        # an anchor read as a number, a mention, or "percent": a cell that is a percentage
        "as",
        "percent",  # a ratio said as a percentage
        # true by default: a cell's row, its section and its table's header must write half
        # the row phrase; false loosens it
        "tight",
        # a sentence anchor that dies when a table names its row: the cells, not a
        # sentence, give that figure
        "unless_tabled",
        # a date anchor read only from dialogue turns, a relative "yesterday" against the
        # day the turn was said; a gather of every turn telling an event, each as its time
        "told",
        "once",  # a count of events, tellings whose times overlap counted once
        # a ratio of the figures' sizes: a share of a roll-forward's "(365,223)" vested is
        # a share of 365,223; a difference of the larger less the smaller
        "magnitude",
        # a ``cells`` anchor: the nth, from 0, of exactly ``among`` cells the phrase names;
        # with ``by`` "date", counted from the earliest when every one is dated
        "among",
        "nth",
        # a gathered row's cells under columns that name a date only, not its "Change" or
        # "%" columns
        "dated",
    }
)


@dataclass(frozen=True, slots=True)
class Step:
    op: str
    args: Mapping[str, Any]
    out: str

    def references(self) -> list[str]:
        """The earlier results this step reads, in argument order."""
        names: list[str] = []
        for key in sorted(self.args):
            if key in REFERENCE_ARGS:
                given = self.args[key]
                names.extend(given if isinstance(given, list) else [given])
        return names

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "args": dict(self.args), "out": self.out}


@dataclass(frozen=True, slots=True)
class Plan:
    """A plan as JSON: ``{"steps": [{"op": "anchor", "args": {"row": "Other", "column":
    "2019"}, "out": "a"}, ...]}``. Each step names one operation, its arguments, and the
    name its result is kept under; the last step's result is the answer."""

    steps: tuple[Step, ...]
    note: str = ""  # why the engine proposed it (audit only; never said)
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"steps": [s.to_dict() for s in self.steps], "note": self.note}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data: Any) -> Plan:
        """A plan from its JSON form; EngineError names what is malformed."""
        if not isinstance(data, Mapping) or not isinstance(data.get("steps"), list):
            raise _malformed("plan", "is not an object with a list of steps")
        steps = [_step(i, raw) for i, raw in enumerate(data["steps"])]
        if not steps:
            raise _malformed("plan", "has no steps")
        note = data.get("note", "")
        return cls(tuple(steps), note if isinstance(note, str) else "")

    @classmethod
    def from_json(cls, text: str) -> Plan:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise _malformed("plan", f"is not JSON ({error.msg})") from None
        return cls.from_dict(data)


_FORM = '{"steps": [{"op": ..., "args": {...}, "out": "name"}, ...]}'


def _malformed(where: str, problem: str) -> EngineError:
    return EngineError(f"the proposed {where} {problem}; a plan is written {_FORM}")


def _step(number: int, raw: Any) -> Step:
    where = f"plan step {number + 1}"
    if not isinstance(raw, Mapping):
        raise _malformed(where, "is not an object")
    op, args, out = raw.get("op"), raw.get("args", {}), raw.get("out")
    if not isinstance(op, str) or not op:
        raise _malformed(where, "names no operation")
    if not isinstance(args, Mapping):
        raise _malformed(where, "has arguments that are not an object")
    if not isinstance(out, str) or not out:
        raise _malformed(where, "names no result")
    for key, given in args.items():
        if key in REFERENCE_ARGS:
            names = given if isinstance(given, list) else [given]
            if not names or not all(isinstance(n, str) and n for n in names):
                raise _malformed(where, f"argument {key!r} must name earlier results")
        elif key in PHRASE_ARGS and not isinstance(given, str):
            raise _malformed(where, f"argument {key!r} must be a phrase")
        elif key == "items" and not (
            isinstance(given, list) and all(isinstance(p, str) for p in given)
        ):
            raise _malformed(where, "argument 'items' must be a list of phrases")
    return Step(op, dict(args), out)
