"""A cell or a field's value is proposed only when it can be of the kind the question asks
for, on the real Artistic License: a definition's clause answers "Who is the “Copyright
Holder”?" (the term is quoted) but not "To whom must a fee be justified?"; an amount
question is not answered with a name written in an amount's column."""

from __future__ import annotations

from pathlib import Path

from affidavit import Memory
from affidavit.engine.rules.cells import fits_kind
from affidavit.question.shape import AnswerType

ARTISTIC = Path(__file__).resolve().parents[2] / "corpora" / "compliance" / "artistic-1.0.txt"


def test_a_typed_kind_needs_its_value_written() -> None:
    fits = fits_kind(AnswerType.AMOUNT, "What amount was paid to Bain?")
    assert fits("Amount", "$37,499.96")
    assert not fits("Amount", "BAIN.JMATTHEW")


def test_a_name_opens_on_a_capital_unless_the_question_quotes_the_term() -> None:
    fits = fits_kind(AnswerType.PERSON, "To whom must the fee be justified?")
    assert fits("Contact", "Dana Okafor, site manager")
    assert not fits("Reasonable copying fee", "whatever you can justify")
    quoted = fits_kind(AnswerType.PERSON, 'Who is the "Copyright Holder"?')
    assert quoted("Copyright Holder", "whoever is named in the copyright")


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
