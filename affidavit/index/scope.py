"""Which documents a question may draw on: a scope of names and glob patterns, resolved
against the store's documents and applied inside retrieval (never to a short top-k
afterwards, which would leave a scoped question with nothing when other documents crowd
the ranking)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

import numpy as np

from affidavit.errors import InputError

_GLOB = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class Scope:
    """The documents a call may read: ``names`` are the store's documents that the
    ``patterns`` given matched (an exact name, or a glob: ``licences/*.pdf``)."""

    patterns: tuple[str, ...]
    names: frozenset[str]

    @classmethod
    def resolve(cls, patterns: str | Iterable[str], documents: Sequence[str]) -> Scope:
        """The scope ``patterns`` names among ``documents`` (the store's names). Each
        pattern must match at least one document: a typo that matched nothing would
        otherwise answer from nothing, or be read as no scope at all."""
        given = (patterns,) if isinstance(patterns, str) else tuple(patterns)
        if not given:
            raise InputError(
                "documents", "the scope names no document", "name one or more, or leave it out"
            )
        stored = set(documents)
        names: set[str] = set()
        for pattern in given:
            if not isinstance(pattern, str) or not pattern.strip():
                raise InputError(
                    "documents", f"{pattern!r} is not a document name", "give names or globs"
                )
            matched = _matching(pattern, stored, documents)
            if not matched:
                raise InputError(
                    pattern,
                    f"no document of the store's {len(documents)} matches it",
                    "Memory.documents() lists the stored names",
                )
            names.update(matched)
        return cls(given, frozenset(names))

    def keeps(self, document: str) -> bool:
        return document in self.names

    def slots(self, document_names: Sequence[str]) -> np.ndarray:
        """One bool per document slot of an index: does the scope take it?"""
        return np.fromiter((n in self.names for n in document_names), bool, len(document_names))

    def rows(self, document_names: Sequence[str], line_documents: np.ndarray) -> np.ndarray:
        """One bool per index row (a line): is its document in the scope?"""
        return self.slots(document_names)[line_documents]

    def to_dict(self) -> dict[str, list[str]]:
        return {"patterns": list(self.patterns), "documents": sorted(self.names)}


def _matching(pattern: str, stored: set[str], documents: Sequence[str]) -> list[str]:
    if pattern in stored:
        return [pattern]
    if not _GLOB & set(pattern):
        return []
    return [name for name in documents if fnmatchcase(name, pattern)]
