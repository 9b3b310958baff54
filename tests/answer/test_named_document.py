"""A question that calls one document of several by name ("in the Mozilla Public License",
"the LGPL") is read in that document alone, its lines ranked without the words that name
it, and the audit says the scope was the question's; a question asking what a quoted term
means is answered only from a line that quotes the term. On the real licences."""

from __future__ import annotations

from affidavit import Memory
from affidavit.gates.case import Case, Judgement
from affidavit.gates.definition import term_defined
from affidavit.question.asking import words_naming_a_document
from affidavit.question.question import Question
from affidavit.results import Evidence, LineKind
from affidavit.text.analyzer import Analyzer

EN = Analyzer("en")


def test_the_words_that_name_a_document() -> None:
    assert words_naming_a_document(
        "Which section of the Mozilla Public License covers it?", EN
    ) == [
        "Mozilla",
        "Public",
    ]
    assert words_naming_a_document(
        "When was the GNU General Public License version 2 issued?", EN
    ) == [
        "GNU",
        "General",
        "Public",
        "2",
    ]
    assert words_naming_a_document("What does the retention policy require?", EN) == []


def test_a_named_licence_is_read_alone(licences: Memory) -> None:
    answer = licences.ask('What does "Contributor" mean in the Mozilla Public License?')
    assert not answer.refused
    assert answer.text.startswith("each individual or legal entity that creates")
    assert {c.document for c in answer.citations} == {"licences/mpl-2.0.txt"}
    assert answer.audit["scope"] == {
        "documents": ["licences/mpl-2.0.txt"],
        "named_by_the_question": True,
        "matched": ["licences/mpl-2.0.txt"],
    }
    apache = licences.ask('What is the "Source" form under the Apache License?')
    assert apache.text.startswith("the preferred form for making modifications")
    assert {c.document for c in apache.citations} == {"licences/apache-2.0.txt"}


def test_a_question_naming_no_document_reads_them_all(licences: Memory) -> None:
    answer = licences.ask("What must redistributions of source code retain?")
    assert "scope" not in answer.audit


def _cited(text: str) -> Evidence:
    return Evidence(
        document="cc0-1.0.txt", position=3, text=text, kind=LineKind.SENTENCE, score=1.0
    )


def test_a_definition_is_read_only_from_a_line_that_quotes_the_term() -> None:
    question = Question.read('Who is the "Affirmer" in CC0?')
    assert question.definition == ("affirmer",)
    assert Question.read('What does "License" mean?').definition == ("license",)
    assert Question.read('Who wrote "The Raven"?').definition == ()
    defining = 'associating CC0 with a Work (the "Affirmer"), to the extent that he or she'
    using = "Creative Commons is not a party to this document."

    def decided(line: str):  # type: ignore[no-untyped-def]
        case = Case(text="x", lines=[_cited(line)], analyzer=EN, cites=(0,), question=question)
        return term_defined(case, Judgement())

    assert decided(defining).passed
    failed = decided(using)
    assert not failed.passed and failed.reason == "weak_evidence"
    # A question that asks no definition is not this judge's to decide.
    plain = Case(
        text="x",
        lines=[_cited(using)],
        analyzer=EN,
        cites=(0,),
        question=Question.read("Who is the affirmer in CC0?"),
    )
    assert term_defined(plain, Judgement()) is None
