"""The question, read once at the door: every stage (retrieval, the engine, the plans, the
gates, the census) takes this reading instead of the text, so no stage detects the
question's language again or cuts its words again."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from affidavit.frames import anchors_in
from affidavit.question.arithmetic import route
from affidavit.question.asking import (
    definition_asked,
    naming_words,
    negative_asked,
    past_asked,
    quoted_asked,
    rule_asked,
    value_asked,
    without_words,
)
from affidavit.question.routes import Route
from affidavit.question.shape import Shape, read_shape
from affidavit.question.typed_lines import holds_answer
from affidavit.text import (
    YEAR_WORD,
    Analyzer,
    Reading,
    Wording,
    analyzer_for,
    content_terms,
    dates_in,
    detect_language,
    read_for_search,
)


@dataclass(frozen=True, kw_only=True)
class Question:
    """A question as read: its language, shape, terms, key terms and route, with the day
    it is asked on (metadata, never words) and who asks it.

    The speaker, when given, is who "I", "me" and "my" mean: "When did I start learning
    Spanish?" asked by Leo is read as "When did Leo start learning Spanish?", so Leo's own
    turns are found and cited (English only: Spanish and Turkish keep their pronouns).
    Readings only some stages need (the words a document may write for the question's,
    the years and dates it names, how a line's type is graded) are read on first use, once.
    """

    asked: str  # the question as the user wrote it
    text: str  # the question as read: the speaker put for "I", another language's in English
    language: str  # the language it is read in
    shape: Shape
    key_terms: frozenset[str]  # what its evidence must carry (see key_terms below)
    route: Route | None  # the computation or look-up it needs, if any
    asked_at: str | None = None
    speaker: str | None = None
    # Asked in another language than the store's and read in the store's: the language it
    # was asked in, and how each of its words was read (records/gloss.py); None otherwise.
    asked_in: str | None = None
    gloss: Mapping[str, object] | None = None
    # What it asks for, read once from its words (question/asking.py).
    definition: tuple[str, ...] = ()  # the quoted terms it asks the meaning of
    quoted: frozenset[str] = frozenset()  # every term it quotes, lower-cased
    rule: bool = False  # what a rule requires, permits or forbids
    value: bool = False  # a value it names ("Which UID range…", "What fee…")
    past: bool = False  # what was, not what is now
    negative: bool = False  # what is not so, or not allowed ("What may not be used…")
    naming: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())  # title, acronyms
    anchors: tuple[str, ...] = ()  # "project a", "section 5(b)": what it asks of, exactly
    analyzer: Analyzer = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "analyzer", analyzer_for(self.language))

    @classmethod
    def read(
        cls,
        text: str,
        *,
        asked_at: str | None = None,
        speaker: str | None = None,
        language: str | None = None,
        default_language: str = "en",
        read_in: tuple[str, str, Mapping[str, object]] | None = None,
    ) -> Question:
        """Read ``text`` once. Its language is ``language`` when given, else detected
        (``default_language`` when the question shows none: the store's own). ``read_in``
        is a question of another language read in the store's: (the language it was asked
        in, the reading, how each word was read); the question is read as its reading."""
        if read_in is not None:
            asked_in, reading, gloss = read_in
            language = None  # the reading's own: the store's
        else:
            asked_in, reading, gloss = None, text, None
        language = language or detect_language(reading, default=default_language)
        read_as = seated(reading, speaker, language)
        shape = read_shape(read_as, language)
        analyzer = analyzer_for(shape.language)
        return cls(
            asked=text,
            text=read_as,
            language=shape.language,
            shape=shape,
            key_terms=key_terms(shape, analyzer),
            route=route(read_as),
            asked_at=asked_at,
            speaker=speaker,
            asked_in=asked_in,
            gloss=gloss,
            definition=definition_asked(read_as),
            quoted=quoted_asked(read_as),
            rule=rule_asked(read_as),
            value=value_asked(read_as),
            past=past_asked(read_as),
            negative=negative_asked(read_as, shape.language),
            naming=naming_words(read_as, analyzer),
            anchors=tuple(a.key for a in anchors_in(read_as)),
        )

    def without(self, terms: frozenset[str]) -> str:
        """The question as read, without the words whose terms are ``terms`` (the words
        that name the one document it is asked of)."""
        return without_words(self.text, terms, self.analyzer)

    def has_words(self) -> bool:
        return bool(self.terms)

    @cached_property
    def reading(self) -> Reading:
        """The question as the index searches it: its terms, and with them the words a
        document may write for its words ("cat" for "catalog", "due" for a deadline)."""
        return read_for_search(self.text, self.language)

    @property
    def terms(self) -> tuple[str, ...]:
        """The question's index terms, in order."""
        return self.reading.terms

    @property
    def short_forms(self) -> tuple[str, ...]:
        """Words a document may write for the question's."""
        return self.reading.short_forms

    @cached_property
    def years(self) -> frozenset[str]:
        """The years the question names, as written."""
        return frozenset(YEAR_WORD.findall(self.text))

    @cached_property
    def dated(self) -> bool:
        """Does the question name a year or a date (a figure "in" a year, "as at" a date)?"""
        return bool(self.years or dates_in(self.text))

    @cached_property
    def wording(self) -> Wording:
        """The question's words for its terms, as it wrote them: what a message names of
        them ('harness', not 'har')."""
        return Wording.of(self.text, self.analyzer)

    @cached_property
    def holds_answer(self) -> Callable[[str], int] | None:
        """How well a line can hold this question's answer (0 best), or None when its
        type has no shape to look for."""
        return holds_answer(self.shape.answer_type, self.text)


_FIRST_PERSON = (
    (re.compile(r"\b(?:my|mine)\b", re.I), "{}'s"),
    (re.compile(r"\b(?:I|me|myself)\b"), "{}"),
)


def seated(text: str, speaker: str | None, language: str) -> str:
    """``text`` with the speaker put for an English question's "I", "me" and "my"."""
    if not speaker or not speaker.strip() or language != "en":
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
