"""Whose it is across a conversation (archive/told_of.py): a question about one speaker is
refused when the conversation tells it more fully of someone else, and the support tier
asks less of turns once the conversation tells it of the speaker named."""

from __future__ import annotations

from conftest import RACE

from affidavit import Memory
from affidavit.gates.exit import judge
from affidavit.gates.support import CONFIRMED_SPEAKER_CARRIED, MIN_CARRIED
from affidavit.results import Evidence
from affidavit.text.analyzer import Analyzer


def ask(question: str):  # noqa: ANN201 - an Answer
    memory = Memory(dense=False)
    memory.ingest_dialogue(RACE, name="chat")
    return memory.ask(question, asked_at="2023-06-10")


def test_a_question_about_the_wrong_speaker_is_refused_by_whose_it_is() -> None:
    # Leo's turns write "charity race" too, and are his own: only whose-it-is refuses.
    answer = ask("What did Leo realize after the charity race?")
    assert answer.refused and answer.reason == "holder"
    whose = answer.audit["whose"]
    assert (whose["speaker"], whose["rival"], whose["passed"]) == ("Leo", "Maya", False)
    assert whose["rival_line"] == "[chat/session-1 #1]"
    assert "tells it of Maya" in whose["detail"]


def test_the_speaker_the_conversation_tells_it_of_is_answered() -> None:
    answer = ask("What did Maya realize after the charity race?")
    assert not answer.refused
    assert answer.citations[0].text.startswith("Maya: It was thought-provoking.")
    assert answer.audit["whose"]["passed"] is True
    assert answer.audit["whose"]["rival"] == "Leo"  # weighed, and carrying less


def test_a_question_naming_no_speaker_is_not_weighed_by_whose_it_is() -> None:
    answer = ask("What did the mural go on?")
    assert "whose" not in answer.audit


LINE = "Maya: I finally finished the mural at the library downtown."


def judged(kind: str, speaker: str | None, turns_need: float) -> bool:
    analyzer = Analyzer("en")
    terms = frozenset(analyzer.terms("Maya finished mural library downtown colour wall"))
    unwritten = frozenset(analyzer.terms("colour wall"))
    line = Evidence(
        document="chat/session-1", position=0, text=LINE, kind=kind, score=1.0, speaker=speaker
    )
    return judge(
        "the mural at the library downtown",
        [line],
        analyzer,
        question_terms=terms,
        anchor=[line],
        # "colour" and "wall" are written nowhere: each weighs as the rarest word written.
        term_weight=lambda term: 0.0 if term in unwritten else 1.0,
        turns_need=turns_need,
    ).passed


def test_turns_need_a_smaller_share_only_once_the_speaker_is_confirmed() -> None:
    # Two of the seven key words ("colour", "wall") are missing: 5/7 of the weight carried.
    assert judged("turn", "Maya", CONFIRMED_SPEAKER_CARRIED)
    assert not judged("turn", "Maya", MIN_CARRIED)
    # A document's sentence is asked the whole share, whatever the caller allows turns.
    assert not judged("sentence", None, CONFIRMED_SPEAKER_CARRIED)
