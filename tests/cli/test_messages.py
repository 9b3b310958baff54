"""What a user reads of a refusal, an audit or a disagreement, as the CLI prints it: the
words the question or sentence wrote (never the index's stems), a score and its threshold
with digits that differ, the check that refused and the closest candidate it refused, a
told record said as told, and "Contested" only by a value of the kind asked. Each on the
project's own corpora, each with a control that answers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ARTICLES, DEMO_DIR, RACE

from affidavit import Memory
from affidavit.cli.main import main
from affidavit.cli.render import render, render_verdict
from affidavit.reasons import Reason

HARNESS = "Which regulation requires a harness for work at height?"
PERMIT = "Who must sign a hot work permit?"


@pytest.fixture(scope="module")
def handbook() -> Iterator[Memory]:
    memory = Memory(dense=False)
    memory.ingest(DEMO_DIR / "site-handbook.md")
    yield memory
    memory.close()


@pytest.fixture(scope="module")
def normans() -> Iterator[Memory]:
    memory = Memory(dense=False)
    memory.ingest(ARTICLES[0])
    yield memory
    memory.close()


def says_word(text: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text) is not None


# -- words, not stems --


def test_a_refusal_names_the_missing_words_as_the_question_wrote_them(handbook: Memory) -> None:
    answer = handbook.ask("Which regulation requires a harness for underwater welding?")
    assert answer.reason == Reason.WEAK_EVIDENCE
    shown = render(answer)
    assert "missing: underwater, welding" in shown
    assert "('harness')" in shown  # the census's rarest word
    for stem in ("underwat", "weld", "har"):
        assert not says_word(shown, stem), stem
    control = handbook.ask(HARNESS)
    assert control.text == "Regulation III-52.1"
    assert "rarest key word ('harness')" in control.census


def test_verify_names_the_words_the_sentence_wrote(handbook: Memory) -> None:
    verdict = handbook.verify(
        "A hot work permit must be signed by the site manager and the fire brigade."
    )
    assert verdict.sentences[0].reason == Reason.MIXTURE
    shown = render_verdict(verdict)
    assert shown.rstrip().endswith("never supplied: fire, brigade")
    assert not says_word(shown, "brigad")
    assert handbook.verify("A hot work permit is valid for one shift.").supported


# -- thresholds --


def test_a_score_and_its_threshold_print_with_digits_that_differ(normans: Memory) -> None:
    answered = normans.ask("When was the Battle of Hastings?")
    assert not answered.refused and answered.probability is not None
    # A threshold a hair above the answer's probability: two decimals would print both alike.
    refused = normans.ask(
        "When was the Battle of Hastings?", min_probability=answered.probability + 0.002
    )
    assert refused.reason == Reason.UNLIKELY
    found = re.search(r"best candidate ([\d.]+) < ([\d.]+)\)", refused.text)
    assert found is not None
    shown, threshold = found.groups()
    assert shown != threshold and float(shown) < float(threshold)
    assert f"the reader gives it {shown}, below the threshold {threshold}" in render(refused)


# -- the check that refused, and the closest candidate --


def test_an_unlikely_refusal_names_its_check_and_no_other(normans: Memory) -> None:
    answer = normans.ask("Who ruled Normandy?")
    assert answer.reason == Reason.UNLIKELY
    # Other candidates failed other checks; they did not refuse this answer.
    assert any(not d["passed"] and d["gate"] == "support" for d in answer.audit["gate"])
    shown = render(answer)
    assert "passed every check" not in shown
    assert "The answerability check refused" in shown
    assert "gate support" not in shown
    closest = answer.audit["closest"]
    assert closest["check"] == "answerability" and closest["text"]
    assert f"closest: “{closest['text']}” (refused: answerability — the reader gives it" in shown
    assert normans.ask("Who conquered England in 1066?").text == "Duke William II of Normandy"


def test_a_weak_evidence_refusal_shows_the_closest_candidate(handbook: Memory) -> None:
    answer = handbook.ask("Who must sign a hot work permit for submarines?")
    assert answer.reason == Reason.WEAK_EVIDENCE
    assert answer.audit["closest"]["text"] == "the site manager, Dana Okafor"
    assert answer.audit["closest"]["reason"] == Reason.WEAK_EVIDENCE
    shown = render(answer)
    assert "closest: “the site manager, Dana Okafor” (refused: support — " in shown
    assert shown.count("missing: submarines") == 1  # said once, with the candidate
    assert handbook.ask(PERMIT, min_probability=0.0).text == "the site manager, Dana Okafor"


# -- a told record --


def test_an_answer_told_to_the_store_is_said_as_told(tmp_path: Path, capsys) -> None:
    store = str(tmp_path / "told.sqlite")
    assert main(["ingest", str(DEMO_DIR / "site-handbook.md"), "--store", store, "--quiet"]) == 0
    assert main(["tell", "Maya", "lives in", "Porto", "--store", store]) == 0
    capsys.readouterr()
    assert main(["ask", "Where does Maya live?", "--store", store]) == 0
    out = capsys.readouterr().out
    assert "In told by" not in out
    assert re.search(r"^A: Porto \(told by the operator on [\d-]{10}, record 1\)$", out, re.M)
    assert main(["ask", HARNESS, "--store", store]) == 0
    assert "A: In site-handbook.md: Regulation III-52.1" in capsys.readouterr().out


# -- "Contested" --


def test_a_date_is_not_contested_by_a_name(normans: Memory) -> None:
    answer = normans.ask("When was the Battle of Hastings?")
    assert answer.text == "1066"
    assert "Contested" not in answer.census and "contradicted_by" not in answer.audit
    # A person by another person is.
    # the reader's confidence is not this test's subject
    control = normans.ask("Who was the duke in the battle of Hastings?", min_probability=0.0)
    assert control.text == "William the Conqueror"
    assert "Contested" in control.census and "'Duke William II of Normandy'" in control.census


def test_a_loose_phrase_contests_nothing() -> None:
    with Memory(dense=False) as memory:
        memory.ingest_dialogue(RACE, name="race")
        answer = memory.ask("How was the charity race?", asked_at="2023-06-10")
    assert not answer.refused
    assert "Contested" not in answer.census and "contradicted_by" not in answer.audit
