"""Whose it is: in a conversation, a claim about a speaker rests on that speaker's lines.

"What is the name of Leo's puppy?" is not answered by Maya's "I adopted a puppy … Biscuit":
the words are all in the conversation, but the puppy is Maya's. When the question names a
person who speaks in the evidence, a supporting line must be that person's own turn, or a
line that writes their name in its words (not only as the name of who is speaking), so
the gate checks the holder and not just the words.
"""

from __future__ import annotations

from collections.abc import Sequence

from affidavit.gates.decision import GateDecision
from affidavit.index.text import Analyzer
from affidavit.reasons import Reason
from affidavit.results import Evidence


def holder_decision(
    question_terms: frozenset[str],
    supporting: Sequence[Evidence],
    subset: Sequence[Evidence],
    analyzer: Analyzer,
) -> GateDecision | None:
    """A failed decision when a speaker the question names holds none of the supporting
    lines; None when the question names no speaker or every one is a holder."""
    speakers = {line.speaker for line in subset if line.speaker}
    named = sorted(
        speaker
        for speaker in speakers
        if (terms := set(analyzer.terms(speaker))) and terms <= question_terms
    )
    for speaker in named:
        if not any(_holds(line, speaker, analyzer) for line in supporting):
            return GateDecision(
                "holder",
                False,
                Reason.HOLDER.value,
                f"no supporting line is {speaker}'s own or says it of {speaker}",
            )
    return None


def _holds(line: Evidence, speaker: str, analyzer: Analyzer) -> bool:
    if line.speaker == speaker:
        return True
    words = line.text
    if line.speaker and words.startswith(f"{line.speaker}:"):
        words = words[len(line.speaker) + 1 :]
    return set(analyzer.terms(speaker)) <= set(analyzer.terms(words))
