"""Headers of more than one row: how many of a table's first rows name its columns, and
the names read down them. Pure functions; ``table_rules.py`` re-exports them
(tests/ingest/test_tables.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from affidavit.text import is_month_day_year, looks_like_an_amount

# A cell of a header row: words, a year or a date ("April 27, 2019", "2018 (4)"), a unit
# ("€m", "$'000", "%"), never an amount ("1,452.4", "(9.9)", "$130").
_FOOTNOTE = re.compile(r"\s*\(\d{1,2}\)$")  # "2018 (4)": a year with its footnote mark
_HEADER_ROWS_AT_MOST = 4


def is_header_cell(cell: str) -> bool:
    """Could ``cell`` stand in a header: words, a year, a date, a unit, never an amount?"""
    if is_month_day_year(cell.strip()):
        return True
    return not cell or not looks_like_an_amount(_FOOTNOTE.sub("", cell))


def header_depth(rows: Sequence[Sequence[str]]) -> int:
    """How many of a named table's first rows are its header (at least the first).

    Reports often print a sparse row over the years (``| | Years Ended September 30, | |``)
    or a row of units under them (``| | €m | €m |``). A row below the first joins the
    header while it has a cell past the first column and none of those cells is an amount;
    a row with only its first cell filled is a section label of the body ("Assets"), and so
    is a row with one label under a row of several.
    """
    depth = 1
    spread = sum(1 for cell in rows[0][1:] if cell) > 1
    for row in rows[1:_HEADER_ROWS_AT_MOST]:
        rest = [cell for cell in row[1:] if cell]
        if not rest or not all(is_header_cell(cell) for cell in rest):
            break
        # A lone label under labelled columns heads a section of the body, not a column:
        # a label spanning columns stands above them.
        if spread and len(rest) == 1:
            break
        spread = spread or len(rest) > 1
        depth += 1
    return depth


def header_names(rows: Sequence[Sequence[str]]) -> list[str]:
    """Column names read down a header of one or more rows.

    A row holding one label past the first column spans the whole table ("Years Ended
    September 30,"); a row holding several carries each label right over the empty cells
    after it (a group over its sub-columns). The labels of a column are read top down:
    ``Years Ended September 30, 2019``.
    """
    width = max(len(row) for row in rows)
    padded = [[*row, *[""] * (width - len(row))] for row in rows]
    names: list[list[str]] = [[] for _ in range(width)]
    for depth, cells in enumerate(padded):
        if cells[0]:
            names[0].append(cells[0])
        labelled = [i for i in range(1, width) if cells[i]]
        if len(labelled) == 1 and len(rows) > 1:
            for i in range(1, width):
                names[i].append(cells[labelled[0]])
            continue
        groups = _groups_below(padded[depth + 1 :], width)
        if groups and all(sum(1 for i in g if cells[i]) <= 1 for g in groups):
            labels = [next((cells[i] for i in g if cells[i]), "") for g in groups]
            if len(set(labels)) == 1:
                # The same words over one sub-column of every group name that
                # sub-column: "% of total" over "revenues" of "Amount | revenues".
                for i in labelled:
                    names[i].append(cells[i])
                continue
            # One label a group of repeated sub-columns names the whole group, wherever
            # the report centred it: "Fiscal 2019" printed over "Low" of "High | Low".
            for group, label in zip(groups, labels, strict=True):
                for i in group:
                    if label:
                        names[i].append(label)
            continue
        carried = ""
        for i in range(1, width):
            carried = cells[i] or carried
            if carried:
                names[i].append(carried)
    return unique_names([" ".join(parts) for parts in names])


def unique_names(names: Sequence[str]) -> list[str]:
    """Column names made distinct: a name the header repeats ("2019 | 2019" over an amount
    and its share of revenue) keeps its first column, and each later one is told by its
    position ("2019 (column 3)"), so a row's cells never overwrite one another."""
    seen: set[str] = set()
    out: list[str] = []
    for i, name in enumerate(names, start=1):
        out.append(f"{name} (column {i})" if name and name in seen else name)
        seen.add(name)
    return out


def _groups_below(rows: Sequence[Sequence[str]], width: int) -> list[range]:
    """The groups of sub-columns a lower header row repeats ("High | Low | High | Low"
    is two groups of two), or none when no lower row repeats its names."""
    for cells in rows:
        values = list(cells[1:width])
        if not values or not all(values):
            continue
        for period in range(2, len(values) // 2 + 1):
            if len(values) % period == 0 and all(
                values[i] == values[i % period] for i in range(len(values))
            ):
                return [
                    range(1 + start, 1 + start + period) for start in range(0, len(values), period)
                ]
    return []
