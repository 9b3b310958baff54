"""Reciprocal rank fusion: rankings combined by order alone, so a channel whose scores run on
another scale (BM25 against cosine) cannot outshout the other."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

# As in Cormack, Clarke and Büttcher (2009) and the specification.
RRF_K = 60

Item = TypeVar("Item", bound=Hashable)


def rrf(rankings: Sequence[Sequence[Item]], *, k: int = RRF_K) -> list[tuple[Item, float]]:
    """Fuse best-first rankings; (item, fused score) best first.

    An item ranked r (1-based) by a ranking earns 1 / (k + r) from it; an item a ranking
    does not hold earns nothing from it. Ties break by the item's best rank in any
    ranking, then by where it first appeared, so the fused order is the same on every run.
    """
    scores: dict[Item, float] = {}
    best_rank: dict[Item, int] = {}
    first_seen: dict[Item, int] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            best_rank[item] = min(best_rank.get(item, rank), rank)
            first_seen.setdefault(item, len(first_seen))
    return sorted(
        scores.items(), key=lambda pair: (-pair[1], best_rank[pair[0]], first_seen[pair[0]])
    )
