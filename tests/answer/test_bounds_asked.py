"""A question asking for a minimum or a maximum is carried by the bound a line sets ("at
least 8 characters", "no more than 100"), which seldom writes the word itself (NIST SP
800-63B, corpora/rules)."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory
from affidavit.text import analyzer_for, evidence_terms

NIST = Path(__file__).resolve().parents[2] / "corpora" / "rules" / "nist-sp800-63b.txt"


@pytest.fixture(scope="module")
def memory() -> Memory:
    store = Memory(dense=False)
    store.ingest(NIST)
    return store


def test_the_minimum_asked_is_the_bound_the_line_sets(memory: Memory) -> None:
    said = memory.ask("What is the minimum length of a memorized secret chosen by the subscriber?")
    assert not said.refused, said.audit.get("closest")
    assert said.text == "at least 8 characters"
    assert "at least 8 characters in length if chosen by the subscriber" in said.citations[0].text


@pytest.mark.parametrize(
    ("line", "carried"),
    [
        # Real lines: NIST SP 800-63B, the Debian constitution, the Debian copyright format
        # and the Debian social contract's foundation (corpora/rules, corpora/compliance_set).
        (
            "Memorized secrets SHALL be at least 8 characters in length if chosen by the "
            "subscriber.",
            {"minimum"},
        ),
        (
            "the verifier SHALL limit consecutive failed authentication attempts on a single "
            "account to no more than 100.",
            {"maximum"},
        ),
        ("weeks, but may be varied by up to 1 week by the Project Leader.", {"maximum"}),
        ("The file consists of two or more stanzas.", {"minimum"}),
        # "Up to" a figure only.
        ("developers to physically meet up to make Debian better.", set()),
    ],
)
def test_a_lines_bounds_carry_the_words_a_question_names_them_by(
    line: str, carried: set[str]
) -> None:
    terms = evidence_terms(line, analyzer_for("en"))
    assert {"minimum", "maximum"} & terms == carried
