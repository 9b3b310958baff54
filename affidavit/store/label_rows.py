"""The labels table as SQL: the words the operator said name a concept of the store's
language. What a label means to a question is decided in affidavit/records/labels.py."""

from __future__ import annotations

import sqlite3

from affidavit.store.schema import has_table


def insert_label(
    conn: sqlite3.Connection, word: str, language: str, means: str, told_at: str
) -> bool:
    """Write one label; False when the store already held it."""
    cursor = conn.execute(
        "INSERT OR IGNORE INTO labels (word, language, means, told_at) VALUES (?, ?, ?, ?)",
        (word, language, means, told_at),
    )
    return cursor.rowcount > 0


def labels_of(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """Every label the operator gave: (word, language, means, told at), sorted."""
    if not has_table(conn, "labels"):  # a store before schema 6, opened read-only
        return []
    query = "SELECT word, language, means, told_at FROM labels ORDER BY word, language, means"
    return list(conn.execute(query))
