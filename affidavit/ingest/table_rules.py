"""Pure rules for table rows: rule lines, delimited cells, shattered-cell periods, index columns,
and headers of more than one row (how many of a table's first rows name its columns, and the
names read down them).

``layout`` decides where a table stands in a document; these functions decide what its rows
are and what they say, each tested alone (tests/ingest/test_tables.py).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from affidavit.text import LETTER_RUN, is_month_day_year, looks_like_an_amount

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


__all__ = [
    "FUNCTION_WORDS",
    "Locator",
    "cell_shape",
    "find_locator",
    "find_period",
    "find_runs",
    "header_depth",
    "header_names",
    "index_rows",
    "is_index_run",
    "is_rule_line",
    "name_cells",
    "regroup_shattered",
    "split_delimited",
    "strip_index_column",
    "units_only",
]

# Words a wrapped line ends on when its phrase goes on below; a cell or a title rarely does.
FUNCTION_WORDS = frozenset(
    "a an the of to in on at for from by with and or nor but as than that which who whom "
    "whose is are was were be been being if into onto per via not its their his her over under "
    "about between through after before within without including upon toward towards".split()
)

# --- delimited rows ---------------------------------------------------------------------------

_RULE_CHARS = frozenset("-=:|+ \t")
_PIPE_SPLIT = re.compile(r"(?<!\\)\|")


def is_rule_line(line: str) -> bool:
    """True for a line drawn only with rule characters: ``|---|:--:|``, ``+====+``, ``---\\t---``.

    Such a line carries no words. Whether it names columns depends on where it stands (right
    after a table's first row), which is the caller's to judge.
    """
    s = line.strip()
    return bool(s) and s[0] in _RULE_CHARS and set(s) <= _RULE_CHARS and ("-" in s or "=" in s)


def split_delimited(line: str, delimiter: str) -> list[str]:
    """The cells of one delimited row, stripped, in order (empty cells kept as ``""``).

    For ``|`` one outer pipe on each side is optional (GitHub tables may omit them) and
    ``\\|`` is a literal pipe inside a cell. For a tab every tab separates two cells, so an
    empty cell keeps its column's place.
    """
    if delimiter != "|":
        # Only spaces come off the ends: a leading tab is an empty first cell.
        return [cell.strip() for cell in line.strip(" \r\n").split(delimiter)]
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [cell.strip().replace("\\|", "|") for cell in _PIPE_SPLIT.split(s)]


# A cell of units that writes no word ("$'000" writes one and is kept as a line anyway).
_UNIT_CELL = re.compile(r"^\s*[%$€£¥]\s*$")


def units_only(line: str, delimiter: str) -> bool:
    """A row of units alone ("| | % | % |", "| | $ | $ |"): it writes no word, yet it says
    what the cells below it are, so the table keeps it."""
    return any(_UNIT_CELL.match(cell) for cell in split_delimited(line, delimiter))


def name_cells(names: Sequence[str], values: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Pair a row's values with the header's column names, in column order.

    A value past the last name (or under an empty name) is named ``col{i}`` by its 1-based
    column position; a column the row does not reach, or leaves empty, is left out.
    """
    named: list[tuple[str, str]] = []
    for i, value in enumerate(values):
        if not value:
            continue
        name = names[i] if i < len(names) and names[i] else f"col{i + 1}"
        named.append((name, value))
    return tuple(named)


# --- shattered tables -------------------------------------------------------------------------

_DIGITS = re.compile(r"\d+")


def cell_shape(cell: str) -> str:
    """A coarse signature of a cell, equal for cells of one column and rarely across columns.

    Numbers and dates keep the layout of their digit groups (``05/03/2019`` -> ``9/9/9``,
    ``37,499.96`` -> ``9,9.9``); codes keep letters-then-digits (``DHAW20190001`` -> ``A9``);
    words keep their case class and a log2 length bucket (1, 2-3, 4-7, 8-15, 16-31, 32+),
    since two text columns (a name, a description) are told apart mostly by how long they run.
    """
    s = cell.strip()
    has_alpha = any(c.isalpha() for c in s)
    has_digit = any(c.isdigit() for c in s)
    if not has_alpha:
        return "#" + _DIGITS.sub("9", s) if has_digit else "sym"
    if has_digit and " " not in s:
        return "code:" + LETTER_RUN.sub("A", _DIGITS.sub("9", s))
    if not any(c.islower() for c in s):
        kind = "upper"
    elif not any(c.isupper() for c in s):
        kind = "lower"
    else:
        kind = "mixed"
    return f"{kind}{min(len(s).bit_length(), 6)}"


def _agreement(shapes: Sequence[str], period: int) -> float:
    pairs = len(shapes) - period
    if pairs <= 0:
        return 0.0
    return sum(shapes[i] == shapes[i + period] for i in range(pairs)) / pairs


def find_period(
    shapes: Sequence[str],
    *,
    max_period: int = 12,
    min_rows: int = 3,
    min_agreement: float = 0.8,
    min_margin: float = 0.2,
) -> int:
    """The row length of a run of cells read column by column across rows, or 1 for a list.

    Agreement at period p is the share of cells whose shape equals the shape p cells on.
    The period is the smallest p in 2..max_period that scores within 0.05 of the best p,
    provided the cells hold at least ``min_rows`` whole rows of it, it scores at least
    ``min_agreement``, and it beats period 1 by ``min_margin`` (when neighbours already
    agree, every cell looks alike and no row can be read off the shapes). Otherwise 1.
    """
    n = len(shapes)
    top = min(max_period, n // min_rows)
    if top < 2:
        return 1
    scores = {p: _agreement(shapes, p) for p in range(2, top + 1)}
    best = max(scores.values())
    period = min(p for p, score in scores.items() if score >= best - 0.05)
    if best < min_agreement or best - _agreement(shapes, 1) < min_margin:
        return 1
    return period


def regroup_shattered(cells: Sequence[str], period: int) -> list[list[str]]:
    """Cut a run of cells into rows of ``period`` cells (period 1: each cell is a row).

    Rows are cut where the row-opening cell's shape recurs, not every ``period`` cells, so a
    cell wrapped onto two lines or dropped by the extractor costs one row, not every row
    after it. The opening shape is that of the first of the first ``period`` cells whose
    shape occurs about once a row (within 25% of len/period times); without one, rows are
    fixed chunks. A row grown past 1.5 periods (an opening cell missing) is cut in chunks.
    """
    if period < 2:
        return [[cell] for cell in cells]
    shapes = [cell_shape(cell) for cell in cells]
    counts = Counter(shapes)
    per_row = len(cells) / period
    starts = list(range(0, len(cells), period))
    for shape in shapes[:period]:
        if 0.75 * per_row <= counts[shape] <= 1.25 * per_row:
            starts = [i for i, s in enumerate(shapes) if s == shape]
            break
    bounds = ([0] if starts[0] > 0 else []) + starts + [len(cells)]
    rows: list[list[str]] = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        row = list(cells[a:b])
        if len(row) > period + period // 2:
            rows.extend(row[k : k + period] for k in range(0, len(row), period))
        else:
            rows.append(row)
    return rows


# --- index columns ----------------------------------------------------------------------------

# A locator: page numbers at the end of a row, after a leader. "12", "9-15", "12, 19, 29".
# A comma must be followed by a space, so "1,250" (a thousands separator) is never a list.
_NUMBER = r"\d{1,4}(?:\s?[-\u2013]\s?\d{1,4})?"
_LOCATOR = re.compile(rf"{_NUMBER}(?:,\s+{_NUMBER})*")
_LOCATOR_CHARS = frozenset("0123456789 \t,-\u2013")
_LOCATOR_MAX = 120  # longer runs of numbers at a line's end are data, not page references
_LEADER_CHARS = frozenset(" \t.\u2026")
# Words after which a number names a thing ("line 43", "Chapter 3", "June 3", "age 50")
# rather than says where it is written; a single space is too weak to overrule them.
_NAMING_WORDS = FUNCTION_WORDS | frozenset(
    "line lines page pages p pp form forms chapter chapters section sections part parts step "
    "steps item items no nos number numbers table tables figure fig schedule article articles "
    "rule rules appendix volume vol version grade level tier age room suite box route phase "
    "stage round week day days year years book act scene verse psalm exhibit annex clause "
    "paragraph para question unit lesson class through least over under about around only "
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
_YEARS = range(1500, 2101)


@dataclass(frozen=True, slots=True)
class Locator:
    """A trailing page reference found on a row."""

    text: str  # the row without the locator and the leader before it
    numbers: tuple[int, ...]  # every number in the locator, in order ("9-15, 29" -> 9, 15, 29)
    leader: str  # what separates the text from the numbers: dots, a tab, a pipe, spaces
    strong: bool  # dot leader, tab, pipe or a wide gap; a single space is weak evidence


def find_locator(line: str, *, words_required: bool = True) -> Locator | None:
    """The bare trailing number(s) of a row, if it ends in any, with what stands before.

    The text before must hold a letter, unless ``words_required`` is false and the leader is
    strong: "2004 . . . 6" closes a wrapped entry ("Expatriation after June 3, / 2004 ...").

    A single space before the number counts only for a short row (<= 8 words) that starts
    with a capital or a digit and whose last word does not name the number ("line 43",
    "Chapter 3", "June 3", "less than 61"): prose and titles end in numbers too.
    """
    s = line.rstrip()
    if not s or not (s[-1].isdigit() or s[-1] == "|"):
        return None
    split = _split_locator(s)
    if split is None:
        return None
    text, leader, locator, closed = split
    strong = not (len(leader) == 1 and leader.isspace() and leader != "\t")
    if not any(c.isalpha() for c in text) and (words_required or not strong):
        return None
    if not strong:
        words = [word for word in text.split() if any(c.isalnum() for c in word)]
        last = words[-1].strip(".,;:()[]\"'").lower()
        first = text.lstrip()[0]
        if len(words) > 8 or first.islower() or last in _NAMING_WORDS or text[-1] in ",;:":
            return None
    numbers = tuple(int(d) for d in _DIGITS.findall(locator))
    if "|" in leader and closed:
        text += " |"
    return Locator(text.rstrip(), numbers, leader, strong)


def _split_locator(s: str) -> tuple[str, str, str, bool] | None:
    """``s`` as (text, leader, locator, closed by a pipe), read from the end; else None.

    A scan from the end rather than one regular expression, so a long line of dots or
    spaces costs linear time. The leader is a pipe (cell edge), two or more dots or an
    ellipsis (dot leader), or whitespace; a single dot belongs to the text ("U.S. 4").
    """
    closed = s.endswith("|")
    body = s[:-1].rstrip() if closed else s
    k = len(body)
    while k > 0 and body[k - 1] in _LOCATOR_CHARS and len(body) - k < _LOCATOR_MAX:
        k -= 1
    tail = body[k:]
    # The longest well-formed locator that starts a word of the tail.
    starts = [j for j, c in enumerate(tail) if c.isdigit() and (j == 0 or tail[j - 1].isspace())]
    j = next((j for j in starts if _LOCATOR.fullmatch(tail[j:])), None)
    # With no space before it, the locator must follow a pipe or a dot leader ("Scope...12").
    if j is None or (j == 0 and (k == 0 or body[k - 1] not in "|.\u2026")):
        return None
    head = body[: k + j]
    m = len(head)
    while m > 0 and head[m - 1] in _LEADER_CHARS:
        m -= 1
    run = head[m:]
    if m > 0 and head[m - 1] == "|" and not run.strip():
        m -= 1
        while m > 0 and head[m - 1].isspace():
            m -= 1
        return head[:m], head[m:], tail[j:], closed
    if run.count(".") >= 2 or "\u2026" in run:
        return head[:m], run, tail[j:], closed
    leader = run[len(run.rstrip()) :] if "." not in run else run.rsplit(".", 1)[1]
    if not leader:
        return None
    return head[: len(head) - len(leader)], leader, tail[j:], closed


def is_index_run(numbers: Sequence[int]) -> bool:
    """True when a run's trailing numbers read as page numbers of an index column.

    The rule: at least three rows, the numbers never decrease (each >= the one before) and
    they rise overall (last > first). Numbers that are all plausible years (1500-2100) are a
    timeline, not pages, and stay.
    """
    if len(numbers) < 3:
        return False
    if any(b < a for a, b in zip(numbers, numbers[1:], strict=False)):
        return False
    if numbers[-1] <= numbers[0]:
        return False
    return not all(n in _YEARS for n in numbers)


def find_runs(codes: str, *, max_gap: int = 3) -> list[tuple[int, int]]:
    """Runs of rows in a column of line codes, as (first, last) index pairs of their rows.

    Codes, one per non-blank line: ``S`` a row with a strong locator, ``W`` a row with a
    weak one, ``c`` a line that may stand inside a run (a sub-heading, a letter heading),
    ``w`` such a line that wraps on into the next one (the start of a wrapped entry),
    ``x`` a line that ends any run. A run holds rows of one shape: an ``S`` row after a
    ``W`` row (or the reverse) opens a new run. Between two ``S`` rows may stand ``max_gap``
    ``c`` lines (``w`` lines join the entry below and are not counted; at most twice
    ``max_gap`` lines in all); a ``W`` row admits no line beside it, since a single space
    is evidence enough only when the rows stand together. Only runs of >= 2 rows count.
    """
    runs: list[tuple[int, int]] = []
    first = last = -1
    for i, code in enumerate(codes):
        if code not in "SW":
            continue
        gap = codes[last + 1 : i] if last >= 0 else "x"
        bridged = code == "S" and gap.count("c") <= max_gap and len(gap) <= 2 * max_gap
        joined = "x" not in gap and codes[last] == code and (gap == "" or bridged)
        if not joined:
            if last > first:
                runs.append((first, last))
            first = i
        last = i
    if last > first >= 0:
        runs.append((first, last))
    return runs


def index_rows(entries: Sequence[str]) -> list[str] | None:
    """The rows of one run of free lines: page numbers off if it is an index column.

    Returns the entries as written when the run is no index but at least two of its
    numbered rows, and half of them, have strong leaders (an index that goes up and down,
    like an alphabetical one); returns None for anything else, which is ordinary text.
    """
    found = [find_locator(entry) for entry in entries]
    numbered = [loc for loc in found if loc is not None]
    if is_index_run([loc.numbers[-1] for loc in numbered]):
        return [loc.text if loc else entry for entry, loc in zip(entries, found, strict=True)]
    strong = sum(loc.strong for loc in numbered)
    if strong >= 2 and 2 * strong >= len(numbered):
        return list(entries)
    return None


def strip_index_column(rows: Sequence[str], *, delimiter: str) -> list[str]:
    """Rows of a delimited table with no named columns, any index column taken off.

    Only a last cell that is wholly a bare number counts. Runs are judged as in free text
    (rows without such a cell neither count nor break a run); each run that is an index
    column (``is_index_run``) loses that cell. A table with named columns never comes here.
    """
    found = [find_locator(row) for row in rows]
    whole = [loc if loc is not None and delimiter in loc.leader else None for loc in found]
    texts = list(rows)
    codes = "".join("c" if loc is None else "S" for loc in whole)
    for first, last in find_runs(codes, max_gap=len(rows)):
        span = [(k, loc) for k in range(first, last + 1) if (loc := whole[k]) is not None]
        if is_index_run([loc.numbers[-1] for _, loc in span]):
            for k, loc in span:
                texts[k] = loc.text
    return texts
