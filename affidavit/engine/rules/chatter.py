"""What a conversation's lines say that is never an answer: talk that carries no fact, and
the library's own words around a turn."""

from __future__ import annotations

import re
from collections.abc import Collection

from affidavit.results import Evidence, LineKind
from affidavit.text import fold, spoken_words

_INTERJECTIONS = frozenset(
    "hey hi hello thanks thank you congrats congratulations wow yep yeah yes sure definitely "
    "no problem ok okay oh aw awesome great cool totally absolutely haha lol omg glad nice "
    "dear man buddy pal woohoo woo yay whoa hooray phew".split()
)
# "a great time", "an awesome trip", "some great news", "a lot": praise of something
# unnamed says no fact, whatever it answers.
_EMPTY_PRAISE = frozenset(
    "a an the some so such very really much many great awesome amazing cool fun nice good "
    "wonderful fantastic incredible special huge big little real best lovely sweet crazy "
    "dope time times day days trip thing things news company people idea experience stuff "
    "way lot lots bit joy one ones story stories project projects moment moments place "
    "memories feeling feelings".split()
)
# A phrase that opens on one of these greets or thanks its listener ("Hey Deb, great to
# hear from you", "Thanks so much for offering"): talk, whatever follows.
_GREETINGS = frozenset("hey hi hello thanks thank congrats congratulations".split())
_WRAPPER = re.compile(r"^\[[^\]:]*shared an image:\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def asserted(text: str) -> str:
    """What a turn asserts: its sentences that are not questions, in order.

    A turn that ends on a question to its listener ("Spider-Man has always been a
    favorite of mine. Do you have a favorite?") still says what came before it; a turn
    that only asks says nothing ("").
    """
    kept = [s for s in _SENTENCE_END.split(text.strip()) if not s.rstrip().endswith("?")]
    return " ".join(kept)


def is_chatter(text: str, line: Evidence, speakers: Collection[str], *, who: bool) -> bool:
    """``text``, proposed from ``line``, is talk or the library's own words, not a fact.

    Talk is greetings and thanks ("Hey Nate", "Thanks, Joanna", "Congrats, John") and a
    name said to its listener ("Definitely, Nate"); the library's words are the speaker's
    name before a turn ("Jon:") and the "[Jolene shared an image: ...]" around a caption.
    A span made of these answers nothing, whatever the question, so the engine never
    proposes it. ``speakers`` are the conversation's speakers (lower-cased); ``who`` says
    the question asks for a person, whose answer may be a speaker's bare name.
    """
    if line.speaker is None or text == line.text:
        return False
    words = [fold(w) for w in spoken_words(text)]
    if who and 0 < len(words) <= 2 and " ".join(words) in speakers:
        return False  # a speaker's name answers "who", wherever the line writes it
    at = line.text.find(text)
    if line.kind == LineKind.CAPTION:
        wrapper = _WRAPPER.match(line.text)
        if wrapper and 0 <= at < wrapper.end():
            return True  # "an image", "Jolene shared an image": the library's words
    if at > 1 and line.text[at - 1] in "'’" and line.text[at - 2].isalpha():
        return True  # "s great, Joanna": a slice cut out of "That's great"
    prefix = f"{line.speaker}:"
    if line.text.startswith(prefix) and 0 <= at < len(prefix):
        return True  # the speaker's name before the turn is the library's, not theirs
    if not words or all(w in _EMPTY_PRAISE for w in words) or words[0] in _GREETINGS:
        return True
    return all(w in _INTERJECTIONS or _names_a_speaker(w, speakers) for w in words)


def _names_a_speaker(word: str, speakers: Collection[str]) -> bool:
    """``word`` is a speaker's name or its short form ("Jo" for Joanna, "Deb")."""
    return any(word == s or (len(word) >= 2 and s.startswith(word)) for s in speakers)
