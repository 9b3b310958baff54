"""The evidence block handed to an engine, and the census of documents that speak.

The block is the best lines, each opening with its document's name; one document may
take no more than its share of the block while other documents hold evidence too.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from affidavit.results import Evidence

BLOCK_SIZE = 8


def evidence_block(hits: Sequence[Evidence], size: int = BLOCK_SIZE) -> list[Evidence]:
    """The best ``size`` hits, no document holding more than its fair share when others speak."""
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


def census(hits: Sequence[Evidence]) -> dict[str, object]:
    """Which documents speak of this, counted: one line of store-attested fact."""
    counts = Counter(h.document for h in hits)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    parts = ", ".join(f"{name} ({n} line{'s' if n != 1 else ''})" for name, n in ranked)
    n_docs = len(ranked)
    line = (
        f"{n_docs} document{'s' if n_docs != 1 else ''} speak{'s' if n_docs == 1 else ''} "
        f"of this: {parts}."
        if ranked
        else "No document speaks of this."
    )
    return {"documents": dict(ranked), "line": line}
