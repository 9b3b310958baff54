"""A fact that ends ("I cancelled my subscription"): the record stays, saying until when
it held, leaves what holds now (records, profiles' facts) but not the history, and its
told line says so, so ask and verify read the ending; told again, it holds again; the
ending survives reopen; ending what is not a live record is an InputError."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import InputError, Memory
from affidavit.results import RecordState


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "ended.sqlite"


def test_an_ended_fact_leaves_what_holds_now_and_stays_as_history(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        wired = memory.tell("Maya", "subscribes to", "Wired", at="2023-01-10")
        memory.tell("Maya", "subscribes to", "The Economist")  # supersedes Wired
        economist = memory.records("Maya", "subscribes to")[0]
        ended = memory.end(economist.id, at="2024-05-01")
        assert ended.state is RecordState.ENDED and ended.ended_at == "2024-05-01"
        assert memory.records("Maya") == []  # nothing holds now
        history = memory.records("Maya", include_history=True)
        assert [(r.value, r.state) for r in history] == [
            ("Wired", RecordState.SUPERSEDED),
            ("The Economist", RecordState.ENDED),
        ]
        assert memory.profile("Maya").facts == () and wired.id in {
            r.id for r in memory.profile("Maya").history
        }
        assert memory.end(economist.id) == ended  # ended already: said again, unchanged
    with Memory(store, dense=False) as memory:  # the ending survives reopen
        again = memory.records("Maya", include_history=True)[-1]
        assert again.state is RecordState.ENDED and again.ended_at == "2024-05-01"


def test_the_told_line_says_until_when_so_answers_read_the_ending(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        told = memory.tell("Maya", "subscribes to", "Wired", at="2023-01-10")
        memory.end(told.id, at="2024-05-01")
        hits = memory.search("Maya subscribes to Wired")
        assert [h.text for h in hits] == ["Maya subscribes to Wired until 2024-05-01."]
        assert hits[0].document.startswith("told by the operator on ")
        answer = memory.ask("Until when did Maya subscribe to Wired?")
        assert not answer.refused and "2024-05-01" in answer.text


def test_a_fact_told_again_after_it_ended_holds_again(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        first = memory.tell("Maya", "subscribes to", "Wired")
        memory.end(first.id, at="2024-05-01")
        back = memory.tell("Maya", "subscribes to", "Wired", at="2025-02-01")
        assert back.id != first.id and back.state is RecordState.LIVE
        assert back.supersedes == (first.id,)
        assert [r.value for r in memory.records("Maya")] == ["Wired"]


@pytest.mark.parametrize(
    ("at", "problem"),
    [("2022-01-01", "before the fact began"), ("yesterday", "not an ISO date")],
)
def test_a_bad_ending_is_an_input_error_that_changes_nothing(
    store: Path, at: str, problem: str
) -> None:
    with Memory(store, dense=False) as memory:
        told = memory.tell("Maya", "subscribes to", "Wired", at="2023-01-10")
        with pytest.raises(InputError, match=problem):
            memory.end(told.id, at=at)
        assert memory.records("Maya")[0].state is RecordState.LIVE


def test_only_a_live_record_can_end(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        old = memory.tell("Maya", "lives in", "Lisbon")
        memory.tell("Maya", "lives in", "Porto")
        with pytest.raises(InputError, match="superseded: only a live fact can end"):
            memory.end(old.id)
        with pytest.raises(InputError, match="no record 99"):
            memory.end(99)
