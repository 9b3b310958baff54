"""Plain text (.txt/.md and pdfminer text dumps) to units: prose paragraphs, headings and
table rows, in document order. The table rules it applies live in ``tables``."""

from __future__ import annotations

import re
from collections.abc import Sequence

from affidavit.errors import IngestError
from affidavit.ingest.dialects import dialect_cells, names_itself, pasted_table_end
from affidavit.ingest.fields import field_of
from affidavit.ingest.joins import DocumentWords, join_lines
from affidavit.ingest.plain_lines import (
    BULLET,
    has_digit,
    has_letter,
    has_lower,
    is_cell,
    is_heading,
    is_numeric,
    may_continue,
    words_of,
    wraps_into,
)
from affidavit.ingest.table_rules import (
    cell_shape,
    find_locator,
    find_period,
    find_runs,
    header_depth,
    header_names,
    index_rows,
    is_rule_line,
    name_cells,
    regroup_shattered,
    split_delimited,
    strip_index_column,
    units_only,
)
from affidavit.ingest.units import Unit, UnitKind
from affidavit.text import says_a_sentence

__all__ = ["lay_out"]

_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
_SETEXT_RULE = re.compile(r"^(?:={3,}|-{3,})$")
# A first line of this many words that stops without punctuation was wrapped, not set apart.
_WRAP_WORDS = 6
# A box is wrapped prose when half its lines (its last aside) reach this share of its
# longest, and that is at least this many characters: a wrapped paragraph's lines stop
# near the width it was set to, a form's lines where each field ends.
_FULL_LINE = 0.7
_WRAP_WIDTH = 40


def lay_out(text: str, *, source: str | None = None) -> list[Unit]:
    """Cut ``text`` into prose paragraphs, headings and table rows, in document order.

    - Paragraphs are blank-line separated, wrapped lines joined by one space (none after
      a word's or code's dash, and no hyphen where the rest of the document writes the
      broken word whole: ``joins``); a bullet line opens a new one, and so does, in a box
      set line by line rather than wrapped (a data sheet's "Label: value" fields), each
      line that does not go on from the one above (``_wrapped``). ``#`` lines,
      setext-underlined lines and short standalone lines set like titles are headings.
      Form feeds (PDF page breaks) end a paragraph.
    - A tab line one of whose cells says a sentence is a line of prose of its own (a
      form's line set by rows off a PDF page, its margin numbers beside it).
    - A line with ``|`` or tabs is a row as written; a rule line right after a table's
      first row makes that row name the columns (``cells``); rule and border lines,
      which carry no words, are dropped.
    - Short cell-like lines (a PDF dump's one cell per line) are regrouped into rows of
      the period their cell shapes repeat with, cells joined by " | "; without a period
      each cell is a row. Cells of two blocks (pdfminer text boxes) never share a row.
    - Rows ending in page numbers that never decrease and rise across >= 3 rows, with no
      column name above them (a table of contents' page numbers), lose those numbers
      (``tables.is_index_run``).

    Rows carry a per-document ``table`` number from 0. ``source`` names the document in
    errors.
    """
    if not isinstance(text, str):
        raise IngestError(
            source, f"expected text, got {type(text).__name__}", hint="decode the file first"
        )
    lines = text.lstrip("\ufeff").replace("\f", "\n\n").splitlines()
    layout = _Layout(DocumentWords(text))
    free_start = i = 0
    while i < len(lines):
        if _prose_row(lines[i]):
            # A form's line set by rows off a PDF page: a sentence of its own, its margin
            # numbers beside it, never a table's row nor wrapped into the lines around it.
            layout.free(lines[free_start:i])
            layout.add(UnitKind.PROSE, lines[i].strip())
            free_start = i = i + 1
            continue
        end = _table_end(lines, i)
        pasted = None if end > i or not _opens_a_block(lines, i) else pasted_table_end(lines, i)
        if pasted is not None:
            layout.free(lines[free_start:i])
            end, dialect = pasted
            layout.pasted(lines[i:end], dialect)
            free_start = i = end
        elif end > i or _MD_HEADING.match(lines[i]):
            layout.free(lines[free_start:i])
            if end > i:
                layout.delimited(lines[i:end])
            else:
                layout.add(UnitKind.HEADING, lines[i].strip())
                end = i + 1
            free_start = i = end
        else:
            i += 1
    layout.free(lines[free_start:])
    return layout.units


# --- line tests -------------------------------------------------------------------------------


def _opens_a_block(lines: Sequence[str], i: int) -> bool:
    """Does line ``i`` open a block of text (the first after a blank line, or the one
    after such a block's caption)? Only there may a pasted table start, so each block is
    read for one once."""
    return i == 0 or not lines[i - 1].strip() or (i == 1 or not lines[i - 2].strip())


def _delimiter(line: str) -> str | None:
    s = line.strip()
    if "|" in s:
        return "|"
    return "\t" if "\t" in s else None


def _table_end(lines: Sequence[str], i: int) -> int:
    """End (exclusive) of the delimited table that starts at line ``i``, or ``i`` if none.

    Tab lines are rows on their own; a line with a pipe is one when it opens or closes on a
    pipe or has a delimited line or rule right below it (a prose line may hold a stray
    pipe). A rule line opens a table only when a row follows (an ASCII table's top border).
    """
    first = lines[i].strip()
    if not first or ("|" not in first and "\t" not in first and not is_rule_line(first)):
        return i
    below = lines[i + 1].strip() if i + 1 < len(lines) else ""
    if _MD_HEADING.match(lines[i]):
        return i
    delimiter = _delimiter(first)
    if delimiter == "|":
        opens = first.startswith("|") or first.endswith("|") or _delimiter(below) is not None
        opens = opens or is_rule_line(below)
    else:
        opens = delimiter == "\t" or (is_rule_line(first) and _delimiter(below) is not None)
    if not opens:
        return i
    j = i + 1
    while j < len(lines) and lines[j].strip() and not _MD_HEADING.match(lines[j]):
        # Inside a tab table a row may end (or start) on a tab: an empty last (first) cell.
        tabbed = delimiter == "\t" and "\t" in lines[j].strip(" ")
        if tabbed and _prose_row(lines[j]):
            break  # a form's line of prose ends the table above it
        if not tabbed and _delimiter(lines[j]) is None and not is_rule_line(lines[j]):
            break
        j += 1
    return j


def _prose_row(line: str) -> bool:
    """Is ``line`` a tab line of prose with labels beside it (a form's "26<tab>Exemptions.
    Multiply $3,800 by the number on line 6d.<tab>26", set by rows off a PDF page), not a
    table's row? One of its cells says a sentence (text/sentences.says_a_sentence); a
    field's cell ("Address: ...") is a value, however long."""
    if "\t" not in line.strip():
        return False
    return any(
        says_a_sentence(cell)
        for cell in (c.strip() for c in line.split("\t"))
        if not field_of(cell)
    )


def _grouped_depth(rows: Sequence[Sequence[str]]) -> int:
    """How many first rows of a table with no rule line name its columns when rows of
    groups' names stand over the row that names them (a PDF table's "Pre-Pawn" over its
    "Handgun | Long Gun | *Other"): each row above that one as wide as the table, its
    first cell empty, the labels after it read as a header's (table_rules.header_depth),
    and that row naming the rows under it itself (dialects.names_itself); 0 otherwise."""
    depth = header_depth(rows)
    width = len(rows[0])
    above = rows[: depth - 1]
    if depth < 2 or any(len(row) != width or row[0] for row in above):
        return 0
    return depth if names_itself(rows[depth - 1 :]) else 0


# --- assembling units -------------------------------------------------------------------------


class _Layout:
    """Collects the units of one document and numbers its tables."""

    def __init__(self, words: DocumentWords) -> None:
        self.units: list[Unit] = []
        self._tables = 0
        self._words = words

    def add(self, kind: UnitKind, text: str) -> None:
        self.units.append(Unit(kind, text))

    def _new_table(self) -> int:
        self._tables += 1
        return self._tables - 1

    def _rows(self, rows: Sequence[str]) -> None:
        table = self._new_table()
        self.units.extend(Unit(UnitKind.ROW, row, table=table) for row in rows)

    # -- delimited tables

    def delimited(self, block: Sequence[str]) -> None:
        """One ROW per line; rule and border lines dropped; cells named under a header."""
        delimiter = _delimiter(next((b for b in block if words_of(b)), "")) or "|"
        rows = [
            b for b in block if not is_rule_line(b) and (words_of(b) or units_only(b, delimiter))
        ]
        if not rows:
            return
        first = block.index(rows[0])
        # The first row names the columns when a rule line stands right below it, or when
        # it reads as names over the rows' amounts (dialects.names_itself); or the first
        # rows do, groups' names over the row naming their sub-columns.
        ruled = first + 1 < len(block) and is_rule_line(block[first + 1])
        split = [split_delimited(row, delimiter) for row in rows]
        table = self._new_table()
        grouped = 0 if ruled else _grouped_depth(split)
        if ruled or grouped or names_itself(split):
            depth = header_depth(split) if ruled else grouped or 1
            names = header_names(split[:depth])
            self.units.extend(Unit(UnitKind.ROW, row.strip(), table=table) for row in rows[:depth])
            for row in rows[depth:]:
                cells = name_cells(names, split_delimited(row, delimiter))
                self.units.append(Unit(UnitKind.ROW, row.strip(), cells=cells, table=table))
            return
        texts = strip_index_column([row.strip() for row in rows], delimiter=delimiter)
        self.units.extend(Unit(UnitKind.ROW, text, table=table) for text in texts)

    def pasted(self, block: Sequence[str], dialect: str) -> None:
        """A comma-separated or space-aligned table (dialects.py): its first row names
        the columns, each row below a ROW with its cells named."""
        table = self._new_table()
        names = dialect_cells(block[0], dialect)
        self.units.append(Unit(UnitKind.ROW, block[0].strip(), table=table))
        for row in block[1:]:
            cells = name_cells(names, dialect_cells(row, dialect))
            self.units.append(Unit(UnitKind.ROW, row.strip(), cells=cells, table=table))

    # -- free text

    def free(self, lines: Sequence[str]) -> None:
        """Lines outside delimited tables: index runs first, then boxes of text."""
        texts = [line.strip() for line in lines]
        nonblank = [i for i, t in enumerate(texts) if t]
        codes = _codes([texts[i] for i in nonblank])
        done = 0  # texts before this index are laid out
        for first, last in find_runs(codes):
            start = first
            # A wrapped first entry starts on a line or two above its number.
            while (
                start > first - 3
                and start > 0
                and nonblank[start - 1] >= done
                and codes[start - 1] == "w"
            ):
                start -= 1
            entries = _join_wrapped([texts[i] for i in nonblank[start : last + 1]], self._words)
            rows = index_rows(entries)
            if rows is None:
                continue
            self._boxes(texts[done : nonblank[start]])
            self._rows(rows)
            done = nonblank[last] + 1
        self._boxes(texts[done:])

    def _boxes(self, texts: Sequence[str]) -> None:
        """Blank-separated boxes: prose, headings, or cells of shattered tables.

        pdfminer puts each text box between blank lines. A box of several cell lines is one
        table block; a stream of one-line cell boxes in a row is one block too (pdfminer
        boxes each cell of a sparse table alone). Cells of two blocks never share a row.
        """
        boxes: list[list[str]] = [[]]
        for text in texts:
            if text:
                boxes[-1].append(text)
            elif boxes[-1]:
                boxes.append([])
        stream: list[str] = []
        for box in boxes:
            if len(box) == 1 and is_cell(box[0]):
                stream.append(box[0])
                continue
            self._stream(stream)
            stream = []
            if box:
                self._box(box)
        self._stream(stream)

    def _box(self, box: list[str]) -> None:
        if len(box) == 2 and _SETEXT_RULE.match(box[1]):
            self.add(UnitKind.HEADING if is_heading(box[0]) else UnitKind.PROSE, box[0])
            return
        if not self.units and _is_title_box(box):
            # A document's opening title over its subtitle ("GNU GENERAL PUBLIC LICENSE" /
            # "Version 2, June 1991") is short like two cells, but names the document.
            self.add(UnitKind.HEADING, box[0])
            self.add(UnitKind.PROSE, box[1])
            return
        # A box of bullet lines is a list, its items short like cells but never a table's.
        listed = len(box) > 1 and all(BULLET.match(line) for line in box)
        if not listed and all(is_cell(line) for line in box):
            cells = _join_cell_wraps(box, self._words)
            # Two lines are one wrapped label when capitalised ("DATE / POSTED", "BOOK I. /
            # MISS BROOKE.") or when the first is long; else two cells ("Iowa / IL/IN/OH").
            wrapped = not has_lower(" ".join(cells)) or len(words_of(cells[0])) >= _WRAP_WORDS
            if len(cells) >= 3 or (len(cells) == 2 and not wrapped):
                self._cells(cells)
                return
            box = [join_lines(cells, words=self._words)]
        set_apart = not _wrapped(box)
        paragraphs: list[list[str]] = [[]]
        for line in box:
            opens = BULLET.match(line) or (
                # A box set line by line (a form's "Label: value" lines, a data sheet's
                # fields) keeps each line that does not go on from the one above; in any
                # box, so does a line that opens a field of its own ("Moderated : yes"
                # under a wrapped "Description : ..."), its pair kept whole, unless the
                # line above is a label waiting for its value ("...placement home:").
                paragraphs[-1]
                and not _goes_on(paragraphs[-1][-1], line)
                and (
                    set_apart
                    or (field_of(line) is not None and not paragraphs[-1][-1].endswith(":"))
                )
            )
            if opens and paragraphs[-1]:
                paragraphs.append([])
            paragraphs[-1].append(line)
        if len(paragraphs) == 1 and len(box) == 1 and is_heading(box[0]):
            self.add(UnitKind.HEADING, box[0])
            return
        for paragraph in paragraphs:
            self.add(UnitKind.PROSE, join_lines(paragraph, words=self._words))

    def _stream(self, stream: list[str]) -> None:
        """One-line boxes in a row: a shattered table if they show a period, else lines.

        Without a period, numbers standing together (a column pdfminer boxed cell by cell)
        are a list table; every other line is a heading or a one-line paragraph.
        """
        if len(stream) >= 6 and find_period([cell_shape(c) for c in stream]) >= 2:
            self._cells(stream)
            return
        numbers: list[str] = []
        for line in [*stream, ""]:
            if is_numeric(line):
                numbers.append(line)
                continue
            if len(numbers) >= 2:
                self._rows(numbers)
            else:
                self.units.extend(Unit(UnitKind.PROSE, number) for number in numbers)
            numbers = []
            if line:
                self.add(UnitKind.HEADING if is_heading(line) else UnitKind.PROSE, line)

    def _cells(self, cells: Sequence[str]) -> None:
        period = find_period([cell_shape(c) for c in cells])
        self._rows([" | ".join(row) for row in regroup_shattered(cells, period)])


def _wrapped(box: Sequence[str]) -> bool:
    """Was the box's text wrapped to a width, rather than set line by line? Wrapped prose
    goes on across many of its breaks (a line stopping mid-phrase, the next starting in
    lower case, a word broken at a dash), or fills its lines close to its longest; a
    form's lines each end where a field ends. A box of two lines or fewer is read as
    wrapped, as it always was."""
    if len(box) <= 2:
        return True
    breaks = len(box) - 1
    going_on = sum(_goes_on(line, below) for line, below in zip(box, box[1:], strict=False))
    widest = max(len(line) for line in box)
    full = sum(len(line) >= _FULL_LINE * widest for line in box[:-1])
    return going_on * 3 >= breaks or (widest >= _WRAP_WIDTH and full * 2 >= breaks)


def _goes_on(line: str, below: str) -> bool:
    """Does ``line`` go on in ``below``: mid-phrase, into lower case, or broken at a dash?"""
    return wraps_into(line, below) or line.endswith(("-", "\u2013", "\u2014", "/"))


def _is_title_box(box: Sequence[str]) -> bool:
    """Two lines, the first a title set in capitals (two words at least), the second a
    written phrase under it."""
    return (
        len(box) == 2
        and len(words_of(box[0])) >= 2
        and box[0].upper() == box[0]
        and has_lower(box[1])
    )


# --- helpers over lines -----------------------------------------------------------------------


def _codes(lines: Sequence[str]) -> str:
    """The lines' codes for ``find_runs``: S/W a row (strong/weak locator), w, c or x.

    Only lines within reach of a row (six lines, the longest gap a run may bridge) are
    read closely; the rest are ``x``, which keeps a novel with no index fast.
    """
    codes = ["x"] * len(lines)
    near: set[int] = set()
    for i, line in enumerate(lines):
        if line[-1].isdigit() or line[-1] == "|":
            found = find_locator(line, words_required=False)
            if found is not None:
                codes[i] = "S" if found.strong else "W"
                near.update(range(max(0, i - 6), min(len(lines), i + 7)))
    for i in sorted(near):
        if codes[i] == "x" and may_continue(lines[i]):
            below = lines[i + 1] if i + 1 < len(lines) else ""
            codes[i] = "w" if below and wraps_into(lines[i], below) else "c"
    return "".join(codes)


def _join_wrapped(lines: Sequence[str], words: DocumentWords) -> list[str]:
    """Join each line that goes on below (and has no locator yet) with the line below."""
    entries: list[str] = []
    for line in lines:
        if entries and find_locator(entries[-1]) is None and wraps_into(entries[-1], line):
            entries[-1] = join_lines([entries[-1], line], words=words)
        else:
            entries.append(line)
    return entries


def _join_cell_wraps(box: Sequence[str], words: DocumentWords) -> list[str]:
    """Cells of one box, a label wrapped onto two lines joined back ("But / less / than")."""
    # Each cell's lines are joined once, at the end: joined at every wrap, a cell of a
    # million one-letter lines was copied whole a million times. Whether a line goes on
    # reads only the cell's last line (its end is the joined cell's end) and a flag kept.
    groups: list[list[str]] = []
    digits: list[bool] = []  # each cell so far: does it hold a digit, a letter?
    letters: list[bool] = []
    for line in box:
        numeric = bool(groups) and digits[-1] and not letters[-1]  # is_numeric of the cell
        if groups and not numeric and wraps_into(groups[-1][-1], line):
            groups[-1].append(line)
            digits[-1] = digits[-1] or has_digit(line)
            letters[-1] = letters[-1] or has_letter(line)
        else:
            groups.append([line])
            digits.append(has_digit(line))
            letters.append(has_letter(line))
    return [join_lines(group, words=words) for group in groups]
