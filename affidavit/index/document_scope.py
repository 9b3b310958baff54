"""Which documents a question may draw on: names and glob patterns, a source, a least
trust and a date range, resolved against the store's documents and applied inside
retrieval (never to a short top-k afterwards, which would leave a scoped question with
nothing when other documents crowd the ranking)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from fnmatch import fnmatchcase

import numpy as np

from affidavit.errors import InputError
from affidavit.options import Filters
from affidavit.trust import Source

_GLOB = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class DocumentFacts:
    """What a filter reads of a stored document."""

    name: str
    source: str
    trust: float
    date: str | None  # ISO, as stored


@dataclass(frozen=True, slots=True)
class Scope:
    """The documents a call may read (``names``), and the filters that chose them."""

    filters: dict[str, object]
    names: frozenset[str]

    @classmethod
    def resolve(cls, filters: Filters, stored: Sequence[DocumentFacts]) -> Scope:
        """The scope ``filters`` choose among the ``stored`` documents. A name or pattern
        must match at least one document (a typo would otherwise answer from nothing);
        the other filters may leave none, and the question is then refused for want of
        evidence."""
        kept = list(stored)
        said: dict[str, object] = {}
        if filters.documents is not None:
            patterns = _patterns(filters.documents)
            named = _named(patterns, [d.name for d in kept])
            kept = [d for d in kept if d.name in named]
            said["documents"] = list(patterns)
        if filters.source is not None:
            sources = _sources(filters.source)
            kept = [d for d in kept if d.source in sources]
            said["source"] = sorted(sources)
        if filters.min_trust is not None:
            least = _trust(filters.min_trust)
            kept = [d for d in kept if d.trust >= least]
            said["min_trust"] = least
        if filters.since is not None or filters.until is not None:
            since, until = _day(filters.since, "since"), _day(filters.until, "until")
            kept = [d for d in kept if _dated_within(d.date, since, until)]
            said.update({k: v for k, v in (("since", since), ("until", until)) if v})
        return cls(said, frozenset(d.name for d in kept))

    def keeps(self, document: str) -> bool:
        return document in self.names

    def slots(self, document_names: Sequence[str]) -> np.ndarray:
        """One bool per document slot of an index: does the scope take it?"""
        return np.fromiter((n in self.names for n in document_names), bool, len(document_names))

    def rows(self, document_names: Sequence[str], line_documents: np.ndarray) -> np.ndarray:
        """One bool per index row (a line): is its document in the scope?"""
        return self.slots(document_names)[line_documents]

    def to_dict(self) -> dict[str, object]:
        return {**self.filters, "matched": sorted(self.names)}


def _patterns(documents: str | Iterable[str]) -> tuple[str, ...]:
    if not isinstance(documents, str | list | tuple | set | frozenset):
        raise InputError("documents", f"{documents!r} is not a document name", "give names")
    given = (documents,) if isinstance(documents, str) else tuple(documents)
    if not given:
        raise InputError(
            "documents", "the scope names no document", "name one or more, or leave it out"
        )
    for pattern in given:
        if not isinstance(pattern, str) or not pattern.strip():
            raise InputError(
                "documents", f"{pattern!r} is not a document name", "give names or globs"
            )
    return given


def _named(patterns: Sequence[str], names: Sequence[str]) -> set[str]:
    """The stored names each pattern chooses: the name itself, or what the glob matches.
    A pattern with no "/" that chooses nothing so is matched against the last part of each
    name (a folder's documents carry its name: "mpl-2.0.txt" is "licences/mpl-2.0.txt");
    a plain name that so matches two documents is an error naming both."""
    stored = set(names)
    found: set[str] = set()
    for pattern in patterns:
        if pattern in stored:
            found.add(pattern)
            continue
        glob = bool(_GLOB & set(pattern))
        matched = [n for n in names if fnmatchcase(n, pattern)] if glob else []
        if not matched and "/" not in pattern:
            last = [n for n in names if _last_part_matches(n, pattern, glob)]
            if len(last) > 1 and not glob:
                raise InputError(
                    pattern,
                    f"{len(last)} stored documents are called so: {', '.join(sorted(last))}",
                    "give the one meant with its folder",
                )
            matched = last
        if not matched:
            raise InputError(
                pattern,
                f"no document of the store's {len(names)} matches it",
                "Memory.documents() lists the stored names",
            )
        found.update(matched)
    return found


def _last_part_matches(name: str, pattern: str, glob: bool) -> bool:
    last = name.rsplit("/", 1)[-1]
    return fnmatchcase(last, pattern) if glob else last == pattern


def _sources(source: str | Iterable[str]) -> set[str]:
    if not isinstance(source, str | list | tuple | set | frozenset):
        raise InputError("source", f"{source!r} is not a source", "give a source's name")
    given = {source} if isinstance(source, str) else set(source)
    known = {s.value for s in Source}
    unknown = sorted(str(s) for s in given - known)
    if unknown or not given:
        raise InputError(
            "source", f"{', '.join(unknown) or 'none'} is not a source", f"one of {sorted(known)}"
        )
    return given


def _trust(value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise InputError("min_trust", f"{value!r} is not a trust", "give 0 to 1")
    return float(value)


def _day(value: str | None, what: str) -> str | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(str(value).strip()[:10]).isoformat()
    except ValueError:
        raise InputError(what, f"{value!r} is not an ISO day", "write it as YYYY-MM-DD") from None


def _dated_within(when: str | None, since: str | None, until: str | None) -> bool:
    if not when:
        return False
    day = when[:10]
    return (since is None or day >= since) and (until is None or day <= until)
