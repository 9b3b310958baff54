"""Clause frames: what a sentence says, as who does what to whom, under which modality,
polarity, quantity, conditions, exceptions, time bounds and anchors (frames/read.py), with
a document's defined terms (frames/terms.py). Pure: text in, frames out."""

from affidavit.frames.anchors import Anchor, anchors_in
from affidavit.frames.model import Argument, Bound, Frame, Modality, Quantity, Role
from affidavit.frames.terms import NO_TERMS, DefinedTerms, defined_terms, with_terms


def content_lemmas(text: str) -> frozenset[str]:
    """The lemmas of ``text``'s content words (frames/read.py), imported on first use."""
    from affidavit.frames.read import content_lemmas as lemmas

    return lemmas(text)


def read_frames(text: str, terms: DefinedTerms = NO_TERMS) -> tuple[Frame, ...]:
    """The clause frames ``text`` says (frames/read.py). Imported on first use: the parse
    loads spaCy, which a question's anchors and a document's terms do not need."""
    from affidavit.frames.read import read_frames as read

    return read(text, terms)


__all__ = [
    "NO_TERMS",
    "Anchor",
    "Argument",
    "Bound",
    "DefinedTerms",
    "Frame",
    "Modality",
    "Quantity",
    "Role",
    "anchors_in",
    "content_lemmas",
    "defined_terms",
    "read_frames",
    "with_terms",
]
