"""The entry gate: what may become a stored line or record, and at what trust."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar

from affidavit.errors import IngestError
from affidavit.trust import SPEAKING_THRESHOLD, Source, trust_of


class Vouched(Protocol):
    """A document on its way into the store, with the source that vouches for it."""

    @property
    def name(self) -> str: ...
    @property
    def path(self) -> str | None: ...
    @property
    def source(self) -> str: ...
    @property
    def trust(self) -> float: ...


_Document = TypeVar("_Document", bound=Vouched)

# Sources a caller may name when ingesting text. Sources a caller cannot choose (a model's
# extraction, the memory's own inference) are refused here; they enter only through the
# gates that produce them.
INGESTIBLE = (Source.OPERATOR, Source.DOCUMENT, Source.STRANGER)


@dataclass(frozen=True, slots=True, kw_only=True)
class Admission:
    source: Source
    trust: float
    citable: bool  # may its lines be said as fact?


def admit(
    source: str, *, name: str | None = None, threshold: float = SPEAKING_THRESHOLD
) -> Admission:
    """Admit text from ``source`` (operator, document or stranger), or refuse it.

    A document's lines enter at the trust of the source that vouches for them. Text from
    an unvouched source (a stranger) is kept, so it can be searched and shown, but at a
    trust below the speaking threshold: it can never be cited as fact.
    """
    try:
        kind = Source(source)
    except ValueError:
        kind = None
    if kind not in INGESTIBLE:
        allowed = ", ".join(s.value for s in INGESTIBLE)
        raise IngestError(name, f"unknown source {source!r}", f"use one of: {allowed}")
    assert kind is not None
    trust = trust_of(kind)
    return Admission(source=kind, trust=trust, citable=trust >= threshold)


def refused_downgrades(
    documents: Iterable[_Document],
    stored_source: Callable[[str], tuple[str, float] | None],
) -> Iterator[_Document]:
    """The documents, each checked as it passes: an IngestError for the first that would
    replace a stored one of higher trust. A name is bound to its source, or a stranger's
    text under a document's name would become that document's evidence, with its trust."""
    for document in documents:
        stored = stored_source(document.name)
        if stored is not None and document.trust < stored[1]:
            raise IngestError(
                document.path or document.name,
                f"would replace {document.name!r}, ingested as {stored[0]} (trust "
                f"{stored[1]:g}), with {document.source} text (trust {document.trust:g})",
                "pass replace_trusted=True if that is meant, or ingest it under another name",
            )
        yield document
