"""A PDF table's cells kept in their columns. A page draws only the cells that hold
something, so a row read across lists its cells without the empty ones between them
("Alabama", "18,870", ... 23 cells under a header of 25), and the cell under "Permit"
is no longer the second; set by the x-extents of the table's fullest rows, each row's
cells go back into their columns, the empty ones written empty.

- A table is a run of rows of two cells or more, ``TABLE_ROWS`` of them or more of
  ``TABLE_CELLS`` cells or more.
- Its columns are read off its fullest rows (those with the most cells): the k-th cell of
  each spans the k-th column; they must stand apart, left to right, or the run is left
  as it is (its rows do not share columns).
- A row with fewer cells puts each in the column it overlaps most (a cell over no column,
  in the nearest). A row of labels alone (no figure) names groups of columns: each
  label stands over the columns nearer its middle than its neighbours', and goes into
  the first of them, where a header's reader carries it from over the rest
  (ingest/table_rules.header_names). Two cells in one column leave the row as read.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Cell", "in_columns"]

TABLE_ROWS = 3
TABLE_CELLS = 3

Cell = tuple[float, float, str]  # x0, x1, text


def in_columns(rows: Sequence[Sequence[Cell]]) -> list[list[str] | None]:
    """For each row of a table, its cells' texts in the table's columns ("" where a
    column is empty); None for a row left as it was read (its cells already fill the
    columns, or they cannot be placed one to a column, or it is no table's)."""
    placed: list[list[str] | None] = [None] * len(rows)
    start = 0
    while start < len(rows):
        end = start
        while end < len(rows) and len(rows[end]) >= 2:
            end += 1
        if sum(len(row) >= TABLE_CELLS for row in rows[start:end]) >= TABLE_ROWS:
            placed[start:end] = _placed(rows[start:end])
        start = end + 1
    return placed


def _placed(table: Sequence[Sequence[Cell]]) -> list[list[str] | None]:
    """The rows of one table placed in the columns its fullest rows span."""
    width = max(len(row) for row in table)
    fullest = [row for row in table if len(row) == width]
    columns = [
        (min(row[k][0] for row in fullest), max(row[k][1] for row in fullest)) for k in range(width)
    ]
    if any(left[1] > right[0] for left, right in zip(columns, columns[1:], strict=False)):
        return [None] * len(table)  # the fullest rows do not share their columns
    return [None if len(row) == width else _row_placed(row, columns) for row in table]


def _row_placed(row: Sequence[Cell], columns: list[tuple[float, float]]) -> list[str] | None:
    texts = [""] * len(columns)
    grouped = not any(character.isdigit() for _x0, _x1, text in row for character in text)
    places = _group_places(row, columns) if grouped and len(row) > 1 else None
    if places is None:
        places = [_column_of(x0, x1, columns) for x0, x1, _text in row]
    if len(set(places)) < len(places):
        return None
    for at, (_x0, _x1, text) in zip(places, row, strict=True):
        texts[at] = text
    return texts


def _group_places(row: Sequence[Cell], columns: list[tuple[float, float]]) -> list[int] | None:
    """The columns of a row of labels with fewer labels than columns (groups' names over
    their sub-columns): each label stands over the columns nearer its middle than its
    neighbours' (the first and the last reaching as far out as in), and goes to the first
    of them; None when a label stands over no column."""
    middles = [(x0 + x1) / 2 for x0, x1, _text in row]
    bounds = [(a + b) / 2 for a, b in zip(middles, middles[1:], strict=False)]
    lows = [2 * middles[0] - bounds[0], *bounds]
    highs = [*bounds, 2 * middles[-1] - bounds[-1]]
    places = []
    for low, high in zip(lows, highs, strict=True):
        under = [k for k, (c0, c1) in enumerate(columns) if low <= (c0 + c1) / 2 < high]
        if not under:
            return None
        places.append(under[0])
    return places


def _column_of(x0: float, x1: float, columns: list[tuple[float, float]]) -> int:
    """The column a cell stands in: of those it overlaps, the first it overlaps by at least
    half as much as the one it overlaps most (a cell set across two columns goes to the
    first; a figure reaching a little past its column's edge stays in its column); over
    none, the nearest."""
    overlaps = [min(x1, c1) - max(x0, c0) for c0, c1 in columns]
    best = max(overlaps)
    if best > 0:
        return next(k for k, overlap in enumerate(overlaps) if overlap >= best / 2)
    middle = (x0 + x1) / 2
    return min(
        range(len(columns)),
        key=lambda k: (abs((columns[k][0] + columns[k][1]) / 2 - middle), k),
    )
