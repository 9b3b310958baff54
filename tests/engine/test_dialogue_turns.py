"""How a turn of a conversation is read: what it asserts beside what it asks, whom its
sentences speak of, which of its words are talk, and a length of time against a day."""

from __future__ import annotations

from dataclasses import replace

from conftest import turn

from affidavit import Memory
from affidavit.engine.rules.chatter import asserted, is_chatter
from affidavit.engine.rules.typed_candidates import typed_spans
from affidavit.question.shape import AnswerType
from affidavit.results import Evidence

SUPERHERO = [
    turn(1, "2023-05-08", "Leo", "I saw a Spider-Man pin on your bag. Is it your favorite?"),
    turn(
        1,
        "2023-05-08",
        "Maya",
        "Thanks! Spider-Man has always been my favorite superhero. Do you have a favorite?",
    ),
    turn(1, "2023-05-08", "Leo", "Iron Man is my top pick."),
]
HAIR = [
    turn(2, "2023-06-02", "Maya", "I dyed my hair last weekend."),
    turn(
        2,
        "2023-06-02",
        "Leo",
        "Wow, your new hair color looks amazing! Bright purple really suits you.",
    ),
    turn(2, "2023-06-02", "Maya", "Thanks Leo! I wanted a change."),
]


def asked(turns: list[dict[str, object]], question: str) -> str:
    memory = Memory(dense=False)
    memory.ingest_dialogue(turns, name="chat")
    answer = memory.ask(question, asked_at="2023-06-10")
    return answer.reason or answer.text


def test_a_turn_that_ends_on_a_question_still_says_what_came_before() -> None:
    assert asserted("Maya: Spider-Man is my favorite. Do you have one?") == (
        "Maya: Spider-Man is my favorite."
    )
    assert asserted("Leo: What's its name?") == ""
    assert asked(SUPERHERO, "Which superhero has always been Maya's favorite?") == "Spider-Man"


def test_a_sentence_said_to_the_listener_is_the_listeners() -> None:
    # Leo's "your new hair color ... suits you" is a fact of Maya's hair, not of his.
    assert asked(HAIR, "What new hair color does Maya have?") == "Bright purple"
    assert asked(HAIR, "What new hair color does Leo have?") == "holder"
    assert asked(HAIR, "Which hair color suits Leo?") == "holder"


def test_a_generic_you_beside_an_i_stays_the_speakers() -> None:
    turns = [turn(1, "2023-05-08", "Maya", "I love how pottery lets you slow down.")]
    assert asked(turns, "What does Maya love about pottery?") != "holder"


def test_greetings_and_short_names_are_talk() -> None:
    line = Evidence(
        document="chat/session-1",
        position=3,
        text="Joanna: Thanks Jo! Hey Deb, great to hear from you. I painted it purple.",
        kind="turn",
        score=1.0,
        speaker="Joanna",
    )
    speakers = {"joanna", "deborah"}
    assert is_chatter("Thanks Jo", line, speakers, who=False)
    assert is_chatter("Hey Deb, great to hear from you", line, speakers, who=False)
    assert not is_chatter("purple", line, speakers, who=False)


def test_a_point_in_time_is_no_length_of_time() -> None:
    said = "I was bored today, so last Friday after a long day I walked them."
    assert typed_spans(said, AnswerType.DURATION) == []
    kept = typed_spans("I've kept them for about 3 years now.", AnswerType.DURATION)
    assert "3 years" in [span.text for span in kept]


def test_the_kind_of_answer_need_not_be_written() -> None:
    turns = [turn(2, "2023-06-02", "Maya", "I started a pottery class with my sister last week.")]
    assert asked(turns, "What activity did Maya start with her sister?") == "a pottery class"


def test_a_reply_is_about_the_question_put_to_it() -> None:
    turns = [
        turn(1, "2023-05-08", "Maya", "I baked all weekend."),
        turn(1, "2023-05-08", "Leo", "Yum! Got any favorite flavors for dairy-free desserts?"),
        turn(1, "2023-05-08", "Maya", "Chocolate and mixed berry are my favorites!"),
    ]
    question = "What are Maya's favorite flavors for dairy-free desserts?"
    assert asked(turns, question) == "Chocolate and mixed berry"
    # Leo asked; the flavors are Maya's.
    assert asked(turns, "What are Leo's favorite flavors for dairy-free desserts?") == "holder"


def test_a_slice_cut_out_of_a_word_is_no_answer() -> None:
    line = Evidence(
        document="chat/session-1",
        position=2,
        text="Leo: That's great, Maya!",
        kind="turn",
        score=1.0,
        speaker="Leo",
    )
    assert is_chatter("s great, Maya", line, {"leo", "maya"}, who=False)
    quoted = Evidence(
        document="chat/session-1",
        position=3,
        text="Leo: An album called 'Sleep'.",
        kind="turn",
        score=1.0,
    )
    assert not is_chatter("Sleep", replace(quoted, speaker="Leo"), {"leo"}, who=False)
