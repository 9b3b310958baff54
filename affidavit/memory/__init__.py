"""The front door (memory.py): Memory, over one store, and ShardedMemory, over a folder of
shards, both what a memory offers (memory_like.py: MemoryLike); the calls they make alike
(common.py), one store's own (one_store.py, ingesting.py) and a shard's (shard.py)."""

from affidavit.memory.memory import Memory, ShardedMemory
from affidavit.memory.memory_like import MemoryLike

__all__ = ["Memory", "MemoryLike", "ShardedMemory"]
