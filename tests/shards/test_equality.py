"""A sharded store answers as one store does: every recorded question of the project's
corpora (tests/regressions/recorded_answers.json, recorded of one store), asked of the same
documents split over 2 and 4 shards, gets the one store's answer (its text, value, reason,
census and citations), and every recorded text to verify the one store's verdict."""

from __future__ import annotations

from pathlib import Path

import pytest
from regressions.test_recorded_answers import SLOW_SETS, STORES, answered, expected, load, short

from affidavit import Memory


@pytest.mark.parametrize("shards", [2, 4])
@pytest.mark.parametrize(
    "spec",
    [pytest.param(s, marks=pytest.mark.slow) if s["set"] in SLOW_SETS else s for s in STORES],
    ids=lambda spec: spec["set"],
)
def test_a_sharded_store_answers_and_verifies_as_one_store(
    spec: dict, shards: int, tmp_path: Path
) -> None:
    changed = []
    with Memory(tmp_path / "s", shards=shards) as memory:
        load(memory, spec["load"])
        for item in spec["items"]:
            got, want = answered(memory, item), expected(item)
            changed += [
                f"{item['id']} {field}: {short(want[field])} -> {short(got[field])}"
                for field in want
                if got[field] != want[field]
            ]
    assert not changed, "\n".join(changed)


@pytest.mark.parametrize("shards", [2, 4])
def test_search_finds_the_lines_and_documents_one_store_finds(shards: int, tmp_path: Path) -> None:
    spec = next(s for s in STORES if s["set"] == "squad2_articles")
    with Memory() as one, Memory(tmp_path / "s", shards=shards) as sharded:
        load(one, spec["load"])
        load(sharded, spec["load"])
        queries = [item["ask"] for item in spec["items"]]
        # The partition path's questions too: their entities are judged on counts summed
        # over the shards (archive/shard_entities.py), not on any shard's own graph.
        assert sum(_partitioned(one, query) for query in queries) >= 5
        for query in queries:
            for k in (1, 10):
                want = [(e.document, e.position, e.score) for e in one.search(query, k=k)]
                got = [(e.document, e.position, e.score) for e in sharded.search(query, k=k)]
                assert got == want, query
            scoped = {"documents": "Normans.txt"}
            want = [(e.document, e.position) for e in one.search(query, **scoped)]
            assert [(e.document, e.position) for e in sharded.search(query, **scoped)] == want
            assert sharded.search_documents(query, k=5) == one.search_documents(query, k=5)


def _partitioned(memory: Memory, query: str) -> bool:
    """Does one store read ``query`` on the partition path (two entities of its graph
    named)?"""
    retriever = memory._retriever
    index = retriever.words()
    return retriever.partitioned(index, retriever.read(query), None, 10) is not None
