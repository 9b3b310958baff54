"""Inference over told records: two closed triangles of one predicate teach that it is
transitive, and every chain of its told records without the record that closes it yields
that record, from the inference rung (0.35, below the speaking threshold), linked to the
records it came from; its line is searched, never cited; one triangle teaches nothing; a
value the predicate links to the standing one never supersedes it; a later telling of a
derived fact supersedes the derivation; everything survives reopen. The places are the
Normans article's (corpora/demo/Normans.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory
from affidavit.results import RecordState

NORMANS = Path(__file__).resolve().parents[2] / "corpora" / "demo" / "Normans.txt"
# Two closed triangles (Rouen and Caen), and a chain the store does not close (Bayeux).
TOLD = [
    ("Rouen", "Normandy"),
    ("Normandy", "France"),
    ("Rouen", "France"),
    ("Caen", "Normandy"),
    ("Caen", "France"),
    ("Bayeux", "Normandy"),
]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "places.sqlite"


def told(memory: Memory, facts: list[tuple[str, str]]) -> None:
    for place, within in facts:
        memory.tell(place, "is in", within)


def test_two_triangles_teach_transitivity_and_the_open_chain_is_closed(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        told(memory, TOLD)
        assert all(r.state is RecordState.LIVE for r in memory.records(include_history=True))
        result = memory.infer()
        assert result.transitive == ("is in",)
        (derived,) = result.records
        assert (derived.subject, derived.predicate, derived.value) == ("Bayeux", "is in", "France")
        assert (derived.source, derived.trust) == ("inference", 0.35)
        premises = {r.id: (r.subject, r.value) for r in memory.records()}
        assert sorted(premises[i] for i in derived.because) == [
            ("Bayeux", "Normandy"),
            ("Normandy", "France"),
        ]
        assert memory.infer().records == ()  # nothing new the second time


def test_one_triangle_teaches_nothing(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        told(memory, TOLD[:3] + TOLD[-1:])
        result = memory.infer()
        assert result.transitive == () and result.records == ()


def test_a_derived_record_is_searched_but_never_said(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        memory.ingest(NORMANS)
        told(memory, TOLD)
        memory.infer()
        found = [hit.text for hit in memory.search("Bayeux France", k=5)]
        assert "Bayeux is in France." in found
        asked = memory.ask("Is Bayeux in France?")
        assert all("Bayeux is in France" not in line.text for line in asked.citations)
        assert asked.audit["withheld_below_trust"] >= 1


def test_a_later_telling_supersedes_the_derivation_and_reopen_keeps_all(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        told(memory, TOLD)
        (derived,) = memory.infer().records
        said = memory.tell("Bayeux", "is in", "France")
    with Memory(store, dense=False) as memory:
        history = {r.id: r for r in memory.records("Bayeux", include_history=True)}
        assert history[derived.id].state is RecordState.SUPERSEDED
        assert history[said.id].state is RecordState.LIVE and said.id != derived.id
        assert history[derived.id].because  # its premises stay linked
        assert [r.value for r in memory.records("Bayeux")] == ["Normandy", "France"]


def test_a_value_along_the_predicates_own_chain_supersedes_nothing(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        told(memory, [("Normandy", "France"), ("Rouen", "Normandy"), ("Rouen", "France")])
        assert [r.value for r in memory.records("Rouen")] == ["Normandy", "France"]
        memory.tell("Rouen", "is in", "Brittany")  # not along the chain: an update
        assert [r.value for r in memory.records("Rouen")] == ["Brittany"]
