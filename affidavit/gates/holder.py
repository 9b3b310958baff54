"""Whose it is: in a conversation, a claim about a speaker rests on that speaker's lines."""

from __future__ import annotations

import re
from collections.abc import Sequence

from affidavit.gates.decision import Gate, GateDecision
from affidavit.reasons import Reason
from affidavit.results import Evidence, Line, LineKind
from affidavit.text import Analyzer, fold

_SECOND_PERSON = re.compile(r"\b(?:you|your|yours|yourself|you're|you've|you'd|you'll)\b", re.I)
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|our|ours|us)\b", re.I
)
_SENTENCES = re.compile(r"[^.!?]+[.!?]*")


def holder_decision(
    question_terms: frozenset[str],
    supporting: Sequence[Evidence],
    subset: Sequence[Evidence],
    analyzer: Analyzer,
    said: str = "",
) -> GateDecision | None:
    """A failed decision when a speaker the question names holds none of the supporting
    lines; None when the question names no speaker or every one is a holder. ``said`` is
    the answer, whose sentence in a turn says whom the turn speaks of.

    "What is the name of Leo's puppy?" is not answered by Maya's "I adopted a puppy …
    Biscuit": the words are all in the conversation, but the puppy is Maya's. A supporting
    line must be the named person's own turn, or a line that writes their name in its
    words (not only as the name of who is speaking), so the gate checks the holder and not
    just the words.
    """
    speakers = {line.speaker for line in subset if line.speaker}
    named = sorted(
        speaker
        for speaker in speakers
        if (terms := set(analyzer.terms(speaker))) and terms <= question_terms
    )
    for speaker in named:
        if not any(_held(line, speaker, named, speakers, said, analyzer) for line in supporting):
            return GateDecision(
                gate=Gate.HOLDER,
                passed=False,
                reason=Reason.HOLDER.value,
                detail=f"no supporting line is {speaker}'s own or says it of {speaker}",
            )
    return None


def _held(
    line: Evidence,
    speaker: str,
    named: Sequence[str],
    speakers: set[str],
    said: str,
    analyzer: Analyzer,
) -> bool:
    """Whether ``line`` holds the answer ``said`` for ``speaker``: as their own turn or
    their name in its words, unless the answer's sentence speaks of the turn's
    listener; then only the listener holds it."""
    if line.kind != LineKind.TURN or not line.speaker or not _of_listener(line.text, said):
        return _holds(line, speaker, named, analyzer)
    others = speakers - {line.speaker}
    return len(others) == 1 and speaker in others


def holds_for(
    line: Line,
    speaker: str,
    speakers: set[str],
    key_terms: frozenset[str],
    analyzer: Analyzer,
) -> bool:
    """Whether ``line`` tells a fact of ``speaker`` (of ``speakers``, its session's) where
    it says the question's ``key_terms``: as their own turn, or their name in its words,
    unless the sentences saying those terms are said to the turn's listener; then only
    the listener holds it (the one other speaker of a two-person session)."""
    if line.kind == LineKind.TURN and line.speaker:
        words = line.text.removeprefix(f"{line.speaker}:")
        sentences = [m.group() for m in _SENTENCES.finditer(words) if m.group().strip()]
        saying = [s for s in sentences if set(analyzer.terms(s)) & key_terms] or sentences
        if saying and all(_said_to_listener(s) for s in saying):
            others = speakers - {line.speaker}
            return len(others) == 1 and speaker in others
    return _holds(line, speaker, [speaker], analyzer)


def replies_to(line: Line, before: Line) -> bool:
    """``line`` is a turn answering the question another speaker's turn ``before`` asks
    ("Got any favorite flavors?" - "Chocolate and mixed berry!"): what it is about."""
    return (
        line.kind == LineKind.TURN
        and before.kind == LineKind.TURN
        and before.speaker != line.speaker
        and before.text.rstrip().endswith("?")
    )


def _said_to_listener(sentence: str) -> bool:
    """A sentence that says "you" or "your" and never "I", "my" or "we" speaks of its
    listener: Joanna's "Wow, your new hair color looks amazing!" is a fact of Nate's hair,
    not hers. The listener is the one other speaker of a two-person session; with more
    speakers the listener is not known and nobody holds it."""
    return bool(_SECOND_PERSON.search(sentence)) and not _FIRST_PERSON.search(sentence)


def _of_listener(text: str, said: str) -> bool:
    """Every sentence of the turn ``text`` that ``said`` overlaps says "you" and not "I"."""
    at = fold(text).find(fold(said)) if said else -1
    if at < 0:
        return False
    sentences = [
        m.group() for m in _SENTENCES.finditer(text) if m.start() < at + len(said) and at < m.end()
    ]
    return bool(sentences) and all(_said_to_listener(s) for s in sentences)


def _holds(line: Line, speaker: str, named: Sequence[str], analyzer: Analyzer) -> bool:
    """The line is ``speaker``'s own, or writes their name in its words. A name said to
    its listener ("Yep, Deborah! It's about ...") tells what the line's own speaker says,
    not a fact of the listener's — unless that speaker is named by the question too
    ("What did Nate do for Joanna?", Nate's "Congrats Joanna! I got you ...")."""
    if line.speaker == speaker:
        return True
    words = line.text
    if line.speaker and words.startswith(f"{line.speaker}:"):
        words = words[len(line.speaker) + 1 :]
    if not set(analyzer.terms(speaker)) <= set(analyzer.terms(words)):
        return False
    return line.speaker in named or not _only_addressed(words, speaker)


def _only_addressed(words: str, name: str) -> bool:
    """Every time ``words`` write ``name`` it is said to them: after a greeting or a
    comma, or before a comma or the end of a sentence."""
    vocative = re.compile(
        rf"(?:\b(?:hey|hi|hello|thanks|thank you|congrats|congratulations|yo)|,)\s*"
        rf"{re.escape(name)}\b|\b{re.escape(name)}\s*(?=[,!?.]|$)",
        re.I,
    )
    said = len(re.findall(rf"\b{re.escape(name)}\b", words, re.I))
    return said > 0 and len(vocative.findall(words)) >= said
