"""The batch on a Ray cluster (the optional ``ray`` extra): the store shipped once, an
actor per worker answering question after question, the rows back in input order."""

from __future__ import annotations

import logging
import sqlite3
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from affidavit.batch.questions import Item
from affidavit.batch.worker import AHEAD_PER_WORKER, Answering, Opener, Row, Sharing
from affidavit.errors import AffidavitError
from affidavit.runtime import installed_version

INSTALL_HINT = "pip install 'affidavit[ray]'"


def run_on_ray(
    sharing: Sharing,
    pending: Sequence[Item],
    *,
    address: str,
    workers: int,
    deliver: Callable[[Row], None],
) -> None:
    """Answer ``pending`` on the Ray cluster at ``address`` with ``workers`` actors,
    handing each row to ``deliver`` in input order (to the same resumable writer as a
    local run).

    ``address`` is what ``ray.init`` takes: ``ray://HOST:PORT`` (a remote cluster, through
    Ray Client), ``auto`` (the cluster this machine belongs to) or ``local`` (start one
    here, with one CPU per worker, and stop it at the end).
    """
    ray, started = joined_ray(
        address, workers, "batch on a cluster", "pass --cluster auto, or ray://HOST:10001"
    )
    try:
        # Shipped once through Ray's object store; each actor opens its copy read-only.
        store = ray.put(snapshot(sharing.path))
        actor = ray.remote(num_cpus=1)(RayAnswerer)
        actors = [actor.remote(store, sharing.opener, installed_version()) for _ in range(workers)]
        _dispatch(ray, actors, pending, deliver)
    finally:
        if started:
            ray.shutdown()


def _dispatch(ray: Any, actors: list[Any], pending: Sequence[Item], deliver: Any) -> None:
    """Keep every actor busy, a few questions ahead, and deliver rows in input order."""
    free = [actor for actor in actors for _ in range(AHEAD_PER_WORKER)]
    running: dict[Any, tuple[int, Any]] = {}
    finished: dict[int, Row] = {}
    submitted = given = 0
    while given < len(pending):
        while free and submitted < len(pending):
            actor = free.pop(0)
            running[actor.answer.remote(pending[submitted])] = (submitted, actor)
            submitted += 1
        ready, _ = ray.wait(list(running), num_returns=1)
        for ref in ready:
            index, actor = running.pop(ref)
            finished[index] = _result(ray, ref)
            free.append(actor)
        while given in finished:
            deliver(finished.pop(given))
            given += 1


def _result(ray: Any, ref: Any) -> Row:
    try:
        row: Row = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = exc.as_instanceof_cause()
        if isinstance(cause, AffidavitError):
            raise cause from None
        raise _failed(exc) from exc
    except ray.exceptions.RayError as exc:  # an actor died, a node was lost
        raise _failed(exc) from exc
    return row


def _failed(exc: Exception) -> AffidavitError:
    return AffidavitError(
        f"a Ray worker failed ({type(exc).__name__}: {exc}); the rows written so far are "
        "kept: run the same command again to resume"
    )


class RayAnswerer:
    """A Ray actor: one read-only copy of the store, answering question after question."""

    def __init__(self, store: bytes, opener: Opener, version: str) -> None:
        same_version(version)
        self._folder = tempfile.TemporaryDirectory(prefix="affidavit-batch-")
        path = Path(self._folder.name) / "store.sqlite"
        path.write_bytes(store)
        self._answering = Answering(opener(str(path)))  # as a local worker's

    def answer(self, item: Item) -> Row:
        return self._answering(item)


def snapshot(path: str) -> bytes:
    """The store as one consistent file's bytes (SQLite's online backup: a write in
    progress elsewhere is not half in it)."""
    with tempfile.TemporaryDirectory(prefix="affidavit-ship-") as folder:
        copy = Path(folder) / "store.sqlite"
        source = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
        finally:
            target.close()
            source.close()
        return copy.read_bytes()


def joined_ray(address: str, cpus: int, needed_for: str, how: str) -> tuple[Any, bool]:
    """Ray, joined to the cluster at ``address`` (``local`` starts one here with ``cpus``
    CPUs), and whether this call started it (and so must shut it down); an
    AffidavitError saying what to install or start, for ``needed_for``, ``how`` naming
    the address to pass."""
    try:
        import ray
    except ImportError as exc:
        raise AffidavitError(
            f"{needed_for} needs Ray, which is not installed: {INSTALL_HINT}"
        ) from exc
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(
                address=address,
                num_cpus=cpus if address == "local" else None,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError
            raise AffidavitError(
                f"cannot reach the Ray cluster at {address!r} ({exc}); start one with "
                f"`ray start --head` and {how}"
            ) from exc
    return ray, started


def same_version(driver: str) -> None:
    """An AffidavitError in a Ray worker whose affidavit is not the driver's ``driver``."""
    if driver != installed_version():
        raise AffidavitError(
            f"this Ray worker runs affidavit {installed_version()}, the driver {driver}; "
            "install the same version on every node"
        )
