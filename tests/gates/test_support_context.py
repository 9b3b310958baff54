"""What a line carries for the support tier and for search: its place in the document.

A table row says each cell under its column's name and stands under its table's heading;
a sentence stands under its section's heading and its document's title; a written
abbreviation carries the word it stands for; an irregular past meets its verb.
"""

from __future__ import annotations

from conftest import DEMO_DIR

from affidavit import Memory
from affidavit.gates.context import support_context, support_terms
from affidavit.question.shape import AnswerType
from affidavit.question.typed_lines import holds_answer
from affidavit.results import Evidence
from affidavit.text.abbreviations import expansion_terms, short_forms
from affidavit.text.analyzer import Analyzer

EN = Analyzer("en")
HANDBOOK = DEMO_DIR / "site-handbook.md"


def test_a_row_is_found_by_its_column_name() -> None:
    memory = Memory(dense=False)
    memory.ingest_text(
        "| State | Permit | Handgun |\n|---|---|---|\n| Ohio | 9,338 | 34,878 |\n"
        "| Utah | 1,200 | 5,100 |\n",
        name="checks.md",
    )
    hits = memory.search("handgun Ohio", k=1)
    assert hits and hits[0].text.startswith("| Ohio")


def test_a_price_row_answers_a_question_naming_its_table() -> None:
    # "canteen" is only in the heading above the table; "price" only in the column name.
    memory = Memory(dense=False)
    memory.ingest(HANDBOOK)
    answer = memory.ask("What is the price of a hot meal in the canteen?")
    assert not answer.refused
    assert answer.value == "5.75"
    assert any(c.text == "## Canteen prices" for c in answer.citations)


def test_a_sentence_stands_under_its_section_and_its_document_title() -> None:
    title = Evidence(
        document="h.md",
        position=0,
        text="# Riverside Works site handbook",
        kind="heading",
        score=1.0,
    )
    section = Evidence(
        document="h.md", position=12, text="## Hot work permits", kind="heading", score=1.0
    )
    line = Evidence(
        document="h.md",
        position=13,
        text="It must be signed by the site manager.",
        kind="sentence",
        score=1.0,
    )
    far = Evidence(document="h.md", position=20, text="Tea costs 1.10.", kind="sentence", score=1.0)
    near = support_context([line], [title, section, line, far])
    assert near == [title, section]
    carried, own, _, _ = support_terms([line], near, EN)
    assert {"riversid", "permit", "sign"} <= carried
    assert "riversid" not in own


def test_a_row_does_not_borrow_the_words_of_the_row_beside_it() -> None:
    heading = Evidence(document="t.md", position=0, text="## Checks", kind="heading", score=1.0)
    ohio = Evidence(
        document="t.md",
        position=2,
        text="| Ohio | 9,338 |",
        kind="row",
        score=1.0,
        cells={"State": "Ohio", "Permit": "9,338"},
    )
    utah = Evidence(
        document="t.md",
        position=3,
        text="| Utah | 1,200 |",
        kind="row",
        score=1.0,
        cells={"State": "Utah", "Permit": "1,200"},
    )
    assert support_context([ohio], [heading, ohio, utah]) == [heading]


def test_a_written_abbreviation_carries_its_word_and_is_searched_for() -> None:
    assert expansion_terms("Cat. No. 11368V", EN) == {"catalog", "number"}
    assert expansion_terms("The cat. It sat.", EN) == frozenset()  # not written as one
    assert short_forms("What is the catalog number?") == ["cat"]
    assert short_forms("By what date must it be filed?") == ["due"]


def test_a_typed_question_prefers_lines_with_an_answer_it_does_not_already_write() -> None:
    grade = holds_answer(AnswerType.TIME, "By what date must the 2007 return be filed?")
    assert grade is not None
    assert grade("A return for the 2007 calendar year is due by April 15, 2008.") == 0
    assert grade("File the 2008 return on time.") == 1  # a year, not a whole date
    assert grade("You must file a return for 2007.") == 2  # only the question's own year
    assert holds_answer(AnswerType.DESCRIPTION, "What is it?") is None


def test_the_kind_of_answer_and_the_reporting_company_need_not_be_written() -> None:
    memory = Memory()
    memory.ingest_text(
        "# Pensions\n\nThe Group also operates defined benefit indemnity plans in Greece and "
        "Turkey.\n\nOur common stock is traded on the NASDAQ Global Select Market.",
        name="pensions.md",
    )
    # "countries" names what is asked for; "the company" is the report's own "we".
    plans = memory.ask("Which countries does the group operate defined benefit indemnity plans in?")
    assert not plans.refused and "Greece and Turkey" in plans.text
    market = memory.ask("Which market is the company's common stock traded on?")
    assert not market.refused and "NASDAQ Global Select Market" in market.text


def test_a_question_that_names_the_document_is_carried_by_its_dateline(licences) -> None:
    """ "… in the Apache License?": the licence's lines do not repeat its name, and need
    not; the dateline writes it for each of them (the rarest key word, 'apache', is the
    document's). A question naming another document is still refused by this one's."""
    answer = licences.ask('What does "Contributor" mean in the Apache License?')
    assert answer.text.startswith("Licensor and any individual or Legal Entity")
    assert answer.citations[0].document == "licences/apache-2.0.txt"
    elsewhere = licences.ask(
        'What does "Contributor" mean in the Apache License?', documents="mpl*"
    )
    assert elsewhere.refused


def test_the_verb_asking_a_definition_is_no_key_word_a_defining_line_must_write() -> None:
    # "The source code for a work means ..." defines without writing "define": the verb
    # names the kind of answer asked, as "describe" does.
    from affidavit.gates.support import KeyWords
    from affidavit.question import Question

    asked = Question.read("How does the GPL define the source code for a work?")
    keys = KeyWords.of(asked.key_terms, None, "en")
    line = "The source code for a work means the preferred form of the work for making it."
    defined = asked.analyzer.terms("define")[0]
    assert defined in asked.key_terms and defined not in keys.terms
    assert keys.carried(asked.analyzer.terms(line)).missing == tuple(asked.analyzer.terms("GPL"))
