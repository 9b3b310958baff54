"""A shard weighs its lines with the whole store's word statistics: each line scores what
one store holding every shard's lines gives it, to the bit."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ARTICLES

from affidavit import Memory
from affidavit.index.words.statistics import Statistics
from affidavit.index.words.word_index import WordIndex
from affidavit.shards.memory import ShardedMemory

# Questions whose words stand in several articles, and two in the articles' names.
QUESTIONS = [
    "When did the oil embargo begin?",
    "Who were the Normans in Normandy?",
    "How did the Black Death reach Europe?",
    "What population did Jacksonville have in 2010?",
    "What does a pharmacist do in a hospital pharmacy?",
]


def _by_place(memory: Memory, index: WordIndex, scored) -> dict[tuple[str, int], float]:
    ids = [int(i) for i in index.line_ids[scored.rows]]
    rows = memory._retriever.store.lines_by_id(ids)
    return {
        (rows[i].document, rows[i].position): float(v)
        for i, v in zip(ids, scored.values, strict=True)
    }


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("statistics")
    one = Memory(dense=False)
    one.ingest(list(ARTICLES))
    sharded = Memory(Path(folder) / "s", shards=3, dense=False)
    sharded.ingest(list(ARTICLES))
    assert isinstance(sharded, ShardedMemory)
    yield one, sharded._shards._shards
    one.close()
    sharded.close()


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_shard_scores_each_line_as_the_whole_store_does(stores, question: str) -> None:
    one, shards = stores
    whole = one._retriever.words()
    terms = whole.read(question).searched
    expected = _by_place(one, whole, whole.scored(terms))
    indexes = [shard._retriever.words() for shard in shards]
    summed = Statistics.summed([index.statistics(terms) for index in indexes])
    weighed, alone = {}, {}
    for shard, index in zip(shards, indexes, strict=True):
        weighed.update(_by_place(shard, index, index.scored(terms, summed)))
        alone.update(_by_place(shard, index, index.scored(terms)))
    assert weighed == expected  # every line, every score to the bit
    # Under its own statistics a shard scores otherwise: the test can tell them apart.
    assert alone != expected


def test_the_summed_counts_are_the_whole_stores(stores) -> None:
    one, shards = stores
    whole = one._retriever.words()
    terms = whole.read("Normans oil pharmacy plague Jacksonville").searched
    summed = Statistics.summed([s._retriever.words().statistics(terms) for s in shards])
    assert summed == whole.statistics(terms)
