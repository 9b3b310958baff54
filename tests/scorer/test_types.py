"""Which span labels may answer which question types in the reader."""

from affidavit.question.shape import AnswerType
from affidavit.scorer.types import fits


def test_a_reason_is_never_a_figure_or_a_date_alone():
    assert not fits(AnswerType.REASON, "MONEY")
    assert not fits(AnswerType.REASON, "DATE")
    assert fits(AnswerType.REASON, "")  # a clause or a phrase


def test_a_bound_type_is_answered_by_its_own_labels_only():
    assert fits(AnswerType.EMAIL, "EMAIL")
    assert not fits(AnswerType.EMAIL, "PERSON")
    assert fits(AnswerType.PERSON, "GPE")  # unbound: the scorer weighs the label
