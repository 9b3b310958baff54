"""Sharded stores: a folder of shard stores, each answered on its own (on Ray actors or in
this process), their replies merged into the one store's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.shards.manifest import is_sharded
    from affidavit.shards.sharded import ShardedCalls

# What other rooms may use of shards/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "manifest": "is_sharded",
    "sharded": "ShardedCalls",
}

__all__ = [
    "ShardedCalls", "is_sharded",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
