"""The question, read once at the door: its language, shape, key words and route.

Retrieval, the composer, the engine and the gates all take this one reading instead of
re-analysing the text at each stage, so a question is judged by the words it was routed
by. The asking day rides along as metadata, never as words; the speaker, when given, is
who "I", "me" and "my" mean ("When did I start learning Spanish?" asked by Leo is read as
"When did Leo start learning Spanish?", so Leo's own turns are found and cited). English
only: Spanish and Turkish questions keep their pronouns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from affidavit.question.arithmetic import route
from affidavit.question.routes import Route
from affidavit.question.shape import Shape, read_shape
from affidavit.text.analyzer import Analyzer
from affidavit.text.content import content_terms
from affidavit.text.language import detect_language


@dataclass(frozen=True, slots=True)
class Question:
    text: str  # the question as read: the speaker put for "I" (see the module docstring)
    shape: Shape
    analyzer: Analyzer
    key_terms: frozenset[str]  # what its evidence must carry (see key_terms below)
    route: Route | None  # the computation or look-up it needs, if any
    asked_at: str | None = None
    speaker: str | None = None
    asked: str = ""  # the question as the user wrote it

    @property
    def language(self) -> str:
        return self.shape.language

    @classmethod
    def read(
        cls, text: str, *, asked_at: str | None = None, speaker: str | None = None
    ) -> Question:
        read_as = seated(text, speaker)
        shape = read_shape(read_as)
        analyzer = Analyzer(shape.language)
        return cls(
            read_as,
            shape,
            analyzer,
            key_terms(shape, analyzer),
            route(read_as),
            asked_at,
            speaker,
            text,
        )

    def has_words(self) -> bool:
        return bool(self.analyzer.terms(self.text))


_FIRST_PERSON = (
    (re.compile(r"\b(?:my|mine)\b", re.I), "{}'s"),
    (re.compile(r"\b(?:I|me|myself)\b"), "{}"),
)


def seated(text: str, speaker: str | None) -> str:
    """``text`` with the speaker put for an English question's "I", "me" and "my"."""
    if not speaker or not speaker.strip() or detect_language(text) != "en":
        return text
    for pattern, form in _FIRST_PERSON:
        text = pattern.sub(form.format(speaker.strip()), text)
    return text


def key_terms(shape: Shape, analyzer: Analyzer) -> frozenset[str]:
    """The question's content terms, less the words that decided its shape ("how many"),
    and the numbers it writes ("the 2007 return": a line about 2008's is not about it)."""
    said = " ".join(shape.content_words)
    numbers = (t for t in analyzer.terms(said) if t[0].isdigit())
    return frozenset(content_terms(said, analyzer)) | frozenset(numbers)
