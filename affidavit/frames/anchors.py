"""Anchors: names whose last part is a letter, a number or a bracketed label (Project A,
Schedule 2, Section 5(b), Form 1040-NR, Class C, Annex III, § 164.404). An anchor is one
atomic token: Project A and Project B are two things however alike their words, and a
claim about one is never supported by a line about the other."""

from __future__ import annotations

import re
from dataclasses import dataclass

from affidavit.text import YEAR_SINCE_1000

# The nouns that number or letter what they name. NOTE: a closed list, so "Chapter 11" and
# "Form W-9" are anchors and "Route 66 ran" only when written with one of these; a name is
# an anchor by what it names, not by its digits (a year is not an anchor).
_KINDS = (
    "section sections sec article articles art clause clauses schedule schedules annex "
    "annexes appendix appendices exhibit exhibits part parts paragraph paragraphs para "
    "subsection subparagraph form forms class classes category categories project "
    "projects phase phases item items rule rules table tables chapter chapters title "
    "division subpart level tier type option plan version volume step stage group "
    "zone building room unit lot grade"
)
_KIND = "|".join(sorted(_KINDS.split(), key=len, reverse=True))
# A label: a number with its dotted parts, letters and bracketed parts ("5(b)(ii)",
# "164.404", "1040-NR", "W-9", "3A"), one capital letter, or a Roman numeral.
_LABEL = (
    r"(?:[A-Z]{0,2}-?\d+(?:\.\d+)*(?:-?[A-Z]{1,3})?(?:\([a-z0-9ivx]{1,5}\))*"
    r"|[IVXLC]{1,6}\b(?:\([a-z0-9ivx]{1,5}\))*"
    r"|[A-Z]\b(?:\([a-z0-9ivx]{1,5}\))*"
    r"|[a-z]\)(?=\s))"
)
_ANCHOR = re.compile(
    rf"(?<![\w-])(?:(?P<kind>{_KIND})\.?\s+|(?P<sign>§§?)\s*)(?P<label>{_LABEL})", re.I
)
# A year standing where a label would ("Phase 2019") is a date, not a label.
_YEAR = re.compile(YEAR_SINCE_1000)


@dataclass(frozen=True, slots=True)
class Anchor:
    """An anchor as written (``start``, ``end`` in its text) and as compared (``key``:
    the kind in lower case and the label as written, "section 5(b)")."""

    key: str
    start: int
    end: int


def anchors_in(text: str) -> list[Anchor]:
    """The anchors ``text`` writes, in order."""
    found = []
    for match in _ANCHOR.finditer(text):
        label = match.group("label")
        kind = (match.group("kind") or "section").lower().rstrip(".")
        if label.isdigit() and _YEAR.fullmatch(label) and kind not in ("form", "section", "part"):
            continue
        if len(label) == 1 and label.isupper() and kind in ("a", "i"):
            continue
        found.append(Anchor(f"{_singular(kind)} {label.lower()}", match.start(), match.end()))
    return found


def _singular(kind: str) -> str:
    """One kind for its plural and its short forms ("sections", "sec", "art")."""
    short = {"sec": "section", "art": "article", "para": "paragraph", "appendices": "appendix"}
    if kind in short:
        return short[kind]
    if kind.endswith("es") and kind[:-2] in ("annex", "class", "box"):
        return kind[:-2]
    if kind.endswith("ies"):
        return kind[:-3] + "y"
    return kind[:-1] if kind.endswith("s") and not kind.endswith("ss") else kind
