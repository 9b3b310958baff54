"""Block-max search ranks as top_only does, to the bit, reading only some blocks.

The SQuAD articles are a small store: the block path is forced on (no minimum of lines)
with blocks of 8 lines, so a question's best lines are found across some ninety blocks.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from conftest import ARTICLES, QUESTIONS

from affidavit import Memory
from affidavit.index.words import block_kernels, block_max
from affidavit.index.words.scoring import top_only
from affidavit.index.words.word_index import WordIndex

# Questions that name a document ("Normans", "Huguenots"), so a name bonus is added.
NAMING = [
    "What did the Normans build in England?",
    "Where did the Huguenots settle in South Africa?",
    "Normans Huguenots",
]


@pytest.fixture(scope="module")
def index() -> Iterator[WordIndex]:
    with Memory(dense=False) as memory:
        memory.ingest([str(p) for p in ARTICLES])
        yield memory._retriever.words()


def asked(index: WordIndex, question: str) -> tuple[list[int], object]:
    terms = index.read(question).searched
    return index._term_ids(terms), index._named(terms)


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch, index: WordIndex) -> Iterator[WordIndex]:
    monkeypatch.setattr(block_max, "BLOCK_MAX_LINES", 0)
    monkeypatch.setattr(block_max, "BLOCK_SHIFT", 3)
    yield index


def test_the_best_lines_are_top_onlys_to_the_bit(small_blocks: WordIndex) -> None:
    index = small_blocks
    blocks = block_max.blocks_of(index)
    assert blocks is not None and blocks.count > 50
    questions = [q["question"] for q in QUESTIONS[::3]] + NAMING
    named = 0
    for question in questions:
        term_ids, names = asked(index, question)
        named += names is not None
        for k in (1, 10, 50):
            assert block_max.best(index, blocks, term_ids, names, k) == top_only(
                index, term_ids, names, k
            ), (question, k)
    assert named >= 2


def test_a_question_of_rare_words_scores_few_blocks(
    small_blocks: WordIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = small_blocks
    scored: list[int] = []
    kernel = block_kernels.best_lines

    def counting(*args: object) -> object:
        found = kernel(*args)
        scored.append(int(found[2]))
        return found

    monkeypatch.setattr(block_kernels, "best_lines", counting)
    term_ids, names = asked(index, "Which treaty established the Duchy of Normandy?")
    blocks = block_max.blocks_of(index)
    best = block_max.best(index, blocks, term_ids, names, 10)
    assert best == top_only(index, term_ids, names, 10)
    assert blocks is not None and 0 < scored[0] < blocks.count / 4


def test_no_words_and_no_names_find_nothing(small_blocks: WordIndex) -> None:
    blocks = block_max.blocks_of(small_blocks)
    assert block_max.best(small_blocks, blocks, [], None, 10) == []
    term_ids, names = asked(small_blocks, "Normans")  # the name alone
    found = block_max.best(small_blocks, blocks, [], names, 5)
    assert found == top_only(small_blocks, [], names, 5)


def test_windows_longer_than_a_block_fall_back_to_top_only(
    monkeypatch: pytest.MonkeyPatch, index: WordIndex
) -> None:
    monkeypatch.setattr(block_max, "BLOCK_MAX_LINES", 0)
    monkeypatch.setattr(block_max, "BLOCK_SHIFT", 1)  # blocks of two lines
    blocks = block_max.blocks_of(index)
    assert blocks is None
    term_ids, names = asked(index, "Which treaty established the Duchy of Normandy?")
    assert block_max.best(index, blocks, term_ids, names, 10) == top_only(
        index, term_ids, names, 10
    )


def test_windows_are_numbered_in_the_order_of_their_first_lines(index: WordIndex) -> None:
    incidence = index.incidence
    filled = np.diff(incidence.indptr) > 0
    first = incidence.indices[incidence.indptr[:-1][filled]]
    assert np.all(np.diff(first) >= 0)


def test_a_small_store_is_read_whole(index: WordIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    monkeypatch.setattr(block_max, "blocks_of", lambda i: calls.append(i))
    terms = index.read("Which treaty established the Duchy of Normandy?").searched
    assert index.size < block_max.BLOCK_MAX_LINES
    assert index.best(terms, 10) == index.top(index.scored(terms), 10)
    assert calls == []


def test_kernels_compile_without_a_place_to_cache_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where numba finds no writable cache (a read-only install, no home), the kernels
    # still compile, in each process, instead of failing the import.
    import numba

    def no_cache(*args: object, **options: object) -> object:
        if options.get("cache"):
            raise RuntimeError("cannot cache function: no locator available")
        return numba.njit(*args, **options)

    monkeypatch.setattr(block_kernels, "njit", no_cache)

    def double(x: int) -> int:
        return 2 * x

    assert block_kernels._kernel(double)(21) == 42


def test_an_indexs_first_search_does_not_wait_for_its_block_maxima(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first search of an index that has not taken its block maxima (documents added
    one call at a time) reads every posting, and finds the same lines; the second takes
    them. An index an ingest warmed (its last stage) uses them at once."""
    monkeypatch.setattr(block_max, "BLOCK_MAX_LINES", 0)
    monkeypatch.setattr(block_max, "BLOCK_SHIFT", 3)
    with Memory(dense=False) as memory:
        for article in ARTICLES[:2]:
            memory.ingest_text(article.read_text(encoding="utf-8"), name=article.name)
        index = memory._retriever.words()
        terms = index.read("Where did the Normans settle?").searched
        first = index.best(terms, 10)
        assert index._blocks is None  # read without them
        assert index.best(terms, 10) == first
        assert isinstance(index._blocks, block_max.Blocks)  # taken by the second
    with Memory(dense=False) as memory:
        memory.ingest([str(p) for p in ARTICLES[:2]])
        assert isinstance(memory._retriever.words()._blocks, block_max.Blocks)
