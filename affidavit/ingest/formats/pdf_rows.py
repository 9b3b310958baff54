"""A PDF page's glyphs set as text in reading order, by rows: what one row of the page
shows is one line, so a label and its value stay together ("CAS-No. : 141-78-6"), while
columns of running prose are read one after the other, never line by line across.

- Glyphs whose middles lie within a third of a glyph's height of each other share a row;
  a row's glyphs, left to right, make chunks, cut where the gap is wider than
  ``CHUNK_GAP`` glyph heights, and a word space goes where the gap is wider than
  ``SPACE_GAP``. Where a run of glyphs drawn one after another starts well inside
  another (a value typed over the end of its label), the runs are chunks of their own.
- A gutter is an upright strip of the page that no chunk of a run of rows crosses.
  Where the text on both sides of it over the run is prose (``PROSE_WORDS`` words a row
  or more on each side), the page has columns there, and each column is read down before
  the next; a gutter between short texts (labels and their values, a table's cells) is
  read across, the row's chunks joined on one line.
- A short line ending in ":" (a label, perhaps with a note in brackets after it) is
  joined by the line right under it when that one is short and no label itself: the
  value written under its label.
- A row of labels set over a row of values in another type (a receipt's "Bank Name"
  over "HDFC Bank"), or a row of labels each ending in ":", is read as pairs, each value
  (set under its label's start, or else under the label alone) with the lines that go
  on under it; inside a column too.
- The rows of a table read across keep their empty cells, each cell under its column's
  name (pdf_cells.py): a page draws only the cells that hold something.
- A gap between rows taller than ``PARAGRAPH_GAP`` glyph heights ends a paragraph (a
  blank line), as does the switch to the next column; text set at an angle comes last,
  one line a run of glyphs.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from affidavit.ingest.formats.pdf_cells import in_columns
from affidavit.ingest.formats.pdf_glyphs import Glyph

__all__ = ["page_text"]

CELL = "\t"  # between the chunks of a row read across: a table row
# Gaps in glyph heights (a glyph's height is about its font size).
SPACE_GAP = 0.15  # NOTE: letters of a word sit < 0.05 apart, a word space is ~0.25
CHUNK_GAP = 1.0  # a justified line's widest word space stays under one height
MIN_GUTTER = 0.8
PARAGRAPH_GAP = 0.7
PARAGRAPH_STEP = 0.25
RUN_GAP = 0.7
# Rows whose middles are this close (in glyph heights) share a row.
SAME_ROW = 0.35
# Prose: at least this share of the lines beside a gutter have this many words or more.
PROSE_WORDS = 4
PROSE_SHARE = 0.6
# A column is read down only when both sides hold text on this many rows or more.
COLUMN_ROWS = 3
# Texts side by side whose rows pair up at least this often are read across.
PAIRED_SHARE = 0.5
# A label and the value written under it: at most this many words each.
LABEL_WORDS = 8
VALUE_WORDS = 12
# A value set under its label starts within this many glyph heights of the label's start.
ALIGNED = 0.5
# A row of values may sit this many glyph heights under its row of labels.
# NOTE: a receipt's "GSTIN  CIN" stands 1.25 heights over its values; labels over values
# elsewhere in the tune forms 0.2-0.4 (bench/forms_layout.py).
VALUES_GAP = 1.5
# A label of a row of labels set over their values: at most this many words, no digit.
LABEL_CHUNK_WORDS = 4
# A form's box is named by a letter or a number before its caption ("b Employer
# identification number (EIN)", "1 Wages, tips, other compensation", "12a See
# instructions"): in a row of two such boxes or more, a caption may run to LABEL_WORDS,
# and its mark is no figure of it. A number's mark is one or two digits, perhaps a letter after.
BOX_DIGITS = 2


@dataclass(slots=True)
class _Chunk:
    """Glyphs of one row set close together: a word, a phrase or a line of a column."""

    text: str
    x0: float
    x1: float
    words: int
    font: str


@dataclass(slots=True)
class _Row:
    y0: float
    y1: float
    size: float
    chunks: list[_Chunk] = field(default_factory=list)


@dataclass(slots=True)
class _Line:
    text: str
    x0: float
    y0: float
    y1: float
    size: float
    column: int
    cells: tuple[_Chunk, ...] = ()  # a row read across: its chunks, a tab apart in text


def page_text(glyphs: Sequence[Glyph]) -> str:
    """The page's text in reading order: lines, paragraphs parted by blank lines."""
    upright = [glyph for glyph in glyphs if glyph.upright]
    rows = _rows(_without_doubles(upright))
    lines = _joined_under_labels(_in_columns(_read(rows)))
    text = _paragraphs(lines)
    angled = _angled_runs([glyph for glyph in glyphs if not glyph.upright])
    return "\n\n".join(part for part in (text, angled) if part)


# -- rows and chunks ---------------------------------------------------------------------


def _without_doubles(glyphs: list[Glyph]) -> list[Glyph]:
    """``glyphs`` without a glyph drawn again on itself (fake bold, a shadow): the same
    character over most of the box of one just drawn."""
    kept: list[Glyph] = []
    for glyph in glyphs:
        previous = kept[-1] if kept else None
        if (
            previous is not None
            and previous.text == glyph.text
            and abs(previous.x0 - glyph.x0) < 0.3 * (glyph.x1 - glyph.x0)
            and abs(previous.y0 - glyph.y0) < 0.3 * glyph.size
        ):
            continue
        kept.append(glyph)
    return kept


def _rows(glyphs: list[Glyph]) -> list[_Row]:
    """Glyphs grouped into rows, top to bottom, each row's chunks left to right."""
    ordered = sorted(enumerate(glyphs), key=lambda drawn: (-drawn[1].middle, drawn[1].x0))
    grouped: list[list[tuple[int, Glyph]]] = []
    for drawn in ordered:
        glyph = drawn[1]
        if grouped:
            first = grouped[-1][0][1]
            if first.middle - glyph.middle <= SAME_ROW * max(first.size, glyph.size):
                grouped[-1].append(drawn)
                continue
        grouped.append([drawn])
    return [_row(members) for members in grouped]


def _row(members: list[tuple[int, Glyph]]) -> _Row:
    """One row's glyphs (with the order they were drawn in) as chunks, left to right."""
    size = statistics.median(glyph.size for _order, glyph in members) or 1.0
    runs = sorted(_overprinted_runs(members, size), key=lambda run: run[0].x0)
    row = _Row(min(g.y0 for _o, g in members), max(g.y1 for _o, g in members), size)
    for run in runs:
        start = 0
        for i in range(1, len(run) + 1):
            if i == len(run) or run[i].x0 - run[i - 1].x1 > CHUNK_GAP * size:
                row.chunks.append(_chunk(run[start:i], size))
                start = i
    return row


def _overprinted_runs(members: list[tuple[int, Glyph]], size: float) -> list[list[Glyph]]:
    """The row's glyphs left to right, as one run; or, where a run of glyphs drawn one
    after another starts well inside another (a value typed into a form over the end of
    its label, "Montant du prélèvemen29.99 €"), each such run apart, so their letters
    are not shuffled together."""
    drawn: list[list[Glyph]] = []
    last = -2
    for order, glyph in sorted(members, key=lambda member: member[0]):
        before = drawn[-1][-1] if drawn else None
        if (
            before is not None
            and order == last + 1
            and before.x0 - SPACE_GAP * size <= glyph.x0 <= before.x1 + CHUNK_GAP * size
        ):
            drawn[-1].append(glyph)
        else:
            drawn.append([glyph])
        last = order
    if not _starts_inside([(run[0].x0, max(g.x1 for g in run)) for run in drawn], size):
        return [sorted((glyph for _order, glyph in members), key=lambda glyph: glyph.x0)]
    return drawn


def _starts_inside(spans: list[tuple[float, float]], size: float) -> bool:
    """Does one of ``spans`` (start, end) start well inside another: a glyph height past
    its start and before its end, so that a word drawn twice a hair apart (a fake bold) is
    no overprint? One sweep by start (a row drawn a glyph a run stays linear, not square)."""
    starts = sorted(spans)
    reach, taken = float("-inf"), 0
    for start, _end in starts:
        # The ends of the spans starting at least a glyph height before this one.
        while taken < len(starts) and starts[taken][0] + size <= start:
            reach = max(reach, starts[taken][1])
            taken += 1
        if start <= reach - size:
            return True
    return False


def _chunk(glyphs: list[Glyph], size: float) -> _Chunk:
    parts = [glyphs[0].text]
    for before, glyph in zip(glyphs, glyphs[1:], strict=False):
        if glyph.x0 - before.x1 > SPACE_GAP * size:
            parts.append(" ")
        parts.append(glyph.text)
    text = "".join(parts)
    return _Chunk(text, glyphs[0].x0, max(g.x1 for g in glyphs), len(text.split()), glyphs[0].font)


# -- columns -------------------------------------------------------------------------------


def _read(rows: list[_Row]) -> list[_Line]:
    """The rows as lines in reading order: runs of rows split by prose gutters are read
    column by column, every other row across."""
    lines: list[_Line] = []
    if not rows:
        return lines
    left = min(row.chunks[0].x0 for row in rows)
    right = max(c.x1 for row in rows for c in row.chunks)
    i = 0
    while i < len(rows):
        end, gutters = _column_run(rows, i, left, right)
        if not gutters:
            read, i = _read_across(rows, i)
            lines += read
            continue
        bounds = [float("-inf"), *gutters, float("inf")]
        for column in range(len(bounds) - 1):
            # NOTE: a column is read as a page narrower than the page is: labels set over
            # their values inside it ("Bill To:" over a name) pair as they do across.
            low, high = bounds[column], bounds[column + 1]
            inside = [
                _Row(row.y0, row.y1, row.size, chunks)
                for row in rows[i:end]
                if (chunks := [c for c in row.chunks if low <= c.x0 < high])
            ]
            at = 0
            while at < len(inside):
                read, at = _read_across(inside, at, column=column)
                lines += read
        i = end
    return lines


def _read_across(rows: list[_Row], i: int, *, column: int = 0) -> tuple[list[_Line], int]:
    """Row ``i`` read across, with what belongs to it on the row below: the values of a
    row of labels set over them, or its last chunk's words going on there."""
    row = rows[i]
    below = rows[i + 1] if i + 1 < len(rows) else None
    if below is not None and _close(row, below, gap=VALUES_GAP):
        values = _values_under(row, below, rows[i + 2] if i + 2 < len(rows) else None)
        if values is not None:
            line, taken = _pairs(row, below, values, rows[i + 2 :], column)
            return [line], i + taken
    if below is not None and _close(row, below):
        if len(row.chunks) > 1 and _goes_on(row.chunks[-1], below):
            line = _across(row, row.chunks, column=column)
            line.text += " " + below.chunks[0].text
            line.y0 = below.y0
            return [line], i + 2
    return [_across(row, row.chunks, column=column)], i + 1


def _close(row: _Row, below: _Row, *, gap: float = PARAGRAPH_GAP) -> bool:
    return row.y0 - below.y1 <= gap * max(row.size, below.size)


def _pairs(
    row: _Row,
    below: _Row,
    values: list[tuple[_Chunk, _Chunk | None]],
    rest: list[_Row],
    column: int,
) -> tuple[_Line, int]:
    """A row of labels read with the row of values under it: one line, each label with
    its value (and the rows right under it that hold only the rest of that value, an
    address over three lines under "Address"), the pairs a tab apart like a row's chunks;
    and how many rows it took."""
    texts = [value.text if value else "" for _label, value in values]
    bottom, taken = below, 2
    for further in rest:
        going_on = _goes_on_under(values, bottom, further)
        if going_on is None:
            break
        for at, chunk in going_on:
            texts[at] += " " + chunk.text
        bottom, taken = further, taken + 1
    # NOTE: the pairs of one row stay one row (a tab apart), as "Guest Name: Sanjay" and
    # "Date: 31/12/2017" set side by side do: read apart, the layout ran a value that
    # ends mid-phrase ("..., New Delhi - 110001") into the next label ("IFSC CODE").
    cells = [
        f"{label.text} {text}" if text else label.text
        for (label, _value), text in zip(values, texts, strict=True)
    ]
    first = values[0][0]
    return _Line(CELL.join(cells), first.x0, bottom.y0, row.y1, row.size, column), taken


def _goes_on_under(
    values: list[tuple[_Chunk, _Chunk | None]], above: _Row, row: _Row
) -> list[tuple[int, _Chunk]] | None:
    """Which values ``row`` goes on, chunk by chunk, when it lies right under the rows
    above and each of its chunks is set under the start of a value of a row of two labels
    or more, in that value's type (two addresses side by side go on line by line)."""
    if len(values) < 2 or not _close(above, row):
        return None
    going_on: list[tuple[int, _Chunk]] = []
    for chunk in row.chunks:
        at = next(
            (
                k
                for k, (_label, value) in enumerate(values)
                if value is not None
                and value.font == chunk.font
                and abs(chunk.x0 - value.x0) <= ALIGNED * row.size
            ),
            None,
        )
        if at is None or any(k == at for k, _chunk in going_on):
            return None
        going_on.append((at, chunk))
    return going_on


def _goes_on(last: _Chunk, below: _Row) -> bool:
    """Does the row below hold only the rest of ``last``, wrapped (set under its start,
    beginning in lower case)?"""
    if len(below.chunks) != 1:
        return False
    rest = below.chunks[0]
    return abs(rest.x0 - last.x0) <= below.size and rest.text[:1].islower()


def _values_under(
    row: _Row, below: _Row, after: _Row | None
) -> list[tuple[_Chunk, _Chunk | None]] | None:
    """The labels of ``row`` each with the value set under it on the next row, when
    ``row`` is a row of labels (short, no digits) and every chunk below starts under the
    start of one of them, in another type; None for anything else (two columns of a
    list), a table's header and first row among
    them (a third row set the same way, with figures, goes on the table)."""
    labels = row.chunks
    boxed = _boxes(labels)
    if not all(_label_like(label, boxed=boxed) for label in labels):
        return None
    # A row whose every chunk ends in ":" is a row of labels, however its values are set;
    # where only some do, the chunk after a label is its value, on the row already.
    named = all(label.text.endswith(":") for label in labels)
    if any(chunk.text.endswith(":") for chunk in below.chunks) or (
        not named and any(label.text.endswith(":") for label in labels[:-1])
    ):
        return None
    matched = _under(labels, below, boxed=boxed)
    if matched is None or (
        not named
        and any(
            value is not None and value.font == label.font
            for label, value in zip(labels, matched, strict=True)
        )
    ):
        return None  # a value is set in a type of its own; a list's items share one
    if (
        not named
        and after is not None
        and _close(below, after)
        and _table_goes_on(below, after, matched)
    ):
        following = _under(labels, after)
        if following is not None and sum(v is not None for v in following) >= 2:
            return None
    return list(zip(labels, matched, strict=True))


def _table_goes_on(below: _Row, after: _Row, matched: list[_Chunk | None]) -> bool:
    """Might ``after`` go on a table whose header is the row of labels: figures on it,
    unless the row under the labels gives every label a value and none of them a
    figure (the first lines of two addresses side by side, a street number under them)?"""
    if not any(_has_digit(chunk.text) for chunk in after.chunks):
        return False
    if _boxes(after.chunks) and all(_label_like(c, boxed=True) for c in after.chunks):
        return False  # the next row of a form's boxes: captions, their marks no figures
    return not (
        all(value is not None for value in matched)
        and not any(_has_digit(chunk.text) for chunk in below.chunks)
    )


def _overlap(one: _Chunk, other: _Chunk) -> bool:
    return min(one.x1, other.x1) > max(one.x0, other.x0)


def _under(labels: list[_Chunk], row: _Row, *, boxed: bool = False) -> list[_Chunk | None] | None:
    """For each label, the chunk of ``row`` set under it: starting under its start, or
    lying under it alone (a figure set right or centred under its label) where the row
    gives every label a value; None when a chunk of ``row`` is under none of them."""
    found: list[_Chunk | None] = [None] * len(labels)
    lying = False
    for chunk in row.chunks:
        at = [k for k, label in enumerate(labels) if abs(chunk.x0 - label.x0) <= ALIGNED * row.size]
        if not at:
            at = [k for k, label in enumerate(labels) if _overlap(chunk, label)]
            lying = True
        if len(at) != 1 or found[at[0]] is not None:
            return None
        found[at[0]] = chunk
    # NOTE: one wide cell under a header of many ("Your tax is—" under a tax table's
    # columns) lies under one label too; a row of values fills them all, and a row of a
    # form's boxes may leave a box empty (its value set right in its box).
    if lying and any(value is None for value in found) and not boxed:
        return None
    return found


def _label_like(chunk: _Chunk, *, boxed: bool = False) -> bool:
    """A few words with letters and no digit ("Check In", "Booking ID"), or, in a row of
    a form's boxes, a box's caption after its mark ("1 Wages, tips, other compensation")."""
    caption = _caption(chunk.text) if boxed else None
    text = caption if caption is not None else chunk.text
    # NOTE: a colon standing apart ("Nom de la banque :") is no word.
    words = sum(any(character.isalpha() for character in word) for word in text.split())
    most = LABEL_WORDS if caption is not None else LABEL_CHUNK_WORDS
    return 0 < words <= most and not _has_digit(text)


def _boxes(chunks: list[_Chunk]) -> bool:
    """Is the row a row of a form's boxes: two or more, each named by its mark? (One
    marked chunk alone is as likely a numbered line of a listing.)"""
    return len(chunks) >= 2 and all(_caption(chunk.text) is not None for chunk in chunks)


def _caption(text: str) -> str | None:
    """A box's caption after its mark ("Wages, tips" of "1 Wages, tips"; the mark a
    lower-case letter, or one or two digits and perhaps a letter), or None."""
    mark, _, caption = text.partition(" ")
    caption = caption.lstrip()
    if not caption[:1].isupper():
        return None
    lettered = len(mark) == 1 and mark.islower()
    digits = mark[:-1] if len(mark) > 1 and mark[-1].islower() else mark
    numbered = digits.isdigit() and len(digits) <= BOX_DIGITS
    return caption if lettered or numbered else None


def _has_digit(text: str) -> bool:
    return any(character.isdigit() for character in text)


def _across(row: _Row, chunks: list[_Chunk], *, column: int) -> _Line:
    # NOTE: chunks apart on one row are joined by a tab, which the layout reads as a
    # table row: stored as one line, never cut at a "." inside ("Subtotaal ex. BTW
    # € 18,60") nor run into the rows around it.
    text = CELL.join(chunk.text for chunk in chunks)
    cells = tuple(chunks) if len(chunks) > 1 else ()
    return _Line(text, chunks[0].x0, row.y0, row.y1, row.size, column, cells)


def _column_run(rows: list[_Row], start: int, left: float, right: float) -> tuple[int, list[float]]:
    """The end of the longest run of rows from ``start`` that a gutter crosses, and the
    gutters of that run with prose on both sides (none: the row is read across)."""
    free = _free(rows[start], left, right)
    reach = _Reach.of(rows[start])
    end = start + 1
    while end < len(rows):
        above, below = rows[end - 1], rows[end]
        if above.y0 - below.y1 > RUN_GAP * max(above.size, below.size):
            break  # the whole width of the page blank: what follows is laid out anew
        narrowed = _intersect(free, _free(below, left, right))
        wider = reach.grown(rows[end])
        if not _interior(narrowed, wider, left, right):
            break
        free, reach, end = narrowed, wider, end + 1
    run = rows[start:end]
    gutters = [
        (a + b) / 2 for a, b in _interior(free, reach, left, right) if _columns_apart(run, a, b)
    ]
    return end, gutters


@dataclass(frozen=True, slots=True)
class _Reach:
    """How far a run of rows reaches: its leftmost chunk end and rightmost chunk start
    (text lies left of a gutter when some chunk ends before it), and its glyph height."""

    first_end: float
    last_start: float
    size: float

    @classmethod
    def of(cls, row: _Row) -> _Reach:
        return cls(min(c.x1 for c in row.chunks), max(c.x0 for c in row.chunks), row.size)

    def grown(self, row: _Row) -> _Reach:
        other = _Reach.of(row)
        return _Reach(
            min(self.first_end, other.first_end),
            max(self.last_start, other.last_start),
            min(self.size, other.size),
        )


def _free(row: _Row, left: float, right: float) -> list[tuple[float, float]]:
    """The stretches of [left, right] that no chunk of ``row`` covers."""
    gaps, at = [], left
    for chunk in row.chunks:
        if chunk.x0 > at:
            gaps.append((at, chunk.x0))
        at = max(at, chunk.x1)
    if at < right:
        gaps.append((at, right))
    return gaps


def _intersect(
    one: list[tuple[float, float]], other: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    both = []
    for a0, a1 in one:
        for b0, b1 in other:
            lo, hi = max(a0, b0), min(a1, b1)
            if hi > lo:
                both.append((lo, hi))
    return both


def _interior(
    free: list[tuple[float, float]], reach: _Reach, left: float, right: float
) -> list[tuple[float, float]]:
    """The free stretches wide enough for a gutter, with text of the run on both sides."""
    return [
        (a, b)
        for a, b in free
        if b - a >= MIN_GUTTER * reach.size
        and left < a
        and b < right
        and reach.first_end <= a
        and reach.last_start >= b
    ]


def _columns_apart(run: list[_Row], a: float, b: float) -> bool:
    """Are the texts on the two sides of the gutter [a, b] columns of their own? They are
    when both hold text on ``COLUMN_ROWS`` rows or more and either both are prose (the
    pieces next to the gutter mostly lines of words, not a table's figures) or their rows
    do not pair up: fewer than ``PAIRED_SHARE`` of the rows of the side with fewer rows
    hold text on the other side too (a label and its value, a table's cells, share their
    rows; a description that wraps leaves rows of its own, its price does not)."""
    sides: tuple[list[_Chunk], list[_Chunk]] = ([], [])
    paired = 0
    for row in run:
        before = [c for c in row.chunks if c.x1 <= a]
        after = [c for c in row.chunks if c.x0 >= b]
        if before:
            sides[0].append(before[-1])
        if after:
            sides[1].append(after[0])
        paired += bool(before and after)
    fewer = min(len(sides[0]), len(sides[1]))
    if fewer < COLUMN_ROWS:
        return False
    return all(_prose(side) for side in sides) or paired < PAIRED_SHARE * fewer


def _prose(side: list[_Chunk]) -> bool:
    """Lines of prose: most of them ``PROSE_WORDS`` words or more, few words with digits."""
    lines = [chunk for chunk in side if chunk.words >= PROSE_WORDS and not _figures(chunk)]
    return len(lines) >= PROSE_SHARE * len(side)


def _figures(chunk: _Chunk) -> bool:
    """Are more than a third of the chunk's words figures (dates, amounts, codes)?"""
    words = chunk.text.split()
    return 3 * sum(_has_digit(word) for word in words) > len(words)


# -- tables, labels, paragraphs, angled text ----------------------------------------------


def _in_columns(lines: list[_Line]) -> list[_Line]:
    """The rows of a table read across with their empty cells written, so each cell
    stands under its column's name (pdf_cells.py), column by column of the page."""
    start = 0
    while start < len(lines):
        end = start + 1
        while end < len(lines) and lines[end].column == lines[start].column:
            end += 1
        run = lines[start:end]
        placed = in_columns([[(c.x0, c.x1, c.text) for c in line.cells] for line in run])
        for line, texts in zip(run, placed, strict=True):
            if texts is not None:
                line.text = CELL.join(texts)
        start = end
    return lines


def _joined_under_labels(lines: list[_Line]) -> list[_Line]:
    """A label's line and the value right under it made one line."""
    joined: list[_Line] = []
    for line in lines:
        above = joined[-1] if joined else None
        if above is not None and _value_under(above, line):
            joined[-1] = _Line(
                f"{above.text} {line.text}", above.x0, line.y0, above.y1, above.size, line.column
            )
        else:
            joined.append(line)
    return joined


# A note in brackets after a label ("Service Provider: (Not to be used for payment ...)").
_NOTE = re.compile(r"\s*\([^()]*\)$")


def _value_under(label: _Line, line: _Line) -> bool:
    named = _NOTE.sub("", label.text)
    if label.column != line.column or not named.endswith(":"):
        return False
    if len(named.split()) > LABEL_WORDS or len(line.text.split()) > VALUE_WORDS:
        return False
    if line.text.endswith(":"):
        return False
    return label.y0 - line.y1 <= PARAGRAPH_GAP * max(label.size, line.size)


def _paragraphs(lines: list[_Line]) -> str:
    """The lines, a blank line where a paragraph ends: at a switch of column, and where
    the gap to the next line is wider than the page's usual gap between lines by more
    than ``PARAGRAPH_STEP`` glyph heights (or wider than ``PARAGRAPH_GAP`` heights), and
    where a line set in follows the end of a sentence."""
    gaps = [
        before.y0 - line.y1
        for before, line in zip(lines, lines[1:], strict=False)
        if before.column == line.column and before.y0 > line.y1 - line.size
    ]
    usual = statistics.median(gaps) if gaps else 0.0
    out: list[str] = []
    for before, line in zip([None, *lines], lines, strict=False):
        if before is not None:
            size = max(before.size, line.size)
            gap = before.y0 - line.y1
            if (
                line.column != before.column
                or gap > PARAGRAPH_GAP * size
                or gap > usual + PARAGRAPH_STEP * size
                or _indented_after_an_end(before, line)
            ):
                out.append("")
        out.append(line.text)
    return "\n".join(out)


def _indented_after_an_end(before: _Line, line: _Line) -> bool:
    """A first line set in (by one to four glyph heights) under a line that ends a
    sentence: a paragraph marked by its indent alone."""
    indent = line.x0 - before.x0
    ends = before.text.rstrip(")\"'\u201d").endswith((".", "!", "?", ":"))
    return ends and line.size <= indent <= 4 * line.size


def _angled_runs(glyphs: list[Glyph]) -> str:
    """Text set at an angle, one line per run of glyphs drawn one after another."""
    runs: list[str] = []
    for before, glyph in zip([None, *glyphs], glyphs, strict=False):
        near = before is not None and (
            abs(glyph.x0 - before.x0) + abs(glyph.y0 - before.y0) < 3 * max(glyph.size, 1.0)
        )
        if near and runs:
            runs[-1] += glyph.text
        else:
            runs.append(glyph.text)
    return "\n".join(runs)
