"""What an index kept in parts needs of the store: which version of each document it
holds, and the parts under one name prefix in the index cache (an ingest adds a part for
its own documents instead of rewriting the whole: ``index/words/word_parts.py``)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any
from weakref import WeakKeyDictionary

from affidavit.store.schema import has_column
from affidavit.store.sqlite import Store, among

# Parts are folded into the whole once there are this many, or once they weigh more than
# this share of the whole's bytes (an index read from many parts is slower to open).
# NOTE: at 8, documents added one call at a time wrote the whole index every 8th call
# (3.6 ms a call on average at 3,000 documents); at 32, a store of 2,861 such documents
# held in 28 parts answered its first search after reopening in 0.11 s.
MAX_PARTS = 32
REWRITE_SHARE = 0.25


def document_keys(store: Store) -> list[tuple[int, str, str, str]]:
    """(id, name, language, key) of every document, in id order. The key names the stored
    version: an id is reused after a delete, its content hash and line ids tell a
    replaced document from the one it replaced.

    Read once per generation of the store (every write makes a new one): the word index,
    the entity graph and the meaning index each ask after the same change. After a write
    that only added documents, only those are read (each document keeps the generation
    it was written at): reading every one took 5 ms of each ingest_text at 3,000."""
    generation = store.generation()
    held = _VERSIONS.get(store)
    if held is not None and held[0] == generation:
        return held[1]
    versions = _added_since(store, *held) if held is not None else None
    if versions is None:
        versions = _keyed(store.conn.execute(_versions_query(store)))
    _VERSIONS[store] = (generation, versions)
    return versions


_VERSION_COLUMNS = "id, name, language, content_hash, first_line, line_count"


def _versions_query(store: Store) -> str:
    if has_column(store.conn, "documents", "line_count"):
        return f"SELECT {_VERSION_COLUMNS} FROM documents ORDER BY id"
    # a store read before migration 12: the lines table tells the same
    return (
        "SELECT d.id, d.name, d.language, d.content_hash, MIN(l.id), COUNT(l.id) "
        "FROM documents d LEFT JOIN lines l ON l.document_id = d.id GROUP BY d.id ORDER BY d.id"
    )


def _keyed(rows: Iterable[tuple[Any, ...]]) -> list[tuple[int, str, str, str]]:
    return [
        (doc_id, name, language, f"{doc_id}:{digest}:{first}:{count}")
        for doc_id, name, language, digest, first, count in rows
    ]


def keyed_document(key: str) -> int:
    """The store id of the document a version key (``document_keys``) names."""
    return int(key.split(":", 1)[0])


def _added_since(
    store: Store, generation: int, versions: list[tuple[int, str, str, str]]
) -> list[tuple[int, str, str, str]] | None:
    """The versions of ``generation`` with the documents written since, when no document
    of it is gone (else None: every document is read). A document written again under a
    reused id is among those written since, and stands in its old version's place."""
    if not has_column(store.conn, "documents", "written"):
        return None
    # The documents and their count in one statement: one snapshot of the store.
    rows = store.conn.execute(
        f"SELECT {_VERSION_COLUMNS}, (SELECT COUNT(*) FROM documents) FROM documents "
        "WHERE written > ? ORDER BY id",
        (generation,),
    ).fetchall()
    if rows:
        count = int(rows[0][-1])
    else:
        count = int(store.conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0])
    added = _keyed(row[:-1] for row in rows)
    if not added:
        return versions if count == len(versions) else None
    if not versions or added[0][0] > versions[-1][0]:
        kept = versions
    else:
        again = {version[0] for version in added}
        kept = [version for version in versions if version[0] not in again]
    if len(kept) + len(added) != count:
        return None  # a document was removed (or written by a version without the column)
    return sorted([*kept, *added]) if kept is not versions else [*versions, *added]


_VERSIONS: WeakKeyDictionary[Store, tuple[int, list[tuple[int, str, str, str]]]] = (
    WeakKeyDictionary()
)


def versions_digest(keys: Sequence[str]) -> str:
    """A digest of a set of document versions: a part records the one it was made on, so
    parts that do not follow one another (a part lost to a busy store) are told."""
    return hashlib.sha1("\n".join(sorted(keys)).encode()).hexdigest()


def searchable_lines(
    store: Store, documents: Sequence[int] | None = None
) -> Iterator[tuple[int, int, int, str, str]]:
    """As ``Store.line_rows`` (of these documents only, if given), one at a time, a table
    row's text followed by its column names: a row says each cell under its column's
    name, so "handgun checks in Ohio" finds the Ohio row of a table whose column is named
    Handgun. The query runs when the first line is asked for."""
    for line_id, document_id, position, kind, text, cells in store.conn.execute(
        f"SELECT id, document_id, position, kind, text, cells FROM lines{among(documents)} "
        "ORDER BY id"
    ):
        if cells:
            names = " ".join(name for name, _ in json.loads(cells))
            text = f"{text} {names}"
        yield line_id, document_id, position, kind, text


def windows(
    store: Store, documents: Sequence[int] | None = None
) -> list[tuple[int, int, int, int]]:
    """(document id, scale, start position, end position) of every window (of these
    documents only, if given), in id order."""
    return list(
        store.conn.execute(
            f"SELECT document_id, scale, start, end FROM windows{among(documents)} ORDER BY id"
        )
    )


def cached_parts(store: Store, prefix: str) -> list[tuple[str, int, bytes]]:
    """(name, generation, payload) of every part cached under ``prefix``, oldest first."""
    rows = store.conn.execute(
        "SELECT name, generation, payload FROM index_cache WHERE name >= ? AND name < ? "
        "ORDER BY generation, name",
        (prefix, prefix + "\uffff"),
    )
    return [(name, generation, bytes(payload)) for name, generation, payload in rows]


def part_sizes(store: Store, prefix: str) -> list[tuple[str, int, int]]:
    """(name, generation, bytes) of every part cached under ``prefix``, oldest first."""
    rows = store.conn.execute(
        "SELECT name, generation, length(payload) FROM index_cache WHERE name >= ? "
        "AND name < ? ORDER BY generation, name",
        (prefix, prefix + "\uffff"),
    )
    return list(rows)


def replace_parts(store: Store, prefix: str, name: str, generation: int, payload: bytes) -> None:
    """Cache ``payload`` as the part ``name``; a part named ``prefix`` itself (a whole
    index) replaces every part before it. An in-memory or read-only store keeps none."""
    if store.path is None or store.read_only:
        return
    store.write_after_read(functools.partial(_write_part, store, prefix, name, generation, payload))


def cache_update(
    store: Store, prefix: str, generation: int, part: bytes | None, whole: Callable[[], bytes]
) -> None:
    """Cache what an update added (``part``) after the parts under ``prefix``; without a
    part, or when the parts have piled up, the whole index ``whole()`` gives instead,
    which replaces them."""
    sizes = [size for _, _, size in part_sizes(store, prefix)]
    if (
        part is not None
        and sizes
        and len(sizes) < MAX_PARTS
        and sum(sizes[1:]) + len(part) <= REWRITE_SHARE * sizes[0]
    ):
        replace_parts(store, prefix, f"{prefix}+{generation:012d}", generation, part)
    else:
        replace_parts(store, prefix, prefix, generation, whole())


def _write_part(store: Store, prefix: str, name: str, generation: int, payload: bytes) -> None:
    with store.transaction() as conn:
        if name == prefix:
            conn.execute(
                "DELETE FROM index_cache WHERE name >= ? AND name < ?",
                (prefix, prefix + "\uffff"),
            )
        conn.execute(
            "INSERT INTO index_cache (name, generation, payload) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET generation = excluded.generation, "
            "payload = excluded.payload",
            (name, generation, payload),
        )
