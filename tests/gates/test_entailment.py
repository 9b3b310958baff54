"""The entailment judge through verify, on a real licence (corpora/licences/mpl-2.0.txt):
what a line says is supported, its opposite is contradicted with that line cited, and a
claim one edit away (a prohibition read as a permission, another anchor, a dropped
condition, a stronger modality) is not supported."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory
from affidavit.gates.case import Case, Judgement
from affidavit.gates.entailment import anchors_kept
from affidavit.question.question import Question
from affidavit.results import Evidence, LineKind

MPL = Path(__file__).resolve().parents[2] / "corpora" / "licences" / "mpl-2.0.txt"


def _stored(path: Path) -> Memory:
    memory = Memory(dense=False)
    memory.ingest(path)
    return memory


@pytest.fixture(scope="module")
def mpl() -> Memory:
    return _stored(MPL)


def status(memory: Memory, claim: str) -> tuple[str, str | None]:
    (sentence,) = memory.verify(claim).sentences
    return sentence.status, sentence.reason


def test_a_paraphrase_of_a_prohibition_is_supported(mpl: Memory) -> None:
    # "You may not remove or alter the substance of any license notices": "must not".
    assert status(mpl, "You must not remove the substance of any license notices.") == (
        "supported",
        None,
    )


def test_a_permission_the_line_forbids_is_contradicted_citing_the_line(mpl: Memory) -> None:
    (sentence,) = mpl.verify("You may remove the substance of any license notices.").sentences
    assert (sentence.status, sentence.reason) == ("contradicted", "contradicted")
    (line,) = sentence.evidence
    assert "You may not remove or alter the substance" in line.text
    assert sentence.gates[-1]["gate"] == "entailment"


def test_a_negation_dropped_is_contradicted(mpl: Memory) -> None:
    assert status(mpl, "You may attempt to alter the recipients' rights in the Source Code Form.")[
        0
    ] in ("contradicted", "dropped")
    assert (
        status(mpl, "You must not inform recipients how they can obtain a copy of this License.")[0]
        == "contradicted"
    )


def test_a_stronger_modality_is_not_supported(mpl: Memory) -> None:
    # The line: "You may alter any license notices to the extent required ..."
    assert status(mpl, "You must alter any license notices.")[0] != "supported"


def test_a_verdict_says_contradicted_in_its_json(mpl: Memory) -> None:
    data = mpl.verify("You may remove the substance of any license notices.").to_dict()
    assert data["contradicted"] is True and data["supported"] is False


def _case(question: str, *lines: str) -> Case:
    evidence = [
        Evidence(document="plan.txt", position=n, text=t, kind=LineKind.SENTENCE, score=1.0)
        for n, t in enumerate(lines)
    ]
    asked = Question.read(question)
    return Case(text="Bruno Keller", lines=evidence, analyzer=asked.analyzer, question=asked)


@pytest.mark.parametrize(
    ("question", "line", "passed"),
    [
        ("Who leads Project A?", "Project B is led by Bruno Keller.", False),
        ("Who leads Project B?", "Project B is led by Bruno Keller.", True),
        ("What does Section 5(a) require?", "Section 5(b) requires annual audits.", False),
        ("Who leads Project A?", "Bruno Keller leads the project.", True),
    ],
)
def test_an_answer_is_drawn_only_from_lines_about_the_anchor_asked(
    question: str, line: str, passed: bool
) -> None:
    decision = anchors_kept(_case(question, line), Judgement())
    assert decision is not None and decision.passed is passed


NIST = Path(__file__).resolve().parents[2] / "corpora" / "rules" / "nist-sp800-63b.txt"


@pytest.fixture(scope="module")
def nist() -> Memory:
    return _stored(NIST)


@pytest.mark.parametrize(
    "claim",
    [
        # "For look-up secrets that have less than 64 bits of entropy, the verifier SHALL ..."
        "For look-up secrets that have more than 64 bits of entropy, the verifier shall "
        "implement a rate-limiting mechanism.",
        # "Verifiers SHALL store memorized secrets in a form that is resistant to offline
        # attacks."
        "Verifiers shall not store memorized secrets in a form that is resistant to offline "
        "attacks.",
    ],
)
def test_the_other_side_of_a_comparison_or_a_negation_is_contradicted(
    nist: Memory, claim: str
) -> None:
    (sentence,) = nist.verify(claim).sentences
    assert sentence.status == "contradicted" and sentence.evidence


def test_the_line_s_own_rule_is_supported(nist: Memory) -> None:
    claim = "Verifiers must store memorized secrets in a form that is resistant to offline attacks."
    assert nist.verify(claim).supported


def test_parties_in_each_other_s_places_are_not_supported(nist: Memory) -> None:
    # "Verifiers SHOULD offer guidance to the subscriber, such as a password-strength meter"
    claim = "Subscribers should offer guidance to the verifier, such as a password-strength meter."
    assert not nist.verify(claim).supported
