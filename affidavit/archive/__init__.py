"""The documents one question is answered from, read through one protocol (``Archive``):
one store's, or every shard's of a sharded store, merged as one store holding them all
would give them. What the ask and verify flows read beyond the ranked lines lives here
too, beside the lines it reads: the census, whose a conversation tells of a thing, which
drawn answer is current, how the question names a document, the lines' stored frames,
the tables around the best rows. The flows (answer/) call down into it and it never calls
back; a sharded store's shards are asked here, each in this process or on a Ray actor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.archive.census import Census
    from affidavit.archive.currency import Stale
    from affidavit.archive.line_frames import keep_every_frame
    from affidavit.archive.shard_group import (
        Call,
        Heard,
        LocalShards,
        OpensShard,
        RayShards,
        ShardCalls,
        heard,
    )
    from affidavit.archive.shard_parts import ShardParts
    from affidavit.archive.sharded_archive import ShardedArchive
    from affidavit.archive.store_archive import Archive, Naming, StoreArchive
    from affidavit.archive.store_counts import StoreCounts

# What other rooms may use of archive/, each name with the module it lives in, imported
# when first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "census": "Census",
    "currency": "Stale",
    "line_frames": "keep_every_frame",
    "shard_group": "Call Heard LocalShards OpensShard RayShards ShardCalls heard",
    "shard_parts": "ShardParts",
    "sharded_archive": "ShardedArchive",
    "store_archive": "Archive Naming StoreArchive",
    "store_counts": "StoreCounts",
}

__all__ = [
    "Archive", "Call", "Census", "Heard", "LocalShards", "Naming", "OpensShard", "RayShards",
    "ShardCalls", "ShardParts", "ShardedArchive", "Stale", "StoreArchive", "StoreCounts", "heard",
    "keep_every_frame",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
