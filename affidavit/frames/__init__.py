"""Clause frames: what a sentence says, as who does what to whom, under which modality,
polarity, quantity, conditions, exceptions, time bounds and anchors (frames/read.py), with
a document's defined terms (frames/terms.py). Pure: text in, frames out."""

from typing import TYPE_CHECKING

from affidavit.frames.anchors import Anchor, anchors_in
from affidavit.frames.codec import FRAMES_VERSION, frames_from_text, frames_to_text
from affidavit.frames.model import Argument, Bound, Frame, Modality, Quantity, Role
from affidavit.frames.terms import NO_TERMS, DefinedTerms, defined_terms, with_terms
from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.frames.lexicon import PRONOUNS, entails, opposite, same


def content_lemmas(text: str) -> frozenset[str]:
    """The lemmas of ``text``'s content words (frames/read.py), imported on first use."""
    from affidavit.frames.read import content_lemmas as lemmas

    return lemmas(text)


def comparison_of(text: str) -> str:
    """How the number ``text`` names compares ("more than 2 metres": "gt"; "" for a number
    alone or none), as a frame reads it (frames/read.py), imported on first use."""
    from affidavit.frames.read import comparison_of as comparison

    return comparison(text)


def read_frames(text: str, terms: DefinedTerms = NO_TERMS) -> tuple[Frame, ...]:
    """The clause frames ``text`` says (frames/read.py). Imported on first use: the parse
    loads spaCy, which a question's anchors and a document's terms do not need."""
    from affidavit.frames.read import read_frames as read

    return read(text, terms)


__all__ = [
    "FRAMES_VERSION",
    "NO_TERMS",
    "PRONOUNS",
    "Anchor",
    "Argument",
    "Bound",
    "DefinedTerms",
    "Frame",
    "Modality",
    "Quantity",
    "Role",
    "anchors_in",
    "comparison_of",
    "content_lemmas",
    "defined_terms",
    "entails",
    "frames_from_text",
    "frames_to_text",
    "opposite",
    "read_frames",
    "same",
    "with_terms",
]

# The word relations are read on first use: their stemmer's word lists load spaCy.
_HOMES = {"lexicon": "PRONOUNS entails opposite same"}
if not TYPE_CHECKING:
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
