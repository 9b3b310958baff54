"""The keyword options of the front door's calls, each set written once.

The scope a search, an ask or an audit reads within (``documents``, ``source``,
``min_trust``, ``since``, ``until``) is read at the door into ``Filters``, the one value
every layer below passes on: Memory's calls take the keywords (``ScopeKeywords``), a
batch's question line the same keys, and the CLI's flags give the same value. An ask's
keywords are the scope's and its own (``AskKeywords``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypedDict, cast

from affidavit.errors import InputError

# What an ingest tells of its progress: (done, total, stage or file).
Progress = Callable[[int, int, str], None]


class ScopeKeywords(TypedDict, total=False):
    """The keywords that choose the documents a call reads: see ``Filters``."""

    documents: str | Sequence[str] | None
    source: str | Sequence[str] | None
    min_trust: float | None
    since: str | None
    until: str | None


class AskKeywords(ScopeKeywords, total=False):
    """An ask's keywords: the scope's, and who asks, when, and how sure an answer must be
    (Memory.ask says what each does)."""

    asked_at: str | None
    speaker: str | None
    min_probability: float | None


@dataclass(frozen=True, slots=True)
class Filters:
    """What a call asks to read: ``documents`` (a name or glob, or a list of them),
    ``source`` (one source or several), ``min_trust`` (0 to 1) and the document dates
    ``since`` and ``until`` (ISO days, both ends included; a document with no date is
    outside any date range). Every given filter must hold; none given reads everything."""

    documents: str | Sequence[str] | None = None
    source: str | Sequence[str] | None = None
    min_trust: float | None = None
    since: str | None = None
    until: str | None = None

    @classmethod
    def of(cls, given: Mapping[str, Any]) -> Filters:
        """The filters ``given`` sets (a call's keywords, a question line's keys); its
        other keys are not read here."""
        return cls(**{name: given.get(name) for name in SCOPE_KEYS})

    def is_empty(self) -> bool:
        return all(getattr(self, name) is None for name in SCOPE_KEYS)

    def keywords(self) -> ScopeKeywords:
        """The filters set, as the keywords of a call that takes them."""
        given = {name: getattr(self, name) for name in SCOPE_KEYS}
        return cast(ScopeKeywords, {k: v for k, v in given.items() if v is not None})


# The scope's keys, in the order Filters holds them.
SCOPE_KEYS = tuple(field.name for field in fields(Filters))


def checked(given: Mapping[str, Any], taken: type, call: str) -> None:
    """An InputError for a keyword of ``given`` that the ``call``'s keywords (``taken``, a
    TypedDict) do not hold: a misspelt filter must not read the whole store."""
    known = taken.__required_keys__ | taken.__optional_keys__  # type: ignore[attr-defined]
    unknown = sorted(set(given) - known)
    if unknown:
        raise InputError(
            unknown[0],
            f"{call}() takes no keyword {unknown[0]!r}",
            f"its keywords: {', '.join(sorted(known))}",
        )
