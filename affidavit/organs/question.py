"""The question, read once at the door: its language, shape, key words and route.

Retrieval, the composer, the engine and the gates all take this one reading instead of
re-analysing the text at each stage, so a question is judged by the words it was routed
by. The asking day and the speaker ride along as metadata, never as words.
"""

from __future__ import annotations

from dataclasses import dataclass

from affidavit.gates.content import content_terms
from affidavit.index.text import Analyzer
from affidavit.organs.arithmetic import route
from affidavit.organs.routes import Route
from affidavit.organs.shape import Shape, read_shape


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    shape: Shape
    analyzer: Analyzer
    key_terms: frozenset[str]  # what its evidence must carry (see key_terms below)
    route: Route | None  # the computation or look-up it needs, if any
    asked_at: str | None = None
    speaker: str | None = None

    @property
    def language(self) -> str:
        return self.shape.language

    @classmethod
    def read(
        cls, text: str, *, asked_at: str | None = None, speaker: str | None = None
    ) -> Question:
        shape = read_shape(text)
        analyzer = Analyzer(shape.language)
        return cls(
            text, shape, analyzer, key_terms(shape, analyzer), route(text), asked_at, speaker
        )

    def has_words(self) -> bool:
        return bool(self.analyzer.terms(self.text))


def key_terms(shape: Shape, analyzer: Analyzer) -> frozenset[str]:
    """The question's content terms, less the words that decided its shape ("how many"),
    and the numbers it writes ("the 2007 return": a line about 2008's is not about it)."""
    said = " ".join(shape.content_words)
    numbers = (t for t in analyzer.terms(said) if t[0].isdigit())
    return frozenset(content_terms(said, analyzer)) | frozenset(numbers)
