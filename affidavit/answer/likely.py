"""The reader's say on the candidates the gates passed: its probability that the best
answers the question, and its two best rivals', for ask to say or refuse by."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from affidavit.engine import Candidate
from affidavit.gates import likely_enough
from affidavit.question import Question
from affidavit.reasons import Reason, compared
from affidavit.results import Evidence
from affidavit.scorer import Likelihood, judge_answerable, judges


def likeliest(
    asked: Question,
    passed: Sequence[tuple[Candidate, Sequence[Evidence]]],
    best_score: float,
    weight: Callable[[str], float],
    threshold: float | None,
) -> tuple[Likelihood, list[Likelihood]] | None:
    """The reader's probability that the best candidate answers, and its two best rivals';
    None where the reader does not judge the best (scorer/likelihood.py's judges): a
    language, a kind of line or of answer it was not trained on, or no span it reads."""
    judged: list[Likelihood] = []
    for candidate, cited in passed:
        line = cited[0] if cited else None
        # A value read under the label the question names (a field's, a row's column) is
        # no span the reader chose: the gate alone judges it.
        named = "column" in candidate.extra
        if line is None or named or not judges(asked, line.kind):
            if not judged:
                return None
            continue
        likely = judge_answerable(
            asked,
            candidate.text,
            line.text,
            line_share=line.score / best_score,
            rivals=len(passed) - 1,
            weight=weight,
            threshold=threshold,
        )
        if likely is None:
            if not judged:
                return None  # the best is no span the reader reads: the gate alone judges
            continue
        judged.append(likely)
        if len(judged) == 3:
            break
    return judged[0], judged[1:]


def refused_by_the_reader(top: Likelihood) -> tuple[str, dict[str, str] | None]:
    """The answerability judge's word on the best candidate (gates/answerability.py): when
    it refuses, why, said with the probability and the threshold written apart ("best
    candidate 0.421 < 0.425"), and the candidate as the closest one refused (the audit's
    ``closest``); ("", None) when it lets the candidate through."""
    decision = likely_enough(top.probability, top.threshold)
    if decision.passed:
        return "", None
    probable, threshold = compared(top.probability, top.threshold)
    closest = {
        "text": top.text,
        "check": decision.gate.value,
        "reason": decision.reason or Reason.UNLIKELY.value,
        "detail": decision.detail,
    }
    return f"best candidate {probable} < {threshold}", closest
