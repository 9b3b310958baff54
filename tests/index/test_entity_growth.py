"""The entity graph grown as documents arrive one call at a time: the new lines matched
against the known entities, and, when the text has grown enough, a mining that reads
again only the lines that may name an entity it finds first. Each grown graph must be
the graph a whole build gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import ARTICLES
from test_entities import article_lines, same_graph

from affidavit import Memory
from affidavit.index.entities import linking
from affidavit.index.entities.graph import EntityGraph
from affidavit.index.entities.held_graph import GRAPH_CACHE
from affidavit.store.sqlite import Store


def _store_rows(memory: Memory) -> list[tuple[int, str, str]]:
    """Every line of the store as the graph reads it."""
    store = memory._store
    languages = {doc_id: language for doc_id, _, language in store.documents()}
    return [(i, text, languages[d]) for i, d, _, _, text in store.line_rows()]


def test_a_mining_reads_again_only_the_lines_that_may_name_a_new_entity() -> None:
    rows = article_lines(*ARTICLES)
    cut = len(rows) * 4 // 5  # a fifth more text: a mining is due
    before = EntityGraph.build(rows[:cut])
    assert before.kept is not None
    read: list[int] = []

    def lines(ids: np.ndarray) -> list[tuple[int, str, str]]:
        read.extend(ids.tolist())
        wanted = set(ids.tolist())
        return [row for row in rows if row[0] in wanted]

    after = before.grown(rows[cut:], [], lines)
    whole = EntityGraph.build(rows)
    assert after.mined == len(whole.corpus.ids)  # mined again
    assert {e.words for e in whole.entities} - {e.words for e in before.entities}  # new ones
    assert same_graph(after, whole)
    assert read == sorted(set(read))  # in line order, each once
    assert 0 < len(read) < len(rows) // 4


def test_the_lines_that_may_name_an_entity_hold_every_line_that_does() -> None:
    rows = article_lines(*ARTICLES)
    graph = EntityGraph.build(rows)
    assert graph.corpus is not None
    for number, entity in enumerate(graph.entities[:60]):
        naming = linking.lines_naming(graph.corpus, [entity])
        assert naming is not None
        assert set(graph.postings[number].tolist()) <= set(naming.tolist()), entity.name
    assert linking.lines_naming(graph.corpus, []).tolist() == []
    unread = type(graph.entities[0])(("zqxwv",), "Zqxwv", 3)
    assert linking.lines_naming(graph.corpus, [unread]) is None  # every line, then


def test_a_mining_matches_the_copies_of_the_lines_naming_a_new_entity() -> None:
    """A copy's lines are not in the corpus the mining reads: a line naming a new entity is
    found in the corpus, and its copies by their text's digest."""
    first = article_lines(ARTICLES[0])
    second = [(len(first) + i, text, language) for i, text, language in article_lines(ARTICLES[1])]
    copy = [
        (2 * len(second) + len(first) + i, text, lang) for i, (_, text, lang) in enumerate(second)
    ]
    rows, mined = first + second + copy, first + second
    after = EntityGraph.build(first).updated(rows, mined)
    whole = EntityGraph.build(rows, mined)
    assert same_graph(after, whole)
    known = {e.words for e in EntityGraph.build(first).entities}
    new = [n for n, e in enumerate(whole.entities) if e.words not in known]
    copied = {row[0] for row in copy}
    in_copy = [sum(1 for i in whole.postings[n].tolist() if i in copied) for n in new]
    assert new and sum(in_copy) > 0  # the copy's lines name the new entities too


def test_a_text_added_grows_the_graph_at_once_mined_exactly(tmp_path: Path) -> None:
    """ingest_text brings the graph up to date, its entities those of a mining of the
    whole text after every call (a line's worth of text too), so the next question builds
    nothing; the graph is cached at close with the mining's counts, and grows on from
    them after reopening."""
    path = tmp_path / "s.sqlite"
    memory = Memory(path, dense=False)
    memory.ingest_text(ARTICLES[0].read_text(encoding="utf-8"), name="first.txt")
    retriever, store = memory._retriever, memory._store
    assert retriever._held.generation == store.generation()  # built with the first text
    for name, text in [
        ("note.txt", "Rollo met the Duke of Normandy. Rollo met Drogo of Hauteville."),
        ("second.txt", ARTICLES[1].read_text(encoding="utf-8")),
    ]:
        memory.ingest_text(text, name=name)
        assert retriever._held.generation == store.generation()  # grown, and mined
        graph = retriever._held.graph
        assert graph.counts is not None and graph.mined == len(graph.counts.corpus.ids)
        assert same_graph(graph, EntityGraph.build(_store_rows(memory)))
        assert retriever.graph() is graph  # the question builds nothing
    memory.close()
    reopened = Memory(path, dense=False)
    assert reopened._store.has_cached(GRAPH_CACHE, reopened._store.generation())
    assert reopened._retriever.graph().counts is not None  # kept with the graph
    reopened.ingest_text(ARTICLES[2].read_text(encoding="utf-8"), name="third.txt")
    grown = reopened._retriever._held.graph
    assert same_graph(grown, EntityGraph.build(_store_rows(reopened)))
    reopened.close()


def test_a_graph_grown_as_a_text_is_added_is_cached_at_close(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    memory = Memory(path, dense=False)
    memory.ingest_text(ARTICLES[0].read_text(encoding="utf-8"), name="first.txt")
    memory.ingest_text("Rollo met the Duke of Normandy.", name="note.txt")
    store = memory._store
    generation = store.generation()
    assert not store.has_cached(GRAPH_CACHE, generation)  # grown in hand, not written
    grown = memory._retriever._held.graph
    memory.close()
    reopened = Memory(path, dense=False)
    assert reopened._store.has_cached(GRAPH_CACHE, generation)
    assert grown is not None and same_graph(reopened._retriever.graph(), grown)
    reopened.close()


def test_a_line_read_into_the_corpus_is_spelled_as_the_matcher_reads_it() -> None:
    """Lines added are read once: the words the corpus reads make the text the matcher
    would have made of them again, where lower case changes no character beyond ASCII
    (the others are made again)."""
    from affidavit.index.entities.corpus import KeptWords, read_lines
    from affidavit.text.names import segments

    rows = article_lines(*ARTICLES)
    changed = ["Mr. Brooke's horse; İstanbul'da, Ōsaka.", "ΟΔΟΣ ΣΟΦΙΑΣ — Άρης"]
    kept = ["Mr. Brooke’s horse met O'Brien, J. Smith (of Lowick) — in “Middlemarch”."]
    rows += [(len(rows) + n, text, "en") for n, text in enumerate([*changed, *kept], 1)]
    rows += [(len(rows) + 9, "Iğdır'da IRMAK aktı, İzmir’de değil.", "tr")]
    spelled: dict[int, str] = {}
    read_lines(rows, KeptWords([], {}, [], {}), 0, spelled)
    assert all(spelled[i] == segments(text, language) for i, text, language in rows if i in spelled)
    unspelled = {text for i, text, _ in rows if i not in spelled}
    assert len(spelled) > 100 and kept[0] not in unspelled
    assert {*changed, "Iğdır'da IRMAK aktı, İzmir’de değil."} <= unspelled


def test_the_copies_among_documents_just_added_are_those_of_the_whole_store() -> None:
    """A copy is told apart from the documents just added alone: the earlier document it
    repeats is looked for in the whole store."""
    from affidavit.index.copies import copied_among, copied_documents

    first, second = (path.read_text(encoding="utf-8") for path in ARTICLES[:2])
    memory = Memory(dense=False)
    for name, text in [("a", first), ("b", second), ("c", first), ("d", second), ("e", first)]:
        memory.ingest_text(text, name=f"{name}.txt")
    ids = sorted(doc_id for doc_id, _, _ in memory._store.documents())
    every = copied_documents(memory._store, ids)
    assert len(every) == 3
    for cut in range(len(ids)):
        assert copied_among(memory._store, ids[cut:]) == every & set(ids[cut:])
    assert copied_documents(memory._store, ids[2:]) != every & set(ids[2:])  # among them only


def test_the_graph_reads_versions_and_lines_in_one_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process replacing a document between the graph's reading of the versions
    and of the lines is not seen by either (it had met lines of a document the versions
    did not hold: a KeyError at close)."""
    from affidavit.index import growth

    path = tmp_path / "s.sqlite"
    first, second, third = (p.read_text(encoding="utf-8") for p in ARTICLES[:3])
    memory = Memory(path, dense=False)
    memory.ingest_text(first, name="a.txt")
    memory.ingest_text(second, name="b.txt")
    other = Memory(path, dense=False)
    original, replaced = growth.document_keys, []

    def then_replaced(store: Store) -> list:
        keys = original(store)
        if not replaced:
            replaced.append(True)
            other.ingest_text(third, name="a.txt")  # another writer, meanwhile
        return keys

    monkeypatch.setattr(growth, "document_keys", then_replaced)
    for previous in (None, memory._retriever._held.graph):
        replaced.clear()
        graph = growth.current_graph(memory._store, previous)
        assert replaced and len(graph.document_keys) == 2
    other.close()
    memory.close()


# -- a store grown a document at a time against one mined whole --


def graph_facts(graph: EntityGraph, places: dict[int, tuple[str, int]]) -> dict[str, object]:
    """What two graphs must share to be equal: the same phrases (each entity's words, the
    name it is written by and its count, in order), each one's lines, and the same links
    (each pair of entities mentioned apart in a line: its witnessing lines and its
    weight, the float itself). Lines are named by (document, position), so two stores
    that gave their lines other ids compare alike."""
    graph.settle()
    words = [entity.words for entity in graph.entities]
    return {
        "phrases": [(e.words, e.name, e.count) for e in graph.entities],
        "lines": [[places[i] for i in ids.tolist()] for ids in graph.postings],
        "links": {
            (words[a], words[b]): ([places[i] for i in ids.tolist()], graph.weight(a, b))
            for (a, b), ids in graph.pairs.items()
        },
    }


def _places(memory: Memory) -> dict[int, tuple[str, int]]:
    names = {doc_id: name for doc_id, name, _ in memory._store.documents()}
    return {i: (names[d], position) for i, d, position, _, _ in memory._store.line_rows()}


def _documents(articles: tuple[Path, ...]) -> list[tuple[str, str]]:
    """Each paragraph of the articles as a document of its own."""
    found = []
    for article in articles:
        paragraphs = [p for p in article.read_text(encoding="utf-8").split("\n\n") if p.strip()]
        found += [(f"{article.stem}-{n:03d}.txt", p) for n, p in enumerate(paragraphs)]
    return found


def _grown_equals_mined_whole(tmp_path: Path, articles: tuple[Path, ...], every: int) -> None:
    documents = _documents(articles)
    grown = Memory(tmp_path / "grown.sqlite", dense=False)

    def same_as_whole() -> None:
        graph = grown._retriever._held.graph  # as the last call left it: nothing rebuilt
        assert graph is not None and graph.counts is not None
        whole = EntityGraph.build(_store_rows(grown))  # mined from scratch, same lines
        places = _places(grown)
        assert graph_facts(graph, places) == graph_facts(whole, places)

    for number, (name, text) in enumerate(documents, start=1):
        grown.ingest_text(text, name=name)
        if number % every == 0 or number == len(documents):
            same_as_whole()
    # A document replaced, another removed: the graph is built again from the lines (no
    # count is left of the old text), and grows on from there.
    replaced, removed = documents[1][0], documents[2][0]
    grown.ingest_text("Rollo met Drogo of Hauteville and Drogo met Rollo.", name=replaced)
    grown.remove(removed)
    grown.entities(top=1)
    grown.ingest_text(documents[2][1], name="again.txt")
    grown.ingest_text(documents[0][1] + "\n\nRollo met Drogo of Hauteville.", name="more.txt")
    same_as_whole()
    # The same documents stored at once, in one call, give the same graph.
    at_once = Memory(tmp_path / "at-once.sqlite", dense=False)
    folder = tmp_path / "documents"
    folder.mkdir()
    held = {name: text for name, text in documents if name != removed}
    held[replaced] = "Rollo met Drogo of Hauteville and Drogo met Rollo."
    held["again.txt"] = documents[2][1]
    held["more.txt"] = documents[0][1] + "\n\nRollo met Drogo of Hauteville."
    files = []
    for name, text in held.items():
        (folder / name).write_text(text, encoding="utf-8")
        files.append(folder / name)
    at_once.ingest(files)
    mine = graph_facts(grown._retriever.graph(), _places(grown))
    theirs = graph_facts(at_once._retriever.graph(), _places(at_once))
    # One store wrote the documents in another order: the phrases, their counts and the
    # links' weights are the same; each phrase's lines, as sets.
    assert sorted(mine["phrases"]) == sorted(theirs["phrases"])
    assert {k: v[1] for k, v in mine["links"].items()} == {
        k: v[1] for k, v in theirs["links"].items()
    }
    grown.close()
    at_once.close()


def test_a_store_grown_a_paragraph_at_a_time_has_the_graph_mined_whole(tmp_path: Path) -> None:
    _grown_equals_mined_whole(tmp_path, ARTICLES[:2], every=8)


@pytest.mark.slow
def test_every_squad_article_grown_a_paragraph_at_a_time_is_mined_whole(tmp_path: Path) -> None:
    _grown_equals_mined_whole(tmp_path, ARTICLES, every=5)
