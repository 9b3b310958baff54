"""The trust ladder: how far each kind of source is believed, and the threshold below
which nothing is said as fact."""

from __future__ import annotations

from enum import StrEnum


class Source(StrEnum):
    """Where a line comes from; every stored line and record carries its source's trust."""

    OPERATOR = "operator"  # the person running the system
    DOCUMENT = "document"  # an ingested file, with its citation
    EXTRACTION = "extraction"  # a model's extraction, if the entry gate admits it
    INFERENCE = "inference"  # derived by the memory itself
    STRANGER = "stranger"  # someone nobody has vouched for


TRUST: dict[Source, float] = {
    Source.OPERATOR: 0.75,
    Source.DOCUMENT: 0.60,
    Source.EXTRACTION: 0.50,
    Source.INFERENCE: 0.35,
    Source.STRANGER: 0.30,
}

# Nothing below it is ever said as fact: it can be searched and shown, never cited as an
# answer or as support in a verification.
SPEAKING_THRESHOLD = 0.5
# An ingested document's lines: the trust a line carries unless its source says otherwise.
DOCUMENT_TRUST = TRUST[Source.DOCUMENT]


def trust_of(source: Source | str) -> float:
    return TRUST[Source(source)]
