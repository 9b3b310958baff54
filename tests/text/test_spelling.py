"""British and American spellings are one word to the analyser (text/lang/spelling.py),
so a question in one spelling finds and is supported by a line in the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory
from affidavit.text import analyzer_for

ROOT = Path(__file__).resolve().parents[2]
PYTHON_LICENCES = ROOT / "corpora" / "compliance_set" / "python-3.11-license-agreements.txt"


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("licence", "license"),
        ("licences", "licensed"),
        ("organisation", "organization"),
        ("organised", "organizing"),
        ("colours", "colored"),
        ("favourite", "favorite"),
        ("centre", "center"),
        ("kilometres", "kilometers"),
        ("analysed", "analyzing"),
        ("judgement", "judgment"),
        ("programme", "program"),
        ("defence", "defense"),
    ],
)
def test_a_british_spelling_is_the_american_words_term(british: str, american: str) -> None:
    analyzer = analyzer_for("en")
    assert analyzer.terms(british) == analyzer.terms(american)


@pytest.mark.parametrize(("word", "other"), [("cheque", "check"), ("storey", "story")])
def test_a_spelling_that_is_another_word_stays_apart(word: str, other: str) -> None:
    analyzer = analyzer_for("en")
    assert analyzer.terms(word) != analyzer.terms(other)


def test_a_question_spelt_the_british_way_is_answered_from_an_american_line() -> None:
    with Memory(dense=False) as memory:
        memory.ingest(PYTHON_LICENCES)
        answer = memory.ask("Under which licence are Python software and documentation licensed?")
        control = memory.ask("Under which license are Python software and documentation licensed?")
    assert not control.refused
    assert not answer.refused, answer.text
    assert "Python Software Foundation License" in answer.text
    assert "licensed under the Python Software Foundation License" in answer.citations[0].text
