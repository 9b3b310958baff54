"""Records told to a store: a newer telling supersedes the older, which stays as history;
a lower-trust telling, or another document's, stands beside the record, linked as
contradicting, and an answer from either cites both;
forgetting writes a tombstone and resurrects nothing; every record, state and link
survives reopen; bad input is an InputError that leaves the store as it was; removing a
real document takes its lines out of search in one call."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import InputError, Memory
from affidavit.results import RecordState

CORPORA = Path(__file__).resolve().parents[2] / "corpora"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "records.sqlite"


def test_a_told_fact_is_read_back_with_its_stamps(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        told = memory.tell("Maya", "lives in", "Lisbon", at="2023-03-01")
        assert told.id > 0 and told.value == "Lisbon" and told.state is RecordState.LIVE
        assert (told.source, told.trust, told.true_at) == ("operator", 0.75, "2023-03-01")
        assert told.told_at[:4].isdigit() and told.document is None
        assert memory.records("maya", "Lives  In") == [told]
        assert memory.tell("Maya", "lives in", "lisbon") == told  # told again: no new record


def test_a_newer_telling_supersedes_and_the_old_stays_as_history(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        old = memory.tell("Maya", "lives in", "Lisbon")
        new = memory.tell("Maya", "lives in", "Porto")
        assert [r.value for r in memory.records("Maya", "lives in")] == ["Porto"]
        history = memory.records("Maya", "lives in", include_history=True)
        assert [(r.value, r.state) for r in history] == [
            ("Lisbon", RecordState.SUPERSEDED),
            ("Porto", RecordState.LIVE),
        ]
        assert history[0].superseded_by == new.id and history[1].supersedes == (old.id,)


def test_an_older_truth_told_later_is_history_at_once(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        memory.tell("lease", "ends on", "2025-05-01", at="2024-01-10")
        late = memory.tell("lease", "ends on", "2024-12-31", at="2023-06-01")
        assert late.state is RecordState.SUPERSEDED
        assert [r.value for r in memory.records("lease")] == ["2025-05-01"]


def test_a_lower_trust_telling_contradicts_and_overwrites_nothing(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        sure = memory.tell("inspection", "due", "1 May")
        rumour = memory.tell("inspection", "due", "1 June", source="stranger")
        live = memory.records("inspection", "due")
        assert [r.value for r in live] == ["1 May", "1 June"]
        assert rumour.contradicts == (sure.id,) and live[0].contradicts == (rumour.id,)


def test_forgetting_leaves_a_tombstone_and_resurrects_nothing(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        memory.tell("Maya", "subscribes to", "a magazine")
        second = memory.tell("Maya", "subscribes to", "two magazines")
        gone = memory.forget(second.id)
        assert gone.state is RecordState.FORGOTTEN
        assert memory.records("Maya", "subscribes to") == []
    with Memory(store, dense=False) as reopened:
        assert reopened.records("Maya") == []
        states = [r.state for r in reopened.records("Maya", include_history=True)]
        assert states == [RecordState.SUPERSEDED, RecordState.FORGOTTEN]


def test_every_record_state_and_link_survives_reopen(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        memory.tell("Leo", "learns", "Spanish")
        memory.tell("Leo", "learns", "Portuguese", at="2024-02-02")
        memory.tell("Leo", "learns", "French", source="stranger")
        before = memory.records(include_history=True)
    with Memory(store, dense=False) as reopened:
        assert reopened.records(include_history=True) == before


@pytest.mark.parametrize(
    ("call", "what"),
    [
        (lambda m: m.tell("", "lives in", "Porto"), "the subject"),
        (lambda m: m.tell("Maya", "lives in", "x" * 3000), "the value"),
        (lambda m: m.tell("Maya", "lives in", "Porto", source="rumour"), "source"),
        (lambda m: m.tell("Maya", "lives in", "Porto", at="May 2023"), "at"),
        (lambda m: m.forget(999), "record_id"),
        (lambda m: m.remove("no-such-document.txt"), "document"),
        (lambda m: m.records(42), "subject"),
        (lambda m: m.tell("Maya", "lives in", "Porto", witness="line 3"), "witness"),
    ],
)
def test_bad_input_is_an_input_error_and_changes_nothing(store: Path, call, what: str) -> None:
    with Memory(store, dense=False) as memory:
        memory.tell("Maya", "lives in", "Lisbon")
        before = memory.records(include_history=True)
        with pytest.raises(InputError) as raised:
            call(memory)
        assert raised.value.what == what
        assert memory.records(include_history=True) == before


def test_removing_a_document_takes_it_out_of_search(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        memory.ingest([CORPORA / "licences" / "mpl-2.0.txt", CORPORA / "licences" / "cc0-1.0.txt"])
        assert any(h.document == "mpl-2.0.txt" for h in memory.search("Mozilla litigation"))
        removed = memory.remove("mpl-2.0.txt")
        assert removed > 100
        assert memory.documents() == ["cc0-1.0.txt"]
        assert all(h.document != "mpl-2.0.txt" for h in memory.search("Mozilla litigation"))
    with Memory(store, dense=False) as reopened:
        assert reopened.documents() == ["cc0-1.0.txt"]
        assert all(h.document != "mpl-2.0.txt" for h in reopened.search("Mozilla litigation"))


def test_a_told_record_answers_as_a_line_cited_as_told(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        memory.ingest(CORPORA / "licences" / "cc0-1.0.txt")
        memory.tell("Maya", "lives in", "Lisbon")
        porto = memory.tell("Maya", "lives in", "Porto")
        answer = memory.ask("Where does Maya live?")
        assert not answer.refused and answer.text == "Porto"
        cited = answer.citations[0]
        assert cited.document == f"told by the operator on {porto.told_at[:10]} (record 2)"
        assert (cited.text, cited.trust) == ("Maya lives in Porto.", 0.75)
        assert memory.verify("Maya lives in Porto.").supported
        assert not memory.verify("Maya lives in Lisbon.").supported  # superseded: history
    with Memory(store, dense=False) as reopened:
        assert reopened.ask("Where does Maya live?").text == "Porto"
        reopened.forget(porto.id)
        assert reopened.ask("Where does Maya live?").refused  # Lisbon does not come back
        told = f"told by the operator on {porto.told_at[:10]} (record 1)"
        with pytest.raises(InputError, match="forget the record instead"):
            reopened.remove(told)


def test_a_record_drawn_from_a_line_enters_only_if_the_line_says_it(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        memory.ingest(CORPORA / "licences" / "apache-2.0.txt")
        line = ("apache-2.0.txt", 1)  # "Version 2.0, January 2004 http://www.apache.org/..."
        drawn = memory.tell("Apache License", "version", "2.0", source="extraction", witness=line)
        assert (drawn.document, drawn.witness, drawn.trust) == ("apache-2.0.txt", (line,), 0.5)
        assert memory.documents() == ["apache-2.0.txt"]  # cited by its own line, no told one
        for value, lacks in (("3.0", "the value"), ("200", "the digits")):
            with pytest.raises(InputError, match=lacks):
                memory.tell("Apache License", "version", value, witness=line)
        with pytest.raises(InputError, match="a word of the predicate"):
            memory.tell("Apache License", "price", "2.0", witness=line)
        with pytest.raises(InputError, match="no line 999"):
            memory.tell("Apache License", "version", "2.0", witness=("apache-2.0.txt", 999))
        assert memory.records(include_history=True) == [drawn]
        memory.remove("apache-2.0.txt")  # a retention request takes what was drawn from it
        assert memory.records(include_history=True) == []


def test_two_documents_that_disagree_are_linked_never_overwritten(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        memory.ingest_text("The inspection is due on 1 May 2025.", name="notice-a")
        memory.ingest_text("The inspection is due on 1 June 2025.", name="notice-b")
        a = memory.tell("inspection", "due", "1 May 2025", witness=("notice-a", 0))
        b = memory.tell("inspection", "due", "1 June 2025", witness=("notice-b", 0))
        live = memory.records("inspection", "due")
        assert [r.value for r in live] == ["1 May 2025", "1 June 2025"]
        assert live[0].contradicts == (b.id,) and live[1].contradicts == (a.id,)
        answer = memory.ask("When is the inspection due?")
        assert answer.text == "1 May 2025"  # one side said, the other cited and named
        assert [c.document for c in answer.citations] == ["notice-a", "notice-b"]
        assert "Contested" in answer.census and "'1 June 2025'" in answer.census


def test_an_entitys_page_holds_its_facts_history_and_neighbours(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        memory.ingest(CORPORA / "squad2_articles" / "Normans.txt")
        memory.tell("Rollo", "ruled", "Normandy")
        memory.tell("Rollo", "died in", "928")
        latest = memory.tell("Rollo", "died in", "932")
        page = memory.profile("rollo", top=3)
        assert [(r.predicate, r.value) for r in page.facts] == [
            ("ruled", "Normandy"),
            ("died in", "932"),
        ]
        assert [(r.value, r.superseded_by) for r in page.history] == [("928", latest.id)]
        assert len(page.neighbours) == 3 and all(n.witnesses for n in page.neighbours)
        assert page.to_dict()["facts"][1]["value"] == "932"
        with pytest.raises(InputError, match="no record of 'Zorblax'"):
            memory.profile("Zorblax")
