"""The label a line may open with: a list or step number ("1.", "2)", "(a)", "iv.",
"Step 3"), or a PDF's bare step number before its instruction ("2 Pay the fee"). A label
orders the text; it is never what the text says, so it is never an answer ("2" is not the
fee) and never a sentence of its own ("1." is cut from nothing)."""

from __future__ import annotations

import re

_LABEL = re.compile(
    r"""
    \s*(?:
        \(\s*(?:\d{1,3}|[a-zA-Z]|[ivx]{1,6}|[IVX]{1,6})\s*\)        # (1) (a) (iv)
      | (?:\d{1,3}(?:\.\d{1,3})*|[a-z]|[ivx]{1,6}|[IVX]{1,6})[.)]  # 1. 2.1. a) iv. IV.
      | [A-Z]\)                                                    # A)  ("A." is an initial)
      | (?:Step|STEP|Item|ITEM)\s+\d{1,3}[.:]?                      # Step 3
      | \d{1,2}(?=\s+[A-Z][a-z]+\s)                                 # "2 Pay the fee"
    )(?=\s|$)
    """,
    re.VERBOSE,
)
# A label with a title of at most this many words after it, emphasised or every word
# capitalised but short joining words and ending in a full stop, is a run-in title ("(a)
# *Scope.*", "8. Limitation of Liability."): the rule it names follows; the two are one line.
_TITLE_WORDS = 6
_EMPHASISED = re.compile(r"^(\*{1,2}|_{1,2})[^*_]+[.:]\1$|^(\*{1,2}|_{1,2})[^*_]+\2[.:]$")
_CAPITALISED = re.compile(
    r"^[A-Z][\w'-]*(?:\s+(?:[A-Z][\w'-]*|of|and|or|the|to|for|in|on|by|with|a|an))*[.:]$"
)
# What may stand between a label and the sentence it opens: an opening quote or bracket.
_OPENERS = "\"'“‘«(["


def label_end(line: str) -> int:
    """Where the label ``line`` opens with ends (0 when it opens with none)."""
    found = _LABEL.match(line)
    return found.end() if found else 0


def is_label_alone(sentence: str) -> bool:
    """Is ``sentence`` only a label, or a label and its run-in title ("1.", "(a)",
    "(b) *Periods.*")? Such a piece belongs with the sentence after it."""
    end = label_end(sentence)
    if not end:
        return False
    rest = sentence[end:].strip()
    if not rest.strip(_OPENERS):
        return True
    if len(rest.split()) > _TITLE_WORDS:
        return False
    return bool(_EMPHASISED.match(rest) or _CAPITALISED.match(rest))
