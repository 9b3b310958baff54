"""The front door (front.py): one store's Memory, its ingest calls (ingesting.py), and the
check every ask makes of its inputs (a sharded store's too)."""

from affidavit.memory.front import Memory, checked_ask
from affidavit.memory.ingesting import Progress

__all__ = ["Memory", "Progress", "checked_ask"]
