"""The driver's tallies of every shard's terms (index/words/tallies.py) give the whole
store's counts for any question without asking the shards, and say when they cannot."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import ARTICLES

from affidavit import Memory
from affidavit.index.words.statistics import Statistics
from affidavit.index.words.tallies import Tallies, digests
from affidavit.memory import ShardedMemory

ASKED = [
    "When did the oil embargo begin?",
    "Who were the Normans in Normandy?",
    "What population did Jacksonville have in 2010?",
    "pharmacy pharmacist hospital zzzunheardof",
    "Jacksonville Florida",  # words of the documents' names
]


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("tallies")
    one = Memory(dense=False)
    one.ingest(list(ARTICLES))
    sharded = Memory(Path(folder) / "s", shards=3, dense=False)
    sharded.ingest(list(ARTICLES))
    assert isinstance(sharded, ShardedMemory)
    yield one._retriever.words(), [s._retriever.words() for s in sharded._shards._shards]
    one.close()
    sharded.close()


@pytest.mark.parametrize("question", ASKED)
def test_summed_tallies_count_as_the_whole_store(stores, question: str) -> None:
    whole, indexes = stores
    terms = whole.read(question).searched
    tallies = Tallies.summed([Tallies.of(index) for index in indexes])
    counted = tallies.statistics(terms)
    assert counted == whole.statistics(terms)
    assert counted == Statistics.summed([index.statistics(terms) for index in indexes])
    assert Tallies.of(whole).statistics(terms) == whole.statistics(terms)


def test_the_tallies_hold_every_term_and_only_those(stores) -> None:
    whole, indexes = stores
    tallies = Tallies.summed([Tallies.of(index) for index in indexes])
    assert len(tallies.keys) == len(set(whole.vocabulary) | set(whole.name_terms))
    assert all(tallies.holds(term) for term in list(whole.vocabulary)[:500])
    assert tallies.holds("zzzunheardof") is False
    assert np.all(np.diff(tallies.keys.astype(np.float64)) >= 0)  # ordered for the search


def test_a_shared_key_is_unsure_and_counted_by_the_shards(stores) -> None:
    # Two terms whose digests share a first half cannot be told apart by the table: both
    # are marked unsure, and a question holding either gets no counts from it.
    whole, indexes = stores
    tallies = Tallies.summed([Tallies.of(index) for index in indexes])
    term = whole.read("Normans").searched[0]
    assert tallies.holds(term)
    keys, _ = digests([term])
    clash = Tallies(
        totals=Statistics(0, 0, 0, 0, 0, {}, {}, {}),
        keys=keys,
        checks=np.array([12345], dtype=np.uint64),  # another term, the same first half
        line_frequency=np.array([1]),
        window_frequency=np.array([1]),
        name_frequency=np.array([0]),
        held=np.array([True]),
        unsure=np.array([False]),
    )
    both = Tallies.summed([tallies, clash])
    assert both.statistics([term]) is None
    assert both.holds(term) is None
    assert both.statistics(["oil"]) == tallies.statistics(["oil"])


NEW_TEXT = "The quokkamander treaty was signed at Zyrtelle in 1843 by eleven delegates."
NEW_QUERY = "Where was the quokkamander treaty signed?"


def _places(found) -> list[tuple[str, int, float]]:
    return [(e.document, e.position, round(e.score, 9)) for e in found]


def test_a_driver_reads_the_counts_once_then_asks_no_shard_for_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from affidavit.archive.shard_parts import ShardParts

    asked: list[str] = []
    for part in ("statistics", "tallies"):
        original = getattr(ShardParts, part)

        def counted(self, *args, _part=part, _original=original):
            asked.append(_part)
            return _original(self, *args)

        monkeypatch.setattr(ShardParts, part, counted)
    with Memory(tmp_path / "s", shards=3, dense=False) as sharded:
        sharded.ingest(list(ARTICLES))
        for question in ASKED:
            sharded.search(question)
            sharded.ask(question)
        assert asked == ["tallies"] * 3  # each shard's tallies read once, no statistics
        sharded.ingest_text(NEW_TEXT, name="treaty.txt")
        found = sharded.search(NEW_QUERY, k=3)
        assert found[0].document == "treaty.txt"
        assert asked == ["tallies"] * 4  # only the shard written read again


def test_a_shard_written_by_another_driver_is_read_again(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    with Memory(folder, shards=3, dense=False) as first:
        first.ingest(list(ARTICLES))
        before = first.search(NEW_QUERY, k=5)
        with Memory(folder, dense=False) as second:  # another process, as far as it knows
            second.ingest_text(NEW_TEXT, name="treaty.txt")
        after = first.search(NEW_QUERY, k=5)
        answer = first.ask(NEW_QUERY)
    with Memory(dense=False) as one:
        one.ingest(list(ARTICLES))
        one.ingest_text(NEW_TEXT, name="treaty.txt")
        expected = one.search(NEW_QUERY, k=5)
        expected_answer = one.ask(NEW_QUERY)
    assert "treaty.txt" not in {e.document for e in before}
    assert _places(after) == _places(expected)  # the whole store's scores, new counts
    assert answer.text == expected_answer.text
    assert [c.document for c in answer.citations] == ["treaty.txt"]
