"""Late interaction: it reorders candidate lines and never adds or drops one."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from affidavit import LateInteraction, Memory, Reranker
from affidavit.errors import EngineError
from affidavit.index.fusion import rrf
from affidavit.index.meaning.encoder import BundledEncoder
from affidavit.index.meaning.late import rerank

XQUAD = Path(__file__).resolve().parents[2] / "corpora" / "xquad_slice"
LINES = [
    json.loads(line)["text"]
    for line in (XQUAD / "paragraphs.jsonl").read_text(encoding="utf-8").splitlines()
]
LATE = LateInteraction(BundledEncoder())


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(range(len(LINES))), max_size=12),
    st.sampled_from(["Who was Rollo?", "¿Qué es una farmacia?", "petrol embargo 1973", ""]),
)
def test_late_interaction_never_changes_the_candidate_set(picked: list[int], question: str) -> None:
    candidates = [(i, LINES[i]) for i in picked]
    reordered = rerank(LATE, question, candidates, lambda c: c[1])
    assert sorted(reordered) == sorted(candidates)  # same members, duplicates kept


def test_late_interaction_puts_the_answering_paragraph_first_across_languages() -> None:
    question = "¿Cuál fue el catalizador que creó un mayor interés en los recursos renovables?"
    scores = LATE.scores(question, LINES)
    assert np.argmax(scores) == next(i for i, t in enumerate(LINES) if "renewable energy" in t)


def test_a_custom_reranker_orders_the_evidence_lines() -> None:
    class ByLength:
        def scores(self, question: str, texts: Sequence[str]) -> np.ndarray:
            return np.array([len(t) for t in texts], dtype=float)

    assert isinstance(ByLength(), Reranker)
    text = "\n\n".join(LINES[:5])
    question = "Who were the Normans and where did they settle?"
    plain = Memory(dense=False)
    plain.ingest_text(text, name="normans")
    reranked = Memory(dense=False, reranker=ByLength())
    reranked.ingest_text(text, name="normans")
    words_order = [hit.text for hit in plain._retriever.retrieve(question).hits]
    late_order = [hit.text for hit in reranked._retriever.retrieve(question).hits]
    assert sorted(late_order) == sorted(words_order)
    # Where the store knows the question's words, late interaction's order is fused
    # with theirs (RRF) among the first ten.
    by_length = sorted(words_order[:10], key=lambda t: (-len(t), words_order.index(t)))
    assert late_order[:10] == [t for t, _ in rrf([words_order[:10], by_length])]
    assert late_order != words_order


def test_a_reranker_must_score_every_candidate() -> None:
    class Short:
        def scores(self, question: str, texts: Sequence[str]) -> np.ndarray:
            return np.zeros(1)

    with pytest.raises(EngineError, match="scores for 3 candidates"):
        rerank(Short(), "q", ["a", "b", "c"], str)


def naive_maxsim(question: str, text: str) -> float:
    model = BundledEncoder()
    table = np.asarray(model.embedding, dtype=np.float64)
    asked = sorted(set(model.tokenize([question])[0]))
    pieces = sorted(set(model.tokenize([text])[0]))
    if not asked or not pieces:
        return 0.0
    norms = np.linalg.norm(table, axis=1)
    total = 0.0
    for q in asked:
        if norms[q] == 0:
            continue  # a control piece has no vector and weighs nothing
        best = max(
            (table[q] @ table[p] / (norms[q] * norms[p]) if norms[p] else 0.0) for p in pieces
        )
        total += norms[q] / norms.max() * max(best, 0.0)
    return total


def test_late_interaction_scores_are_maxsim_by_hand() -> None:
    question = "Who gave the Viking settlers a common identity?"
    texts = [LINES[0][:200], LINES[3][:120], "", "!!!"]
    scores = LATE.scores(question, texts)
    assert scores == pytest.approx([naive_maxsim(question, t) for t in texts], rel=1e-4)
    assert scores[2] == 0.0  # nothing to match


def test_the_piece_cache_forgets_without_changing_scores(monkeypatch) -> None:
    import affidavit.index.meaning.late as late

    monkeypatch.setattr(late, "PIECE_CACHE", 2)
    small = LateInteraction(BundledEncoder())
    question = "¿Qué es una farmacia?"
    assert small.scores(question, LINES[:6]) == pytest.approx(LATE.scores(question, LINES[:6]))
    assert len(small._pieces) <= 2


def test_documents_that_copy_one_text_are_not_sent_to_the_reranker_to_order() -> None:
    """Copies of one text would all score the same: the order the words gave stands and
    the reranker reads the lines alone. Two different texts are ordered by it too."""

    class Counting:
        def __init__(self) -> None:
            self.calls = 0

        def scores(self, question: str, texts: Sequence[str]) -> np.ndarray:
            self.calls += 1
            return np.array([len(t) for t in texts], dtype=float)

    question = "Who were the Normans and where did they settle?"
    calls = []
    for texts in ([LINES[0], LINES[0], LINES[0]], [LINES[0], LINES[1], LINES[2]]):
        counting = Counting()
        memory = Memory(reranker=counting)
        for number, text in enumerate(texts):
            memory.ingest_text(text, name=f"copy-{number}.txt")
        hits = memory._retriever.retrieve(question).hits
        assert hits
        calls.append(counting.calls)
    assert calls == [1, 2]
