"""Building the indexes ahead of the first question, with progress by stage and by line."""

from __future__ import annotations

from pathlib import Path

from conftest import ARTICLES

from affidavit import Memory
from affidavit.index.retrieval import GRAPH_CACHE, WORDS_CACHE


def test_build_indexes_caches_every_index_and_tells_each_stage(tmp_path: Path) -> None:
    heard: list[tuple[int, int, str]] = []
    with Memory(tmp_path / "s.sqlite") as memory:
        for article in ARTICLES[:2]:  # a text ingested leaves the indexes to the first use
            memory.ingest_text(article.read_text(), name=article.name)
        memory.build_indexes(progress=lambda done, total, stage: heard.append((done, total, stage)))
        store = memory._store
        generation = store.generation()
        cached = {
            name
            for (name,) in store.conn.execute(
                "SELECT name FROM index_cache WHERE generation = ?", (generation,)
            )
        }
        lines = memory.stats()["lines"]
    assert {WORDS_CACHE, GRAPH_CACHE} <= cached
    assert any(name.startswith("meaning") for name in cached)
    assert [stage for done, _, stage in heard if done == 0] == [
        "word index",
        "meaning vectors",
        "entity graph",
    ]
    # The meaning stage counts the lines it encodes, up to every line of the store.
    assert (lines, lines, "meaning vectors") in heard
    assert heard[-1] == (1, 1, "entity graph")


def test_a_second_build_encodes_nothing_again(tmp_path: Path) -> None:
    with Memory(tmp_path / "s.sqlite") as memory:
        memory.ingest(ARTICLES[0])
        memory.build_indexes()
        heard: list[tuple[int, int, str]] = []
        memory.build_indexes(progress=lambda *said: heard.append(said))
    assert heard == [
        (0, 1, "word index"),
        (1, 1, "word index"),
        (0, 1, "meaning vectors"),
        (1, 1, "meaning vectors"),
        (0, 1, "entity graph"),
        (1, 1, "entity graph"),
    ]
