"""When the store disagrees with itself: other lines of equal trust that answer otherwise.

Two documents of equal trust say "The CEO of Acme is Mallory." and "The CEO of Acme is
Alice Brown."; both candidates pass the gate, and picking one without a word would hide
that the evidence is split. A rival is another candidate that passed every gate, from
other lines than the answer's, at the answer's trust or above, scored close to it, saying
a different thing (neither text holds the other, and the answer's own lines do not say
it too). Such rivals are named in the audit (``contradicted_by``) and in the census line.
"""

from __future__ import annotations

from collections.abc import Sequence

from affidavit.engine.protocol import Candidate
from affidavit.results import Evidence
from affidavit.text.numbers import numbers_in
from affidavit.text.words import fold

# A rival scored below this share of the answer's score is a weaker reading of the
# evidence, not a disagreement of it.
CONTEST_SHARE = 0.85
MAX_RIVALS = 3


def rivals(
    chosen: tuple[float, Candidate, Sequence[Evidence]],
    passed: Sequence[tuple[float, Candidate, Sequence[Evidence]]],
) -> list[tuple[Candidate, Sequence[Evidence]]]:
    """The candidates among ``passed`` that contradict ``chosen`` (score, candidate, the
    lines it cites), best first."""
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
        if set(numbers_in(text)) & set(numbers_in(said)):
            continue  # "autumn 1347" and "November 1347": one time at two precisions
        if any(line in cited for line in lines) or min(line.trust for line in lines) < trust:
            continue
        seen.add(text)
        found.append((other, lines))
        if len(found) == MAX_RIVALS:
            break
    return found


def contest_line(found: Sequence[tuple[Candidate, Sequence[Evidence]]]) -> str:
    """The census sentence that says the store disagrees."""
    told = "; ".join(
        f"[{lines[0].document} #{lines[0].position}] says {other.text!r}" for other, lines in found
    )
    return f"Contested: lines of equal trust answer otherwise ({told})."
