"""Fields: the label–value pairs forms, headers and rules write on one line — "Fax:
202-555-0100", "Docket No. FAA-2019-0123", "OMB No. 1545-0074", '"Contributor" means
each individual…'. A field line keeps its text and its kind, and carries its pair as a
one-cell row carries its column, so a question that names the label gets the value,
whole."""

from __future__ import annotations

import re

from affidavit.ingest.table_rules import FUNCTION_WORDS
from affidavit.text import LETTER, fold

# A label is short: at most this many words before its colon.
_LABEL_WORDS = 6
# "Label: value". The label opens the line with a capital (or a digit of a numbered
# field), holds no sentence punctuation, and the value follows after one colon.
_COLON = re.compile(r"^(?P<label>[^\s:][^:.;!?()\"]{0,60}?)\s*:\s+(?P<value>\S.*)$")
# "Docket No. FAA-2019-0123", "OMB No. 1545-0074", "Control Number 12-3", "RIN 2120-AK12":
# an identifier named by the words before it.
_NUMBERED = re.compile(
    r"^(?P<label>(?:[^\s]+\s+){0,4}?(?:No\.|Number|No|#|RIN|ID))\s*:?\s*"
    r"(?P<value>[^\s,;]*\d[^\s,;]*?)[.,;]?$"
)
# '"Contributor" means each …', '"License" shall mean the terms …', '"The Library" refers
# to a covered work …', 'A "Combined Work" is a work produced …': a defined term, the
# line opening on it (after a number or an article at most).
_DEFINITION = re.compile(
    r"^(?:[^\s\"“]{1,8}\s+)?[\"“](?P<label>[^\"”]{1,60})[\"”](?:\s+\([^)]{1,60}\))?"
    r"(?:\s+(?:form|of\s+a\s+\S+))?\s+"
    r"(?:shall\s+mean|means|refers\s+to|is|are|shall\s+be|has\s+the\s+meaning)\s+"
    r"(?P<value>\S.*?)[.;]?$"
)
_LETTER = re.compile(LETTER)
_CLAUSE_OPENERS = FUNCTION_WORDS | frozenset(
    "i we you he she they it this these those there here our my your their".split()
)


def field_of(line: str) -> tuple[tuple[str, str], ...] | None:
    """The (label, value) pair ``line`` writes as a field, or None when it writes none."""
    for pattern in (_DEFINITION, _NUMBERED, _COLON):
        found = pattern.match(line.strip())
        if found is None:
            continue
        label, value = found.group("label").strip(), found.group("value").strip()
        # A quoted term is a name by its quotes ("The Library"); a bare label must look one.
        named = _is_term(label) if pattern is _DEFINITION else _is_label(label)
        if named and value:
            return ((label, value),)
    return None


def _is_term(label: str) -> bool:
    """A defined term: a few words with a letter."""
    return 0 < len(label.split()) <= _LABEL_WORDS and bool(_LETTER.search(label))


def _is_label(label: str) -> bool:
    """A label names: a few words with a letter, set in capitals, or opening with a
    capital or a figure and not with a pronoun or a function word ("In 1066:", "We had
    three goals:" open clauses), its words capitalised when it has more than three."""
    words = label.split()
    if not words or len(words) > _LABEL_WORDS or not _LETTER.search(label):
        return False
    if label[0].islower():
        return False
    if label.upper() == label:  # a form's capitals: "FOR FURTHER INFORMATION CONTACT"
        return True
    if fold(words[0]) in _CLAUSE_OPENERS:
        return False
    return len(words) <= 3 or all(
        not word[0].islower() or fold(word) in FUNCTION_WORDS for word in words
    )
