"""The cells a phrase names by both coordinates: every word of the row's label and of the
column's name stands in the phrase."""

from __future__ import annotations

from affidavit.plans.ground import Ground
from affidavit.plans.tables import Table
from affidavit.plans.values import Value
from affidavit.results import Evidence
from affidavit.text import is_year_term, words


def named_cells(ground: Ground, phrase: str) -> list[Value]:
    """The cells of one table whose row and column the phrase names, in the order the
    phrase names what sets each apart; empty when no table has one, or when two tables
    do (which one is meant is not known).

    "The difference in the high and low prices in the fourth quarter of 2019" names two
    cells of a quarterly table (the row "Fourth Quarter" under the section "2019:", the
    columns "High" and "Low"); "the respective values of operating lease obligations that
    are less than one year and between 2-5 years" names two cells of one row. Neither is a
    row in given years, which is all the year-led anchors read. The order ("high" before
    "low") lets a difference be taken the way the question takes it.
    """
    wanted = ground.terms(phrase)
    said = set(ground.analyzer.terms(phrase))  # less the stop words: what it is about
    content = frozenset(t for t in wanted if t in said or t.isdigit())
    found = [
        cells for table in ground.tables if (cells := _in_table(ground, table, wanted, content))
    ]
    if len(found) != 1:
        return []
    return _in_phrase_order(ground, phrase, found[0])


def _in_table(
    ground: Ground, table: Table, wanted: frozenset[str], content: frozenset[str]
) -> list[Value]:
    """The cells of ``table`` the phrase names. Matching is strict, so that a plan never
    computes with a guess: a label or column name counts only when the phrase writes all
    of its words, a word names one coordinate only, a cell whose words another named cell
    holds gives way to it, half of what the phrase is about must be the cell's, and the
    phrase's years pick the section or column of that year."""
    years = frozenset(t for t in wanted if is_year_term(t))
    header = ground.terms(table.context)
    in_year = ground.rows_of_year(table, years) if years else None
    shared = ground.shared_column_terms(table)
    columns = {
        c: own
        for c in table.columns()
        if (own := ground.terms(c) - shared) <= wanted and not table.compares_other_years(c, years)
    }
    named: list[tuple[frozenset[str], Evidence, str]] = []
    for row in table.rows:
        label = ground.label_terms(table, row)
        if not label or not label <= wanted:
            continue
        if in_year is not None and row.position not in in_year:
            continue
        section = ground.terms(table.sections.get(row.position, ""))
        for column, own in columns.items():
            # A word names one thing: "total contractual obligations" names the row
            # "Total", not the column "Total" as well. And half of what the phrase is
            # about must be the cell's own row, section, column or header: "depreciation
            # expense related to internal use software" is not the row "Internal use
            # software" of a table of balances.
            about = label | section | own | header
            if own and not own & label and 2 * len(content & about) >= len(content):
                named.append((label | own, row, column))
    cells = []
    for described, row, column in named:
        if any(described < other for other, _, _ in named):
            continue  # "Sales" gives way to "Total sales" when the phrase writes both
        cell = _cell(table, row, column)
        if cell is not None:
            cells.append(cell)
    return cells


def _cell(table: Table, row: Evidence, column: str) -> Value | None:
    """The row's cell in the column as a typed value; None for its label, an empty or a
    wordy cell."""
    assert row.cells is not None
    return table.cell(row, column) if column in table.value_columns(row) else None


def _in_phrase_order(ground: Ground, phrase: str, cells: list[Value]) -> list[Value]:
    """Cells ordered by where the phrase first writes a word that only that cell's
    label or column has among them; ties keep table order."""
    place: dict[str, int] = {}
    for index, token in enumerate(words(phrase, ground.analyzer.language)):
        for term in ground.terms(token):
            place.setdefault(term, index)
    described = [ground.terms(v.label) for v in cells]
    every = frozenset.intersection(*described) if described else frozenset()
    keyed = []
    for order, (value, terms) in enumerate(zip(cells, described, strict=True)):
        own = [place[t] for t in terms - every if t in place]
        keyed.append((min(own, default=len(place)), order, value))
    return [value for _, _, value in sorted(keyed, key=lambda k: (k[0], k[1]))]
