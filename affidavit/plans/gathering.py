"""The gather primitive: every cell of a row or column, the rows under a section, the
cells a phrase names, the years a table's columns name, the turns that tell an event, or
an engine's list checked item by item; each item is gated against its own line.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from affidavit.plans.named import named_cells
from affidavit.plans.step import Death, Running, checked, is_dated, listed, with_sources
from affidavit.plans.telling_turns import day_told, turns_telling
from affidavit.plans.values import Kind, Source, Value
from affidavit.text import column_date


def gather(s: Running) -> Value:
    args = s.step.args
    if "row" in args:
        rows = s.ground.row(s.phrase("row"))
        if not rows:
            raise s.die(Death.UNANCHORED, f"no row is labelled {args['row']!r}")
        if len(rows) > 1 and rows[1][0] == rows[0][0]:
            raise s.die(Death.AMBIGUOUS, f"more than one row is labelled {args['row']!r}")
        items = rows[0][1]
        if s.literal("dated", False):  # a row's years: not its "Change" or "%" columns
            items = _one_a_period(s, [v for v in items if is_dated(v)])
    elif "column" in args:
        columns = s.ground.column(s.phrase("column"), parts=bool(s.literal("parts", False)))
        if len(columns) != 1:
            raise s.die(
                Death.UNANCHORED if not columns else Death.AMBIGUOUS,
                f"{len(columns)} tables have a column {args['column']!r}",
            )
        items = columns[0]
    elif "cells" in args:
        items = named_cells(s.ground, s.phrase("cells"))
        if len(items) < 2:  # one cell is an anchor's; a list names several
            raise s.die(Death.UNANCHORED, f"{len(items)} cells are named by {args['cells']!r}")
    elif "items" in args:
        items = _verified_items(s)
    elif "section" in args:
        items = s.ground.section(s.phrase("section"))
        if not items:
            raise s.die(Death.UNANCHORED, f"no rows stand under {args['section']!r}")
    elif "columns" in args:
        items = _column_years(s)
    elif "of" in args:
        items = s.items()  # earlier results, listed in the order given
    elif s.literal("told", False):
        items = _told_items(s)
    else:
        phrase = s.phrase("phrase")
        lines = s.ground.statements(phrase)
        if not lines:
            raise s.die(Death.UNANCHORED, f"no line says {phrase!r}")
        items = [_mention(line, phrase) for line in lines]
    for item in items:
        if item.sources and item not in s.anchored and "of" not in args:
            checked(s, item)
    return listed(s, items, str(next(iter(args.values()))))


def _one_a_period(s: Running, items: list[Value]) -> list[Value]:
    """A row's figures over its periods, one a period. A year's amount printed beside its
    share ("2019 Amount | 2019 % of total revenues") keeps the amount; a year printed over
    groups of columns ("2019 United States | 2019 Foreign") keeps the group the phrase
    names; a year printed twice in other units ("2019 NT$ | 2019 US$", a convenience
    translation) keeps the row's prevailing unit; two figures of one period left after
    that leave the periods unknown."""
    if _each_once(items):
        return items
    amounts = [v for v in items if v.kind != Kind.PERCENT]
    if amounts and len(amounts) < len(items):
        items = amounts
        if _each_once(items):
            return items
    # The words the phrase adds to the row's own label name the group ("within
    # Appropriation of earnings"); the label's own words name no column.
    wanted = s.ground.terms(s.phrase("row")) - s.ground.terms(_label(items[0]))
    named = [v for v in items if v.sources and s.ground.terms(v.sources[0].column) & wanted]
    if named and _each_once(named):
        return named
    units = Counter(v.unit for v in items).most_common()
    if len(units) > 1 and units[0][1] > units[1][1]:
        items = [v for v in items if v.unit == units[0][0]]
    if not _each_once(items):
        raise s.die(Death.AMBIGUOUS, "the row states more than one figure for a period")
    return items


def _label(value: Value) -> str:
    """The label of the row a cell stands in: the row's first cell ("VAS")."""
    line = value.sources[0].line if value.sources else None
    return next(iter(line.cells.values()), "") if line is not None and line.cells else ""


def _each_once(items: list[Value]) -> bool:
    return all(n == 1 for n in Counter(v.text for v in items).values())


def _told_items(s: Running) -> list[Value]:
    """Each turn that tells the phrase's event, as the time it tells (or its stamp)."""
    phrase = s.phrase("phrase")
    lines = turns_telling(phrase, s.ground.lines, s.ground.analyzer, s.ground.rarity)
    if not lines:
        raise s.die(Death.UNANCHORED, f"no turn tells {phrase!r}")
    items = []
    for line in lines:
        day, words = day_told(line, phrase, stamp=True)
        items.append(with_sources(Value(Kind.DATE, text=day, label=phrase), line, words))
    return items


def _column_years(s: Running) -> list[Value]:
    """The years a table's columns name, in column order, when the ground holds one table
    whose columns name years (two such tables: which one is meant is not known)."""
    dated = []
    for table in s.ground.tables:
        years = list(dict.fromkeys(day[:4] for c in table.columns() if (day := column_date(c))))
        if years:
            dated.append((table, years))
    if len(dated) != 1:
        raise s.die(
            Death.AMBIGUOUS if dated else Death.UNANCHORED, f"{len(dated)} tables name years"
        )
    table, years = dated[0]
    source = table.header[-1] if table.header else table.rows[0]
    return [Value(Kind.DATE, text=y, sources=(Source(source),), label=y) for y in years]


def _verified_items(s: Running) -> list[Value]:
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
            kept.append(with_sources(Value(Kind.ENTITY, text=phrase, label=phrase), lines[0], ""))
    return kept


def _mention(line: Any, phrase: str) -> Value:
    return with_sources(Value(Kind.TEXT, text=column_date(line.text), label=line.text), line, "")
