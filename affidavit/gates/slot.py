"""The slot judge: an answer fills the open slot of the clause its line says about what the
question asks, not the same slot of a clause beside it. Asked "What is the maximum fine?",
the line "The minimum fine is $250 and the maximum fine is $1,000." says two clauses of
one shape; "$250" fills the first, whose subject is the minimum fine, while the second
says the question's "maximum" and "fine" both and holds a figure of its own in that place.
The answer is refused so the next candidate (the figure of the matching clause) may
answer.

The rule is read from the clause frames (frames/read.py), and it refuses only where the
line itself offers the better clause of the same act: one whose predicate and polarity are
the answer clause's, asserted, that says every question word the answer's clause says (at
least one) and more, and holds a filler of its own in the answer's role (a figure where
the answer is one). A clause of another act ("began in October 1973" beside "proclaimed
an embargo"), one said not so, or one that holds the answer itself (as a time bound or a
condition) is no rival."""

from __future__ import annotations

from functools import lru_cache

from affidavit.frames import Argument, Frame, content_lemmas, read_frames, same
from affidavit.gates.case import Case, Judgement
from affidavit.gates.decision import Gate, GateDecision
from affidavit.gates.entailment import FRAME_LANGUAGES
from affidavit.reasons import Reason
from affidavit.text import LONGEST_PARSED, words


def fills_the_asked_slot(case: Case, found: Judgement) -> GateDecision | None:
    """An ``ask`` candidate fills the slot of the clause of its line that says the most of
    the question. None where some cited line's clause holding the answer has no better
    rival, where no clause holds the answer as a whole phrase, for a quoted line, or a
    language without clause frames."""
    asked = case.question
    if asked is None or not case.cites or case.alone or asked.language not in FRAME_LANGUAGES:
        return None
    answer = case.text.strip()
    wanted = content_lemmas(asked.text)
    if not answer or not wanted:
        return None
    refused: tuple[Frame, Frame, Argument] | None = None
    for at in case.cites:
        text = case.texts[at]
        if answer not in text or len(text) > LONGEST_PARSED:
            continue
        frames = _frames(text) if case.line_frames is None else case.line_frames[at]
        rivalled = _rivalled(answer, frames, wanted)
        if rivalled is None:
            return None  # this line's clause holding the answer says what is asked
        refused = refused or rivalled
    if refused is None:
        return None
    holding, rival, filler = refused
    asked_beside = wanted - _own_words(answer)
    more = sorted(_said_of(rival, asked_beside) - _said_of(holding, asked_beside))
    return GateDecision(
        gate=Gate.SLOT,
        passed=False,
        reason=Reason.NOT_AN_ANSWER.value,
        detail=(
            f"{answer!r} is said of {_rest(holding, answer)!r}; the question's "
            f"{', '.join(repr(w) for w in more)} {'is' if len(more) == 1 else 'are'} said of "
            f"{_rest(rival, filler.text)!r} beside it, whose clause holds {filler.text!r}"
        ),
    )


@lru_cache(maxsize=1024)
def _frames(text: str) -> tuple[Frame, ...]:
    """A cited line's frames, read once: an ask judges several candidates of one line."""
    return read_frames(text)


def _rivalled(
    answer: str, frames: tuple[Frame, ...], wanted: frozenset[str]
) -> tuple[Frame, Frame, Argument] | None:
    """The clause holding ``answer`` and a clause of the same line that says strictly more
    of ``wanted`` with a filler of its own in the answer's role; None when no clause holds
    the answer as one of its phrases, or the best clause holding it has no such rival."""
    squashed = _squashed(answer)
    # The answer's own words are no part of what the clauses are compared on ("law" of
    # "Belgian law" asked "Which law governs ...").
    wanted = wanted - _own_words(answer)
    holding = [
        (frame, argument)
        for frame in frames
        for argument in frame.arguments
        if squashed in _squashed(argument.text)
    ]
    if not holding:
        return None
    frame, argument = max(holding, key=lambda fa: len(_said_of(fa[0], wanted)))
    said = _said_of(frame, wanted)
    if not said:
        return None  # the answer's clause says none of the question: no slot to compare
    numeric = any(c.isdigit() for c in answer)
    for rival in frames:
        if not _same_act(rival, frame) or _holds(rival, squashed):
            continue  # another act, or a clause holding the answer too (a time bound's)
        if not said < _said_of(rival, wanted):
            continue
        filler = next((a for a in rival.arguments if _fills(a, argument, wanted, numeric)), None)
        if filler is not None:
            return frame, rival, filler
    return None


def _same_act(rival: Frame, frame: Frame) -> bool:
    """Does ``rival`` say the act ``frame`` says, as ``frame`` says it: the same predicate,
    asserted, with the same polarity ("They do not represent ..." is no rival of "These
    statistics represent ...")?"""
    return (
        same(rival.predicate, frame.predicate)
        and rival.negated == frame.negated
        and not rival.embedded
    )


def _holds(frame: Frame, squashed: str) -> bool:
    """Does any phrase of ``frame`` (its arguments, exceptions, time bounds or the clauses
    it holds under) write the answer (``squashed``)?"""
    phrases = [a.text for a in (*frame.arguments, *frame.exceptions)]
    phrases += [b.text for b in frame.bounds]
    if any(squashed in _squashed(p) for p in phrases):
        return True
    return any(_holds(c, squashed) for c in frame.conditions)


def _fills(candidate: Argument, answers: Argument, wanted: frozenset[str], numeric: bool) -> bool:
    """Could ``candidate`` answer as ``answers`` does: the same role, words the question
    does not write, and a figure where the answer writes one?"""
    if candidate.role is not answers.role or candidate.marker != answers.marker:
        return False
    if numeric:
        return bool(candidate.values)
    return bool(candidate.words - wanted)


def _said_of(frame: Frame, wanted: frozenset[str]) -> frozenset[str]:
    """The question's words ``frame`` says: its predicate, its phrases' words and those of
    the conditions, exceptions and time bounds it holds under."""
    said = {frame.predicate}
    for argument in (*frame.arguments, *frame.exceptions):
        said |= argument.words
    for bound in frame.bounds:
        said |= bound.words
    for condition in frame.conditions:
        said |= _said_of(condition, wanted)
    return frozenset(said & wanted)


def _own_words(answer: str) -> frozenset[str]:
    """The answer's words, folded (a lemma of a content word is most often its word)."""
    return frozenset(words(answer))


def _squashed(text: str) -> str:
    """``text`` without spaces, in lower case: a frame writes "$ 250" for "$250"."""
    return "".join(text.split()).lower()


def _rest(frame: Frame, answer: str) -> str:
    """The phrases of a clause other than the one holding ``answer``, for the audit (its
    verb where it has no other: the question's word it says may be the verb's)."""
    squashed = _squashed(answer)
    rest = " ".join(a.text for a in frame.arguments if squashed not in _squashed(a.text))
    return rest or frame.predicate
