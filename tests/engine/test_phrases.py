"""The phrase that answers: a verbatim slice of its line, the part the question asks for."""

from __future__ import annotations

import json

import pytest
from conftest import CORPORA

from affidavit.engine.rules.phrases import answer_phrases, read_asking
from affidavit.text.analyzer import Analyzer

HOT_WORK = (
    "Regulation III-52.4 says a hot work permit is valid for one shift and must be signed by "
    "the site manager, Dana Okafor, before welding starts."
)
HARNESS = "Regulation III-52.1 requires a harness for any work more than 2 metres above the ground."


def spanish_line(starting: str) -> str:
    """A sentence of the bundled Spanish XQuAD slice (CC BY-SA 4.0)."""
    with (CORPORA / "xquad_slice" / "paragraphs.es.jsonl").open(encoding="utf-8") as handle:
        for row in map(json.loads, handle):
            for sentence in row["text"].split(". "):
                if sentence.startswith(starting):
                    return sentence
    raise AssertionError(f"no line starts {starting!r}")


@pytest.mark.parametrize(
    ("question", "line", "best"),
    [
        ("Who must sign a hot work permit?", HOT_WORK, "the site manager, Dana Okafor"),
        (
            "What does regulation III-52.1 require for work more than 2 metres above the ground?",
            HARNESS,
            "a harness",
        ),
    ],
)
def test_the_best_phrase_is_the_part_the_question_asks_for(
    question: str, line: str, best: str
) -> None:
    phrases = answer_phrases(question, line)
    assert phrases[0].text == best
    assert all(line[p.start : p.end] == p.text for p in phrases)  # verbatim slices


def test_a_noun_is_answered_with_the_of_phrase_that_completes_it() -> None:
    line = (
        "In the second quarter of fiscal 2019 we completed the divestiture of the video "
        "software business."
    )
    question = "What did the company complete in the second quarter of fiscal 2019?"
    phrases = answer_phrases(question, line)
    assert phrases[0].text == "the divestiture of the video software business"


def test_a_phrase_the_question_already_says_is_never_offered() -> None:
    question = "What does regulation III-52.1 require?"
    texts = {p.text for p in answer_phrases(question, HARNESS)}
    assert "Regulation III-52.1" not in texts
    assert "a harness" in texts


def test_the_question_is_read_for_its_role_verb_and_focus() -> None:
    asking = read_asking("Which regulation covers working at height?", Analyzer("en"))
    assert asking.focus == "regul"
    assert asking.role == "subject"
    signer = read_asking("Who must sign a hot work permit?", Analyzer("en"))
    assert (signer.role, signer.verb) == ("subject", "sign")


def test_spanish_is_answered_by_the_words_after_the_question_word() -> None:
    line = spanish_line("Los anteriores colonos vikingos")
    phrases = answer_phrases("¿Cuándo habían comenzado a llegar los colonos vikingos?", line, "es")
    assert phrases and phrases[0].text.startswith("en la década del 880")
    assert line[phrases[0].start : phrases[0].end] == phrases[0].text


def test_unreadable_weights_are_an_engine_error_naming_the_file(tmp_path, monkeypatch) -> None:
    from affidavit.engine.rules import phrases
    from affidavit.errors import EngineError

    broken = tmp_path / "phrase_weights.json"
    broken.write_text('{"weights": {"bias": 1.0}}', encoding="utf-8")
    monkeypatch.setattr(phrases, "_WEIGHTS_FILE", broken)
    phrases._weights.cache_clear()
    try:
        with pytest.raises(EngineError, match="phrase_weights.json.*no weight for role"):
            answer_phrases("Who must sign a hot work permit?", HOT_WORK)
    finally:
        phrases._weights.cache_clear()


def test_a_phrase_that_points_elsewhere_is_never_offered() -> None:
    line = (
        "External revenue is detailed in the following tables by location of customers. "
        "Purchase orders beyond this time frame are cancelable."
    )
    for question in ("How is external revenue detailed?", "When are purchase orders cancelable?"):
        texts = {p.text for p in answer_phrases(question, line)}
        assert texts, question
        assert not {"the following tables", "this time frame"} & texts
    # A report's name for its own author points at it as a pronoun would.
    offered = "On August 26, 2019, the Company completed public offerings of senior notes."
    texts = {p.text for p in answer_phrases("What did the offerings complete?", offered)}
    assert texts and "the Company" not in texts
