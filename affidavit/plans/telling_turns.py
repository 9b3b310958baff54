"""Which dialogue turns tell of an event a question names."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from affidavit.results import Evidence
from affidavit.text import Analyzer, column_date, fold, when_told, words

_LIGHT_VERBS = ("have", "go", "get", "do", "make", "take", "be")
_UNSEEN = 100.0  # above any word's rarity in a store (Lucene IDF stays below ~20)


def turns_telling(
    phrase: str,
    lines: Sequence[Evidence],
    analyzer: Analyzer,
    rarity: Callable[[str], float] | None = None,
) -> list[Evidence]:
    """The turns among ``lines`` that tell of ``phrase``'s event, best first: fewest words
    missing, then (with ``rarity``, a term's weight in the store) the least telling words
    missing — a turn without "receive" tells "receive a medal" better than one without
    "medal" — then the first said.

    A turn tells of the event when it carries the event's words (its content words, with
    stop words and the light verbs every event sentence bends, "have", "go", "get", "do",
    "make", "take", left out) and when the person the question names is the one telling
    it (the turn is theirs) or is named in it: "When did Joanna have an audition for a
    writing gig?" is told by "Joanna: ... had an audition yesterday for a writing gig."
    """
    # In the order they were said: by day, then session and turn ("session-16" is not
    # before "session-2" because its name sorts first).
    turns = sorted(
        (line for line in lines if line.speaker and line.date),
        key=lambda line: (line.date or "", _session_number(line.document), line.position),
    )
    if not turns:
        return []
    speakers = {fold(line.speaker) for line in turns if line.speaker}
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
    # A phrase of four content words or more may miss one: people retell events in their
    # own words.
    slack = 1 if len(wanted) >= 4 else 0
    ranked: list[tuple[int, float, int, Evidence]] = []
    asked_before = _questions_before(turns)
    for order, line in enumerate(turns):
        said = words(line.text, analyzer.language)
        if people and not _holder(line, said, people):
            continue
        have = {analyzer.term(t) for t in said}
        # An answer continues the question put to it: "How is Biscuit doing?" — "Great,
        # we went hiking two days ago." tells of Biscuit's hike.
        question = asked_before.get((line.document, line.position))
        if question is not None:
            have |= {analyzer.term(t) for t in words(question.text, analyzer.language)}
        missing = wanted - have
        # A turn that writes its own time may tell the event in more of its own words:
        # half the event's words may be missing, the rarest of them not. (The time is
        # looked for last, and only when the words alone do not admit the turn.)
        if len(missing) <= slack or (
            len(missing) <= len(wanted) // 2
            and _keeps_rarest(wanted, missing, rarity)
            and when_told(line.text, line.date or "", fast=True) is not None
        ):
            lost = sum(_weight(term, rarity) for term in missing)
            ranked.append((len(missing), lost, order, line))
    ranked.sort(key=lambda r: r[:3])
    return [r[3] for r in ranked]


def _keeps_rarest(
    wanted: set[str], missing: set[str], rarity: Callable[[str], float] | None
) -> bool:
    if rarity is None:
        return False
    rarest = max(sorted(wanted), key=lambda term: _weight(term, rarity))
    return rarest not in missing


def _weight(term: str, rarity: Callable[[str], float] | None) -> float:
    """A missing word's cost: its rarity; a word the store never writes costs most."""
    if rarity is None:
        return 1.0
    return rarity(term) or _UNSEEN


def _questions_before(turns: Sequence[Evidence]) -> dict[tuple[str, int], Evidence]:
    """For each turn, the turn just before it when that one asks a question."""
    at = {(t.document, t.position): t for t in turns}
    return {
        (t.document, t.position): before
        for t in turns
        if (before := at.get((t.document, t.position - 1))) is not None
        and before.text.rstrip().endswith("?")
        and before.speaker != t.speaker
    }


def _session_number(document: str) -> int:
    tail = document.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _holder(line: Evidence, said: Sequence[str], people: set[str]) -> bool:
    """The event is told by one of the people the question names, or of them by name."""
    speaker = fold(line.speaker or "")
    if speaker in people:
        return True
    # The turn's own "Name:" prefix names its speaker, not the one it speaks of.
    named = set(said[1:]) if said and said[0] == speaker else set(said)
    return bool(people & named)


def day_told(line: Evidence, phrase: str, *, stamp: bool) -> tuple[str, str]:
    """The time ``line`` tells ``phrase``'s event happened, and the words it was read from:
    a date the line writes; else, for a turn, its relative time ("yesterday") read against
    the day it was said, nearest the event's words; else, with ``stamp``, the turn's own
    day (the words empty). ("", "") when it tells no time."""
    day = column_date(line.text)
    if day or line.date is None:
        return day, ""
    # The time nearest the event's words, the teller's own name aside.
    near = [w for w in phrase.split() if fold(w) != fold(line.speaker or "")]
    when = when_told(line.text, line.date, near=near)
    if when is not None:
        return when.day, when.words
    return (line.date[:10], "") if stamp else ("", "")
