"""What an index kept in parts needs of the store: which version of each document it
holds, and the parts under one name prefix in the index cache (an ingest adds a part for
its own documents instead of rewriting the whole: ``index/words/word_parts.py``)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from affidavit.store.schema import has_column
from affidavit.store.sqlite import Store, among

# Parts are merged in size tiers, as log-structured indexes merge their segments: a
# part's tier is how many times over its bytes are MERGE_FACTOR times TIER_BASE's, and
# once MERGE_FACTOR parts at or below the newest part's tier stand newest, they are merged
# into one (of the next tier, about). A document is so written again about log4 of the
# store's size times in all, the whole only once the parts after it add up to its tier,
# and a store holds a few parts a tier. NOTE: folding every part into the whole once 32
# had piled up wrote the whole store again every 32nd call (bench/one_at_a_time.py: a
# call grew from 9.1 to 14.6 ms between the first 500 documents and the last 500).
MERGE_FACTOR = 4
TIER_BASE = 4096


Version = tuple[int, str, str, str]  # (id, name, language, key)


def document_keys(store: Store) -> list[Version]:
    """(id, name, language, key) of every document, in id order. The key names the stored
    version: an id is reused after a delete, its content hash and line ids tell a
    replaced document from the one it replaced.

    Read once per generation of the store (every write makes a new one): the word index,
    the entity graph and the meaning index each ask after the same change. After a write
    that only added documents, only those are read (each document keeps the generation
    it was written at): reading every one took 5 ms of each ingest_text at 3,000."""
    return _versions(store).versions


def version_keys(store: Store) -> list[str]:
    """The key of every document (``document_keys``), in id order: one list a generation,
    made from the last one's when a write only added documents, so comparing it with the
    keys an index holds costs a list's comparison."""
    return _versions(store).keys


def document_names(store: Store) -> list[str]:
    """The name of every document, in id order, held as ``version_keys``."""
    return _versions(store).names


@dataclass(frozen=True)
class _Held:
    generation: int
    versions: list[Version]
    keys: list[str]
    names: list[str]


def _versions(store: Store) -> _Held:
    generation = store.generation()
    held = _VERSIONS.get(store)
    if held is not None and held.generation == generation:
        return held
    versions = _added_since(store, held.generation, held.versions) if held is not None else None
    if versions is None:
        versions = _keyed(store.conn.execute(_versions_query(store)))
        made = _Held(generation, versions, [v[3] for v in versions], [v[1] for v in versions])
    elif held is not None and versions[: len(held.versions)] == held.versions:
        added = versions[len(held.versions) :]  # only added: the lists grow
        keys, names = [v[3] for v in added], [v[1] for v in added]
        made = _Held(generation, versions, [*held.keys, *keys], [*held.names, *names])
    else:
        made = _Held(generation, versions, [v[3] for v in versions], [v[1] for v in versions])
    _VERSIONS[store] = made
    return made


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


def _added_since(store: Store, generation: int, versions: list[Version]) -> list[Version] | None:
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


_VERSIONS: WeakKeyDictionary[Store, _Held] = WeakKeyDictionary()


def versions_digest(keys: Iterable[str], more_than: str = "") -> str:
    """A digest of a set of document versions: a part records the one it was made on, so
    parts that do not follow one another (a part lost to a busy store) are told. The sum
    of each version's own digest, so the digest of a set grown by ``keys`` is made from
    the set's (``more_than``) and theirs alone: an addition hashes its own versions, not
    every one held."""
    total = int(more_than, 16) if more_than else 0
    for key in keys:
        total += int.from_bytes(hashlib.sha1(key.encode()).digest()[:8], "big")
    return f"{total % (1 << 64):016x}"


def searchable_lines(
    store: Store, documents: Sequence[int] | None = None
) -> Iterator[tuple[int, int, int, str, str]]:
    """As ``Store.line_rows`` (of these documents only, if given), one at a time, a table
    row's text followed by the words of its column names: a row says each cell under its
    column's name, so "handgun checks in Ohio" finds the Ohio row of a table whose column
    is named Handgun. Each word once: a wide table's names repeat words ("Handgun" under
    six groups, "Year Ended December 31" over each year), and a row made long by them
    would rank under its own label ("Kentucky"). (A field's label, "Subscription: open",
    is written in its line and named once more: the field is found by its label.) The
    query runs when the first line is asked for."""
    for line_id, document_id, position, kind, text, cells in store.conn.execute(
        f"SELECT id, document_id, position, kind, text, cells FROM lines{among(documents)} "
        "ORDER BY id"
    ):
        if cells:
            named = (word for name, _ in json.loads(cells) for word in name.split())
            text = f"{text} {' '.join(dict.fromkeys(named))}"
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
    store: Store,
    prefix: str,
    generation: int,
    part: bytes | None,
    whole: Callable[[], bytes],
    merge: Callable[[list[bytes], bool], bytes] | None = None,
) -> None:
    """Cache what an update added (``part``) after the parts under ``prefix``, merged with
    the newest ones when they fill a tier (MERGE_FACTOR): ``merge(payloads, whole_first)``
    makes one part of successive ones, oldest first (a whole when the first is the whole
    index). Without a part, or without a whole to add it to, the whole index ``whole()``
    gives instead, which replaces every part."""
    listed = part_sizes(store, prefix)
    if part is None or not listed or listed[0][0] != prefix:
        replace_parts(store, prefix, prefix, generation, whole())
        return
    name = f"{prefix}+{generation:012d}"
    taken = merged_tail([size for _, _, size in listed] + [len(part)]) - 1
    if not taken or merge is None:
        replace_parts(store, prefix, name, generation, part)
        return
    names = [held for held, _, _ in listed[len(listed) - taken :]]
    payloads = cached_payloads(store, names)
    if len(payloads) != len(names):  # another process moved the parts on: the whole
        replace_parts(store, prefix, prefix, generation, whole())
        return
    joined = merge([*payloads, part], names[0] == prefix)
    if names[0] == prefix:
        replace_parts(store, prefix, prefix, generation, joined)
    else:
        store.write_after_read(
            functools.partial(_write_merged, store, names, name, generation, joined)
        )


def merged_tail(sizes: Sequence[int], base: int = TIER_BASE) -> int:
    """How many of the newest parts (``sizes`` in bytes, oldest first; tiers from
    ``base``) are merged into one, a tier filled after another: 1, the newest alone, when
    none is."""
    held = list(sizes)
    taken = 1
    while True:
        top = _tier(held[-1], base)
        run = 0
        for size in reversed(held):
            if _tier(size, base) > top:
                break
            run += 1
        if run < MERGE_FACTOR:
            return taken
        held[-run:] = [sum(held[-run:])]
        taken += run - 1


def _tier(size: int, base: int = TIER_BASE) -> int:
    tier, bound = 0, base * MERGE_FACTOR
    while size >= bound:
        tier, bound = tier + 1, bound * MERGE_FACTOR
    return tier


def cached_payloads(store: Store, names: Sequence[str]) -> list[bytes]:
    """The payloads of the parts ``names``, in that order (those still held)."""
    found: dict[str, bytes] = {}
    for start in range(0, len(names), 900):
        chunk = list(names[start : start + 900])
        marks = ",".join("?" * len(chunk))
        rows = store.conn.execute(
            f"SELECT name, payload FROM index_cache WHERE name IN ({marks})", chunk
        )
        found.update((held, bytes(payload)) for held, payload in rows)
    return [found[name] for name in names if name in found]


def _write_merged(
    store: Store, merged: Sequence[str], name: str, generation: int, payload: bytes
) -> None:
    """The parts ``merged`` replaced by one part ``name``, in one transaction."""
    with store.transaction() as conn:
        marks = ",".join("?" * len(merged))
        conn.execute(f"DELETE FROM index_cache WHERE name IN ({marks})", list(merged))
        conn.execute(
            "INSERT INTO index_cache (name, generation, payload) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET generation = excluded.generation, "
            "payload = excluded.payload",
            (name, generation, payload),
        )


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
