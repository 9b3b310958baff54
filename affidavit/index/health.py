"""Retrieval's health at run time: a frozen canary set kept in the store, each canary a
query and the line that answers it, measured with the store's own search. A canary is a
line of prose (or a turn) with at least MIN_TERMS content words, drawn by the digest of its
text (the same store draws the same set); its query is its QUERY_WORDS rarest words, as
written, in the line's order (a known-item search). Recall@k, MRR and nDCG over the set,
the share of distinct lines, and their trend across measures show a collapse (an index
that stopped finding what it holds) before users meet it; a fall of recall by more than
MARGIN since the set's first measure is a warning."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from datetime import UTC, datetime

from affidavit.index.retrieval import Retriever
from affidavit.results import Health, HealthPoint, LineKind
from affidavit.store import (
    Canary,
    Store,
    canaries,
    distinct_share,
    log_measure,
    measures,
    replace_canaries,
    store_errors,
)
from affidavit.text import Analyzer, analyzer_for, asked_words

CANARIES = 50
K = 10
QUERY_WORDS = 4
MIN_TERMS = 6
MARGIN = 0.10
_PROSE = frozenset({LineKind.SENTENCE.value, LineKind.TURN.value})


def draw(retriever: Retriever) -> list[Canary]:
    """A canary set for the store as it is (empty for a store without prose)."""
    index = retriever.words()
    if index.size == 0:
        return []
    store = retriever.store
    analyzer = analyzer_for(index.main_language)
    chosen: list[tuple[str, str, int, str]] = []
    with store.reading():
        names = index.document_names_by_id()
        for _, document_id, position, kind, text in store.each_line_row():
            if kind not in _PROSE:
                continue
            digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
            chosen.append((digest, names.get(document_id, ""), position, text))
    chosen.sort()
    drawn: list[Canary] = []
    seen: set[str] = set()
    for _, document, position, text in chosen:
        if len(drawn) == CANARIES or not document:
            break
        query = _query(text, analyzer, index.idf)
        if query is not None and query not in seen:
            seen.add(query)
            drawn.append((document, position, query))
    return drawn


def _query(text: str, analyzer: Analyzer, idf: Callable[[str], float]) -> str | None:
    """The line's rarest QUERY_WORDS words as written, in its order; None for a line of
    too few content words."""
    words = [(w, t) for w in asked_words(text) if (t := analyzer.term(w))]
    if len({t for _, t in words}) < MIN_TERMS:
        return None
    rarest = sorted({t for _, t in words}, key=lambda t: (-idf(t), t))[:QUERY_WORDS]
    kept, used = [], set()
    for word, term in words:
        if term in rarest and term not in used:
            used.add(term)
            kept.append(word)
    return " ".join(kept)


def measure(retriever: Retriever, *, refresh: bool = False) -> Health:
    """Measure the canary set (drawn first when the store has none, or with ``refresh``;
    drawn again when under half of it is still in the store), log the measure, and say
    how it stands against the set's first."""
    store = retriever.store
    with store.reading():
        held = canaries(store.conn)
    alive = [c for c in held if retriever.line_at(c[0], c[1]) is not None]
    if refresh or not held or len(alive) * 2 < len(held):
        alive = draw(retriever)
        with store.transaction() as conn:
            replace_canaries(conn, alive)
    found = [
        next(
            (
                r
                for r, hit in enumerate(retriever.search(query, K), start=1)
                if (hit.document, hit.position) == (document, position)
            ),
            None,
        )
        for document, position, query in alive
    ]
    n = max(len(found), 1)
    recall = sum(r is not None for r in found) / n
    mrr = sum(1 / r for r in found if r is not None) / n
    ndcg = sum(1 / math.log2(r + 1) for r in found if r is not None) / n
    with store.reading():
        stats = store.stats()
        share = distinct_share(store.conn)
    now = (
        datetime.now(UTC).isoformat(timespec="seconds"),
        int(stats["documents"]),
        int(stats["lines"]),
        len(alive),
        round(recall, 4),
        round(mrr, 4),
        round(ndcg, 4),
        round(share, 4),
    )
    with store.transaction() as conn:
        log_measure(conn, now)
        logged = measures(conn)
    trend = tuple(_point(row) for row in logged)
    first, last = trend[0], trend[-1]
    warning = None
    if first.recall - last.recall > MARGIN:
        warning = (
            f"recall@{K} fell from {first.recall:.2f} ({first.measured_at}) to "
            f"{last.recall:.2f}: retrieval no longer finds lines it holds"
        )
    return Health(k=K, now=last, trend=trend, warning=warning)


def _point(row: tuple[str, int, int, int, float, float, float, float]) -> HealthPoint:
    at, documents, lines, count, recall, mrr, ndcg, share = row
    return HealthPoint(
        measured_at=at,
        documents=documents,
        lines=lines,
        canaries=count,
        recall=recall,
        mrr=mrr,
        ndcg=ndcg,
        distinct_share=share,
    )


class HealthCalls:
    """``Memory.health``, written here so the facade stays one screen of calls."""

    _store: Store
    _retriever: Retriever

    @store_errors
    def health(self, *, refresh: bool = False) -> Health:
        """Retrieval's health: recall@10, MRR and nDCG of the store's own search over a
        frozen canary set kept in the store (50 lines of prose, each with a query of its
        four rarest words), the share of lines that are not copies of another, every
        earlier measure (``trend``: each ``ingest`` adds one) and a ``warning`` when recall
        fell by more than 0.10 since the set's first measure. The set is drawn at the
        first measure, again with ``refresh`` (its trend starts over), and again when
        under half of its lines are still stored::

            memory.health().now.recall  # 0.96
        """
        return measure(self._retriever, refresh=refresh)

    @store_errors
    def last_health(self) -> HealthPoint | None:
        """The last measure ``health`` or an ``ingest`` logged, read without measuring
        (so a store opened read-only, as the audit report opens it, can say it); None
        when the store was never measured."""
        return last_measure(self._store)


def last_measure(store: Store) -> HealthPoint | None:
    """The store's last logged measure of health, read without measuring (a read-only
    store's too), or None when it was never measured."""
    with store.reading():
        logged = measures(store.conn)
    return _point(logged[-1]) if logged else None


def canaries_of(store: Store) -> list[Canary]:
    """The store's canary set as kept (document, position, query)."""
    with store.reading():
        return canaries(store.conn)
