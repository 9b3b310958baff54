"""distil over a real conversation (corpora/dialogue/ana-and-sam.jsonl, three sessions whose
facts change): each event the engine lists enters as a record only if its own line says it,
drawn from and cited by that line, at extraction trust, dated by its words of time; a
speaker's later telling supersedes the earlier, an ending ends what it names; hedged and
denied events never enter; distilling again writes nothing; a question of now is answered
from what holds now, one of the past from what was; a kind widens what a question finds and
nothing more."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from affidavit import InputError, Memory
from affidavit.engine.protocol import ProposedEvent
from affidavit.engine.rules.engine import DefaultEngine
from affidavit.results import Evidence, RecordState

CHAT = Path(__file__).resolve().parents[2] / "corpora" / "dialogue" / "ana-and-sam.jsonl"
SESSIONS = ("chat/session-1", "chat/session-2", "chat/session-3")


def distilled(memory: Memory) -> list:
    memory.ingest_dialogue(CHAT, name="chat")
    return [memory.distil(session) for session in SESSIONS]


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return Memory(tmp_path / "chat.sqlite", dense=False)


def facts(memory: Memory, subject: str) -> dict[str, str]:
    return {r.predicate: r.value for r in memory.records(subject)}


def test_each_event_enters_drawn_from_its_line_and_dated_by_its_words(memory: Memory) -> None:
    first = distilled(memory)[0]
    adopted = next(r for r in first.records if r.predicate == "adopted")
    assert (adopted.subject, adopted.value, adopted.kind) == ("Sam", "cat", "cat")
    # "yesterday", said on 10 January 2023
    assert (adopted.source, adopted.trust, adopted.true_at) == ("extraction", 0.5, "2023-01-09")
    assert adopted.witness == (("chat/session-1", 3),) and adopted.document == "chat/session-1"
    line = memory.line("chat/session-1", 3)
    assert line is not None and "adopted a cat" in line.text


def test_what_holds_now_follows_the_speakers_later_sessions(memory: Memory) -> None:
    distilled(memory)
    assert facts(memory, "Ana") == {
        "live in": "Porto",
        "cancelled": "subscription to Wired magazine",
        "favorite book": "Piranesi",
    }
    history = {r.value: r for r in memory.records("Ana", include_history=True)}
    assert history["Lisbon"].state is RecordState.SUPERSEDED
    assert history["Lisbon"].superseded_by == history["Porto"].id
    assert history["Dune"].state is RecordState.SUPERSEDED
    wired = history["Wired magazine"]
    assert (wired.state, wired.ended_at) == (RecordState.ENDED, "2023-06-04")
    job = next(r for r in memory.records("Sam", include_history=True) if r.predicate == "started")
    assert (job.state, job.ended_at) == (RecordState.ENDED, "2023-09-19")


def test_hedged_and_denied_events_never_enter(memory: Memory) -> None:
    distilled(memory)
    told = " ".join(r.value for r in memory.records(include_history=True))
    assert "Paris" not in told and "tickets" not in told


def test_distilling_again_writes_nothing_and_reopen_keeps_every_record(tmp_path: Path) -> None:
    path = tmp_path / "chat.sqlite"
    with Memory(path, dense=False) as memory:
        distilled(memory)
        before = memory.records(include_history=True)
        again = memory.distil("chat/session-2")
        assert {r.id for r in again.records} <= {r.id for r in before}
        assert memory.records(include_history=True) == before
    with Memory(path, dense=False) as memory:
        assert memory.records(include_history=True) == before


def test_a_question_of_now_is_answered_from_what_holds_now(memory: Memory) -> None:
    distilled(memory)
    now = memory.ask("Where does Ana live?")
    assert now.text == "Porto" and now.citations[0].document == "chat/session-2"
    gone = now.audit["no_longer_holds"]
    assert gone and gone[0]["candidate"] == "Lisbon" and gone[0]["now"] == "Porto"
    assert "disagree" not in now.census  # what changed is history, not a dispute
    assert memory.ask("Where did Ana live before?").text == "Lisbon"


def test_an_answer_only_an_ended_fact_gives_says_it_no_longer_holds(memory: Memory) -> None:
    distilled(memory)
    # Asked which (a value), not whether: a question asking yes or no is answered by its
    # statement's verdict alone (tests/answer/test_polar.py), never by a span.
    asked = memory.ask("Which magazine does Ana subscribe to?")
    assert asked.text in ("Wired", "Wired magazine")
    assert "no longer holds: it ended on 2023-06-04" in asked.census


def test_the_same_lines_without_distil_answer_as_before(tmp_path: Path) -> None:
    memory = Memory(dense=False)
    memory.ingest_dialogue(CHAT, name="chat")
    asked = memory.ask("Where does Ana live?")
    assert "no_longer_holds" not in asked.audit  # no records: nothing is known to be stale


class PetKinds(DefaultEngine):
    """The default engine's events, with the kind a model would give a cat: a pet."""

    def events(self, lines: Sequence[Evidence]) -> list[ProposedEvent]:
        return [
            dataclasses.replace(e, kind="pet") if e.value == "cat" else e
            for e in super().events(lines)
        ]


def test_a_kind_widens_what_a_question_finds_and_nothing_more(tmp_path: Path) -> None:
    demo = Path(__file__).resolve().parents[2] / "corpora" / "demo"
    question = "Which pet did Sam get?"
    found, said = {}, {}
    for engine in (DefaultEngine(), PetKinds()):
        memory = Memory(dense=False, engine=engine)
        memory.ingest(demo)
        distilled(memory)
        hits = memory._retriever.retrieve(question).hits
        name = engine.__class__.__name__
        found[name] = [(h.document, h.position) for h in hits].index(("chat/session-1", 3))
        said[name] = memory.ask(question).refused
    # Named by its kind, the line that says it is seated right after the two best matches.
    assert found["PetKinds"] == 2 < found["DefaultEngine"]
    # The gate reads the line, not the kind: "pet" is in no line, so nothing is said of it.
    assert said["PetKinds"] and said["DefaultEngine"]


class Inventing(DefaultEngine):
    """An engine that lists an event its line does not say, and one past the document."""

    def events(self, lines: Sequence[Evidence]) -> list[ProposedEvent]:
        made_up = ProposedEvent(subject="Ana", predicate="lives in", value="Madrid", position=0)
        nowhere = ProposedEvent(subject="Ana", predicate="likes", value="tea", position=99)
        return [made_up, nowhere]


def test_an_event_its_line_does_not_say_is_refused_with_the_reason(memory: Memory) -> None:
    memory.engine = Inventing()
    memory.ingest_dialogue(CHAT, name="chat")
    result = memory.distil("chat/session-1")
    assert result.records == () and memory.records() == []
    reasons = dict(result.refused)
    assert "the value 'Madrid'" in reasons["Ana | lives in | Madrid (line 0)"]
    assert "no line 99" in reasons["Ana | likes | tea (line 99)"]


def test_a_document_the_store_does_not_hold_is_an_input_error(memory: Memory) -> None:
    with pytest.raises(InputError, match="no document 'nowhere'"):
        memory.distil("nowhere")


def test_removing_the_conversation_takes_its_records(memory: Memory) -> None:
    distilled(memory)
    for session in SESSIONS:
        memory.remove(session)
    assert memory.records(include_history=True) == []


def test_a_store_before_kinds_read_only_reads_its_records_without_them(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "v7.sqlite"
    with Memory(path, dense=False) as memory:
        distilled(memory)
        held = len(memory.records(include_history=True))
    conn = sqlite3.connect(path)  # the file as schema 7 wrote it
    conn.execute("DROP INDEX records_by_kind")
    conn.execute("DROP INDEX records_by_document")
    conn.execute("ALTER TABLE records DROP COLUMN kind_key")
    conn.execute("ALTER TABLE records DROP COLUMN kind")
    conn.execute("UPDATE meta SET value = '7' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with Memory(path, dense=False, read_only=True) as memory:
        every = memory.records(include_history=True)
        assert len(every) == held and all(r.kind is None for r in every)
        assert memory.ask("Where does Ana live?").text == "Porto"


def test_events_add_up_where_states_replace(memory: Memory) -> None:
    distilled(memory)
    adopted = [r for r in memory.records("Sam", "adopted")]
    assert [r.value for r in adopted] == ["cat", "second cat"]
    assert all(r.supersedes == () and r.contradicts == () for r in adopted)


def test_distilling_what_is_new_folds_each_document_in_once(tmp_path: Path) -> None:
    path = tmp_path / "chat.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest_dialogue(CHAT, name="chat")
        memory.distil("chat/session-1")
        seen: list[tuple[int, int, str]] = []
        done = memory.distil_new(progress=lambda *step: seen.append(step))
        assert [d.document for d in done] == ["chat/session-2", "chat/session-3"]
        assert seen[0] == (0, 2, "chat/session-2") and seen[-1] == (2, 2, "")
        held = memory.records(include_history=True)
    with Memory(path, dense=False) as memory:  # the ledger survives reopen
        assert memory.distil_new() == []
        memory.ingest_dialogue(CHAT, name="again")  # new documents: folded in, once
        assert [d.document for d in memory.distil_new()] == [
            f"again/session-{n}" for n in (1, 2, 3)
        ]
        assert len(memory.records(include_history=True)) > len(held)
