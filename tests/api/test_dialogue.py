"""Conversations ingest as sessions of turns: each turn a line with its speaker and its
session's day, a shared image's caption beside its turn, LoCoMo's JSON and JSONL alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from affidavit import IngestError, Memory
from affidavit.cli.main import main
from affidavit.plans.templates import told_time
from affidavit.text.relative import when_told

TURNS = [
    {
        "session": 1,
        "date": "2023-05-08",
        "speaker": "Maya",
        "text": "I adopted a puppy from the shelter yesterday!",
        "caption": "a photo of a brown puppy on a rug",
    },
    {"session": 1, "date": "2023-05-08", "speaker": "Leo", "text": "What's its name?"},
    {"session": 1, "date": "2023-05-08", "speaker": "Maya", "text": "Biscuit."},
    {"session": 2, "date": "2023-06-02", "speaker": "Leo", "text": "How is Biscuit doing?"},
    {"session": 2, "date": "2023-06-02", "speaker": "Maya", "text": "We went hiking."},
]
# The LoCoMo shape, written for this test: sessions numbered, dated in LoCoMo's words.
CONVERSATION = {
    "speaker_a": "Ana",
    "speaker_b": "Ben",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        {"speaker": "Ana", "dia_id": "D1:1", "text": "I finished the marathon on Sunday."},
        {
            "speaker": "Ben",
            "dia_id": "D1:2",
            "text": "Congratulations!",
            "img_url": ["https://example.org/medal.jpg"],
            "blip_caption": "a photo of a medal on a table",
        },
    ],
    "session_2_date_time": "10:37 am on 27 June, 2023",
    "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "I moved to Lisbon."}],
}


def lines_of(memory: Memory, document: str) -> list[dict]:
    hits = [e for e in memory.search("puppy Biscuit hiking name medal marathon Lisbon", k=50)]
    return sorted(
        (e.to_dict() for e in hits if e.document == document), key=lambda e: e["position"]
    )


def test_each_turn_is_a_line_with_its_speaker_and_day() -> None:
    memory = Memory(dense=False)
    names = memory.ingest_dialogue(TURNS, name="chat")
    assert names == ["chat/session-1", "chat/session-2"]
    first = lines_of(memory, "chat/session-1")
    assert [(e["kind"], e["speaker"], e["date"]) for e in first] == [
        ("turn", "Maya", "2023-05-08"),
        ("caption", "Maya", "2023-05-08"),
        ("turn", "Leo", "2023-05-08"),
        ("turn", "Maya", "2023-05-08"),
    ]
    # The caption stays with its own turn and never runs into the next speaker's.
    assert first[1]["text"] == "[Maya shared an image: a photo of a brown puppy on a rug]"
    assert first[2]["text"] == "Leo: What's its name?"


def test_the_locomo_shape_reads_its_sessions_and_their_dates() -> None:
    memory = Memory(dense=False)
    names = memory.ingest_dialogue({"conversation": CONVERSATION}, name="run")
    assert names == ["run/session-1", "run/session-2"]
    first = lines_of(memory, "run/session-1")
    assert {e["date"] for e in first} == {"2023-05-08"}
    assert first[-1]["text"] == "[Ben shared an image: a photo of a medal on a table]"
    assert lines_of(memory, "run/session-2")[0]["date"] == "2023-06-27"


def test_an_unchanged_dialogue_is_not_written_twice() -> None:
    memory = Memory(dense=False)
    memory.ingest_dialogue(TURNS, name="chat")
    lines = memory.stats()["lines"]
    memory.ingest_dialogue(TURNS, name="chat")
    assert memory.stats()["lines"] == lines


@pytest.mark.parametrize(
    ("records", "says"),
    [
        ([{**TURNS[0], "speaker": ""}], "record 1"),
        ([TURNS[0], {**TURNS[1], "date": "2023-05-09"}], "dated both"),
        ([{**TURNS[0], "date": "the day after the storm"}], "cannot be read"),
        ([{"session": 1, "speaker": "Maya", "text": "hi"}], "no date"),
    ],
)
def test_a_bad_record_is_named_and_the_store_left_as_it_was(records: list, says: str) -> None:
    memory = Memory(dense=False)
    memory.ingest_dialogue(TURNS[3:], name="earlier")
    before = memory.stats()
    with pytest.raises(IngestError, match=says):
        memory.ingest_dialogue(records, name="chat")
    assert memory.stats() == before


def test_the_cli_ingests_jsonl_and_locomo_json(tmp_path: Path, capsys) -> None:
    jsonl = tmp_path / "chat.jsonl"
    jsonl.write_text("\n".join(json.dumps(t) for t in TURNS) + "\n", encoding="utf-8")
    locomo = tmp_path / "run.json"
    locomo.write_text(json.dumps([{"conversation": CONVERSATION, "qa": []}]), encoding="utf-8")
    store = tmp_path / "memory.sqlite"
    assert main(["ingest", str(jsonl), "--store", str(store), "--dialogue", "chat"]) == 0
    assert main(["ingest", str(locomo), "--store", str(store), "--dialogue", "run"]) == 0
    assert "2 document(s)" in capsys.readouterr().out
    with Memory(store) as memory:
        assert memory.stats()["documents"] == 4


@pytest.mark.parametrize(
    ("text", "day", "precision", "words"),
    [
        ("I adopted a puppy from the shelter yesterday!", "2023-05-07", "day", "yesterday"),
        ("Great, we went hiking two days ago.", "2023-05-06", "day", "two days ago"),
        ("I started learning Spanish this month.", "2023-05", "month", "this month"),
        (
            "I signed up for a pottery class last week.",
            "2023-05-01/2023-05-07",
            "week",
            "last week",
        ),
        ("We hiked last weekend.", "2023-05-06/2023-05-07", "weekend", "last weekend"),
        ("I moved two weeks ago.", "2023-04-24/2023-04-30", "week", "two weeks ago"),
        ("We met last Tuesday.", "2023-05-02", "day", "last Tuesday"),
        ("I moved there in March.", "2023-03", "month", "in March"),
        ("I moved there in June.", "2022-06", "month", "in June"),
        ("We will travel next month.", "2023-06", "month", "next month"),
        ("I visited a few years ago.", "../2023-05-08", "vague", "a few years ago"),
    ],
)
def test_a_relative_time_is_read_against_the_day_it_was_said(
    text: str, day: str, precision: str, words: str
) -> None:
    told = when_told(text, "2023-05-08")  # a Monday
    assert told is not None
    assert (told.day, told.precision, told.words) == (day, precision, words)


def test_a_turn_without_a_time_tells_none() -> None:
    assert when_told("Biscuit.", "2023-05-08") is None


@pytest.fixture(scope="module")
def chat() -> Memory:
    memory = Memory(dense=False)
    memory.ingest_dialogue(
        [
            {**TURNS[0], "text": "I adopted a puppy from the shelter yesterday!"},
            *TURNS[1:4],
            {
                "session": 2,
                "date": "2023-06-02",
                "speaker": "Leo",
                "text": "I started learning Spanish this month.",
            },
        ],
        name="chat",
    )
    return memory


def test_when_is_answered_with_the_day_read_from_the_turn_and_its_stamp(chat: Memory) -> None:
    adopted = chat.ask("When did Maya adopt a puppy?")
    assert adopted.value == "2023-05-07"
    assert adopted.text.startswith("The date is 7 May 2023")
    assert "'yesterday'" in adopted.text and "8 May 2023" in adopted.text
    assert [c.document for c in adopted.citations] == ["chat/session-1"]
    spanish = chat.ask("When did Leo start learning Spanish?")
    assert spanish.value == "2023-06" and "June 2023" in spanish.text  # month precision


def test_how_long_ago_counts_from_the_asking_day(chat: Memory) -> None:
    reply = chat.ask("How many days ago did Maya adopt the puppy?", asked_at="2023-06-10")
    assert reply.value == 34


def test_a_when_question_over_documents_is_still_read_from_its_lines() -> None:
    memory = Memory(dense=False)
    memory.ingest_text("The bridge opened in 1932 after six years of work.", name="b.md")
    reply = memory.ask("When did the bridge open?")
    assert not reply.refused and reply.text == "1932"


def test_who_is_the_speaker_of_the_turn_that_tells_it_in_the_first_person(chat: Memory) -> None:
    adopted = chat.ask("Who adopted a puppy from the shelter?")
    assert adopted.text == "Maya"
    assert [c.speaker for c in adopted.citations][:1] == ["Maya"]
    assert chat.ask("Who started learning Spanish?").text == "Leo"


def test_the_speaker_is_who_i_means(chat: Memory) -> None:
    reply = chat.ask("When did I start learning Spanish?", speaker="Leo")
    assert reply.question == "When did I start learning Spanish?"
    assert reply.audit["read_as"] == "When did Leo start learning Spanish?"
    assert reply.value == "2023-06" and "June 2023" in reply.text


def test_the_cli_takes_the_speaker(tmp_path: Path, capsys) -> None:
    jsonl = tmp_path / "chat.jsonl"
    jsonl.write_text(
        "\n".join(
            json.dumps(t)
            for t in [*TURNS, {**TURNS[4], "text": "I started yoga this month.", "speaker": "Leo"}]
        )
        + "\n",
        encoding="utf-8",
    )
    store = tmp_path / "memory.sqlite"
    assert main(["ingest", str(jsonl), "--store", str(store), "--dialogue", "chat"]) == 0
    assert main(["ask", "When did I start yoga?", "--store", str(store), "--speaker", "Leo"]) == 0
    assert "The date is June 2023" in capsys.readouterr().out


def test_a_claim_about_a_speaker_rests_on_that_speakers_lines() -> None:
    memory = Memory(dense=False)
    memory.ingest_dialogue(
        [
            {
                "session": 1,
                "date": "2023-05-08",
                "speaker": "Leo",
                "text": "I might adopt one day.",
            },
            {"session": 1, "date": "2023-05-08", "speaker": "Maya", "text": "I adopted a puppy."},
        ],
        name="c",
    )
    assert memory.ask("What did Maya adopt?").text == "a puppy"
    leo = memory.ask("What did Leo adopt?")
    # Leo's own turn says "adopt" as fully as Maya's (whose-it-is lets the question
    # through); the holder tier then drops her puppy from his answer.
    assert leo.audit["whose"]["passed"]
    assert "puppy" not in leo.text  # the puppy is Maya's
    dropped = [
        gate["reason"]
        for subset in leo.audit["subsets"]
        for candidate in subset["candidates"]
        if candidate["text"] == "a puppy"
        for gate in candidate["gate"]
        if not gate["passed"]
    ]
    assert dropped == ["holder"]


def test_a_turn_that_asks_answers_nothing(chat: Memory) -> None:
    reply = chat.ask("What is the name of Leo's puppy?")
    # Leo only asked "what's its name?"; the puppy is Maya's.
    assert reply.refused and reply.reason == "holder"
    assert (reply.audit["whose"]["speaker"], reply.audit["whose"]["rival"]) == ("Leo", "Maya")
    # The control: asked of Maya, whose puppy it is, the same question is answered.
    # the reader's confidence is not this test's subject
    maya = chat.ask("What is the name of Maya's puppy?", min_probability=0.0)
    assert not maya.refused and maya.audit["whose"]["passed"]


@pytest.fixture(scope="module")
def weeks() -> Memory:
    memory = Memory(dense=False)
    memory.ingest_dialogue(
        [
            {
                "session": 1,
                "date": "2023-06-09",
                "speaker": "Ana",
                "text": "I gave a talk at the library last week.",
            },
            {
                "session": 1,
                "date": "2023-06-09",
                "speaker": "Ana",
                "text": "I visited Lisbon a few years ago.",
            },
            {
                "session": 2,
                "date": "2023-07-17",
                "speaker": "Ben",
                "text": "We camped at the lake last weekend, and I had an audition yesterday.",
            },
        ],
        name="weeks",
    )
    return memory


def test_a_week_is_answered_as_the_week_it_was_not_an_invented_day(weeks: Memory) -> None:
    talk = weeks.ask("When did Ana give a talk at the library?")
    assert talk.value == "2023-06-02/2023-06-08"
    assert talk.text.startswith("The date is the week before 9 June 2023")
    assert talk.audit["plan"]["said"] == "the week before 9 June 2023"
    camping = weeks.ask("When did Ben camp at the lake?")
    assert camping.audit["plan"]["said"] == "the weekend before 17 July 2023"


def test_a_vague_time_is_answered_as_vague(weeks: Memory) -> None:
    lisbon = weeks.ask("When did Ana visit Lisbon?")
    assert lisbon.value == "../2023-06-09"
    assert lisbon.audit["plan"]["said"] == "some years before June 2023"


def test_days_are_not_counted_from_a_week(weeks: Memory) -> None:
    reply = weeks.ask(
        "How many days ago did Ana give a talk at the library?", asked_at="2023-07-01"
    )
    assert reply.refused or reply.value != 29  # a week has no one day to count from
    # The control: an event told of a day ("yesterday") is counted in days.
    audition = weeks.ask("How many days ago did Ben have an audition?", asked_at="2023-07-20")
    assert not audition.refused and audition.value == 4  # 16 July 2023


def test_an_event_is_told_in_the_tellers_own_words(weeks: Memory) -> None:
    # "had an audition", asked as "have an audition": the light verb bends, the event stays.
    audition = weeks.ask("When did Ben have an audition?")
    assert audition.value == "2023-07-16"
    # The audition is Ben's: Ana told of no audition.
    assert weeks.ask("When did Ana have an audition?").value != "2023-07-16"


def test_a_turn_that_names_no_time_keeps_its_stamp() -> None:
    memory = Memory(dense=False)
    memory.ingest_dialogue(
        [{"session": 1, "date": "2023-03-16", "speaker": "Gina", "text": "My store is open!"}],
        name="store",
    )
    opened = memory.ask("When did Gina open her store?")
    assert opened.value == "2023-03-16"
    assert "the day it was told" in opened.text


def test_a_lifted_relative_time_is_read_against_its_turn() -> None:
    memory = Memory(dense=False)
    memory.ingest_dialogue(
        [
            {"session": 1, "date": "2023-04-02", "speaker": "Maria", "text": "Congrats, John!"},
            {
                "session": 1,
                "date": "2023-04-02",
                "speaker": "John",
                "text": "I graduated last week!",
            },
        ],
        name="degree",
    )
    graduated = memory.ask("When did John graduate?")
    assert graduated.value == "2023-03-26/2023-04-01"
    assert "the week before 2 April 2023" in graduated.text
    # What the engine lifts is read the same way: never a bare "last week".
    turn = memory.search("graduated last week", k=1)[0]
    sentence, iso, said = told_time("last week", [turn])
    assert (iso, said) == ("2023-03-26/2023-04-01", "the week before 2 April 2023")
    assert sentence == "The week before 2 April 2023 (read from 'last week', 2 April 2023)"
    assert told_time("I graduated last week", [turn]) is None  # more than a time


@pytest.fixture(scope="module")
def outings() -> Memory:
    memory = Memory(dense=False)
    memory.ingest_dialogue(
        [
            {
                "session": 1,
                "date": "2022-07-20",
                "speaker": "Mel",
                "text": "I went to the beach last week.",
            },
            {
                "session": 2,
                "date": "2023-03-01",
                "speaker": "Mel",
                "text": "I adopted my snake Susie last week!",
            },
            {
                "session": 3,
                "date": "2023-05-08",
                "speaker": "Mel",
                "text": "We went to the beach yesterday!",
            },
            {"session": 3, "date": "2023-05-08", "speaker": "Ann", "text": "Sounds fun!"},
            {
                "session": 4,
                "date": "2023-06-10",
                "speaker": "Mel",
                "text": "That beach day in May was the best.",
            },
            {
                "session": 4,
                "date": "2023-06-10",
                "speaker": "Mel",
                "text": "Meet Seraphim, I adopted her yesterday.",
            },
            {
                "session": 5,
                "date": "2023-07-20",
                "speaker": "Mel",
                "text": "We went to the beach again last weekend.",
            },
        ],
        name="outings",
    )
    return memory


def test_an_event_told_twice_is_counted_once(outings: Memory) -> None:
    # May's beach day is told on 8 May ("yesterday") and again in June ("in May").
    assert outings.ask("How many times has Mel gone to the beach in 2023?").value == 2
    assert outings.ask("How many times did Mel go to the beach?").value == 3


def test_which_came_first_is_answered_by_name(outings: Memory) -> None:
    first = outings.ask("Which pet did Mel adopt first - Susie or Seraphim?")
    assert first.value == "Susie"
    latest = outings.ask("Which pet did Mel adopt more recently - Susie or Seraphim?")
    assert latest.value == "Seraphim"
    assert [c.document for c in latest.citations] == ["outings/session-2", "outings/session-4"]


@pytest.fixture(scope="module")
def trip() -> Memory:
    memory = Memory(dense=False)
    memory.ingest_dialogue(
        [
            {
                "session": 1,
                "date": "2023-09-02",
                "speaker": "Deborah",
                "text": "Hey Jolene! How are you?",
            },
            {
                "session": 1,
                "date": "2023-09-02",
                "speaker": "Jolene",
                "text": "Great, Deborah! My partner and I spent a few weeks in Phuket.",
            },
            {
                "session": 1,
                "date": "2023-09-02",
                "speaker": "Jolene",
                "text": "Thanks, Deborah!",
                "caption": "a photo of a beach with palm trees",
            },
        ],
        name="trip",
    )
    return memory


def test_a_name_said_to_its_listener_does_not_make_the_fact_theirs(trip: Memory) -> None:
    assert trip.ask("Where did Jolene and her partner spend a few weeks?").text == "Phuket"
    # Jolene says "Deborah" to Deborah: the weeks in Phuket are still Jolene's.
    deborah = trip.ask("Where did Deborah and her partner spend a few weeks?")
    assert deborah.refused and deborah.reason == "holder"


def test_a_turn_is_said_under_its_days_stamp(trip: Memory) -> None:
    reply = trip.ask("Where did Jolene spend a few weeks with her partner on 2 September 2023?")
    assert reply.text == "Phuket"


def test_greetings_and_the_librarys_own_words_are_never_answers(trip: Memory) -> None:
    from affidavit.engine.rules.chatter import is_chatter

    lines = {e.text: e for e in trip.search("Deborah Jolene Phuket beach image", k=10)}
    thanks = lines["Jolene: Thanks, Deborah!"]
    caption = next(e for e in lines.values() if e.kind == "caption")
    speakers = {"deborah", "jolene"}
    assert is_chatter("Thanks, Deborah", thanks, speakers, who=False)
    assert is_chatter("an image", caption, speakers, who=False)
    assert is_chatter("Jolene: Thanks", thanks, speakers, who=False)
    assert is_chatter("an awesome trip", caption, speakers, who=False)  # praise, no fact
    assert not is_chatter("a beach with palm trees", caption, speakers, who=False)
    assert not is_chatter("Deborah", thanks, speakers, who=True)


def test_a_turn_with_its_own_time_may_tell_the_event_in_its_own_words() -> None:
    memory = Memory(dense=False)
    memory.ingest_dialogue(
        [
            {"session": 1, "date": "2023-08-01", "speaker": "John", "text": "I received a card."},
            {"session": 1, "date": "2023-08-01", "speaker": "John", "text": "I cook at a shelter."},
            {
                "session": 2,
                "date": "2023-08-09",
                "speaker": "Maria",
                "text": "Last week was wild - the shelter gave me a medal!",
            },
        ],
        name="medal",
    )
    # "receive" is not the turn's word, but the rarest, "medal", is, with its own time.
    reply = memory.ask("When did Maria receive a medal from the shelter?")
    assert reply.value == "2023-08-02/2023-08-08"
