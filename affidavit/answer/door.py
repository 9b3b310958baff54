"""The first stage: the question read once, at the door (its language, its reading in the
store's language when asked in another, its shape and what it asks for), or the sentence to
verify read as the statement it makes."""

from __future__ import annotations

from dataclasses import replace

from affidavit.answer.state import Asking, Flow, Said
from affidavit.gates import makes_a_claim
from affidavit.question import Question
from affidavit.reasons import Reason
from affidavit.results import SentenceVerdict, Status
from affidavit.text import (
    VOCABULARIES,
    content_terms,
    detect_language,
    statement_asked,
    words,
    written_numbers,
)

# A bare "yes" or "no" in any of the languages (text/lang).
_YES = frozenset().union(*(vocabulary.yes for vocabulary in VOCABULARIES.values()))
_NO = frozenset().union(*(vocabulary.no for vocabulary in VOCABULARIES.values()))


def read(state: Asking) -> Asking:
    """Read the question (ask) or the sentence (verify)."""
    return read_question(state) if state.flow is Flow.ASK else read_sentence(state)


def read_question(state: Asking) -> Asking:
    """The question as read: asked in Spanish or Turkish of English lines, it is read in
    English through the labels, and from here on asked as an English question is."""
    archive = state.archive
    if archive.size == 0:
        return state.saying(Said.refusal(Reason.EMPTY_STORE))
    language = detect_language(state.text, default=archive.main_language)
    crossed = archive.across_languages(state.text, language, state.scope)
    reading = crossed.read_as if crossed is not None else state.text
    asked = Question.read(
        state.text,
        asked_at=state.asked_at,
        speaker=state.speaker,
        language=language,
        read_in=(crossed.language, crossed.read_as, crossed.to_dict()) if crossed else None,
    )
    state = replace(state, question=asked, language=asked.language).noting(
        shape=asked.shape.to_dict(),
        read_in=crossed.to_dict() if crossed is not None else None,
        read_as=asked.text if asked.text != reading else None,  # "I" read as the speaker
    )
    if not asked.has_words():
        return state.saying(Said.refusal(Reason.EMPTY_QUESTION))
    return state


def read_for_verify(
    text: str, question: str | None, main_language: str
) -> tuple[str, Question | None]:
    """The door of ``verify``: the language a text (and its question) is read in, the
    store's when neither shows one, and its question read as ``ask`` reads one (its key
    words: one gate, one setting)."""
    language = detect_language(
        text if not question else f"{question} {text}", default=main_language
    )
    return language, Question.read(question, language=language) if question else None


def read_sentence(state: Asking) -> Asking:
    """The statement a sentence makes, or its verdict when it makes none. With no question,
    a Spanish or Turkish sentence over English lines is checked as its English reading, as
    ``ask`` reads a question. A bare "yes" asserts the question's own statement; a bare
    "no" asserts an absence no line can attest (unverifiable), as does a sentence with no
    content word or number; a sentence that states nothing makes no claim."""
    archive = state.archive
    if state.question_text is None:
        language = detect_language(state.text, default=archive.main_language)
        crossed = archive.across_languages(state.text, language, state.scope)
        if crossed is not None:
            state = replace(
                state,
                checked=crossed.read_as.rstrip("?") + ".",
                language=archive.main_language,
                read_in=crossed.to_dict(),
            )
    sentence, analyzer, question = state.checked, state.analyzer, state.question_text
    said = set(words(sentence, analyzer.language))
    if said and said <= _YES | _NO:
        if question and not said & _NO:
            # "yes" asserts the statement the question asks about ("Is a fee charged?":
            # "A fee is charged."), judged as that statement given alone, so its clause
            # frames are read against the lines' ("No fee is charged."); the question as
            # written where the parse does not show its statement.
            statement = statement_asked(question, analyzer.language)
            if statement is None:
                return replace(state, checked=question)
            return replace(state, checked=statement, question=None, question_text=None)
        return _dropped(state, Reason.UNVERIFIABLE)
    if not content_terms(sentence, analyzer) and not written_numbers(sentence):
        return _dropped(state, Reason.UNVERIFIABLE)
    if question is None and not makes_a_claim(sentence):
        return _dropped(state, Reason.NO_CLAIM)
    return state


def _dropped(state: Asking, reason: Reason) -> Asking:
    verdict = SentenceVerdict(text=state.text, status=Status.DROPPED, reason=reason.value)
    return replace(state, verdict=verdict)
