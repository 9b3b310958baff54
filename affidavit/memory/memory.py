"""The front door: Memory, over one store, and ShardedMemory, over a folder of shards, which
``Memory(folder)`` opens. Every write is one transaction; every answer passes the exit
gate or is refused with a catalogued reason; every line carries the trust of its source,
and nothing below the speaking threshold is said or cited as fact.

Both satisfy MemoryLike (memory/memory_like.py). What they do alike is written once
(memory/common.py); what each does its own way comes from one store's calls (memory/
one_store.py) and a sharded store's (shards/sharded.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from affidavit.memory.one_store import StoreMemory
from affidavit.memory.shard import Shard
from affidavit.shards import ShardedCalls, is_sharded


class Memory(StoreMemory):
    """A store of documents as verbatim lines, searchable and answerable with citations.

    In short::

        with Memory("notes.sqlite") as memory:
            memory.ingest("contracts/")
            answer = memory.ask("When does the lease end?")
            verdict = memory.verify("The lease ends on 1 May 2025.")

    ``Memory(folder, shards=N)`` makes a sharded store and ``Memory(folder)`` opens one
    again: a ShardedMemory, which answers every call as one store holding all its
    documents would.
    """

    def __new__(cls, path: str | Path | None = None, **options: Any) -> Memory:
        # The front door is the same for one store and many; behind it, the class that
        # opens what ``path`` holds.
        if cls is Memory and (options.get("shards") is not None or is_sharded(path)):
            return super().__new__(ShardedMemory)
        return super().__new__(cls)


class ShardedMemory(ShardedCalls, Memory):
    """A store split by document over N shard files in one folder, each shard held open on
    its own (a Ray actor with ``cluster=``): each finds its lines, and the answer is made
    once over them all, as one store makes it. Made and opened through Memory::

        with Memory("estate/", shards=4, cluster="local") as memory:
            memory.ingest("policies/")
            answer = memory.ask("Who approves a purchase over 10,000 euros?")

    Told records, labels and profiles live in one store: those calls say so.
    """

    opens_shard = Shard
