"""The shards of a store held open, in this process or as Ray actors: the same call asked
of every shard (or of some), the replies in shard order.

On Ray each shard is an actor that opens its store once and keeps it, its indexes and
its models for every later call; the calls of one round run on all actors at once. In
this process (no cluster given) the shards are asked one after another."""

from __future__ import annotations

import warnings as warnings_module
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from affidavit.archive.shard_parts import ShardParts
from affidavit.archive.store_counts import StoreCounts
from affidavit.batch import joined_ray, same_version
from affidavit.errors import AffidavitError
from affidavit.runtime import installed_version, usable_cores

Call = tuple[str, Sequence[Any], Mapping[str, Any]]
# A reply and the warnings its call gave, as plain data a Ray worker can send back.
Heard = tuple[Any, list[tuple[str, type[Warning]]]]
# The calls of a shard that change its lines (and so its word counts).
WRITES = frozenset({"commit", "ingest_text", "ingest_dialogue", "remove"})


def heard(method: Callable[..., Any], args: Sequence[Any], kwargs: Mapping[str, Any]) -> Heard:
    """``method(*args, **kwargs)`` and the warnings it gave (a Ray worker's would be lost;
    the sharded store gives them again where it was called)."""
    with warnings_module.catch_warnings(record=True) as caught:
        warnings_module.simplefilter("always")
        reply = method(*args, **kwargs)
    return reply, [(str(w.message), w.category) for w in caught]


class ShardStore(Protocol):
    """One shard's store held open (memory/shard.py's Shard): a call of it, and the
    warnings it gave, as plain data a Ray worker can send back."""

    def call(self, method: str, args: Sequence[Any], kwargs: dict[str, Any]) -> Heard: ...

    @property
    def parts(self) -> ShardParts:
        """Its part in the driver's answer (archive/shard_parts.py), made once."""
        ...

    def close(self) -> None: ...


# How a shard's store is opened: ``opens(path, **options)``, in this process or on a Ray
# worker (found there by its name, so a class or a module's function).
OpensShard = Callable[..., ShardStore]


class LocalShards:
    """Every shard's store held in this process."""

    def __init__(self, opens: OpensShard, paths: Sequence[str], options: Mapping[str, Any]) -> None:
        self._shards = [opens(path, **options) for path in paths]
        # A question's calls (a shard's part in the driver's answer) go to its part
        # directly: an answer's calls go down the floors, never back up through a shard's
        # front door (memory/shard.py).
        self._parts = [shard.parts for shard in self._shards]

    def ask_each(self, calls: Mapping[int, Call]) -> tuple[dict[int, Any], dict[int, Exception]]:
        """Each shard's reply to its call, and each failure, by shard. Once one shard has
        failed the later ones are not asked (in this process nothing runs at once)."""
        replies: dict[int, Any] = {}
        for at, (method, args, kwargs) in sorted(calls.items()):
            try:
                if method == "part":
                    name, *rest = args
                    replies[at] = heard(getattr(self._parts[at], name), rest, kwargs)
                else:
                    replies[at] = self._shards[at].call(method, args, dict(kwargs))
            except Exception as exc:
                return replies, {at: exc}
        return replies, {}

    def close(self) -> None:
        for shard in self._shards:
            shard.close()


class RayShards:
    """Every shard a Ray actor holding its store open (the optional ``ray`` extra)."""

    def __init__(
        self, opens: OpensShard, paths: Sequence[str], options: Mapping[str, Any], address: str
    ) -> None:
        ray, self._started = joined_ray(
            address,
            usable_cores(),
            "a sharded store on a Ray cluster",
            "pass cluster='auto', or 'ray://HOST:10001'",
        )
        self._ray = ray
        cpus = float(ray.cluster_resources().get("CPU", 1.0))
        # The actors share the cluster's cores: a shard works only while a call runs.
        share = max(min(1.0, cpus / max(len(paths), 1)), 0.01)
        holder = ray.remote(num_cpus=share)(_Holder)
        version = installed_version()
        self._actors = [holder.remote(opens, path, dict(options), version) for path in paths]
        try:
            ray.get([actor.ready.remote() for actor in self._actors])
        except Exception as exc:
            self.close()
            raise _unwrapped(ray, exc) from None

    def ask_each(self, calls: Mapping[int, Call]) -> tuple[dict[int, Any], dict[int, Exception]]:
        """Each shard's reply and each failure, by shard: the calls run on all actors at
        once, and every one is waited for, so none runs on after the call returns."""
        ray = self._ray
        pending = {
            at: self._actors[at].call.remote(m, a, dict(k)) for at, (m, a, k) in calls.items()
        }
        order = sorted(pending)
        try:
            # One wait for every reply (each ``ray.get`` costs the driver its own round).
            got = ray.get([pending[at] for at in order])
            return dict(zip(order, got, strict=True)), {}
        except Exception:  # noqa: BLE001 - each reply is asked for again to name the failures
            pass
        replies: dict[int, Any] = {}
        failures: dict[int, Exception] = {}
        for at in order:
            try:
                replies[at] = ray.get(pending[at])
            except Exception as exc:
                failures[at] = _unwrapped(ray, exc)
        return replies, failures

    def close(self) -> None:
        for actor in self._actors:
            try:
                self._ray.get(actor.close.remote())
            except Exception:  # an actor already gone has nothing to close
                pass
            self._ray.kill(actor)
        self._actors = []
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()


class ShardCalls:
    """The shards held open, asked a round of calls at a time: the replies in shard order,
    the warnings each gave given again here, the first shard's failure raised. A round
    that writes drops what the driver holds of the written shards' word counts first
    (``counts``, archive/store_counts.py): a write that fails part way may have changed
    them."""

    def __init__(self, shards: LocalShards | RayShards, count: int) -> None:
        self.shards = shards
        self.counts = StoreCounts(self.parts, count)

    def ask(self, calls: Mapping[int, Call]) -> dict[int, Any]:
        written = [at for at, (method, _, _) in calls.items() if method in WRITES]
        if written:
            self.counts.forget(written)
        replies, failures = self.shards.ask_each(calls)
        if failures:
            raise min(failures.items())[1]  # the first shard's, whatever order they failed in
        return {at: self.warned(reply) for at, reply in sorted(replies.items())}

    def parts(self, calls: Mapping[int, tuple[str, tuple[Any, ...]]]) -> dict[int, Any]:
        """Each shard's part (archive/shard_parts.py) in the driver's answer."""
        return self.ask({at: ("part", (name, *args), {}) for at, (name, args) in calls.items()})

    @staticmethod
    def warned(reply: Heard) -> Any:
        """A shard's reply, its warnings given again here (a Ray worker's are not seen)."""
        answer, warned = reply
        for message, category in warned:
            warnings_module.warn(message, category, stacklevel=5)
        return answer


class _Holder:
    """A Ray actor: one shard's store, open for the actor's life."""

    def __init__(self, opens: OpensShard, path: str, options: dict[str, Any], version: str) -> None:
        same_version(version)
        self._shard = opens(path, **options)

    def ready(self) -> bool:
        return True

    def call(self, method: str, args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
        return self._shard.call(method, args, kwargs)

    def close(self) -> None:
        self._shard.close()


def _unwrapped(ray: Any, exc: Exception) -> Exception:
    """The AffidavitError a shard raised, as it was raised; any other failure of a Ray
    worker as an AffidavitError saying so."""
    if isinstance(exc, ray.exceptions.RayTaskError):
        cause = exc.as_instanceof_cause()
        if isinstance(cause, AffidavitError):
            return cause
    if isinstance(exc, AffidavitError):
        return exc
    return AffidavitError(f"a shard's Ray worker failed ({type(exc).__name__}: {exc})")
