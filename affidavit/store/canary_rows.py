"""The health tables as SQL: the frozen canary set and the log of what each measure of it
found. What a canary is and how it is measured is decided in index/health.py."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from affidavit.store.schema import has_table

Canary = tuple[str, int, str]  # (document, position, query)
Measure = tuple[str, int, int, int, float, float, float, float]


def canaries(conn: sqlite3.Connection) -> list[Canary]:
    if not has_table(conn, "canaries"):
        return []
    query = "SELECT document, position, query FROM canaries ORDER BY id"
    return [(str(d), int(p), str(q)) for d, p, q in conn.execute(query)]


def replace_canaries(conn: sqlite3.Connection, drawn: Sequence[Canary]) -> None:
    """The canary set, replaced whole; its earlier measures go with it (they measured
    another set)."""
    conn.execute("DELETE FROM canaries")
    conn.execute("DELETE FROM health")
    conn.executemany(
        "INSERT INTO canaries (document, position, query) VALUES (?, ?, ?)", list(drawn)
    )


def log_measure(conn: sqlite3.Connection, measure: Measure) -> None:
    conn.execute(
        "INSERT INTO health (measured_at, documents, lines, canaries, recall, mrr, ndcg, "
        "distinct_share) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        measure,
    )


def measures(conn: sqlite3.Connection) -> list[Measure]:
    if not has_table(conn, "health"):
        return []
    query = (
        "SELECT measured_at, documents, lines, canaries, recall, mrr, ndcg, distinct_share "
        "FROM health ORDER BY id"
    )
    return [tuple(row) for row in conn.execute(query)]  # type: ignore[misc]


def distinct_share(conn: sqlite3.Connection) -> float:
    """The share of the store's lines whose text no earlier line writes (1.0 when empty)."""
    total, distinct = conn.execute("SELECT COUNT(*), COUNT(DISTINCT text) FROM lines").fetchone()
    return distinct / total if total else 1.0
