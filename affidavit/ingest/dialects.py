"""Tables written without a Markdown rule line: pipes or tabs with no rule under the
header, comma-separated text pasted into a text file, and columns aligned with spaces.
Pure rules: where such a table stands in plain text, its cells, and whether its first row
names its columns. ``layout`` lays the rows out; a block these rules do not take stays
prose or rows without names, never cells under a neighbouring column's name."""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence

from affidavit.ingest.table_rules import is_header_cell
from affidavit.text import LETTER, looks_like_an_amount

# A pasted table has at least this many rows under its header.
_BODY_ROWS_AT_LEAST = 2
# Columns aligned with spaces are at least this many spaces apart (one space separates
# words inside a cell).
_ALIGNED_GAP = re.compile(r"\s{2,}")
_LETTER = re.compile(LETTER)
# A line longer than this is prose, not a row of a pasted table.
_ROW_CHARS = 300


def names_itself(rows: Sequence[Sequence[str]]) -> bool:
    """Does the first of these rows name the columns, with no rule line to say so?

    It does when every row has as many cells as it (at least two) and at least two rows
    stand under it, when each of its cells is a label (words, a year, a date: never an
    amount) and at least one has a letter, and when every row below carries an amount the
    header does not: "Year | Cost" over "2018 | $1,200".
    """
    if len(rows) < 1 + _BODY_ROWS_AT_LEAST:
        return False
    width = len(rows[0])
    if width < 2 or any(len(row) != width for row in rows):
        return False
    if any(_is_sentence(cell) for row in rows for cell in row):
        return False  # prose with two spaces after its full stops
    header = rows[0]
    if not all(cell and is_header_cell(cell) for cell in header):
        return False
    if not any(_LETTER.search(cell) for cell in header):
        return False
    return all(any(looks_like_an_amount(cell) for cell in row) for row in rows[1:])


def _is_sentence(cell: str) -> bool:
    """A cell that is a sentence: three words or more, ending as a sentence ends."""
    return len(cell.split()) >= 3 and cell.rstrip("\"')").endswith((".", "!", "?"))


def comma_cells(line: str) -> list[str]:
    """The cells of one comma-separated line, as a CSV reader reads them (quotes kept
    out, "$1,200" in quotes one cell), stripped."""
    return [cell.strip() for cell in next(csv.reader([line]), [])]


def aligned_cells(line: str) -> list[str]:
    """The cells of one line of columns aligned with spaces."""
    return [cell for cell in _ALIGNED_GAP.split(line.strip()) if cell]


def pasted_table_end(lines: Sequence[str], i: int) -> tuple[int, str] | None:
    """(end, dialect) of the comma-separated or space-aligned table starting at line
    ``i`` (``"comma"`` or ``"aligned"``), or None when none starts there. Its lines run
    to the first blank line, and its first row must name its columns (``names_itself``):
    prose that holds commas or a wide gap never does."""
    j = i
    while j < len(lines) and lines[j].strip() and len(lines[j]) <= _ROW_CHARS:
        j += 1
    if j - i < 1 + _BODY_ROWS_AT_LEAST:
        return None
    block = lines[i:j]
    for dialect, cells in (("comma", comma_cells), ("aligned", aligned_cells)):
        if dialect == "comma" and "," not in block[0]:
            continue
        if names_itself([cells(line) for line in block]):
            return j, dialect
    return None


def dialect_cells(line: str, dialect: str) -> list[str]:
    return comma_cells(line) if dialect == "comma" else aligned_cells(line)
