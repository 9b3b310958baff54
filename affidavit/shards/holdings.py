"""What a sharded store holds, read over its shards: the entity graph (each shard's,
summed), its documents and upkeep, and the records graph's calls, which are one store's."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

from affidavit.errors import AffidavitError
from affidavit.results import (
    EntityCount,
    Evidence,
    Health,
    HealthPoint,
    Neighbour,
    StoredDocument,
)
from affidavit.shards.manifest import Manifest

# Whatever an entity list is cut to on one shard, the whole's top is among them.
ALL_ENTITIES = 1_000_000


class ShardHoldings:
    """ShardedMemory's calls on what its shards hold (a mixin: ShardedMemory asks)."""

    _manifest: Manifest

    def _each(
        self, method: str, *args: Any, only: Iterable[int] | None = None, **kwargs: Any
    ) -> list[Any]:
        raise NotImplementedError

    # -- the entity graph: each shard's, summed --

    def entities(self, *, top: int = 50) -> list[EntityCount]:
        """The entities of every shard, their mentions summed (each shard mines its own)."""
        counts: dict[str, int] = {}
        for listed in self._each("entities", top=ALL_ENTITIES):
            for entity in listed:
                counts[entity.name] = counts.get(entity.name, 0) + entity.count
        ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[: max(top, 0)]
        return [EntityCount(name=name, count=count) for name, count in ranked]

    def neighbours(self, entity: str, *, top: int = 10) -> list[Neighbour]:
        """The neighbours of ``entity`` on every shard that knows it: a neighbour several
        shards name keeps its heaviest edge (weights are each shard's own) and all its
        witnesses."""
        merged: dict[str, Neighbour] = {}
        for found in self._known("neighbours", entity, top=ALL_ENTITIES):
            for n in found:
                had = merged.get(n.name)
                witnesses = [*(had.witnesses if had else []), *n.witnesses]
                weight = max(n.weight, had.weight) if had else n.weight
                merged[n.name] = Neighbour(name=n.name, weight=weight, witnesses=witnesses)
        ranked = sorted(merged.values(), key=lambda n: (-n.weight, n.name))
        return ranked[: max(top, 0)]

    def cooccurrences(self, a: str, b: str) -> list[Evidence]:
        """The lines of every shard that mention both, in shard order, each in store order."""
        return [line for lines in self._known("cooccurrences", a, b) for line in lines]

    def _known(self, method: str, *args: Any, **kwargs: Any) -> list[Any]:
        """``method`` asked of every shard; a shard whose graph does not name the entity
        has nothing to add; when none names it, the first shard's error is raised."""
        replies, failure = [], None
        for at in range(self._manifest.count):
            try:
                replies += self._each(method, *args, only=[at], **kwargs)
            except AffidavitError as exc:
                failure = failure or exc
        if not replies and failure is not None:
            raise failure
        return replies

    # -- what the store holds, and its upkeep --

    def stats(self) -> dict[str, Any]:
        """Each count summed over the shards, with ``shards``: how many, and each's stats."""
        each = self._each("stats")
        total: dict[str, Any] = {}
        for stats in each:
            for key, value in stats.items():
                if isinstance(value, int) and not isinstance(value, bool) and key != "schema":
                    total[key] = total.get(key, 0) + value
        by_source: dict[str, dict[str, int]] = {}
        for stats in each:
            for source, counts in stats.get("by_source", {}).items():
                into = by_source.setdefault(source, {})
                for key, value in counts.items():
                    into[key] = into.get(key, 0) + value
        total["by_source"] = by_source
        total["path"] = str(self._manifest.folder)
        total["shards"] = each
        return total

    def catalogue(self) -> list[StoredDocument]:
        every = [d for listed in self._each("catalogue") for d in listed]
        return sorted(every, key=lambda d: (d.stored_at, d.name))

    def documents(self) -> list[str]:
        return [d.name for d in self.catalogue()]

    def fingerprint(self) -> str:
        joined = "\n".join(self._each("fingerprint"))
        return hashlib.sha256(joined.encode("utf-8")).hexdigest()

    def vacuum(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for done in self._each("vacuum"):
            for key, value in done.items():
                total[key] = total.get(key, 0) + value
        return total

    def forget_replies(self) -> int:
        return sum(self._each("forget_replies"))

    def health(self, *, refresh: bool = False) -> Health:
        """Every shard's health on its own canaries, weighed together by their number; a
        shard's warning is named by its file."""
        each = self._each("health", refresh=refresh)
        said = [
            f"{self._manifest.files[at]}: {h.warning}" for at, h in enumerate(each) if h.warning
        ]
        return Health(
            k=each[0].k, now=_weighed([h.now for h in each]), warning="; ".join(said) or None
        )

    def last_health(self) -> HealthPoint | None:
        points = [p for p in self._each("last_health") if p is not None]
        return _weighed(points) if points else None

    # -- the records graph is one store's --

    def tell(self, *args: Any, **kwargs: Any) -> NoReturn:
        _one_store_only("tell")

    def distil(self, *args: Any, **kwargs: Any) -> NoReturn:
        _one_store_only("distil")

    def distil_new(self, *args: Any, **kwargs: Any) -> NoReturn:
        _one_store_only("distil_new")

    def infer(self, *args: Any, **kwargs: Any) -> NoReturn:
        _one_store_only("infer")

    def records(self, *args: Any, **kwargs: Any) -> NoReturn:
        _one_store_only("records")

    def forget(self, *args: Any, **kwargs: Any) -> NoReturn:
        _one_store_only("forget")

    def end(self, *args: Any, **kwargs: Any) -> NoReturn:
        _one_store_only("end")

    def label(self, *args: Any, **kwargs: Any) -> NoReturn:
        _one_store_only("label")

    def labels(self, *args: Any, **kwargs: Any) -> NoReturn:
        _one_store_only("labels")

    def profile(self, *args: Any, **kwargs: Any) -> NoReturn:
        _one_store_only("profile")


def _weighed(points: Sequence[HealthPoint]) -> HealthPoint:
    """One health point of several shards': rates weighed by canaries, counts summed."""
    canaries = sum(p.canaries for p in points)

    def mean(value: Callable[[HealthPoint], float]) -> float:
        return sum(value(p) * p.canaries for p in points) / canaries if canaries else 0.0

    lines = sum(p.lines for p in points)
    return HealthPoint(
        measured_at=max(p.measured_at for p in points),
        documents=sum(p.documents for p in points),
        lines=lines,
        canaries=canaries,
        recall=mean(lambda p: p.recall),
        mrr=mean(lambda p: p.mrr),
        ndcg=mean(lambda p: p.ndcg),
        distinct_share=sum(p.distinct_share * p.lines for p in points) / lines if lines else 0.0,
    )


def _one_store_only(call: str) -> NoReturn:
    raise AffidavitError(
        f"{call}() is not available on a sharded store: told records, labels and profiles "
        "live in one store (a store of records beside the shards is not built yet)"
    )
