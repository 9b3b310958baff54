"""Reciprocal rank fusion, by hand: order only, K = 60, deterministic ties."""

from __future__ import annotations

import pytest

from affidavit.index.fusion import rrf


def test_rrf_matches_the_hand_computed_scores() -> None:
    words = ["a", "b", "c"]
    meaning = ["c", "a", "d"]
    fused = dict(rrf([words, meaning]))
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert fused["b"] == pytest.approx(1 / 62)
    assert fused["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert fused["d"] == pytest.approx(1 / 63)
    assert [item for item, _ in rrf([words, meaning])] == ["a", "c", "b", "d"]


def test_every_ranking_weighs_alike_and_only_ranks_count() -> None:
    # Swapping the rankings changes no item's score: neither channel outweighs the other.
    words, meaning = ["a", "b", "c"], ["c", "d", "a"]
    assert dict(rrf([words, meaning])) == dict(rrf([meaning, words]))
    # An item's score is its ranks' alone: other items, renamed, change nothing.
    assert dict(rrf([["x", "y"], ["y", "x"]]))["x"] == dict(rrf([["x", "p"], ["q", "x"]]))["x"]
    assert [i for i, _ in rrf([["x", "y", "z"]])] == ["x", "y", "z"]


def test_ties_break_by_best_rank_then_first_appearance() -> None:
    # x: ranks 1 and 3; y: 3 and 1 -> equal scores, equal best rank: x appeared first.
    assert [i for i, _ in rrf([["x", "q", "y"], ["y", "r", "x"]])][:2] == ["x", "y"]
    # p: rank 2 twice (2/62 = 0.03226); s: ranks 1 and 3 (1/61 + 1/63 = 0.03227): s first.
    order = [i for i, _ in rrf([["s", "p", "t"], ["u", "p", "s"]])]
    assert order.index("s") < order.index("p")


def test_an_item_missing_from_a_ranking_earns_nothing_from_it() -> None:
    fused = dict(rrf([["a"], []]))
    assert fused == {"a": pytest.approx(1 / 61)}
    assert rrf([]) == []


def test_k_is_a_parameter() -> None:
    assert dict(rrf([["a"]], k=0))["a"] == pytest.approx(1.0)
