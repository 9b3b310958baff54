"""The candidate spans of a line for one question, each with its hashed features: the code
the scorer runs at ask time and the training script runs over SQuAD, the same."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from affidavit.scorer.cues import Cues
from affidavit.scorer.features import Matches, feature_names, hashed
from affidavit.scorer.parsed_lines import Found, LineRead
from affidavit.text import analyzer_for, words

# The patterns written as one token of several words: contacts and codes. A figure's
# token keeps its first word's term ("of$0.40", a glued figure, says nothing new).
_WHOLE_TOKENS = frozenset({"EMAIL", "URL", "PHONE", "CODE", "CODE_SHAPE"})


@dataclass(frozen=True, slots=True)
class Spanned:
    """A candidate span of one line with the indices of its features."""

    found: Found
    text: str
    start: int  # character offsets in the line
    end: int
    features: np.ndarray


def spans_for(cues: Cues, line: LineRead, rank: int) -> list[Spanned]:
    """The spans of ``line`` that could answer (those saying something the question does
    not), with their features."""
    matches = Matches(line, cues)
    out = []
    for found in line.found:
        start, end = line.starts[found.first], line.ends[found.last - 1]
        if found.start >= 0:
            start, end = found.start, found.end
        terms = {t for t in line.terms[found.first : found.last] if t is not None}
        if found.label in _WHOLE_TOKENS:
            # A contact or a code is one token whose term is its first word: the
            # question naming the role ("a human listmaster") does not write
            # "listmaster@lists.debian.org". All of its words count.
            analyzer = analyzer_for(cues.language)
            said = (analyzer.term(w) for w in words(line.text[start:end], cues.language))
            terms |= {t for t in said if t is not None}
        if not terms or terms <= cues.terms:
            continue  # the question already says it, or it says nothing
        features = hashed(feature_names(cues, matches, found, rank))
        out.append(Spanned(found, line.text[start:end], start, end, features))
    return out
