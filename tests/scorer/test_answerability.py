"""Answerability: the shipped model reproduces its recorded probabilities, its features
read what a line leaves unsaid, and ask refuses below the threshold with the number."""

from __future__ import annotations

import json

import pytest

from affidavit import Reason
from affidavit.errors import EngineError, InputError
from affidavit.question.question import Question
from affidavit.scorer import likelihood as answerability
from affidavit.scorer.likelihood import FEATURES, Model, features_of, load_model, model

LINE = "The Normans were the people who in the 10th and 11th centuries gave their name to Normandy."


def _rarity(term: str) -> float:
    return 1.0


def test_the_model_records_its_corpus_commit_threshold_and_tune_scores():
    shipped = model()
    assert shipped.provenance["corpus"].startswith("SQuAD 2.0 dev, tune")
    assert len(shipped.provenance["corpus_sha256"]) == 64
    assert len(shipped.provenance["commit"]) == 40
    assert shipped.provenance["tree_clean"]  # fitted from that commit as committed
    assert 0.0 < shipped.threshold < 1.0
    scores = shipped.provenance["scores"]
    # The threshold was worth choosing: on tune it beats answering every judged candidate.
    assert scores["squad2_f1_tune_held_halves"] > scores["squad2_f1_tune_no_threshold"]


def test_loading_the_model_reproduces_the_recorded_sample():
    recorded = model().provenance["sample"]
    assert len(recorded) >= 10
    for item in recorded:
        assert model().probability(item["features"]) == pytest.approx(item["probability"], abs=1e-5)


def test_a_model_for_other_features_is_refused_with_the_file_named(tmp_path):
    path = tmp_path / "answerability.json"
    path.write_text(json.dumps({"weights": {"bias": 0.0}, "threshold": 0.5}), encoding="utf-8")
    with pytest.raises(EngineError, match="answerability.json"):
        load_model(path)
    path.write_text("not json", encoding="utf-8")
    with pytest.raises(EngineError, match="make answerability"):
        load_model(path)


def test_a_span_the_reader_finds_is_scored_by_it():
    question = Question.read("Which region did the Normans give their name to?", language="en")
    found = features_of(question, "Normandy", LINE, line_share=1.0, rivals=0, weight=_rarity)
    assert found["reader_span"] == 1.0
    assert found["reader_share"] > 0.0
    assert found["missing_share"] == 0.0
    assert found["type_place"] == 1.0 or found["type_description"] == 1.0


def test_a_line_that_leaves_the_questions_names_and_negation_unsaid_says_so():
    question = Question.read("Which region did the Vikings never give a name to?", language="en")
    found = features_of(question, "Normandy", LINE, line_share=1.0, rivals=0, weight=_rarity)
    assert found["names_missing"] > 0.0
    assert found["negation_unmatched"] == 1.0
    assert found["missing_share"] > 0.0


# Lines of the Python Software Foundation License Version 2 and of the Debian New
# Maintainers' Guide (corpora/compliance_set).
PSF_LINE = '4. PSF is making Python available to Licensee on an "AS IS" basis.'
DH_MAKE_LINE = (
    "If you accidentally erased some template files while working on them, you can recover "
    "them by running dh_make with the --addmissing option again in a Debian package source tree."
)


@pytest.mark.parametrize(
    ("asked", "noun"),
    [
        ("Which option of dh_make recovers accidentally erased template files?", "option"),
        ("On what basis does PSF make Python available?", "basis"),
        ("Within how many days after the notice must You become compliant?", "day"),
        ("For what kind of research may a licence not restrict the program?", "research"),
        ("Which state's law governs the agreement?", "state"),
        ("What is the flash point?", None),
        ("Who is the license steward?", None),
    ],
)
def test_the_noun_a_question_asks_for_is_read_from_its_wh_word(asked: str, noun: str | None):
    from affidavit.question import asked_noun

    assert asked_noun(asked) == noun


def test_an_answer_naming_the_noun_asked_or_in_its_phrase_fills_the_slot():
    def slot(asked: str, text: str, line: str) -> tuple[float, float]:
        question = Question.read(asked, language="en")
        found = features_of(question, text, line, line_share=1.0, rivals=0, weight=_rarity)
        return found["slot_filled"], found["slot_elsewhere"]

    option = "Which option of dh_make recovers accidentally erased template files?"
    assert slot(option, "the --addmissing option", DH_MAKE_LINE) == (1.0, 0.0)
    basis = "On what basis does PSF make Python available?"
    assert slot(basis, '"AS IS"', PSF_LINE) == (1.0, 0.0)  # in "an 'AS IS' basis"
    # The line writes the basis apart from the answer: another slot of its clause.
    assert slot(basis, "Licensee", PSF_LINE) == (0.0, 1.0)
    # A question asking for no noun, or a line without it: neither.
    assert slot("Who makes Python available?", "PSF", PSF_LINE) == (0.0, 0.0)
    assert slot("In what year was the PSF formed?", "PSF", PSF_LINE) == (0.0, 0.0)


def test_ask_carries_the_probability_and_refuses_below_the_threshold(squad, monkeypatch):
    answer = squad.ask("Who was Edward the Confessor's half-brother?")
    assert not answer.refused
    assert answer.probability is not None and 0.0 < answer.probability <= 1.0
    judged = answer.audit["answerability"]
    assert judged["probability"] == pytest.approx(answer.probability, abs=1e-4)
    assert answer.to_dict()["probability"] == answer.probability

    strict = Model(tuple(0.0 for _ in FEATURES), 0.99, {})  # every candidate at 0.5
    monkeypatch.setattr(answerability, "model", lambda: strict)
    refused = squad.ask("Who was Edward the Confessor's half-brother?")
    assert refused.refused and refused.reason == Reason.UNLIKELY
    assert "best candidate 0.50 < 0.99" in refused.text
    assert refused.audit["answerability"]["threshold"] == 0.99
    assert refused.probability == pytest.approx(0.5)


def test_min_probability_moves_the_threshold_and_keeps_the_gate(squad):
    # the reader is unsure of its span
    question = "Which outbreak was associated with troops in the thirty years war?"
    default = squad.ask(question)
    assert default.refused and default.reason == Reason.UNLIKELY
    lowered = squad.ask(question, min_probability=0.0)
    assert not lowered.refused and "Italian Plague" in lowered.text
    assert lowered.probability == pytest.approx(default.probability)
    assert lowered.audit["answerability"]["threshold"] == 0.0
    # The gate still disposes: nothing it refused is said at any threshold.
    unsaid = squad.ask("What bacterium caused the Black Death?", min_probability=0.0)
    assert unsaid.refused and unsaid.reason != Reason.UNLIKELY


def test_min_probability_outside_zero_to_one_is_an_input_error(squad):
    with pytest.raises(InputError, match="min_probability"):
        squad.ask("Who was the Norse leader?", min_probability=1.5)
