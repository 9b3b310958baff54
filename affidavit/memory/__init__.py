"""The front door (front.py): Memory, over one store, and ShardedMemory, over a folder of
shards, both what a memory offers (protocol.py: MemoryLike); the calls they make alike
(common.py), one store's own (one_store.py, ingesting.py) and a shard's (shard.py)."""

from affidavit.memory.front import Memory, ShardedMemory
from affidavit.memory.protocol import MemoryLike

__all__ = ["Memory", "MemoryLike", "ShardedMemory"]
