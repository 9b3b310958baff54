"""Which dialogue turns tell of an event a question names.

A question asks "When did Joanna have an audition for a writing gig?"; the turn says
"Joanna: ... had an audition yesterday for a writing gig." A turn tells of the event when
it carries the event's words — its content words, with stop words and the light verbs every
event sentence bends ("have", "go", "get", "do", "make", "take") left out — and when the
person the question names is the one telling it (the turn is theirs) or is named in it.
A phrase of four content words or more may miss one: people retell events in their own
words. Turns are ranked by the words they miss, then kept in the order they were said, so
the first telling of an event comes first.
"""

from __future__ import annotations

from collections.abc import Sequence

from affidavit.index.text import Analyzer, words
from affidavit.results import Evidence

_LIGHT_VERBS = ("have", "go", "get", "do", "make", "take", "be")


def turns_telling(phrase: str, lines: Sequence[Evidence], analyzer: Analyzer) -> list[Evidence]:
    """The turns among ``lines`` that tell of ``phrase``'s event, best first."""
    # In the order they were said: by day, then session and turn ("session-16" is not
    # before "session-2" because its name sorts first).
    turns = sorted(
        (line for line in lines if line.speaker and line.date),
        key=lambda line: (line.date or "", _session_number(line.document), line.position),
    )
    if not turns:
        return []
    speakers = {line.speaker.lower() for line in turns if line.speaker}
    tokens = words(phrase, analyzer.language)
    people = {t for t in tokens if t in speakers}
    light = {analyzer.term(v) for v in _LIGHT_VERBS}
    wanted = {
        term
        for t in tokens
        if t not in people and (term := analyzer.term(t)) is not None and term not in light
    }
    if not wanted:
        return []
    slack = 1 if len(wanted) >= 4 else 0
    ranked: list[tuple[int, int, Evidence]] = []
    for order, line in enumerate(turns):
        said = words(line.text, analyzer.language)
        if people and not _holder(line, said, people):
            continue
        have = {analyzer.term(t) for t in said}
        missing = len(wanted - have)
        if missing <= slack:
            ranked.append((missing, order, line))
    ranked.sort(key=lambda r: (r[0], r[1]))
    return [line for _, _, line in ranked]


def _session_number(document: str) -> int:
    tail = document.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _holder(line: Evidence, said: Sequence[str], people: set[str]) -> bool:
    """The event is told by one of the people the question names, or of them by name."""
    speaker = (line.speaker or "").lower()
    if speaker in people:
        return True
    # The turn's own "Name:" prefix names its speaker, not the one it speaks of.
    named = set(said[1:]) if said and said[0] == speaker else set(said)
    return bool(people & named)
