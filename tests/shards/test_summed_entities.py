"""A sharded store judges a question's entities on the counts of its phrases summed over
every shard's kept corpus: the entities it finds, and the lines they share, are one
store's, though no shard's own graph holds them all."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import ARTICLES

from affidavit import Memory
from affidavit.archive.shard_entities import (
    judged_entities,
    named_entities,
    partition_lines,
    question_phrases,
    shared_lines,
)
from affidavit.archive.store_counts import name_words
from affidavit.index.entities.corpus import Corpus
from affidavit.index.entities.graph import EntityGraph
from affidavit.index.entities.partition import shared
from affidavit.index.entities.shard_phrases import CorpusFacts, PhraseIndex


def _questions() -> list[str]:
    rows = (ARTICLES[0].parent / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(row)["question"] for row in rows if row.strip()]


@pytest.fixture(scope="module")
def one(tmp_path_factory: pytest.TempPathFactory):
    memory = Memory(tmp_path_factory.mktemp("entities") / "one.sqlite", dense=False)
    memory.ingest(list(ARTICLES))
    yield memory
    memory.close()


def _names(memory: Memory) -> list[str]:
    return [name for _, name, _ in memory._retriever.store.documents()]


@pytest.mark.parametrize("kept", ["corpus", "arrays"])
def test_the_facts_of_a_question_judge_its_entities_as_mining_does(one: Memory, kept: str) -> None:
    retriever = one._retriever
    graph = retriever.graph()
    corpus = graph.kept if kept == "corpus" else None
    if corpus is None or not isinstance(corpus, Corpus):  # as read back from the cache
        corpus = EntityGraph.from_bytes(graph.to_bytes()).kept
    if kept == "corpus" and not isinstance(corpus, Corpus):
        corpus = Corpus.from_arrays(corpus)
    phrases = PhraseIndex(corpus, None)
    mined = {entity.words: entity for entity in graph.entities}
    partitioned = 0
    for question in _questions():
        reading = retriever.read(question)
        asked = question_phrases(reading)
        wanted, candidates = asked.wanted, asked.candidates
        entities = judged_entities(phrases.facts(wanted, candidates), candidates)
        expected = sorted(
            (mined[c] for c in candidates if c in mined), key=lambda e: (-e.count, e.words)
        )
        assert [(e.words, e.count) for e in entities] == [(e.words, e.count) for e in expected]
        named = named_entities(reading, entities, name_words(_names(one)))
        lines = shared_lines(named, {0: phrases.lines([entities[n].words for n in named])})
        want = shared(graph, reading, retriever._held.implicit)
        assert (None if lines is None else lines[0].tolist()) == (
            None if want is None else want.tolist()
        ), question
        partitioned += want is not None
    assert partitioned >= 5


def test_summed_facts_of_split_corpora_are_the_whole_corpus_facts(one: Memory) -> None:
    retriever = one._retriever
    rows = [(line_id, text, "en") for line_id, text in _lines(one)]
    half = len(rows) // 3
    parts = [PhraseIndex(Corpus.read(part), None) for part in (rows[:half], rows[half:])]
    whole = PhraseIndex(Corpus.read(rows), None)
    for question in _questions()[:40]:
        asked = question_phrases(retriever.read(question))
        wanted, candidates = asked.wanted, asked.candidates
        summed = CorpusFacts.summed([part.facts(wanted, candidates) for part in parts])
        assert summed == whole.facts(wanted, candidates), question


def test_an_entity_split_over_shards_is_found_though_neither_shard_mines_it(one: Memory) -> None:
    """Split the articles' lines in two so that an entity of the whole store falls short
    of being mined on each side; the summed facts still find it, and its lines."""
    retriever = one._retriever
    graph = retriever.graph()
    rows = [(line_id, text, "en") for line_id, text in _lines(one)]
    halves = [rows[0::2], rows[1::2]]
    own = [{e.words for e in EntityGraph.build(half).entities} for half in halves]
    missed = [e for e in graph.entities if all(e.words not in mined for mined in own)]
    assert missed, "every entity of the store is some half's own"
    indexes = {at: PhraseIndex(Corpus.read(half), None) for at, half in enumerate(halves)}
    entity = missed[0]
    question = retriever.read(" ".join(entity.words))
    asked = question_phrases(question)
    wanted, candidates = asked.wanted, asked.candidates
    facts = {at: index.facts(wanted, candidates) for at, index in indexes.items()}
    found = judged_entities(CorpusFacts.summed(list(facts.values())), candidates)
    assert entity.words in {e.words for e in found}
    at = next(n for n, e in enumerate(graph.entities) if e.words == entity.words)
    lines = np.concatenate([indexes[k].lines([entity.words])[0][0] for k in indexes])
    assert sorted(lines.tolist()) == graph.postings[at].tolist()


def test_a_question_naming_fewer_than_two_entities_asks_no_shard_for_lines(one: Memory) -> None:
    retriever = one._retriever
    index = retriever.phrases()
    assert index is not None
    reading = retriever.read("What is a pharmacist?")
    asked = question_phrases(reading)
    wanted, candidates = asked.wanted, asked.candidates

    def lines_of(phrases):
        raise AssertionError(f"asked for the lines of {phrases}")

    facts = {0: index.facts(wanted, candidates)}
    assert partition_lines(reading, candidates, facts, name_words(_names(one)), lines_of) is None


def _lines(memory: Memory) -> list[tuple[int, str]]:
    """(line id, text) of every line of the store, in id order."""
    return [(row[0], row[4]) for row in memory._retriever.store.line_rows()]


def test_a_sharded_store_searches_a_question_naming_two_entities_as_one_store(
    one: Memory, tmp_path: Path
) -> None:
    question = "What had Edward Heath told Lord Cromer about taking action in the middle east?"
    retriever = one._retriever
    assert retriever.partitioned(retriever.words(), retriever.read(question), None, 10)
    with Memory(tmp_path / "s", shards=3, dense=False) as sharded:
        sharded.ingest(list(ARTICLES))
        want = [(e.document, e.position, e.score) for e in one.search(question, k=10)]
        got = [(e.document, e.position, e.score) for e in sharded.search(question, k=10)]
        assert got == want


def test_copies_are_counted_once_and_their_lines_mention_what_the_originals_do(
    tmp_path: Path,
) -> None:
    """Copies of two articles under other names, wherever the shards' rule puts them:
    one store mines a text once and links every copy's lines, and so does the sharded
    store, for every question of the articles."""
    folder = tmp_path / "texts"
    folder.mkdir()
    for path in ARTICLES:
        (folder / path.name).write_bytes(path.read_bytes())
    for copy in ("a", "b", "c"):
        for path in ARTICLES[:2]:
            (folder / f"{copy}_{path.name}").write_bytes(path.read_bytes())
    with (
        Memory(tmp_path / "one.sqlite", dense=False) as one,
        Memory(tmp_path / "s", shards=3, dense=False) as sharded,
    ):
        one.ingest(folder)
        sharded.ingest(folder)
        retriever = one._retriever
        taken = 0
        for question in _questions():
            taken += (
                retriever.partitioned(retriever.words(), retriever.read(question), None, 10)
                is not None
            )
            want = [(e.document, e.position, e.score) for e in one.search(question, k=10)]
            got = [(e.document, e.position, e.score) for e in sharded.search(question, k=10)]
            assert got == want, question
        assert taken >= 5


def test_an_ingest_leaves_each_shard_ready_for_the_partition_path(tmp_path: Path) -> None:
    """What the partition path reads of a shard at its first question (the lines of a text
    another shard counts, the lines of its copies) is read by the ingest."""
    folder = tmp_path / "texts"
    folder.mkdir()
    for copy in ("a", "b", "c", "d"):
        for path in ARTICLES[:2]:
            (folder / f"{copy}_{path.name}").write_bytes(path.read_bytes())
    with Memory(tmp_path / "s", shards=3, dense=False) as sharded:
        sharded.ingest(folder)
        held = [shard._retriever._held for shard in sharded._shards._shards]
        assert all(h._copies is not None for h in held)
        elsewhere = [h._uncounted for h in held if h._uncounted is not None]
        assert elsewhere and all(u[2].tokens > 0 for u in elsewhere)


def test_the_word_positions_are_placed_alike_a_chunk_at_a_time(
    one: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from affidavit.index.entities import shard_phrases as phrases

    corpus = one._retriever.graph().kept
    whole = phrases.PhraseIndex(corpus, None)
    monkeypatch.setattr(phrases, "_PLACED_AT_ONCE", 251)
    chunked = phrases.PhraseIndex(corpus, None)
    assert np.array_equal(whole._starts, chunked._starts)
    assert np.array_equal(whole._positions, chunked._positions)
    assert len(chunked._positions) > 10 * 251
