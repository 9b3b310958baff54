"""Building the indexes ahead of the first question, with progress by stage and by line."""

from __future__ import annotations

import multiprocessing.context
from pathlib import Path

import pytest
from conftest import ARTICLES

from affidavit import Memory
from affidavit.index.entities import background_build as graph_build
from affidavit.index.entities import held_graph as held
from affidavit.index.entities.held_graph import GRAPH_CACHE
from affidavit.index.retrieval import WORDS_CACHE


def test_build_indexes_caches_every_index_and_tells_each_stage(tmp_path: Path) -> None:
    heard: list[tuple[int, int, str]] = []
    with Memory(tmp_path / "s.sqlite", dense=False) as memory:  # no line vectors made
        for article in ARTICLES[:2]:
            memory.ingest_text(article.read_text(), name=article.name)
    with Memory(tmp_path / "s.sqlite") as memory:
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
    assert GRAPH_CACHE in cached  # and the word index, whole or its newest part
    assert any(name.startswith(WORDS_CACHE) for name in cached)
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


def _graph_bytes(tmp_path: Path, name: str) -> bytes:
    with Memory(tmp_path / name, dense=False) as memory:
        for article in ARTICLES[:4]:
            memory.ingest_text(article.read_text(), name=article.name)
        # As another process opening the store finds it: no graph in hand, and none
        # cached at its generation (the texts grew the one in hand).
        memory._retriever._held = held.HeldGraph(memory._store)
        memory.build_indexes()
        payload = memory._store.cached(GRAPH_CACHE, memory._store.generation())
    assert payload is not None
    return payload


def test_the_graph_built_on_another_core_is_the_one_built_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = _graph_bytes(tmp_path, "here.sqlite")  # a few thousand lines: built here
    started: list[object] = []
    original = graph_build.start_graph

    def watched(*args: object) -> graph_build.GraphBuild | None:
        build = original(*args)  # type: ignore[arg-type]
        started.append(build)
        return build

    monkeypatch.setattr(graph_build, "LINES_WORTH_A_WORKER", 0)
    monkeypatch.setattr(held, "start_graph", watched)
    elsewhere = _graph_bytes(tmp_path, "elsewhere.sqlite")
    assert started and all(build is not None for build in started)
    assert elsewhere == here


def test_a_worker_that_fails_leaves_the_graph_to_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = _graph_bytes(tmp_path, "here.sqlite")

    def unreadable(*_: object, **__: object) -> None:
        raise OSError("the worker cannot open the store")

    monkeypatch.setattr(graph_build, "LINES_WORTH_A_WORKER", 0)
    monkeypatch.setattr(graph_build, "Store", unreadable)  # the forked worker's only
    assert _graph_bytes(tmp_path, "fallback.sqlite") == here


def test_where_no_process_may_be_forked_the_graph_is_built_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = _graph_bytes(tmp_path, "here.sqlite")

    def refused(self: object) -> None:
        raise AssertionError("daemonic processes are not allowed to have children")

    monkeypatch.setattr(graph_build, "LINES_WORTH_A_WORKER", 0)
    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start", refused)
    assert _graph_bytes(tmp_path, "unforked.sqlite") == here
