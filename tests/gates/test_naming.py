"""A question names its document by the document's name or title: "in the LGPL", "the GNU
GPL version 2", "GPL v2", and "in November 2015" of a report its title dates. Those words
need not stand in the line that answers; a word that is only a document's name as well
("the Normans" of Normans.txt) is still asked of it. A licence's title box is read as its
title, not as a table."""

from __future__ import annotations

from pathlib import Path

from affidavit import Memory
from affidavit.gates.support import naming_terms
from affidavit.text.abbreviations import acronyms
from affidavit.text.analyzer import Analyzer

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
EN = Analyzer("en")
GPL_TITLE = "GNU GENERAL PUBLIC LICENSE Version 2, June 1991"


def terms(question: str) -> frozenset[str]:
    return frozenset(EN.terms(question))


def said(question: str) -> frozenset[str]:
    """The terms of the question's acronyms, as the question is read at the door."""
    return frozenset(EN.terms(" ".join(acronyms(question))))


def test_an_acronym_of_the_name_names_the_document_with_its_title_words() -> None:
    question = "Under the GNU GPL version 2, what must modified files carry?"
    named = naming_terms(
        terms(question), "gpl-2.0.txt", EN, title=GPL_TITLE, acronym_terms=said(question)
    )
    assert named == frozenset(EN.terms("GNU GPL version 2"))


def test_a_version_written_short_is_the_titles_version() -> None:
    question = "How does GPL v2 define the source code for a work?"
    named = naming_terms(
        terms(question), "gpl-2.0.txt", EN, title=GPL_TITLE, acronym_terms=said(question)
    )
    assert {"gpl", "v2"} <= named and "sourc" not in named


def test_a_word_that_only_shares_the_documents_name_is_still_asked() -> None:
    question = "When did the Normans invade England?"
    assert (
        naming_terms(
            terms(question), "Normans.txt", EN, title="Normans", acronym_terms=said(question)
        )
        == frozenset()
    )
    lowered = "what is the combined work in the lgpl?"
    assert (
        naming_terms(terms(lowered), "lgpl-3.0.txt", EN, acronym_terms=said(lowered)) == frozenset()
    )


def test_acronyms_are_the_words_written_in_capitals() -> None:
    assert acronyms("Is CC0 like the LGPL, or GPL v2 in May?") == ["CC0", "LGPL", "GPL"]


def test_a_definition_is_found_when_the_question_calls_the_licence_by_its_acronym(
    licences: Memory,
) -> None:
    answer = licences.ask('What does "The Library" refer to in the LGPL?')
    assert not answer.refused
    assert answer.text.startswith("a covered work governed by this License")
    assert answer.citations[0].document == "licences/lgpl-3.0.txt"


def test_the_date_a_title_gives_its_document_names_it() -> None:
    question = "How many handgun checks did Ohio have in November 2015?"
    title = "NICS Firearm Background Checks November 2015"
    named = naming_terms(
        terms(question), "checks.docx", EN, title=title, acronym_terms=said(question)
    )
    assert named == frozenset(EN.terms("November 2015"))


def test_a_row_of_a_dated_report_answers_without_repeating_the_date() -> None:
    memory = Memory(dense=False)
    memory.ingest(CORPORA / "office" / "nics-firearm-checks-2015-11.docx")
    answer = memory.ask("How many handgun checks did Ohio have in November 2015?")
    assert not answer.refused and answer.text == "34,878"
    assert answer.citations[0].text.startswith("Ohio |")
