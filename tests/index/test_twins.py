"""Texts stored whole more than once are scored once (index/words/twins.py): each copy's
lines take the scores of the first copy's, to the bit, whatever the question and
whatever the documents' names add, and a question reads one copy's postings only."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ARTICLES, QUESTIONS

from affidavit import Memory
from affidavit.index.words.scoring import score_question
from affidavit.index.words.twins import Twins
from affidavit.index.words.word_index import WordIndex


@pytest.fixture(scope="module")
def copies() -> Memory:
    """Two SQuAD articles stored three times each (one copy's name carries a word of the
    questions), one once, and an edited version of one."""
    memory = Memory()
    normans, plague, pharmacy = (ARTICLES[i].read_text(encoding="utf-8") for i in (0, 1, 4))
    for name in ("Normans.txt", "2019/Normans.txt", "old/history.txt"):
        memory.ingest_text(normans, name=name)
    for name in ("Black_Death.txt", "copy/plague.txt", "copy/pharmacy-plague.txt"):
        memory.ingest_text(plague, name=name)
    memory.ingest_text(pharmacy, name="Pharmacy.txt")
    memory.ingest_text(normans.replace("Normandy", "Normandie", 1), name="edited/Normans.txt")
    return memory


def scored_both_ways(index: WordIndex, question: str) -> tuple[np.ndarray, np.ndarray]:
    terms = index.read(question).searched
    term_ids, named = index._term_ids(terms), index._named(terms)
    whole = score_question(index, term_ids, named).dense()
    return whole, score_question(index, term_ids, named, index.twins()).dense()


def test_every_copy_scores_as_the_whole_index_reads_it(copies: Memory) -> None:
    index = copies._retriever.words()
    assert index.twins() is not None
    asked = [q["question"] for q in QUESTIONS[::23]] + [
        "Normans pharmacy plague",  # words the copies' names carry
        "Who were the Normans in Normandy?",
    ]
    reached = 0
    for question in asked:
        whole, twice = scored_both_ways(index, question)
        reached += bool(whole.any())
        assert np.array_equal(whole, twice), question
    assert reached >= len(asked) - 2


def test_a_question_reads_one_copys_postings(copies: Memory) -> None:
    index = copies._retriever.words()
    twins = index.twins()
    assert twins is not None
    per_slot = np.bincount(
        index.line_documents[index.line_counts.indices], minlength=len(index.document_ids)
    )
    names = index.document_names
    copied = [names.index(n) for n in ("2019/Normans.txt", "old/history.txt")]
    copied += [names.index(n) for n in ("copy/plague.txt", "copy/pharmacy-plague.txt")]
    assert twins.line_counts.nnz == index.line_counts.nnz - per_slot[copied].sum()
    # Each copied line's rows: its two copies, in the other documents of its text.
    first = index.rows_of_slot(names.index("Normans.txt"))
    held = [twins.copies[twins.copies_indptr[r] : twins.copies_indptr[r + 1]] for r in first[:5]]
    rows = np.concatenate(held)
    of = np.repeat(first[:5], [len(copies) for copies in held])
    assert np.array_equal(np.sort(of), np.repeat(first[:5], 2))
    assert set(index.line_documents[rows].tolist()) == set(copied[:2])


def test_an_edited_version_is_scored_as_its_own(copies: Memory) -> None:
    index = copies._retriever.words()
    twins = index.twins()
    assert twins is not None
    edited = index.rows_of_slot(index.document_names.index("edited/Normans.txt"))
    assert not np.isin(edited, twins.copies).any()
    assert np.array_equal(twins.copies_indptr[edited + 1], twins.copies_indptr[edited])


def test_no_copies_no_twins() -> None:
    memory = Memory()
    memory.ingest_text("The meeting is on Monday.", name="a.txt")
    memory.ingest_text("Lunch is served at noon.", name="b.txt")
    assert memory._retriever.words().twins() is None


def test_documents_a_hash_pairs_wrongly_are_not_taken_for_copies() -> None:
    """The hash is trusted only where the shapes agree: two different texts given one hash
    (a store damaged by hand) are scored each on its own."""
    memory = Memory()
    memory.ingest_text("The meeting is on Monday. Bring the report.", name="a.txt")
    memory.ingest_text("Lunch is served at noon.", name="b.txt")
    index = memory._retriever.words()
    assert Twins.of(index, {int(d): "one hash" for d in index.document_ids}) is None
