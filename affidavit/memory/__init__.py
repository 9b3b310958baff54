"""The front door (memory.py): Memory, over one store, and ShardedMemory, over a folder of
shards, both what a memory offers (memory_like.py: MemoryLike); the calls they make alike
(common.py), one store's own (one_store.py, ingesting.py) and a shard's (shard.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.memory.memory import Memory, ShardedMemory
    from affidavit.memory.memory_like import MemoryLike

# What other rooms may use of memory/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "memory": "Memory ShardedMemory",
    "memory_like": "MemoryLike",
}

__all__ = [
    "Memory", "MemoryLike", "ShardedMemory",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
