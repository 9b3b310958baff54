"""A cell or a field's value is proposed only when it can be of the kind the question asks
for, on the real Artistic License: a definition's clause answers "Who is the “Copyright
Holder”?" (the term is quoted) but not "To whom must a fee be justified?"; an amount
question is not answered with a name written in an amount's column."""

from __future__ import annotations

from pathlib import Path

from affidavit import Memory
from affidavit.engine.rules.cells import cell_answer, cell_candidates
from affidavit.question.shape import AnswerType
from affidavit.results import Evidence, LineKind
from affidavit.text import analyzer_for

ARTISTIC = Path(__file__).resolve().parents[2] / "corpora" / "compliance" / "artistic-1.0.txt"


def test_a_typed_kind_needs_its_value_written() -> None:
    answer = cell_answer(AnswerType.AMOUNT, "What amount was paid to Bain?")
    assert answer("Amount", "$37,499.96") == "$37,499.96"
    assert answer("Amount", "BAIN.JMATTHEW") is None


def test_a_name_opens_on_a_capital_unless_the_question_quotes_the_term() -> None:
    answer = cell_answer(AnswerType.PERSON, "To whom must the fee be justified?")
    assert answer("Contact", "Dana Okafor, site manager") == "Dana Okafor, site manager"
    assert answer("Reasonable copying fee", "whatever you can justify") is None
    quoted = cell_answer(AnswerType.PERSON, 'Who is the "Copyright Holder"?')
    assert quoted("Copyright Holder", "whoever is named in the copyright")


def test_a_date_written_beside_other_words_is_the_answer() -> None:
    # The field of a real safety data sheet (corpora/forms/nist-srm3133-sds.txt), its
    # value run on into the title set under it.
    answer = cell_answer(AnswerType.TIME, "What is the date of issue?")
    assert answer("Date of Issue", "12 August 2016 SAFETY DATA SHEET") == "12 August 2016"
    assert answer("Date of Issue", "12 August 2016") == "12 August 2016"
    # Two dates, or only the date the question writes: the value stands whole or not at all.
    assert answer("Dates", "12 August 2016, revised 3 May 2017") == (
        "12 August 2016, revised 3 May 2017"
    )
    asked = cell_answer(AnswerType.TIME, "Was it issued on 12 August 2016 or later?")
    assert asked("Date of Issue", "12 August 2016 SAFETY DATA SHEET") is None
    # An amount keeps its cell whole: its currency and unit are part of what it says.
    amount = cell_answer(AnswerType.AMOUNT, "What is the fee?")
    assert amount("Fee", "$24 per hour, paid monthly") == "$24 per hour, paid monthly"


def test_a_definition_answers_its_quoted_term_and_no_other_kind() -> None:
    memory = Memory(dense=False)
    memory.ingest(ARTISTIC)
    holder = memory.ask('Who is the "Copyright Holder" in the Artistic License?')
    assert not holder.refused
    assert holder.text.startswith("whoever is named in the copyright")
    fee = memory.ask(
        "To whom must a reasonable copying fee be justified under the Artistic License?"
    )
    assert fee.refused or not fee.text.startswith("whatever you can justify")


def test_the_definition_of_a_quoted_term_is_proposed_though_it_repeats_the_term() -> None:
    memory = Memory(dense=False)
    memory.ingest(ARTISTIC.parents[1] / "licences" / "lgpl-3.0.txt")
    answer = memory.ask('What is the "Combined Work" in the LGPL?')
    assert not answer.refused
    assert answer.text == "a work produced by combining or linking an Application with the Library"
    assert answer.audit["chosen"]["candidate"]["note"] == "cell under column 'Combined Work'"


def _offered(row: str, question: str, kind: AnswerType | None = None) -> list[str]:
    """What a row without column names, read off a PDF page, offers ``question``: every
    cell naming what it asks for, or, given its ``kind``, what cell_answer makes of it."""
    analyzer = analyzer_for("en")
    line = Evidence(document="form.pdf", position=3, text=row, kind=LineKind.ROW, score=1.0)
    terms = set(analyzer.terms(question))
    if kind is None:
        found = cell_candidates(0, line, terms, analyzer, 0.5, set())
    else:
        answer = cell_answer(kind, question)
        found = cell_candidates(0, line, terms, analyzer, 0.5, set(), answer)
    return [c.text for c in found]


def test_a_row_without_column_names_offers_a_short_cell_never_a_sentence() -> None:
    """A PDF's row read by rows offers the cell that names what the question asks for
    ("Which card ...?"), and, for a typed question, the value of that kind the cell
    writes; a cell that says a clause of prose is left to the readers of prose."""
    card = _offered(
        "DHAW20190001\t05/03/2019\tCITIBANK - TRAVEL CBA CARD\t920.68",
        "Which card was used on DHAW20190001?",
    )
    assert card == ["CITIBANK - TRAVEL CBA CARD"]
    prose = _offered(
        "here.\t2\tTaxable interest. If the total is over $1,500, you cannot use it.",
        "Above what amount of taxable interest can you not use the form?",
        AnswerType.AMOUNT,
    )
    assert prose == []
    contact = _offered(
        "List address\tdebian-legal@lists.debian.org (http://lists.debian.org/debian-legal/)",
        "What is the e-mail address of the list?",
        AnswerType.EMAIL,
    )
    assert contact == ["debian-legal@lists.debian.org"]


def test_a_value_the_question_writes_names_the_row_and_is_no_answer() -> None:
    # A row of Schedule X of the 2007 Form 1040NR instructions (corpora/pdf_text_dumps),
    # each cell under its column: the question picks the row by two of its cells.
    analyzer = analyzer_for("en")
    cells = {
        "If taxable income is: Over —": "77,100",
        "But not over —": "160,850",
        "The tax is:": "15,698.75 + 28%",
        "of the amount over —": "77,100",
    }
    row = " | ".join(cells.values())
    line = Evidence(
        document="i1040nr.pdf", position=9, text=row, kind=LineKind.ROW, score=1.0, cells=cells
    )
    question = "What is the tax on taxable income over $77,100 but not over $160,850?"
    found = cell_candidates(0, line, set(analyzer.terms(question)), analyzer, 0.5, set())
    assert [c.text for c in found] == ["15,698.75 + 28%"]


def test_of_the_columns_a_question_names_the_nearest_named_comes_first() -> None:
    analyzer = analyzer_for("en")
    cells = {"State": "Kentucky", "Handgun": "12,155", "Pre-Pawn Handgun": "9"}
    line = Evidence(
        document="nics.pdf",
        position=21,
        text="Kentucky\t12,155\t9",
        kind=LineKind.ROW,
        score=1.0,
        cells=cells,
    )

    def best(question: str) -> str:
        terms = set(analyzer.terms(question))
        found = cell_candidates(0, line, terms, analyzer, 0.5, set())
        return max(found, key=lambda c: c.score).text

    assert best("How many handgun checks did Kentucky have?") == "12,155"
    assert best("How many Pre-Pawn handgun checks did Kentucky have?") == "9"
