"""Inference: a predicate the store shows to be transitive is followed. A closed triangle is
three live records of one predicate, a→b, b→c and a→c ("Paris is in France", "France is in
Europe", "Paris is in Europe"); two distinct ones teach that the predicate is transitive.
For such a predicate, every chain of its records the store holds without the record that
closes it yields that record, derived: source ``inference``, trust 0.35, below the speaking
threshold, linked ``cause`` from each record of its chain. Its line is searchable (it guides
what is found) and never cited or said as fact: the retriever withholds it from answers.
Only told and drawn records are premises, never a derived one, so nothing is derived from
a guess; a derived record a later telling says outright is superseded by it."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from datetime import UTC, datetime

from affidavit.records.settle import record_key, told_document
from affidavit.store import (
    RecordRow,
    Store,
    insert_document,
    insert_record,
    link,
    record_by_id,
    records_with,
)
from affidavit.trust import Source, trust_of

# Two closed triangles teach transitivity (the specification's "witnessed twice").
TRIANGLES_TO_LEARN = 2
# A chain is followed this many records deep, and no more records are derived in one call.
LONGEST_CHAIN = 4
MOST_DERIVED = 10_000

Edge = tuple[str, str]  # (subject key, value key)


def infer(store: Store) -> tuple[tuple[str, ...], list[int]]:
    """Learn which predicates are transitive and derive the records their chains imply,
    in one transaction; (the transitive predicates as told, the ids derived)."""
    derived: list[int] = []
    learned: list[str] = []
    with store.transaction() as conn:
        premises = [r for r in records_with(conn) if r.source != Source.INFERENCE.value]
        by_predicate: dict[str, dict[Edge, RecordRow]] = defaultdict(dict)
        for row in premises:
            if row.ended_at is None:
                by_predicate[record_key(row.predicate)].setdefault(
                    (record_key(row.subject), record_key(row.value)), row
                )
        for predicate in sorted(by_predicate):
            edges = by_predicate[predicate]
            if _triangles(edges) < TRIANGLES_TO_LEARN:
                continue
            learned.append(next(iter(edges.values())).predicate)
            derived += _derive(conn, predicate, edges, MOST_DERIVED - len(derived))
        if derived:
            store.changed(conn)
    return tuple(learned), derived


def _triangles(edges: dict[Edge, RecordRow]) -> int:
    """How many distinct closed triangles a→b, b→c, a→c the edges hold (counted up to
    the number that teaches)."""
    following = _following(edges)
    found = 0
    for a in sorted(following):
        for b in sorted(following[a]):
            for c in sorted(following.get(b, ())):
                if c not in (a, b) and c in following[a]:
                    found += 1
                    if found >= TRIANGLES_TO_LEARN:
                        return found
    return found


def _derive(
    conn: sqlite3.Connection, predicate: str, edges: dict[Edge, RecordRow], room: int
) -> list[int]:
    """The records that close the edges' chains, written; their ids."""
    following = _following(edges)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    trust = trust_of(Source.INFERENCE)
    made: list[int] = []
    for start in sorted(following):
        held = {record_key(r.value) for r in records_with(conn, start, predicate)}
        # Breadth first, each value reached once, by its shortest chain.
        paths: dict[str, list[Edge]] = {}
        frontier: list[tuple[str, list[Edge]]] = [(start, [])]
        for _ in range(LONGEST_CHAIN):
            step = []
            for at, path in frontier:
                for after in sorted(following.get(at, ())):
                    if after == start or after in paths:
                        continue
                    paths[after] = [*path, (at, after)]
                    step.append((after, paths[after]))
            frontier = step
        for end in sorted(paths):
            chain = paths[end]
            if len(chain) < 2 or end in held or len(made) >= room:
                continue
            first, last = edges[chain[0]], edges[chain[-1]]
            record_id = insert_record(
                conn,
                subject=first.subject,
                predicate=first.predicate,
                value=last.value,
                keys=(start, predicate),
                source=Source.INFERENCE.value,
                trust=trust,
                told_at=now,
                true_at=None,
            )
            for edge in chain:
                link(conn, edges[edge].id, record_id, "cause")
            row = record_by_id(conn, record_id)
            assert row is not None
            insert_document(conn, told_document(row), now)
            made.append(record_id)
    return made


def _following(edges: dict[Edge, RecordRow]) -> dict[str, set[str]]:
    following: dict[str, set[str]] = defaultdict(set)
    for subject, value in edges:
        if subject != value:
            following[subject].add(value)
    return following
