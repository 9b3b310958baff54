"""The entity graph built on a second core while this process builds the word index and
the meaning vectors."""

from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from affidavit.index import growth
from affidavit.index.entities.graph import EntityGraph
from affidavit.runtime import die_with_parent, forking, leave_interrupts_to_parent, usable_cores
from affidavit.store import Store, decoded

# Below this many lines the fork costs more than the graph: built here.
LINES_WORTH_A_WORKER = 20_000


@dataclass
class GraphBuild:
    """A graph under construction in a worker, for the store at ``generation``."""

    worker: Any
    receive: Connection
    generation: int

    def result(self) -> bytes | None:
        """The graph's bytes, or None when the worker failed or read another generation."""
        try:
            status, generation, payload = self.receive.recv()
        except (EOFError, OSError):
            return None
        finally:
            self.worker.join()
            self.receive.close()
        if status != "graph" or generation != self.generation:
            return None
        return bytes(payload)

    def cancel(self) -> None:
        """Stop the worker, its graph no longer wanted."""
        if self.worker.is_alive():
            self.worker.kill()
        self.worker.join()
        self.receive.close()


def built_graph(
    store: Store,
    cache: str,
    generation: int,
    previous: EntityGraph | None,
    pending: GraphBuild | None,
    cached: bytes | None,
) -> EntityGraph:
    """The graph of the store at ``generation``: the one ``cached`` under ``cache`` when it
    reads, else the worker's when it built it, else built here from ``previous`` (or the
    graph cached at an earlier generation); cached in the store when it was not.

    The worker's bytes are cached and held as if this process had built them itself (they
    are the same). Anything amiss (another writer moved the store on, the worker failed
    or died) and the graph is built here.
    """
    found = decoded(cached, EntityGraph.from_bytes)
    if found is not None:
        if pending is not None:
            pending.cancel()  # another process cached it meanwhile
        return found
    payload = pending.result() if pending is not None else None
    if payload is not None:
        graph = EntityGraph.from_bytes(payload)
    else:
        if previous is None:
            previous = decoded(store.cached_latest(cache), EntityGraph.from_bytes)
        graph = growth.current_graph(store, previous)
        payload = graph.to_bytes()
    store.cache(cache, generation, payload)
    return graph


def start_graph(
    store: Store, cache: str, previous: EntityGraph | None, held: int | None
) -> GraphBuild | None:
    """Start building the graph of ``store`` at its generation in a forked worker (from
    ``previous``, the graph in hand at generation ``held``, or else the graph cached under
    ``cache`` at an earlier generation), or None when it is not worth one: the graph is
    in hand or cached already, the store is in memory or read-only, there is one core, or
    few lines.

    After an ingest every index is built in turn; the graph is mostly Python (reading the
    corpus, matching the entities in every line), so a thread would wait on the others. A
    forked worker reads the committed store through its own read-only connection,
    starting from the graph this process already holds (the fork shares it, nothing is
    copied), and sends back the graph's bytes: what the store caches.
    """
    if store.path is None or store.read_only or usable_cores() < 2:
        return None
    generation = store.generation()
    if held == generation or store.has_cached(cache, generation):
        return None
    if store.stats()["lines"] < LINES_WORTH_A_WORKER:
        return None
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(
        target=_build_in_worker,
        args=(store.path, cache, previous, send, os.getpid()),
        daemon=True,
    )
    try:
        with forking():
            worker.start()
    except (OSError, AssertionError):  # no fork here (a daemonic process may not have one)
        receive.close()
        return None
    finally:
        send.close()
    return GraphBuild(worker, receive, generation)


def _build_in_worker(
    path: str, cache: str, previous: EntityGraph | None, send: Connection, parent: int
) -> None:
    die_with_parent(parent)  # killed, an ingest takes its graph's worker with it
    leave_interrupts_to_parent()
    try:
        store = Store(path, read_only=True)
        try:
            before = store.generation()
            if previous is None:
                previous = decoded(store.cached_latest(cache), EntityGraph.from_bytes)
            graph = growth.current_graph(store, previous)
            after = store.generation()
        finally:
            store.close()
        generation = before if before == after else -1  # the store moved on meanwhile
        send.send(("graph", generation, graph.to_bytes()))
    except Exception as exc:  # noqa: BLE001 - the parent builds the graph itself instead
        send.send(("failed", -1, repr(exc)))
    finally:
        send.close()
