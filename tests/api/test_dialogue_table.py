"""Issue 13's table, over its own dialogue (corpora/dialogue/maya-and-leo.jsonl): when it
happened, how long ago, whose it is, and who "I" is."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory

DIALOGUE = Path(__file__).resolve().parents[2] / "corpora" / "dialogue" / "maya-and-leo.jsonl"


@pytest.fixture(scope="module")
def chat() -> Memory:
    memory = Memory(dense=False)
    memory.ingest_dialogue(DIALOGUE, name="chat")
    return memory


def test_when_maya_adopted_the_puppy(chat: Memory) -> None:
    reply = chat.ask("When did Maya adopt a puppy?")
    assert reply.value == "2023-05-07"
    assert reply.text == "The date is 7 May 2023 (read from 'yesterday', 8 May 2023)."
    assert [(c.document, c.speaker, c.date) for c in reply.citations] == [
        ("chat/session-1", "Maya", "2023-05-08")
    ]


def test_when_maya_and_biscuit_went_hiking(chat: Memory) -> None:
    reply = chat.ask("When did Maya and Biscuit go hiking?")
    assert reply.value == "2023-05-31"
    assert "31 May 2023" in reply.text and "'two days ago', 2 June 2023" in reply.text


def test_how_many_days_ago_maya_adopted_the_puppy(chat: Memory) -> None:
    assert (
        chat.ask("How many days ago did Maya adopt the puppy?", asked_at="2023-06-10").value == 34
    )


def test_leos_puppy_is_refused_the_puppy_is_mayas(chat: Memory) -> None:
    leo = chat.ask("What is the name of Leo's puppy?")
    assert leo.refused and leo.reason == "holder"
    # The control: hers, it is answered (the reader's confidence is not this test's subject).
    maya = chat.ask("What is the name of Maya's puppy?", min_probability=0.0)
    assert not maya.refused and maya.audit["whose"]["passed"]


def test_when_i_started_learning_spanish_as_leo(chat: Memory) -> None:
    reply = chat.ask("When did I start learning Spanish?", speaker="Leo")
    assert reply.value == "2023-06"  # month precision: "this month"
    assert reply.text.startswith("The date is June 2023")


def test_the_caption_stays_with_its_own_turn(chat: Memory) -> None:
    lines = sorted(
        (
            e
            for e in chat.search("puppy rug wonderful name", k=20)
            if e.document == "chat/session-1"
        ),
        key=lambda e: e.position,
    )
    kinds = [(e.kind, e.speaker) for e in lines]
    assert ("caption", "Maya") in kinds
    caption = next(e for e in lines if e.kind == "caption")
    assert "That's wonderful" not in caption.text
