"""Cells as candidates: the value under the column a question names (a table's row, or
a field line's "Label: value"), and in a row whose columns have no names, the cell that
names what the question asks for; each only when it can be of the kind asked for."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from affidavit.engine.protocol import Candidate
from affidavit.question import AnswerType, holds_answer, written_value
from affidavit.results import Evidence, LineKind
from affidavit.text import (
    Analyzer,
    expansion_terms,
    fold,
    quoted_terms,
    says_a_sentence,
    short_forms_of,
)

# Kinds whose answer names someone or somewhere: a value that opens in lower case
# ("whatever you can justify on the basis of media cost") is a clause, not a name.
_NAMED_KINDS = frozenset({AnswerType.PERSON, AnswerType.PLACE, AnswerType.ENTITY})
# A defined term's label is at most this long (ingest/fields.py): a longer quotation in
# the question names no column.
_LONGEST_TERM = 60


# A cell of a row without column names that names what the question asks for is a short
# name ("CITIBANK - TRAVEL CBA CARD"); one of this many words is a clause of prose.
_LONGEST_CELL_WORDS = 8


# A cell under the column the question names gains this over its line's score; the
# definition of the very term the question quotes gains more: it is what was asked.
CELL_GAIN = 0.3
DEFINITION_GAIN = 0.6
# Of the columns a question names, the one it names most nearly comes first: each word of
# a column's name the question writes adds this, each it does not write takes it away
# (asked for "handgun checks", "Handgun" before "Pre-Pawn Handgun", a group's sub-column;
# asked for "Pre-Pawn handgun checks", the other way round); too little to reorder a cell
# against candidates of other kinds.
COLUMN_WORD = 0.01


def quoted_columns(question: str) -> frozenset[str]:
    """The terms a question quotes ('What is the "Combined Work"?'), folded as column
    names are compared: read once a question, not once a cell."""
    return frozenset(fold(term) for term in quoted_terms(question, _LONGEST_TERM))


def cell_answer(answer_type: AnswerType, question: str) -> Callable[[str, str], str | None]:
    """What a cell's value (under its column) answers, or None when it cannot be an answer
    of ``answer_type``. A typed kind (a date, a number, an amount…) must be written in it
    (question/typed_lines.py), and where the value writes one such value beside other
    words, that value is the answer (the field "Date of Issue: 12 August 2016 SAFETY DATA
    SHEET" answers "12 August 2016"); a name opens on a capital or a figure; any value
    answers the kinds no shape describes, and the definition of a term the question
    quotes ('Who is the "Copyright Holder"?') answers whatever the question's shape."""
    rank = holds_answer(answer_type, question)
    written = written_value(answer_type, question)
    quoted = quoted_columns(question)

    def answer(column: str, value: str) -> str | None:
        if fold(column) in quoted:
            return value
        if rank is not None:
            return (written(value) or value) if rank(value) < 2 else None
        if answer_type in _NAMED_KINDS:
            return value if value[:1].isupper() or value[:1].isdigit() else None
        return value

    return answer


def cell_candidates(
    index: int,
    line: Evidence,
    question_terms: set[str],
    analyzer: Analyzer,
    base: float,
    headers: set[tuple[str, ...]],
    answer: Callable[[str, str], str | None] = lambda _column, value: value,
    quoted: frozenset[str] = frozenset(),
) -> list[Candidate]:
    """The cells of a row (or a field line) under the column the question names, each
    a candidate with what ``answer`` makes of it (cell_answer: None when it cannot be of
    the kind asked for); the definition of a term the question quotes (``quoted``:
    quoted_columns) first."""
    if not line.cells:
        found = []
        for cell in _unnamed_cells(index, line, question_terms, analyzer, base, headers):
            answered = answer("", cell.text)
            if answered is not None:  # the value of the kind asked, where the cell writes one
                found.append(replace(cell, text=answered, value=answered))
        return found
    found = []
    # A column is asked for by the question's words its name carries that the row's own
    # cells do not: asked "How many shares were granted?", the row "Granted" says
    # "granted", so "Grant Date Fair Value" is not the column asked for, "Shares" is.
    said = {term for value in line.cells.values() for term in analyzer.terms(value)}
    for column, value in line.cells.items():
        # The term a question quotes names its definition's column though the value
        # repeats its words ('"Combined Work" is a work produced by combining…').
        defined = fold(column) in quoted
        # A column named by abbreviation ("Cat. No.") names the words it stands for.
        naming = set(analyzer.terms(column)) | expansion_terms(column, analyzer)
        named = (naming & question_terms) - said or defined
        answered = answer(column, value.strip()) if value.strip() and named else None
        # A value the question writes itself names the row, it does not answer: asked
        # "the tax on taxable income over $77,100", the cell "77,100" under "Over" is how
        # the question picks its row, "15,698.75 + 28%" under "The tax is" its answer.
        if answered and set(analyzer.terms(answered)) <= question_terms:
            continue
        if answered:
            found.append(
                Candidate(
                    text=answered,
                    value=answered,
                    cites=(index,),
                    score=base
                    + (DEFINITION_GAIN if defined else CELL_GAIN)
                    + COLUMN_WORD * (len(naming & question_terms) - len(naming - question_terms)),
                    note=f"cell under column {column!r}",
                    extra={"column": column},
                )
            )
    return found


def _unnamed_cells(
    index: int,
    line: Evidence,
    question_terms: set[str],
    analyzer: Analyzer,
    base: float,
    headers: set[tuple[str, ...]],
) -> list[Candidate]:
    """In a row whose columns have no names, the cell that names what the question asks
    for ("Which card ...?" -> "CITIBANK - TRAVEL CBA CARD"): a cell sharing a word with
    the question and saying something the question does not. Cells are a tab apart in a
    row read off a PDF page, " | " apart in the other readers' rows."""
    delimiter = "\t" if "\t" in line.text else "|"
    if line.kind != LineKind.ROW or delimiter not in line.text:
        return []
    cells = [c.strip() for c in line.text.split(delimiter)]
    if tuple(c for c in cells if c) in headers:
        return []  # a table's header row ("| Awards | Shares |") names columns, not facts
    # A cell names a question's word through its abbreviation too ("Cat. No. 11329W" of
    # "What is the catalog number?"), and the abbreviation says nothing beyond it.
    shortened = set(short_forms_of(question_terms, analyzer.language))
    found = []
    for cell in cells:
        if says_a_sentence(cell, _LONGEST_CELL_WORDS):
            continue  # prose beside a form's line numbers: the readers of prose read it
        terms = set(analyzer.terms(cell))
        named = terms | expansion_terms(cell, analyzer)
        if named & question_terms and terms - question_terms - shortened:
            found.append(
                Candidate(
                    text=cell,
                    value=cell,
                    cites=(index,),
                    score=base + 0.2,
                    note="cell naming the question's word",
                )
            )
    return found
