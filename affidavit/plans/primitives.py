"""The primitives a plan is made of: anchoring, gathering, choosing and arithmetic. Each
takes the running step and returns a typed value, or kills the plan with a Death."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from affidavit.plans.gathering import gather
from affidavit.plans.named import named_cells
from affidavit.plans.plan import OPERATIONS
from affidavit.plans.step import (
    Death,
    Running,
    checked,
    date_key,
    is_dated,
    listed,
    result_like,
    said,
    with_sources,
)
from affidavit.plans.telling_turns import day_told, turns_telling
from affidavit.plans.values import POINTS, Kind, Value, read_cell
from affidavit.results import Evidence
from affidavit.text import (
    YEAR_WORD,
    days_named,
    figures,
    fold,
    numbers_in,
    read_number,
    rounded,
    written_for,
)


def _anchor(s: Running) -> Value:
    """One cell or line the phrase names, read through the ground; the input passes the
    gate on its own line (``checked``)."""
    if "cells" in s.step.args:
        return checked(s, _one_named(s))
    if "row" in s.step.args or "column" in s.step.args:
        # Without a column, the row must hold one value (a table of one value column).
        row = s.phrase("row")
        column = s.phrase("column") if "column" in s.step.args else ""
        found = s.ground.cells(row, column, tight=bool(s.literal("tight", True)))
        if s.literal("as") == "percent":  # "% Change", not the "$ Change" beside it
            found = [(rank, v) for rank, v in found if v.kind == Kind.PERCENT]
        if s.literal("as") == "compared":  # "2019 and 2018": a column comparing two years
            compared = {c for table in s.ground.tables for c in table.comparisons}
            found = [(rank, v) for rank, v in found if v.sources[0].column in compared]
        if "column_of" in s.step.args:
            # The cell in the same column as an earlier one: "X due in less than one year
            # as a percentage of the total" reads the total in that column too.
            column = _column_of(s, s.ref("column_of"))
            found = [(rank, v) for rank, v in found if v.sources[0].column == column]
        if not found:
            raise s.die(Death.UNANCHORED, f"no cell stands in a row {row!r} and column {column!r}")
        best_rank, best = found[0]
        rivals = [v for rank, v in found[1:] if rank == best_rank and v.number != best.number]
        if rivals:
            raise s.die(
                Death.AMBIGUOUS,
                f"{row!r} × {column!r} is both {best.label} and {rivals[0].label}",
            )
        return checked(s, best)
    phrase = s.phrase("phrase")
    if s.literal("unless_tabled", False) and s.ground.names_a_row(
        YEAR_WORD.sub("", phrase), tight=True
    ):
        raise s.die(
            Death.AMBIGUOUS, f"a table names the row of {phrase!r}: its cells give the figure"
        )
    told = s.literal("as") == "date" and bool(s.literal("told", False))
    if told:
        lines = turns_telling(phrase, s.ground.lines, s.ground.analyzer, s.ground.rarity)
    else:
        lines = s.ground.statements(phrase)
    if not lines:
        raise s.die(Death.UNANCHORED, f"no line says {phrase!r}")
    if s.literal("as") == "date":
        for line in lines:
            if told and line.date is None:
                continue  # only a turn said on a day tells when its event was
            day, words = day_told(line, phrase, stamp=told)
            if day:
                label = _named(s, line, phrase)
                event = Value(Kind.DATE, text=day, label=label)
                return checked(s, with_sources(event, line, words, label=label))
        raise s.die(Death.NO_DATE, f"no line that says {phrase!r} writes a date")
    if s.literal("as") == "mention":
        mention = Value(Kind.ENTITY, text=phrase, label=phrase)
        return checked(s, with_sources(mention, lines[0], phrase))
    said = set(numbers_in(phrase))
    asked = frozenset(YEAR_WORD.findall(phrase))
    for line in lines:
        # A figure the line writes for another year than the phrase's is not a rival:
        # "£59.1m (2018: £56.5m)" states one figure for 2019.
        stated = [
            line.text[f.start : f.end].strip()
            for f in figures(line.text)
            if written_for(f.years, asked)
            and not set(numbers_in(line.text[f.start : f.end])) <= said
        ]
        if len(stated) > 1:
            stated = _bound_to(phrase, line.text, stated)
        if len(stated) == 1:
            value = read_cell(stated[0], line.text)
            if value is not None and (s.literal("as") != "percent" or value.kind == Kind.PERCENT):
                return checked(s, with_sources(value, line, stated[0], label=phrase))
    raise s.die(Death.AMBIGUOUS, f"no line says {phrase!r} with exactly one number")


# At most this many words may stand between a phrase and the figure it is bound to ("the
# maximum fine is $1,000", "the fee, payable on application, is $120").
_BINDING_WORDS = 4
_ARTICLES = frozenset({"the", "a", "an"})


def _bound_to(phrase: str, line: str, stated: list[str]) -> list[str]:
    """Of the figures ``stated`` in ``line``, the one the line binds to ``phrase``: the
    first after the phrase's only mention, a few words on ("The minimum fine is $250 and
    the maximum fine is $1,000": the maximum fine's is $1,000). All of them when the
    line does not bind one so."""
    words = phrase.split()
    if words and fold(words[0]) in _ARTICLES:
        words = words[1:]
    mentions = list(re.finditer(re.escape(" ".join(words)), line, re.IGNORECASE)) if words else []
    if len(mentions) != 1:
        return stated
    after = mentions[0].end()
    placed = sorted((at, f) for f in stated if (at := line.find(f, after)) >= 0)
    if placed and len(line[after : placed[0][0]].split()) <= _BINDING_WORDS:
        return [placed[0][1]]
    return stated


def _one_named(s: Running) -> Value:
    """The nth of the cells the phrase names, when it names exactly ``among`` of them."""
    among, nth = s.literal("among", 1), s.literal("nth", 0)
    if not (isinstance(among, int) and isinstance(nth, int) and 0 <= nth < among):
        raise s.die(Death.BAD_ARGUMENT, "a cells anchor needs 0 <= nth < among")
    cells = named_cells(s.ground, s.phrase("cells"))
    if len(cells) != among:
        death = Death.UNANCHORED if not cells else Death.AMBIGUOUS
        raise s.die(death, f"{len(cells)} cells are named by {s.step.args['cells']!r}, not {among}")
    if s.literal("by") == "date" and all(is_dated(c) for c in cells):
        if len({(c.text, c.label) for c in cells}) < len(cells):
            # One row name in one period twice ("Rate of compensation increase, 2019" in
            # two sections) is no run over time: no date says which comes first.
            raise s.die(Death.AMBIGUOUS, f"the cells named are all {cells[0].label}")
        # The earlier first, whatever order the phrase names them in (a stable sort).
        cells = sorted(cells, key=lambda c: c.text)
    return cells[nth]


def _column_of(s: Running, earlier: Value) -> str:
    columns = {source.column for source in earlier.sources}
    if len(columns) != 1 or "" in columns:
        raise s.die(Death.UNANCHORED, "the value named by 'column_of' stands in no one column")
    return columns.pop()


def _named(s: Running, line: Evidence, phrase: str) -> str:
    """What an anchored event is answered as: its ``named`` part when the plan gives one
    (its line must write it), else the phrase it was found by."""
    if "named" not in s.step.args:
        return phrase
    named = s.phrase("named")
    if not s.ground.terms(named) <= s.ground.terms(line.text):
        raise s.die(Death.UNANCHORED, f"the line telling {phrase!r} does not write {named!r}")
    return named


def _latest(s: Running) -> Value:
    return said(s, _dated(s, latest=True))


def _first(s: Running) -> Value:
    return said(s, _dated(s, latest=False))


def _dated(s: Running, *, latest: bool) -> Value:
    """The item of the latest (or first) date; two items of that date are no answer."""
    items = s.items()
    keys = [date_key(s, v) for v in items]
    chosen = max(keys) if latest else min(keys)
    at = [v for v, k in zip(items, keys, strict=True) if k == chosen]
    if len({(v.number, v.text) for v in at}) > 1:
        raise s.die(Death.AMBIGUOUS, f"{len(at)} items are dated {chosen}")
    return at[0]


def _extreme(largest: bool) -> Callable[[Running], Value]:
    def choose(s: Running) -> Value:
        items = s.items()
        numbers, _ = s.numbers(items)
        if all(n < 0 for n in numbers):
            # Figures all in brackets are amounts of a loss or a cost: "the greater loss",
            # "the year property and equipment was largest" compare them by size.
            numbers = [-n for n in numbers]
        pick = max if largest else min
        best = pick(range(len(items)), key=lambda i: (numbers[i], -i if largest else i))
        return said(s, items[best])

    return choose


def _compare(s: Running) -> Value:
    items = s.items()
    if len(items) < 2:
        raise s.die(Death.BAD_ARGUMENT, "compare needs two values or more")
    return _extreme(bool(s.literal("largest", True)))(s)


def _order(s: Running) -> Value:
    items = s.items()
    descending = bool(s.literal("descending", False))
    if s.literal("by", "value") == "date":
        keyed = sorted(items, key=lambda v: date_key(s, v), reverse=descending)
    else:
        numbers, _ = s.numbers(items)
        order = sorted(range(len(items)), key=lambda i: numbers[i], reverse=descending)
        keyed = [items[i] for i in order]
    return Value(Kind.LIST, items=tuple(keyed), label="ordered")


def _filter(s: Running) -> Value:
    items = s.items()
    kept = list(items)
    for key, keep in (("before", lambda d, c: d < c), ("after", lambda d, c: d > c)):
        cutoff = s.literal(key)
        if cutoff is not None:
            kept = [v for v in kept if keep(date_key(s, v)[: len(str(cutoff))], str(cutoff))]
    for key, keep in (("above", lambda n, c: n > c), ("below", lambda n, c: n < c)):
        bound = s.literal(key)
        if bound is not None:
            limit = bound if isinstance(bound, int | float) else read_number(str(bound))
            if limit is None:
                raise s.die(Death.BAD_ARGUMENT, f"{key} {bound!r} is not a number")
            numbers, _ = s.numbers(kept) if kept else ([], None)
            kept = [v for v, n in zip(kept, numbers, strict=True) if keep(n, limit)]
    return listed(s, kept, "filtered")


def _count(s: Running) -> Value:
    items = s.items(may_be_empty=True)
    if s.literal("once", False):
        return Value(Kind.COUNT, float(_events(s, items)))
    distinct = {(fold(v.text), fold(v.label), v.number) for v in items}
    return Value(Kind.COUNT, float(len(distinct)))


def _events(s: Running, items: list[Value]) -> int:
    """How many events the tellings are, one told twice counted once: tellings whose
    times overlap ("yesterday" said on 8 May, "in May" said in June) are one event."""
    spans = []
    for item in items:
        named = days_named(item.text)
        if named is None:
            raise s.die(Death.NO_DATE, f"{item.label} is told at no time that can be placed")
        spans.append(named)
    events, last_end = 0, None
    for first, last in sorted(spans):
        if last_end is None or first > last_end:
            events += 1
            last_end = last
        else:
            last_end = max(last_end, last)
    return events


def _distinct_cells(s: Running, values: list[Value]) -> list[Value]:
    """Computing with one cell twice (adding it to itself, a change from it to itself) is
    an anchoring slip, never a computation."""
    seen: set[tuple[str, int, str]] = set()
    for value in values:
        for source in value.sources:
            # A sentence may write two years' figures ("$5.2m and $4.1m in 2019 and
            # 2018, respectively"): the same line, two inputs.
            written = "" if source.column else source.written
            key = (source.line.document, source.line.position, source.column or written)
            if key in seen:
                raise s.die(Death.REPEATED, f"{value.label} is taken twice")
            seen.add(key)
    return values


def _sum(s: Running) -> Value:
    numbers, like = s.numbers(_distinct_cells(s, s.items()))
    return result_like(like, sum(numbers))


def _average(s: Running) -> Value:
    numbers, like = s.numbers(_distinct_cells(s, s.items()))
    return result_like(like, sum(numbers) / len(numbers))


def _difference(s: Running) -> Value:
    (a, b), like = s.numbers(_distinct_cells(s, [s.ref("of"), s.ref("minus")]))
    if s.literal("magnitude", False):
        a, b = max(a, b), min(a, b)  # how far apart they stand, whichever is larger
    if like.kind == Kind.PERCENT:
        return Value(Kind.PERCENT, a - b, unit=POINTS)  # two rates differ in points
    return result_like(like, a - b)


def _ratio(s: Running) -> Value:
    (a, b), _ = s.numbers(_distinct_cells(s, [s.ref("of"), s.ref("to")]))
    if s.literal("magnitude", False):
        a, b = abs(a), abs(b)
    if b == 0:
        raise s.die(Death.UNDEFINED, "the ratio's denominator is zero")
    if s.literal("percent", False):
        return Value(Kind.PERCENT, a / b * 100)
    return Value(Kind.NUMBER, a / b)


def _percent_change(s: Running) -> Value:
    (old, new), like = s.numbers(_distinct_cells(s, [s.ref("from"), s.ref("to")]))
    if like.kind == Kind.PERCENT:
        # A rate's percentage change is its change in points (a discount rate from 2.2% to
        # 1.7% moved -0.5 points): a percentage of a percentage would read as the rate.
        return Value(Kind.PERCENT, new - old, unit=POINTS)
    if old == 0:
        raise s.die(Death.UNDEFINED, "a change from zero has no percentage")
    change = Value(Kind.PERCENT, (new - old) / old * 100)
    return _as_stated(s, change) if "stated" in s.step.args else change


def _as_stated(s: Running, computed: Value) -> Value:
    """The change as the table states it ("27 %" in its "% Change" column), when the
    figures it is computed from give that change to the digits the table writes; a stated
    figure that the figures do not give (another pair of years, another row) kills the
    plan."""
    stated = s.ref("stated")
    if stated.kind != Kind.PERCENT or stated.number is None or stated.unit:
        raise s.die(Death.UNIT_MISMATCH, f"{stated.label or stated.kind} is not a percentage")
    written = stated.sources[0].written if stated.sources else ""
    digits = re.search(r"[.,](\d+)\s*%?\s*\)?\s*$", written)
    places = len(digits.group(1)) if digits else 0
    assert computed.number is not None
    # At the precision it is written, as verify judges a claimed change (answer/recompute.py).
    if rounded(computed.number, places) != rounded(stated.number, places):
        raise s.die(
            Death.DISAGREES,
            f"{stated.label} states {written.strip()!r}, the figures give {computed.number:.2f}%",
        )
    return stated


def _days_between(s: Running) -> Value:
    days: list[date] = []
    for key in ("from", "to"):
        text = date_key(s, s.ref(key))
        if "/" in text:
            raise s.die(Death.NO_DATE, f"{text!r} is a span of days, not one day")
        try:
            days.append(date.fromisoformat(text[:10]))
        except ValueError:
            raise s.die(
                Death.NO_DATE, f"{text!r} is not a whole date (year, month and day)"
            ) from None
    return Value(Kind.DURATION, float(abs((days[1] - days[0]).days)))


def _tally_by_month(s: Running) -> Value:
    months: dict[str, int] = {}
    for item in s.items():
        key = date_key(s, item)
        if len(key) < 7:
            raise s.die(Death.NO_DATE, f"{item.label} states a year but no month")
        months[key[:7]] = months.get(key[:7], 0) + 1
    tallies = tuple(Value(Kind.COUNT, float(n), text=m, label=m) for m, n in sorted(months.items()))
    return Value(Kind.LIST, items=tallies, label="by month")


OPS: dict[str, Callable[[Running], Value]] = {
    "anchor": _anchor,
    "gather": gather,
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

assert set(OPS) == OPERATIONS
