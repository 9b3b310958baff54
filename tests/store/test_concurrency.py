"""Readers beside a writer: processes that search and ask one store while another replaces
its documents see one consistent store per call — zero errors — and a writer kept waiting
by another gets a StoreError that names the store, never a raw sqlite3 error."""

from __future__ import annotations

import multiprocessing
import sqlite3
import time
from pathlib import Path

import pytest

from affidavit import Memory, StoreError

SECONDS = 4.0
FACTS = [
    "The {n} bridge opened in {year} after six years of work.",
    "The {n} ferry carried {count} passengers a day before the bridge.",
    "Engineers of the {n} project tested the cables in {year}.",
]


def _document(round_: int, number: int) -> str:
    return "\n\n".join(
        fact.format(n=f"river{number}", year=1900 + round_ % 90, count=100 + round_)
        for fact in FACTS
    )


def _writer(path: str, stop_at: float, done: multiprocessing.Queue) -> None:
    rounds, errors = 0, []
    try:
        memory = Memory(path, dense=False, timeout=30)
        while time.monotonic() < stop_at:
            for number in range(3):  # replacing documents moves the generation every time
                memory.ingest_text(_document(rounds, number), name=f"river{number}.md")
            rounds += 1
        memory.close()
    except Exception as error:  # noqa: BLE001 — reported, so the test never waits in vain
        errors.append(f"{type(error).__name__}: {error}")
    done.put(("writer", rounds, errors))


def _reader(path: str, stop_at: float, done: multiprocessing.Queue) -> None:
    operations, errors = 0, []
    try:
        memory = Memory(path, dense=False, timeout=30)
    except Exception as error:  # noqa: BLE001 — reported, so the test never waits in vain
        done.put(("reader", 0, [f"{type(error).__name__}: {error}"]))
        return
    while time.monotonic() < stop_at:
        try:
            memory.search("bridge opened", k=5)
            memory.ask("When did the river1 bridge open?")
            memory.verify("The river2 ferry carried passengers.")
            operations += 3
        except Exception as error:  # noqa: BLE001 — every failure is counted and reported
            errors.append(f"{type(error).__name__}: {error}")
    memory.close()
    done.put(("reader", operations, errors))


@pytest.mark.slow
def test_readers_beside_a_writer_see_no_errors(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.sqlite")
    seed = Memory(path, dense=False)
    for number in range(3):
        seed.ingest_text(_document(0, number), name=f"river{number}.md")
    seed.close()
    context = multiprocessing.get_context("spawn")
    done: multiprocessing.Queue = context.Queue()
    stop_at = time.monotonic() + SECONDS + 5.0  # the processes start in about five seconds
    workers = [context.Process(target=_writer, args=(path, stop_at, done))]
    workers += [context.Process(target=_reader, args=(path, stop_at, done)) for _ in range(3)]
    for worker in workers:
        worker.start()
    reports = [done.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)
    readers = [r for r in reports if r[0] == "reader"]
    writes = sum(r[1] for r in reports if r[0] == "writer")
    assert writes > 0 and all(r[1] > 0 for r in readers)
    assert [e for r in reports for e in r[2]] == []


def test_a_writer_kept_waiting_gets_a_store_error_naming_the_store(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite"
    Memory(path, dense=False).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        memory = Memory(path, dense=False, timeout=0.2)
        with pytest.raises(StoreError) as raised:
            memory.ingest_text("The bridge opened in 1932.", name="b.md")
        assert str(path) in str(raised.value)
        assert "locked by another writer" in str(raised.value)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert memory.ingest_text("The bridge opened in 1932.", name="b.md") == "b.md"
    memory.close()
