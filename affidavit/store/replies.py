"""A language model's replies, kept in the store so asking again costs no calls."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from affidavit.store.sqlite import Store


@dataclass(frozen=True, slots=True)
class CachedReply:
    text: str
    prompt_tokens: int | None
    completion_tokens: int | None


class Replies(Protocol):
    """Where a model engine keeps its replies: one store's (StoredReplies), or a sharded
    store's, kept in its first shard."""

    def get(self, key: str) -> CachedReply | None: ...

    def put(self, key: str, model: str, prompt_version: str, reply: CachedReply) -> None: ...


class StoredReplies:
    """The reply cache of one store: a reply's text and what it cost, keyed by a hash of
    (model, prompt version, prompt) that the engine computes. It holds a model's words,
    never a fact: a cached reply is a proposal like a fresh one and goes through the same
    gates."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def get(self, key: str) -> CachedReply | None:
        row = self._store.conn.execute(
            "SELECT reply, prompt_tokens, completion_tokens FROM engine_replies WHERE key = ?",
            (key,),
        ).fetchone()
        return CachedReply(str(row[0]), row[1], row[2]) if row else None

    def put(
        self,
        key: str,
        model: str,
        prompt_version: str,
        reply: CachedReply,
    ) -> None:
        """Keep ``reply``; one made inside an ask is written once the ask's read snapshot
        ends (a read never holds the writer's lock). A read-only store is not written, and
        a busy store only means the reply is asked for again next time."""
        if self._store.read_only:
            return
        self._store.write_after_read(
            functools.partial(self._write, key, model, prompt_version, reply)
        )

    def __len__(self) -> int:
        return int(self._store.conn.execute("SELECT COUNT(*) FROM engine_replies").fetchone()[0])

    def clear(self) -> int:
        """Forget every cached reply; returns how many there were."""
        with self._store.transaction() as conn:
            return conn.execute("DELETE FROM engine_replies").rowcount

    def _write(self, key: str, model: str, prompt_version: str, reply: CachedReply) -> None:
        with self._store.transaction() as conn:
            conn.execute(
                "INSERT INTO engine_replies (key, model, prompt_version, reply, prompt_tokens, "
                "completion_tokens, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (key) DO NOTHING",
                (
                    key,
                    model,
                    prompt_version,
                    reply.text,
                    reply.prompt_tokens,
                    reply.completion_tokens,
                    datetime.now(UTC).isoformat(timespec="seconds"),
                ),
            )
