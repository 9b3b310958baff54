"""Whose it is: in a conversation, a claim about a speaker rests on that speaker's lines.

"What is the name of Leo's puppy?" is not answered by Maya's "I adopted a puppy … Biscuit":
the words are all in the conversation, but the puppy is Maya's. When the question names a
person who speaks in the evidence, a supporting line must be that person's own turn, or a
line that writes their name in its words (not only as the name of who is speaking), so
the gate checks the holder and not just the words.
"""

from __future__ import annotations

import re
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
        if not any(_holds(line, speaker, named, analyzer) for line in supporting):
            return GateDecision(
                "holder",
                False,
                Reason.HOLDER.value,
                f"no supporting line is {speaker}'s own or says it of {speaker}",
            )
    return None


def _holds(line: Evidence, speaker: str, named: Sequence[str], analyzer: Analyzer) -> bool:
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
