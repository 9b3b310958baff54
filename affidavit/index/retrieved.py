"""The evidence block handed to an engine: the best lines, each with its document's name,
grouped by document; and what retrieval hands on (``Retrieved``)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from affidavit.results import Evidence

BLOCK_SIZE = 8


@dataclass(frozen=True, slots=True)
class Retrieved:
    """What retrieval hands on for a question: the lines, and the block's subsets."""

    hits: list[Evidence]  # citable lines, best first, each copied line once
    subsets: list[list[Evidence]]  # one per document, best document first
    withheld: int  # lines that matched but sit below the speaking threshold
    # For a line other documents write word for word, those other places (index/copies.py).
    copies: dict[tuple[str, int], list[Evidence]] = field(default_factory=dict)
    ordering: int = 0  # lines that matched but give orders to a model: never evidence


def evidence_block(hits: Sequence[Evidence], size: int = BLOCK_SIZE) -> list[Evidence]:
    """The best ``size`` hits, no document holding more than its fair share of the block
    while other documents hold evidence too."""
    speaking = len({h.document for h in hits})
    share = size if speaking <= 1 else max(2, math.ceil(size / speaking))
    taken: Counter[str] = Counter()
    block: list[Evidence] = []
    for hit in hits:
        if taken[hit.document] >= share:
            continue
        taken[hit.document] += 1
        block.append(hit)
        if len(block) == size:
            break
    return block


def by_document(block: Sequence[Evidence], fused: Sequence[Any]) -> dict[str, list[Evidence]]:
    """The block's lines grouped by document, best document first: by the meaning
    channel's ranking of documents (``fused``) where it ranked them, else by the block."""
    grouped: dict[str, list[Evidence]] = {}
    for hit in block:
        grouped.setdefault(hit.document, []).append(hit)
    if fused:
        place = {hit.document: at for at, hit in enumerate(fused)}
        order = sorted(grouped, key=lambda name: place.get(name, len(place)))
        grouped = {name: grouped[name] for name in order}
    return grouped
