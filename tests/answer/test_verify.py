"""Behaviour of Memory.verify on the SQuAD store: each sentence supported (with the verbatim
stored lines behind it), vetoed or dropped with its catalogued reason; a text supported only
when every sentence is; "yes" read as the question's statement, a bare "no" unverifiable; and
a verdict that is JSON-ready and the same on every run and on a reopened store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from affidavit import Memory, Reason
from affidavit.results import SentenceVerdict, Verdict

ORIGIN = (
    "The Black Death is thought to have originated in the arid plains of Central Asia, where it "
    "then travelled along the Silk Road, reaching Crimea by 1343."
)
ORIGIN_QUESTION = "Did the Black Death originate in Central Asia?"


def assert_cites_stored_lines(sentence: SentenceVerdict, squad_lines) -> None:
    """A supported sentence cites stored lines verbatim, all of one document."""
    assert sentence.evidence
    assert len({e.document for e in sentence.evidence}) == 1
    for line in sentence.evidence:
        assert squad_lines[(line.document, line.position)][1] == line.text


def places(sentence: SentenceVerdict) -> list[tuple[str, int]]:
    return [(e.document, e.position) for e in sentence.evidence]


# -- one sentence --


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        (ORIGIN, ("Black_Death.txt", 0)),
        ("The Black Death originated in the arid plains of Central Asia.", ("Black_Death.txt", 0)),
        ("The charter was approved on 9 February 1832.", ("Jacksonville,_Florida.txt", 34)),
        ("The charter was approved on February 9, 1832.", ("Jacksonville,_Florida.txt", 34)),
        (
            "There were about 170000 settlements in Germany before 1350.",
            ("Black_Death.txt", 85),
        ),
        ("All 3 of the great waves of the plague originated in China.", ("Black_Death.txt", 8)),
        (
            "The Black Death never really died out in England.",
            ("Black_Death.txt", 96),
        ),
        pytest.param(
            "The charter was approved on 1832-02-09.",
            ("Jacksonville,_Florida.txt", 34),
        ),
    ],
)
def test_a_sentence_the_evidence_says_is_supported_by_its_stored_line(
    squad, squad_lines, text: str, cited: tuple[str, int]
) -> None:
    verdict = squad.verify(text)
    (sentence,) = verdict.sentences
    assert (sentence.text, sentence.status, sentence.reason) == (text, "supported", None)
    assert verdict.supported
    assert places(sentence) == [cited]
    assert_cites_stored_lines(sentence, squad_lines)
    # The numbers first; then the clause frames entail it, or the word tiers judge it.
    gates = [g["gate"] for g in sentence.gates]
    assert gates in (["digit_veto", "entailment"], ["digit_veto", "mixture", "readback"])
    assert all(g["passed"] for g in sentence.gates)


@pytest.mark.parametrize(
    ("text", "status", "reason"),
    [
        ("The Black Death reached Crimea by 1344.", "vetoed", Reason.DIGIT_VETO),
        ("The charter was approved on February 2, 1832.", "vetoed", Reason.DIGIT_VETO),
        ("All four of the great waves of the plague originated in China.", "vetoed", "digit_veto"),
        (
            "The Black Death originated in Central Asia and was spread by pigeons.",
            "dropped",
            Reason.MIXTURE,
        ),
        ("Zebras yodel loudly.", "dropped", Reason.UNSUPPORTED),
        ("Oriental rat fleas reached Crimea by 1343.", "dropped", Reason.READBACK),
        ("The Black Death did not originate in Central Asia.", "contradicted", Reason.CONTRADICTED),
        ("It was all of them.", "dropped", Reason.UNVERIFIABLE),
    ],
)
def test_a_sentence_the_evidence_does_not_say_is_vetoed_or_dropped_with_its_reason(
    squad, text: str, status: str, reason: str
) -> None:
    verdict = squad.verify(text)
    (sentence,) = verdict.sentences
    assert (sentence.status, sentence.reason) == (status, reason)
    assert not sentence.supported and not verdict.supported
    # Only a contradicted sentence cites a line: the one that says the opposite.
    assert (sentence.evidence != []) == (status == "contradicted")
    failed = [g for g in sentence.gates if not g["passed"]]
    if sentence.gates:  # the failing tier is the last one run, and it names the reason
        assert failed == [sentence.gates[-1]] and failed[0]["reason"] == reason


def test_a_vetoed_sentence_names_the_number_in_its_gate_record(squad) -> None:
    (sentence,) = squad.verify("The Black Death reached Crimea by 1344.").sentences
    assert sentence.gates == [
        {
            "gate": "digit_veto",
            "passed": False,
            "reason": "digit_veto",
            "detail": "not in the cited evidence: 1344",
        }
    ]


# -- a text of many sentences --


def test_a_text_is_supported_only_when_every_sentence_is(squad, squad_lines) -> None:
    text = (
        "The Black Death originated in the arid plains of Central Asia. "
        "It reached Crimea by 1344. Zebras yodel loudly.\n\n"
        "The charter was approved on February 9, 1832."
    )
    verdict = squad.verify(text)
    assert [(s.text, s.status, s.reason) for s in verdict.sentences] == [
        ("The Black Death originated in the arid plains of Central Asia.", "supported", None),
        ("It reached Crimea by 1344.", "vetoed", "digit_veto"),
        ("Zebras yodel loudly.", "dropped", "unsupported"),
        ("The charter was approved on February 9, 1832.", "supported", None),
    ]
    assert not verdict.supported
    assert places(verdict.sentences[0]) == [("Black_Death.txt", 0)]
    assert places(verdict.sentences[3]) == [("Jacksonville,_Florida.txt", 34)]
    for sentence in (verdict.sentences[0], verdict.sentences[3]):
        assert_cites_stored_lines(sentence, squad_lines)


def test_a_text_whose_every_sentence_is_said_is_supported(squad) -> None:
    verdict = squad.verify(
        "The Black Death originated in the arid plains of Central Asia. "
        "It travelled along the Silk Road, reaching Crimea by 1343."
    )
    assert [s.status for s in verdict.sentences] == ["supported", "supported"]
    assert verdict.supported and verdict.to_dict()["supported"] is True


@pytest.mark.parametrize("text", ["", "   ", "\n\n \n\n"])
def test_an_empty_text_is_not_supported_and_has_no_sentences(squad, text: str) -> None:
    verdict = squad.verify(text)
    assert verdict.sentences == []
    assert not verdict.supported
    assert verdict.to_dict() == {
        "text": text,
        "question": None,
        "supported": False,
        "contradicted": False,
        "sentences": [],
    }


# -- answers to a question --


@pytest.mark.parametrize("text", ["yes", "Yes.", "Yes, correct."])
def test_yes_is_supported_when_the_evidence_says_the_questions_statement(
    squad, squad_lines, text: str
) -> None:
    verdict = squad.verify(text, question=ORIGIN_QUESTION)
    (sentence,) = verdict.sentences
    assert (sentence.text, sentence.status, sentence.reason) == (text, "supported", None)
    assert places(sentence) == [("Black_Death.txt", 0)]
    assert_cites_stored_lines(sentence, squad_lines)
    assert verdict.to_dict()["question"] == ORIGIN_QUESTION


def test_yes_to_a_question_with_a_wrong_number_is_vetoed(squad) -> None:
    verdict = squad.verify("yes", question="Did the Black Death reach Crimea by 1344?")
    assert [(s.status, s.reason) for s in verdict.sentences] == [("vetoed", "digit_veto")]
    supported = squad.verify("yes", question="Did the Black Death reach Crimea by 1343?")
    assert supported.supported


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("no", ORIGIN_QUESTION),
        ("No.", "Did the Black Death originate in Kyrgyzstan?"),
        ("No, it did not.", ORIGIN_QUESTION),
        ("yes", None),
    ],
)
def test_a_bare_no_or_an_unasked_yes_is_unverifiable(
    squad, text: str, question: str | None
) -> None:
    verdict = squad.verify(text, question=question)
    assert [(s.status, s.reason, s.evidence) for s in verdict.sentences] == [
        ("dropped", Reason.UNVERIFIABLE, [])
    ]
    assert not verdict.supported


def test_a_bare_answer_is_supported_by_the_line_that_carries_the_question(squad) -> None:
    verdict = squad.verify("Central Asia", question="Where did the Black Death originate?")
    (sentence,) = verdict.sentences
    assert sentence.status == "supported"
    assert places(sentence) == [("Black_Death.txt", 0)]
    assert [(g["gate"], g["passed"]) for g in sentence.gates][-1] == ("support", True)
    assert not squad.verify("Central Asia and pigeons").supported


# -- the verdict as data --


def test_a_verdict_is_json_ready(squad) -> None:
    verdict = squad.verify(
        "The Black Death originated in the arid plains of Central Asia. It reached Crimea by 1344.",
        question="Where did the Black Death originate?",
    )
    data = verdict.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {"text", "question", "supported", "contradicted", "sentences"}
    supported, vetoed = data["sentences"]
    assert set(supported) == {"text", "status", "reason", "evidence", "claims", "gates"}
    assert supported["evidence"][0]["document"] == "Black_Death.txt"
    assert supported["evidence"][0]["trust"] == 0.6
    assert supported["claims"] and set(supported["claims"][0]) == {"text", "terms", "negated"}
    assert vetoed["status"] == "vetoed" and vetoed["evidence"] == [] and vetoed["claims"] == []


VERIFIED_TEXTS = [
    (ORIGIN, None),
    (
        "The Black Death originated in Central Asia and was spread by pigeons. "
        "The charter was approved on February 2, 1832. Oriental rat fleas reached Crimea by 1343.",
        None,
    ),
    ("yes", ORIGIN_QUESTION),
    ("Central Asia", "Where did the Black Death originate?"),
]


@pytest.mark.parametrize(("text", "question"), VERIFIED_TEXTS)
def test_the_same_text_gets_the_same_verdict_every_time(
    squad, text: str, question: str | None
) -> None:
    first = squad.verify(text, question=question)
    assert isinstance(first, Verdict)
    assert squad.verify(text, question=question).to_dict() == first.to_dict()


def test_a_reopened_store_gives_the_same_verdicts(squad, squad_store: Path) -> None:
    before = [squad.verify(text, question=question).to_dict() for text, question in VERIFIED_TEXTS]
    with Memory(squad_store) as reopened:
        after = [
            reopened.verify(text, question=question).to_dict() for text, question in VERIFIED_TEXTS
        ]
    assert after == before


@pytest.mark.parametrize("text", ["(a|b)+$", "+Black -Death", "Black|Death plague*"])
def test_a_text_that_makes_no_claim_is_never_supported(squad, text: str) -> None:
    verdict = squad.verify(text)
    assert not verdict.supported
    assert [(s.status, s.reason) for s in verdict.sentences] == [("dropped", Reason.NO_CLAIM)]
