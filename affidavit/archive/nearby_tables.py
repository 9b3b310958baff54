"""The tables a computation reads beside its evidence, for ask's plans and verify's
recomputed claims alike: every line around the best rows the question found."""

from __future__ import annotations

from collections.abc import Sequence

from affidavit.index import Retriever
from affidavit.results import Evidence, LineKind

# A plan is grounded in the tables of the best rows found: up to this many rows, and the
# lines within this many positions of each (a report's table and its captions).
ROWS_READ = 6
ROW_REACH = 40


def tables_around(retriever: Retriever, hits: Sequence[Evidence]) -> list[Evidence]:
    """The stored lines around the best table rows among ``hits`` (none without rows)."""
    rows = [e for e in hits if e.kind == LineKind.ROW][:ROWS_READ]
    return retriever.around(rows, ROW_REACH) if rows else []
