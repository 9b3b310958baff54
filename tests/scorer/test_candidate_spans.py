"""The reader's candidate spans: a span the question already says is no candidate, and a
contact or a code counts all of its words, not its first."""

from __future__ import annotations

from pathlib import Path

from affidavit.question.question import Question
from affidavit.scorer import read

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
LISTS = CORPORA / "compliance_set" / "debian-mailing-lists.txt"


def _line(starting: str) -> str:
    """One sentence of the Debian mailing lists page, its wrapped lines joined."""
    text = " ".join(LISTS.read_text(encoding="utf-8").split())
    start = text.index(starting)
    return text[start : text.index(" . ", start) + 2]


def test_an_address_named_after_the_role_asked_about_is_a_candidate():
    line = _line("If you need to contact a human listmaster")
    question = Question.read("To what address should mail for a human listmaster be directed?")
    spans = [r.text for r in read(question, [line])]
    # "listmaster@lists.debian.org" begins with a word the question writes; the rest it
    # does not, so the address says something new.
    assert "listmaster@lists.debian.org" in spans


def test_a_span_the_question_writes_whole_is_no_candidate():
    line = _line("If you need to contact a human listmaster")
    question = Question.read("Should mail for listmaster@lists.debian.org go to a human?")
    assert "listmaster@lists.debian.org" not in [r.text for r in read(question, [line])]


def test_a_figure_glued_to_a_word_keeps_its_first_words_term() -> None:
    """A TAT-QA dev report's "declared four cash dividends of$0.40 per share each": the
    token "of$0.40" is a figure whose term is "of", a stop word, so it says nothing and
    the count "four" answers; only a contact's or a code's token counts all its words."""
    line = (
        "In fiscal 2019 and 2018, the Board of Directors declared four cash dividends "
        "of$0.40 per share each."
    )
    question = Question.read("How many cash dividends were declared in fiscal 2018 and 2019?")
    spans = [r.text for r in read(question, [line])]
    assert "of$0.40" not in spans
    assert spans[0] == "four"
