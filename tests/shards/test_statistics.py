"""A shard weighs its lines with the whole store's word statistics: each line scores what
one store holding every shard's lines gives it, to the bit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import ARTICLES

from affidavit import Memory
from affidavit.index.words import block_max, bm25
from affidavit.index.words.statistics import Statistics
from affidavit.index.words.word_index import WordIndex
from affidavit.memory import ShardedMemory

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


@pytest.mark.parametrize("k", [1, 3, 10])
def test_a_shards_block_maxima_bound_the_whole_stores_weights(
    stores, k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every index reads its block maxima here (a shard of these articles is too small to
    # by itself), in blocks small enough that most are passed over: stretched into bounds
    # of the whole store's weights, the block-max search finds the best lines that
    # scoring every line finds.
    monkeypatch.setattr(block_max, "BLOCK_MAX_LINES", 0)
    monkeypatch.setattr(block_max, "BLOCK_SHIFT", 3)  # blocks of 8 lines: many to pass over
    one, shards = stores
    whole = one._retriever.words()
    for question in QUESTIONS + ["Normans", "oil", "the plague in 1348 and 1350"]:
        terms = whole.read(question).searched
        indexes = [shard._retriever.words() for shard in shards]
        summed = Statistics.summed([index.statistics(terms) for index in indexes])
        for index in indexes:
            assert index.blocks() is not None
            assert index.best(terms, k, summed) == index.top(index.scored(terms, summed), k)


def test_the_stretched_maxima_bound_every_weight_a_block_holds(stores) -> None:
    # The bound block-max search prunes by: each term's highest weight in a block, taken
    # with the shard's own statistics, stretched (block_max._stretch) into a bound of the
    # same postings' weights under the whole store's. Unstretched, some weight passes it.
    one, shards = stores
    whole = one._retriever.words()
    terms = whole.read(" ".join(QUESTIONS)).searched
    indexes = [shard._retriever.words() for shard in shards]
    summed = Statistics.summed([index.statistics(terms) for index in indexes])
    above_own = 0
    for index in indexes:
        blocks = block_max.blocks_of(index)
        weighing = index._weighing(summed, terms)
        ids = index._term_ids(terms)
        whole_idf = block_max._idf(weighing.line_frequencies, np.asarray(ids), weighing.lines)
        stretch = block_max._stretch(whole_idf, blocks.line_idf[ids], weighing.line_stretch)
        offsets, runs, _ = blocks.line_runs
        counts = index.line_counts
        for at, term in enumerate(ids):
            weights = bm25.term_weights(
                counts, weighing.line_norms, term, weighing.line_frequencies, weighing.lines
            )
            rows = counts.indices[counts.indptr[term] : counts.indptr[term + 1]]
            highest = np.zeros(blocks.count, dtype=np.float64)
            np.maximum.at(highest, rows >> blocks.shift, weights)
            for j in range(offsets[term], offsets[term + 1]):
                own = blocks.line_highest[j]
                assert highest[runs[j]] <= own * stretch[at]
                above_own += highest[runs[j]] > own * (1.0 + 1e-4)
    assert above_own > 0


def test_a_shard_scores_a_partition_as_the_whole_store_does(stores) -> None:
    # The partition path scores only the lines two entities share (scores_among): under
    # the whole store's statistics a shard gives each the one store's score to the bit.
    one, shards = stores
    whole = one._retriever.words()
    terms = whole.read("Who did Rollo and the Normans fight in Normandy?").terms
    rows = np.arange(whole.size)
    expected = _by_place(one, whole, _Among(rows, whole.scores_among(terms, rows)))
    indexes = [shard._retriever.words() for shard in shards]
    summed = Statistics.summed([index.statistics(terms) for index in indexes])
    weighed, alone = {}, {}
    for shard, index in zip(shards, indexes, strict=True):
        rows = np.arange(index.size)
        weighed.update(
            _by_place(shard, index, _Among(rows, index.scores_among(terms, rows, summed)))
        )
        alone.update(_by_place(shard, index, _Among(rows, index.scores_among(terms, rows))))
    assert weighed == expected
    assert alone != expected


class _Among:
    """Scores of some rows, as _by_place reads a Scored."""

    def __init__(self, rows: np.ndarray, values: np.ndarray) -> None:
        self.rows, self.values = rows, values
