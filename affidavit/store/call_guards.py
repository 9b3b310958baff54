"""Decorators for the public calls on a store: a read sees one snapshot, and any call's
SQLite failure leaves as a StoreError naming the store (and the same as context
managers, for a call written once over one store and many: memory/common.py)."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from affidavit.store.guard import store_failure
from affidavit.store.sqlite import Store


class HoldsAStore(Protocol):
    """What the decorators guard: an object that keeps its Store as ``_store`` (Memory), so
    the guarding is written once, not in every public method."""

    _store: Store


_S = TypeVar("_S", bound=HoldsAStore)
_P = ParamSpec("_P")
_R = TypeVar("_R")


def store_errors(method: Callable[Concatenate[_S, _P], _R]) -> Callable[Concatenate[_S, _P], _R]:
    """A public call whose SQLite failures (a lock held too long, a damaged file) leave
    as StoreError naming the store."""

    @functools.wraps(method)
    def call(self: _S, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise store_failure(self._store.path, exc, self._store.timeout) from exc

    return call


@contextmanager
def guarded(store: Store) -> Iterator[None]:
    """What ``store_errors`` does for a call, for the block it encloses."""
    try:
        yield
    except sqlite3.Error as exc:
        raise store_failure(store.path, exc, store.timeout) from exc


@contextmanager
def reading(store: Store) -> Iterator[None]:
    """What ``reads`` does for a call, for the block it encloses."""
    with guarded(store), store.reading():
        yield


def reads(method: Callable[Concatenate[_S, _P], _R]) -> Callable[Concatenate[_S, _P], _R]:
    """A public read: one snapshot of the store for the whole call (a writer's commit is
    seen by the next call, never by half of this one), its failures as StoreError."""

    @functools.wraps(method)
    def read(self: _S, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self._store.reading():
            return method(self, *args, **kwargs)

    return store_errors(read)
