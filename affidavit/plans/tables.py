"""A table as the plans read it: a run of stored rows cut into its header and body, its
sections, its captions, and each cell read as a typed value."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from affidavit.plans.values import Kind, Source, Value, read_cell
from affidavit.results import Evidence, LineKind
from affidavit.text import (
    COLUMN_YEAR,
    TWO_YEARS_COMPARED,
    column_date,
    holds_a_word,
    is_year_alone,
    read_number,
)

_IN_SCALE = re.compile(r"\bin (?:thousands|millions|billions)\b", re.I)
# A line that speaks of "the table" states its units wherever it stands ("The table below
# presents net sales (in millions)").
_TABLE_WORD = re.compile(r"\b(?:table|tabla|tablo)", re.I)
# A caption may stand a few lines above or below its table ("(in millions)").
CAPTION_REACH = 3
# What a row with no label is called when its figures are the sums of the rows above.
TOTAL = "Total"
_DASH = re.compile(r"^\s*[-‐–—]\s*$")
_TOTAL_LABEL = re.compile(r"^\s*(?:total|subtotal|sub-total)\b", re.I)
_DECIMALS = re.compile(r"\.(\d+)")


@dataclass(frozen=True, slots=True)
class Table:
    document: str
    header: tuple[Evidence, ...]
    rows: tuple[Evidence, ...]
    context: str  # the header's text: where units and scales are stated first
    sections: Mapping[int, str]  # a row's position -> the label of the section it is in
    captions: str = ""  # text about the table ("in millions"): read when the header is silent
    totals: frozenset[int] = frozenset()  # rows without a label that sum the rows above
    # A total's row position -> the rows above it that its figures sum (a row with no
    # label, or one labelled "Total", "Subtotal"), read once for the table.
    sums: Mapping[int, tuple[Evidence, ...]] = field(default_factory=dict)
    # Columns that compare two years ("Change 2019 and 2018"): no year's own figure.
    comparisons: frozenset[str] = frozenset()

    def read(self, written: str, column: str, label: str = "") -> Value | None:
        """A cell as a typed value: its unit and scale from the cell, else its column, its
        row's label and the header, else the captions."""
        value = read_cell(written, f"{column} {label} {self.context}", names=f"{column} {label}")
        if value is None or value.kind != Kind.AMOUNT or (value.scale and value.unit):
            return value
        told = read_cell(written, self.captions)
        if told is None or told.kind != Kind.AMOUNT:
            return value
        return Value(value.kind, value.number, value.unit or told.unit, value.scale or told.scale)

    def period(self) -> frozenset[str]:
        """The year a table without year columns speaks of: the latest its header or its
        row labels write ("Non-vested at December 31, 2019" closes a roll-forward of
        2019); empty when they write none."""
        written = [self.context, *(self.label(row) for row in self.rows)]
        years = {year for text in written for year in COLUMN_YEAR.findall(text)}
        return frozenset({max(years)}) if years else frozenset()

    def compares_other_years(self, column: str, asked: Collection[str]) -> bool:
        """Whether the column compares two years ("2018 and 2017") that the years asked do
        not both name: the change between them is no figure of 2017's own."""
        return column in self.comparisons and not set(COLUMN_YEAR.findall(column)) <= set(asked)

    def cell(self, row: Evidence, column: str) -> Value | None:
        """The row's cell in the column as a typed value, with its source and its label
        ("Total sales, 2019"); None where the cell is empty or states no value."""
        assert row.cells is not None
        written = row.cells.get(column, "")
        if not written:
            return None
        label = self.label(row)
        # A dash among a row's figures is nil, as reports write it ("Deferred compensation
        # | — | 3,810"): zero, quoted as the dash the cell writes.
        nil = _DASH.match(written) and any(
            read_number(v) is not None for c, v in row.cells.items() if c != column
        )
        value = self.read("0" if nil else written, column, label)
        return _sourced(value, row, column, written, label) if value is not None else None

    def label(self, row: Evidence) -> str:
        """The row's first cell: what the row is about; "Total" for a row with no label
        whose every figure is the sum of the rows above it."""
        assert row.cells is not None
        if row.position in self.totals:
            return TOTAL
        return next(iter(row.cells.values()), "") if first_is_label(row) else ""

    def value_columns(self, row: Evidence) -> list[str]:
        """The row's columns that hold its figures: all but its label's (a row with no
        label, a total's "|  | $12,455 |", keeps no cell for the label column)."""
        assert row.cells is not None
        return list(row.cells)[1:] if first_is_label(row) else list(row.cells)

    def columns(self) -> list[str]:
        """Column names in order of first appearance, the label column left out."""
        names: list[str] = []
        for row in self.rows:
            assert row.cells is not None
            for i, name in enumerate(row.cells):
                if (i > 0 or not first_is_label(row)) and name not in names:
                    names.append(name)
        return names


def first_is_label(row: Evidence) -> bool:
    """A row's first cell names it when it writes a word ("Service delivery costs(1)",
    footnote mark and all); a first cell of figures is a value of an unnamed row."""
    assert row.cells is not None
    first = next(iter(row.cells.values()), "")
    return holds_a_word(first)


def _sourced(value: Value, row: Evidence, column: str, written: str, label: str) -> Value:
    name = f"{label}, {column}" if label else column
    return Value(
        value.kind,
        value.number,
        value.unit,
        value.scale,
        text=column_date(column),
        sources=(Source(row, column, written),),
        label=name,
    )


def tables_of(lines: Sequence[Evidence]) -> list[Table]:
    tables: list[Table] = []
    run: list[Evidence] = []
    for line in [*lines, None]:
        if line is not None and line.kind == LineKind.ROW and (not run or _follows(line, run[-1])):
            run.append(line)
            continue
        if run:
            tables.append(_table(run, lines))
        run = [line] if line is not None and line.kind == LineKind.ROW else []
    return tables


def _follows(line: Evidence, previous: Evidence) -> bool:
    return line.document == previous.document and line.position == previous.position + 1


def _table(run: list[Evidence], lines: Sequence[Evidence]) -> Table:
    """The rows without named cells at the top of a run are its header, the rows with cells
    its body; a line or two of text around it (and the header) state the unit and scale its
    cells leave out ("in millions")."""
    header = tuple(e for e in run if e.cells is None)
    rows = tuple(e for e in run if e.cells is not None)
    first, last = run[0].position, run[-1].position
    near = range(first - CAPTION_REACH, last + CAPTION_REACH + 1)
    captions = [
        e.text
        for e in lines
        if e.document == run[0].document
        and e.kind != LineKind.ROW
        and (e.position in near or _TABLE_WORD.search(e.text) or _IN_SCALE.search(e.text))
    ]
    # The header, and body rows that state no number ("| | (in millions) | |").
    wordy = [
        r.text for r in rows if r.cells and all(read_number(v) is None for v in r.cells.values())
    ]
    context = " ".join([*(h.text for h in header), *wordy])
    # A row with a label and no values heads the rows below it ("Assets", "Deferred:"),
    # and so does a year alone ("2019:" above that year's quarters).
    sections: dict[int, str] = {}
    section = ""
    for row in rows:
        assert row.cells is not None
        if len(row.cells) == 1 and (first_is_label(row) or is_year_alone(row.text)):
            section = next(iter(row.cells.values()))
        elif section:
            sections[row.position] = section
    sums = {
        r.position: tuple(parts)
        for i, r in enumerate(rows)
        if (not first_is_label(r) or _TOTAL_LABEL.match(_first_cell(r)))
        and (parts := _summed_rows(r, rows[:i]))
    }
    # A row with no label that closes the labelled rows above it is their total: a
    # report's "|  | $12,455 | $18,418 |" under its charges, though it says no word.
    totals = frozenset(r.position for r in rows if r.position in sums and not first_is_label(r))
    return Table(
        run[0].document,
        header,
        rows,
        context,
        sections,
        " ".join(captions),
        totals,
        sums,
        _comparisons(rows),
    )


def _comparisons(rows: Sequence[Evidence]) -> frozenset[str]:
    """The columns whose names compare two years. A pair every column writes belongs to a
    header spanning them all ("Years ended December 31, 2019 and 2018"), not to one."""
    names = {name for row in rows for name in list(row.cells or {})[1:]}
    pairs = {name: TWO_YEARS_COMPARED.search(name) for name in names}
    written = {m.group(0).lower() for m in pairs.values() if m}
    if len(written) == 1 and all(pairs.values()):
        return frozenset()
    return frozenset(name for name, m in pairs.items() if m)


def _first_cell(row: Evidence) -> str:
    return next(iter((row.cells or {}).values()), "")


def _summed_rows(row: Evidence, above: Sequence[Evidence]) -> list[Evidence]:
    """The labelled rows above that the row's figures sum: each figure is their sum in its
    column (to the last digit it writes), over two rows or more since the table's start, a
    heading or an earlier total; none when the figures are not their sum."""
    assert row.cells is not None
    if len(row.cells) < 2:
        return []
    parts: list[Evidence] = []
    for earlier in reversed(above):
        assert earlier.cells is not None
        if (
            len(earlier.cells) < 2
            or not first_is_label(earlier)
            or _TOTAL_LABEL.match(_first_cell(earlier))
        ):
            break
        parts.append(earlier)
    if len(parts) < 2:
        return []
    checked = 0
    figures = list(row.cells.items())[1:] if first_is_label(row) else row.cells.items()
    for column, written in figures:
        total = read_number(written)
        if total is None:
            if written.strip():
                return []  # a word or a dash where a sum should stand
            continue
        summed = sum(read_number((p.cells or {}).get(column, "")) or 0.0 for p in parts)
        places = max((len(d) for d in _DECIMALS.findall(written)), default=0)
        if abs(summed - total) > 10.0**-places + 1e-9:
            return []
        checked += 1
    return parts[::-1] if checked else []
