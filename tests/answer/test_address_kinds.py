"""An address is asked by the way it is used ("e-mailed") as well as by its name, and a
line writing an e-mail or web address carries the word for its kind (lines and a question
of the Debian bug reporting page, corpora/compliance_set)."""

from __future__ import annotations

from affidavit.question.shape import AnswerType, read_shape
from affidavit.text import analyzer_for, evidence_terms


def test_an_address_e_mailed_to_is_an_e_mail_address() -> None:
    assert read_shape("To what address are new bug reports e-mailed?").answer_type is (
        AnswerType.EMAIL
    )
    assert read_shape("To what address should the form be posted?").answer_type is (
        AnswerType.PLACE
    )


def test_a_line_writing_an_address_carries_its_kind() -> None:
    terms = evidence_terms("send it to submit@bugs.debian.org", analyzer_for("en"))
    assert {"email", "mail"} <= terms
    assert "email" not in evidence_terms("send it to the maintainer", analyzer_for("en"))
