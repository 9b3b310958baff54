"""Sharded stores: a folder of shard stores, each answered on its own (on Ray actors or in
this process), their replies merged into the one store's."""
