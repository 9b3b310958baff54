"""When the store disagrees with itself: lines of equal trust that say otherwise ("The CEO
of Acme is Mallory." against "The CEO of Acme is Alice Brown."), found for ask (``rivals``;
verify's is the contest judge, gates/contest.py), so that saying one side does not hide
the split."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from affidavit.engine import Candidate
from affidavit.question import AnswerType, Question
from affidavit.results import Evidence
from affidavit.text import YEAR_OR_CENTURY, WrittenDate, carried_numbers, dates_in, fold, numbers_in

# A rival scored below this share of the answer's score is a weaker reading of the
# evidence, not a disagreement of it.
CONTEST_SHARE = 0.85
MAX_RIVALS = 3


def rivals(
    chosen: tuple[float, Candidate, Sequence[Evidence]],
    passed: Sequence[tuple[float, Candidate, Sequence[Evidence]]],
    of_the_kind: Callable[[str], bool] = lambda _text: True,
) -> list[tuple[Candidate, Sequence[Evidence]]]:
    """The candidates among ``passed`` that contradict ``chosen`` (score, candidate, the
    lines it cites), best first.

    A rival passed the gates too, from other lines than the answer's, scored close to it
    (CONTEST_SHARE), saying a different thing, and is a value of the kind asked
    (``of_the_kind``: ``asked_kind``): "Harold II" does not contest "1066" as the date of a
    battle, nor "the way" anything. Only lines at the trust of the answer's own or above
    count: a stranger cannot contest a document.
    """
    score, answer, cited = chosen
    said = fold(answer.text).strip()
    trust = min(line.trust for line in cited)
    own_text = fold(" ".join(line.text for line in cited))
    found: list[tuple[Candidate, Sequence[Evidence]]] = []
    seen = {said}
    for other_score, other, lines in passed:
        text = fold(other.text).strip()
        if other_score < CONTEST_SHARE * score or not text or text in seen:
            continue
        if text in said or said in text or text in own_text:
            continue  # the same thing said more or less fully, or said by the answer's lines
        if _one_time(text, said):
            continue  # "autumn 1347" and "November 1347": one time at two precisions
        if not of_the_kind(other.text):
            continue  # another reading of the lines, not another answer to the question
        if any(line in cited for line in lines) or min(line.trust for line in lines) < trust:
            continue
        if any(line in taken for _, taken in found for line in lines):
            continue  # the rival line is said once, by its best reading
        seen.add(text)
        found.append((other, lines))
        if len(found) == MAX_RIVALS:
            break
    return found


# Kinds whose answer names someone or something: a rival must name too (a capital or a
# figure), not be a phrase of common words ("the way", "that rest days").
_NAMED_KINDS = frozenset({AnswerType.PERSON, AnswerType.PLACE, AnswerType.ENTITY, AnswerType.TITLE})


def asked_kind(asked: Question, answer: str) -> Callable[[str], bool]:
    """Is a rival text a value of the kind the question ``asked`` asks, as the ``answer``
    said is? A typed kind's value must be written in it (a date for "when", a number for
    "how many": question/typed_lines.py, the question's own values not counted); a name's
    kind needs a name; a loose kind (what, which, how, why) is contested only by a value of
    the kind the answer itself is, a date, a number or a name, never by a phrase of common
    words."""
    typed = asked.holds_answer
    if typed is not None:
        return lambda text: typed(text) < 2
    if asked.shape.answer_type in _NAMED_KINDS:
        return _names
    kinds = _value_kinds(answer)
    return lambda text: bool(kinds & _value_kinds(text))


def _names(text: str) -> bool:
    """Does ``text`` name something: a word opening on a capital or a figure?"""
    return any(word[:1].isupper() or word[:1].isdigit() for word in text.split())


def _value_kinds(text: str) -> set[str]:
    """The kinds of value ``text`` writes: a date, a number, a name."""
    kinds = set()
    if dates_in(text) or YEAR_OR_CENTURY.search(text):
        kinds.add("date")
    if carried_numbers(text):
        kinds.add("number")
    if _names(text):
        kinds.add("name")
    return kinds


def _one_time(text: str, said: str) -> bool:
    """Do two answers name one time (or one figure) at two precisions? Two dates do when
    every part both write agrees ("November 1347" and "1347"; not "1 May 2025" and "1 June
    2025", which share a day and a year); other answers when they share a number."""
    ours, theirs = dates_in(said), dates_in(text)
    if ours and theirs:
        return any(_agree(a, b) for a in ours for b in theirs)
    return bool(set(numbers_in(text)) & set(numbers_in(said)))


def _agree(one: WrittenDate, other: WrittenDate) -> bool:
    parts = ((one.year, other.year), (one.month, other.month), (one.day, other.day))
    return all(a is None or b is None or a == b for a, b in parts)


def contest_line(found: Sequence[tuple[Candidate, Sequence[Evidence]]]) -> str:
    """The census sentence that says the store disagrees."""
    told = "; ".join(
        f"[{lines[0].document} #{lines[0].position}] says {other.text!r}" for other, lines in found
    )
    return f"Contested: lines of equal trust answer otherwise ({told})."
