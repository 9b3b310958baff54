"""The best-line lexical baseline that the probe set and ContractNLI benchmarks report beside
the gate: a claim is supported when the line sharing most of its content words shares at
least a threshold of them (chosen on a tune split) and both say, or both do not say, a
negation word; the same line with the negation the other way round is a contradiction."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
STOP = frozenset(
    "a an the and or of to in on at by for from with as is are be been being was were it its"
    " this that these those such any all each every some other which who whom whose what"
    " shall must may will would should can could do does did has have had if than then so"
    " into upon under within out up about between there their they them he she his her we"
    " our you your i me my one per also only both either".split()
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“‘'(A-Z0-9])")
NEGATIONS = frozenset("not no never none nor neither without cannot nothing nobody".split())
# ContractNLI's parties are named either way round in the same contract.
ROLE_FOLDS = (
    (re.compile(r"\breceiving part(?:y|ies)(?:['’]s?)?|\brecipients?(?:['’]s?)?"), "recipient"),
    (re.compile(r"\bdisclosing part(?:y|ies)(?:['’]s?)?|\bdisclosers?(?:['’]s?)?"), "discloser"),
)


def sentences(text: str) -> list[str]:
    """The text's sentences: paragraphs (split at blank lines, and at lines that open a
    numbered or lettered item) unwrapped, then cut after a full stop, question or
    exclamation mark followed by a capital, a digit, a quote or a bracket."""
    paragraphs = re.split(r"\n\s*\n|\n(?=\s*(?:\(?(?:\d{1,3}|[a-z]|[ivx]{1,4})[.)]|[-*•])\s)", text)
    found = []
    for paragraph in paragraphs:
        flat = " ".join(paragraph.split())
        found += [s for s in SENTENCE_END.split(flat) if s.strip()]
    return found


def words(text: str, *, fold_roles: bool = False) -> list[str]:
    """Lower-cased word tokens, role names folded on request, a plural s dropped."""
    lowered = text.lower()
    if fold_roles:
        for pattern, name in ROLE_FOLDS:
            lowered = pattern.sub(name, lowered)
    tokens = [t.replace("’", "'") for t in WORD.findall(lowered)]
    return [
        t[:-1] if len(t) > 4 and t.endswith("s") and not t.endswith("ss") else t for t in tokens
    ]


def negated(tokens: Sequence[str]) -> bool:
    return any(t in NEGATIONS or t.endswith("n't") for t in tokens)


def best_line(claim: str, lines: Sequence[str], *, fold_roles: bool = False) -> tuple[float, bool]:
    """The share of the claim's content words found in its best-overlapping line (the first
    such line on a tie), and whether that line and the claim differ in negation."""
    claim_words = words(claim, fold_roles=fold_roles)
    wanted = {t for t in claim_words if t not in STOP and t not in NEGATIONS}
    best, flipped = 0.0, False
    for line in lines:
        line_words = words(line, fold_roles=fold_roles)
        share = len(wanted & set(line_words)) / len(wanted) if wanted else 0.0
        if share > best:
            best, flipped = share, negated(claim_words) != negated(line_words)
    return best, flipped


def judged(overlap: float, flipped: bool, threshold: float) -> str:
    """supported, contradicted (the best line says the claim with the negation the other way
    round) or not_found."""
    if overlap < threshold:
        return "not_found"
    return "contradicted" if flipped else "supported"


def best_threshold(scores: Sequence[float], objective: Callable[[float], float]) -> float:
    """The threshold among the scores seen (and one above them all) that maximises
    ``objective``; on a tie the highest, the one that supports least."""
    candidates = sorted({*scores, 1.01})
    return max(candidates, key=lambda t: (objective(t), t))
