"""The statement an English question asking yes or no asks about, read from its parse."""

from __future__ import annotations

import pytest

from affidavit.text import statement_asked


@pytest.mark.parametrize(
    ("question", "statement"),
    [
        # A modal and an expletive subject: the modal goes after "there".
        (
            "May there be subdirectories in /usr/sbin?",
            "There may be subdirectories in /usr/sbin.",
        ),
        # A passive: the auxiliary after the whole subject, relative clause and all.
        (
            "Will the full list of people who receive advance notification be made public?",
            "The full list of people who receive advance notification will be made public.",
        ),
        # do-support: "does X include" is "X includes"; "do" leaves the verb as it is.
        (
            "Does the daily summary include the hosts' uuids?",
            "The daily summary includes the hosts' uuids.",
        ),
        (
            "Do you need permission to make and sell Debian CDs?",
            "You need permission to make and sell Debian CDs.",
        ),
        # A copula whose predicate is a participle or an adjective outside the subject.
        (
            "Is the Copyright field required in a Files stanza?",
            "The Copyright field is required in a Files stanza.",
        ),
        (
            "Is use of the machine-readable copyright specification mandatory?",
            "Use of the machine-readable copyright specification is mandatory.",
        ),
        # "did" keeps its tense on the verb's side.
        ("Did the company pay a dividend in 2019?", "The company did pay a dividend in 2019."),
    ],
)
def test_a_question_asking_yes_or_no_reads_as_its_statement(question: str, statement: str) -> None:
    assert statement_asked(question, "en") == statement


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("What is the fee?", "en"),  # asks for a value, not yes or no
        ("Who may publish new versions of the EUPL?", "en"),
        # A copula whose predicate is a bare noun: where the subject ends is not shown.
        ("Are the packages in the contrib and non-free areas part of the Debian system?", "en"),
        ("¿Es obligatorio el uso de la especificación?", "es"),  # English only
    ],
)
def test_no_statement_where_none_is_read(question: str, language: str) -> None:
    assert statement_asked(question, language) is None
