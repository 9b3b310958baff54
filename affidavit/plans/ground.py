"""What a plan's phrases are anchored in: the tables (read by plans/tables.py) and text lines
around the evidence, the rows and columns ranked by how well a label or a column's name
answers to the words of a phrase (smaller first, None for no match; words compared as the
ground's terms, stemmed, glue words left out)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from affidavit.plans.tables import Table, tables_of
from affidavit.plans.values import Kind, Source, Value
from affidavit.results import Evidence, LineKind
from affidavit.text import NUMBER_WORDS, Analyzer, column_date, is_year_term, spaced_dates, words

# A footnote mark ending a row's label: "Total (1)", "Service delivery costs(2)", "Other*",
# or a digit run into the word ("Total employee expenditure2").
FOOTNOTE = re.compile(r"(?:\s*(?:\(\s*(?:\d{1,2}|[a-z]|[ivx]{1,4})\s*\)|\*+)|(?<=[a-z]{3})\d)+\s*$")
# Words of a column that holds a change between years, not one year's own figure.
CHANGE_TERMS = frozenset({"chang", "varianc", "differ", "growth", "increas", "decreas", "vs"})


def extra_words(
    wanted: frozenset[str], have: frozenset[str], slack: int = 0
) -> tuple[int, int] | None:
    """How well ``have`` (a label, a column name) answers to the phrase's words ``wanted``:
    (words of the phrase it lacks, words it adds), smaller first; None when it lacks more
    than ``slack`` of them or shares none."""
    if not wanted or not wanted & have:
        return None
    missing = len(wanted - have)
    return None if missing > slack else (missing, len(have - wanted))


def column_rank(
    wanted: frozenset[str], name: frozenset[str], row_phrase: frozenset[str]
) -> tuple[int, ...] | None:
    """A column named by the column phrase ("2019"); of several, one naming no other year
    first, then the one sharing more of the row phrase ("Cash dividend per share 2019"
    before "Appropriation of earnings 2019" for "cash dividend per share")."""
    extra = extra_words(wanted, name)
    if extra is None:
        return None
    # "2019 vs. 2018 Variance" names two years, "F18 Change" a change: neither stands
    # for the year's own figure.
    other_years = sum(1 for term in name - wanted if is_year_term(term))
    other_years += len(name & CHANGE_TERMS)
    return (extra[0], other_years, -len((name - wanted) & row_phrase), extra[1])


def named_inside(name: frozenset[str], phrase: frozenset[str]) -> tuple[int, int]:
    """A column asked for without a column phrase: one whose whole name the row phrase
    writes ("operating leases of more than 5 years" names the column "More than 5
    years") comes before the others, the more of the phrase it names the better."""
    if name and name <= phrase:
        return (-len(name), 0)
    return (0, 1)


def row_slack(wanted: frozenset[str]) -> int:
    """A phrase of three words or more may carry one the row's label leaves out (the
    question's "amount of total sales" for the row "Total sales")."""
    return 1 if len(wanted) >= 3 else 0


# Words that only join others; every other word of a label counts, stop words included.
GLUE = frozenset("the of a an and in for to at on by & de del la el los las y en ve ile".split())
# Words of a phrase that names a change: only a row that writes them answers to it.
CHANGE_WORDS = frozenset({"chang", "increas", "decreas"})
_TOTAL_ROW = re.compile(r"^\s*(?:total|gross|subtotal|sub-total)\b", re.I)
# "Net deferred tax assets" closes the section "Deferred tax assets"; "Net operating loss
# carryforwards" is one of its parts.
_NET_ROW = re.compile(r"^\s*(?:net|less)\b", re.I)


class Ground:
    """The tables and text lines of one evidence neighbourhood, for anchoring phrases.

    A phrase anchors a cell by the row's label (its first cell) and the column's name, or a
    text line by its words; an anchor is found only when exactly one best match stands, so
    a plan never computes with a guess.
    """

    def __init__(
        self,
        lines: Sequence[Evidence],
        analyzer: Analyzer,
        rarity: Callable[[str], float] | None = None,
    ) -> None:
        self.analyzer = analyzer
        self.rarity = rarity  # a term's weight in the store, to rank near-matches
        # One line once, whatever score each retrieval gave it.
        unique = {(e.document, e.position): e for e in reversed(list(lines))}
        ordered = [unique[key] for key in sorted(unique)]
        self.lines = [e for e in ordered if e.kind != LineKind.ROW]
        self.tables = tables_of(ordered)
        self._terms: dict[str, frozenset[str]] = {}

    def terms(self, text: str) -> frozenset[str]:
        """The words a label or phrase is matched by: stemmed, stop words kept ("Other" is a
        row's whole label), only the glue between words left out; a number word as its
        digits ("less than one year" names the column "Less Than 1 Year")."""
        if text not in self._terms:
            tokens = words(spaced_dates(text), self.analyzer.language)
            stems = (
                str(NUMBER_WORDS[w]) if w in NUMBER_WORDS else self.analyzer.term(w) or w
                for w in tokens
                if w not in GLUE
            )
            self._terms[text] = frozenset(stems)
        return self._terms[text]

    def row_rank(
        self, table: Table, row: Evidence, wanted: frozenset[str], *, tight: bool = False
    ) -> tuple[int, ...] | None:
        """How well a row answers to a phrase, smaller first; None when it does not.

        The phrase names the row when it writes the whole label ("sales in Germany" for
        the row "Germany", "Cash dividends within Appropriation of earnings" for "Cash
        dividends"), or when the label holds the whole phrase (one word of three may be
        the question's own: "the amount of total sales" for "Total sales"), or when the
        label and its section together hold it. Rows whose
        label and section share more of the phrase's words come first. A ``tight`` anchor
        (the interpreter's default) also needs the label, its section and the table's
        header to write half the phrase: "Total" is not "the total number of employees".
        """
        label = self.label_terms(table, row)
        if not label or not wanted:
            return None
        if (wanted & CHANGE_WORDS) - label:
            return None  # "the net change in cash" names a row that writes "change"
        section = self.terms(table.sections.get(row.position, "")) - label
        context = self.terms(table.context)
        slack = row_slack(wanted)
        named = (
            label <= wanted
            or extra_words(wanted, label, slack) is not None
            # "the carrying amount of interest rate swaps": the row "Carrying amount (...)"
            # under the section "Interest rate swaps".
            or (bool(section & wanted) and extra_words(wanted, label | section, slack))
            # "the number of shares granted": the row "Granted during the period" of the
            # table headed "Number of shares (1,000)".
            or (
                bool(label & wanted)
                and bool(context & wanted)
                and extra_words(wanted, label | section | context, slack)
            )
        )
        if not named:
            return None
        # The text about the table counts here too: "The geographic distribution of
        # pretax income ..." above "Domestic | Foreign | Total" makes "Total" the total
        # pretax income.
        about = label | section | context | self.terms(table.captions)
        if tight and 2 * len(about & wanted) < len(wanted):
            return None  # "Total" is not "the total amortization expense on software"
        shared = len(label & wanted) + len(section & wanted)
        # A phrase word the row, its section and its table's header all leave unsaid
        # ("UK" for the row "Total revenue from external customers") counts first: the row
        # "UK" under the header "Revenue from external customers" says all of "revenue
        # from UK".
        unsaid = len(wanted - label - section - context)
        # Then the words the row and its section share with the phrase, less the words
        # they add: "Granted" (one shared, none added) names "the number of non-vested
        # shares granted" better than "Non-vested at December 31, 2019" (two shared,
        # three added), and "Income tax expense (benefit)" better than "Federal" under
        # "Current income tax expense (benefit):". A section adds words only when the
        # phrase names it: "Total" closing a table is not read under its last section.
        added = len((label | section) - wanted) if section & wanted else len(label - wanted)
        return (unsaid, added - shared, -shared, len(label - wanted), len(wanted - label - section))

    def label_terms(self, table: Table, row: Evidence) -> frozenset[str]:
        """The terms of a row's label less a footnote mark ("Total (1)" is "Total"). A bare
        "Total" summing "Loans due from subsidiaries - current portion" and its like also
        says what they all write: it is the total loans due from subsidiaries."""
        terms = self.terms(FOOTNOTE.sub("", table.label(row)))
        if terms != {"total"} or row.position in table.totals:
            return terms  # a total that writes no label is read by its table's words
        shared = [
            self.terms(FOOTNOTE.sub("", table.label(p))) for p in table.sums.get(row.position, ())
        ]
        return terms | frozenset.intersection(*shared) if shared else terms

    def names_a_row(self, phrase: str, *, tight: bool = False) -> bool:
        """Whether any table row answers to the phrase (loosely, unless ``tight``)."""
        wanted = self.terms(phrase)
        return any(
            self.row_rank(table, row, wanted, tight=tight) is not None
            for table in self.tables
            for row in table.rows
        )

    # -- cells

    def cells(
        self, row_phrase: str, column_phrase: str, *, tight: bool = False
    ) -> list[tuple[tuple[int, ...], Value]]:
        """Every cell in a row the row phrase names and a column whose name carries the
        column phrase's words, best first with its rank (the row's, then the column's).
        Without a column phrase, a column the row phrase names comes first."""
        row_terms, column_terms = self.terms(row_phrase), self.terms(column_phrase)
        found: list[tuple[tuple[int, ...], Value]] = []
        for table in self.tables:
            named_column = column_phrase
            in_year: frozenset[int] | None = None  # the rows of the year asked, if sections say
            wanted = row_terms
            if column_terms and all(is_year_term(t) for t in column_terms):
                if not any(is_year_term(t) for c in table.columns() for t in self.terms(c)):
                    in_year = self.rows_of_year(table, column_terms)
                    if in_year is None and column_terms == table.period():
                        # A roll-forward's rows "Balance at March 31, 2017" and "... 2018":
                        # a row that writes another year than asked is not asked for.
                        in_year = self.rows_of_the_year(table, column_terms, undated=True)
                    elif in_year is None:
                        # Another year than the table's own: only a row that writes it
                        # ("Balance as of June 30, 2017") answers, read with its year.
                        in_year = self.rows_of_the_year(
                            table, column_terms, undated=False, named_by=row_terms
                        )
                        if not in_year:
                            continue  # a table of no year column speaks of its own period
                        wanted = row_terms | column_terms
                    named_column = ""  # the year asked is the table's: any column may answer
            shared = self.shared_column_terms(table)
            for row in table.rows:
                if in_year is not None and row.position not in in_year:
                    continue
                extra_row = self.row_rank(table, row, wanted, tight=tight)
                if extra_row is None:
                    continue
                assert row.cells is not None
                # A word names one thing: the "non" of "non-USD ... current assets" names
                # the column "Non-USD" or the row "non-current" (all of whose words the
                # phrase writes), not both; a column the phrase names outranks a row that
                # takes its word.
                whole = self.label_terms(table, row)
                taken = whole if whole <= wanted else frozenset()
                for column in table.value_columns(row):
                    if named_column and table.compares_other_years(column, column_terms):
                        continue
                    if named_column:
                        extra_column = column_rank(column_terms, self.terms(column), wanted)
                        rank = (*extra_row, *extra_column) if extra_column else None
                    else:
                        own = self.terms(column) - shared - taken
                        by_row: tuple[int, ...] | None = extra_row
                        if own & whole and own <= wanted:  # the row is read without it
                            by_row = self.row_rank(table, row, wanted - own, tight=tight)
                        # The phrase words the row leaves unsaid count first: "the total
                        # contractual obligations" is the row "Total contractual
                        # obligations" (its "total" taken by the row), not "Pension
                        # obligations" in the column "Total".
                        rank = (by_row[0], *named_inside(own, wanted), *by_row) if by_row else None
                    value = table.cell(row, column) if rank is not None else None
                    if rank is not None and value is not None:
                        found.append((rank, value))
        if not found and column_terms and all(is_year_term(t) for t in column_terms):
            found = self._transposed(row_terms, column_terms)
        found.sort(key=lambda f: f[0])
        return found

    def _transposed(
        self, row_terms: frozenset[str], year: frozenset[str]
    ) -> list[tuple[tuple[int, ...], Value]]:
        """A table whose rows are the years ("2015", "2016", "2019 (proposed)") and whose
        columns name the figures ("Dividend Paid per Ordinary Share €"): the row phrase
        names the column, the year the row."""
        found: list[tuple[tuple[int, ...], Value]] = []
        for table in self.tables:
            for row in table.rows:
                assert row.cells is not None
                # A year alone names no row to the table reader: read the first cell here.
                first = next(iter(row.cells), "")
                label = self.terms(FOOTNOTE.sub("", row.cells.get(first, "")))
                if not year <= label or len(label - year) > 1:
                    continue
                for column in list(row.cells)[1:]:
                    extra = extra_words(row_terms, self.terms(column), row_slack(row_terms))
                    value = table.cell(row, column) if extra is not None else None
                    if extra is not None and value is not None:
                        # Said by its column and its row's year: "..., 2015".
                        named = replace(
                            value,
                            text=column_date(row.cells[first]),
                            label=f"{column}, {row.cells[first]}",
                        )
                        found.append(((*extra, len(label - year)), named))
        return found

    def shared_column_terms(self, table: Table) -> frozenset[str]:
        """The words every column of the table writes: a spanning header row joined into
        each name ("Payments due by Period (In thousands) Less Than 1 Year") names no
        column in particular."""
        names = [self.terms(c) for c in table.columns()]
        return frozenset.intersection(*names) if len(names) > 1 else frozenset()

    def rows_of_year(self, table: Table, year: frozenset[str]) -> frozenset[int] | None:
        """The rows under the section of the year asked, when the table's sections are
        years ("2019:" above its four quarters, "2018:" above the next four); None when
        fewer than two sections write a year."""
        section_years = {
            position: {t for t in self.terms(name) if is_year_term(t)}
            for position, name in table.sections.items()
        }
        if len({frozenset(y) for y in section_years.values() if y}) < 2:
            return None
        return frozenset(p for p, years in section_years.items() if year <= years)

    def rows_of_the_year(
        self,
        table: Table,
        year: frozenset[str],
        *,
        undated: bool,
        named_by: frozenset[str] | None = None,
    ) -> frozenset[int]:
        """The rows whose labels write the year asked, and with ``undated`` those that
        write no year; with ``named_by``, only rows whose label shares a word other than
        the year with those terms (a row is not named by its year alone)."""
        kept = set()
        for row in table.rows:
            label = self.label_terms(table, row)
            if named_by is not None and not (label - year) & named_by:
                continue
            if year <= label or (undated and not any(is_year_term(t) for t in label)):
                kept.add(row.position)
        return frozenset(kept)

    def row(self, row_phrase: str) -> list[tuple[tuple[int, ...], list[Value]]]:
        """The cells of each row the phrase names, best first with its rank."""
        row_terms = self.terms(row_phrase)
        found: list[tuple[tuple[int, ...], list[Value]]] = []
        for table in self.tables:
            for row in table.rows:
                extra = self.row_rank(table, row, row_terms)
                if extra is None:
                    continue
                assert row.cells is not None
                cells = (table.cell(row, column) for column in table.value_columns(row))
                values = [value for value in cells if value is not None]
                if values:
                    found.append((extra, values))
        found.sort(key=lambda f: f[0])
        return found

    def column(self, column_phrase: str, *, parts: bool = False) -> list[list[Value]]:
        """The cells of the column the phrase names, one list a table: a column whose name
        carries the phrase's words, or else one whose whole name the phrase writes ("the
        highest total value" names "Total"), or else the one of the year the phrase names.
        ``parts`` leaves out total rows."""
        column_terms = self.terms(column_phrase)
        out: list[list[Value]] = []
        for table in self.tables:
            columns = table.columns()
            names = [c for c in columns if extra_words(column_terms, self.terms(c)) is not None]
            if not names:
                names = [c for c in columns if self.terms(c) and self.terms(c) <= column_terms]
            years = {t for t in column_terms if is_year_term(t)}
            if not names and years:
                # "the highest 2019 sales": the year decides the column.
                names = [c for c in columns if years <= self.terms(c)]
            if len(names) != 1:
                continue
            values = []
            for row in table.rows:
                if parts and _TOTAL_ROW.match(table.label(row)):
                    continue
                value = table.cell(row, names[0])
                if value is not None:
                    values.append(value)
            if values:
                out.append(values)
        return out

    def section(self, phrase: str) -> list[Value]:
        """The labels of the rows under the section the phrase names, in table order, up to
        the section's total ("Gross deferred tax assets", "Total", "Net ...")."""
        wanted = self.terms(phrase)
        found: list[Value] = []
        for table in self.tables:
            closed: set[str] = set()  # sections whose total row has been passed
            for row in table.rows:
                section = table.sections.get(row.position, "")
                heading = self.terms(section)
                label = table.label(row)
                if not (label and heading and (heading <= wanted or wanted <= heading)):
                    continue
                if section in closed:
                    continue
                if _TOTAL_ROW.match(label) or (
                    _NET_ROW.match(label) and len(self.terms(label) & heading) >= 2
                ):
                    # A section's parts end at its total; the rows after it are derived.
                    closed.add(section)
                    continue
                found.append(Value(Kind.ENTITY, text=label, sources=(Source(row),), label=label))
        return found or self.parts_of_total(phrase)

    def parts_of_total(self, phrase: str) -> list[Value]:
        """The labels of the rows a total sums, for a phrase that names the total ("the
        total prepayments": the rows above "Total prepayments"; "the past due receivables"
        under a caption that says so: the rows above a total that writes no label)."""
        wanted = self.terms(phrase) - {"total"}
        if not wanted:
            return []
        for table in self.tables:
            about = self.terms(table.context) | self.terms(table.captions)
            parts: list[Value] = []
            for row in table.rows:
                label = table.label(row)
                terms = self.label_terms(table, row)
                if not label:
                    parts = []  # a row with no label parts what comes before from after
                    continue
                if row.position in table.totals or _TOTAL_ROW.match(label):
                    said = (terms - {"total"}) or about
                    if len(parts) >= 2 and wanted <= said | (terms & about):
                        return parts
                    parts = []
                    continue
                if len(row.cells or {}) < 2:
                    parts = []  # a heading opens another run of parts
                    continue
                if all(table.cell(row, c) is None for c in table.value_columns(row)):
                    continue  # a row of units ("US$000") is no part
                parts.append(Value(Kind.ENTITY, text=label, sources=(Source(row),), label=label))
        return []

    # -- text

    def statements(self, phrase: str) -> list[Evidence]:
        """Text lines that carry every word of the phrase, in document order."""
        wanted = self.terms(phrase)
        return [e for e in self.lines if wanted and wanted <= self.terms(e.text)]
