"""Which years a figure in a sentence is written for, when a report gives several years'
figures in one sentence: a figure read for a question about 2019 must be the one written
for 2019 (the engine's spans and the plans' sentence anchors both ask here)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from affidavit.text.dates import dates_in
from affidavit.text.years import YEAR, YEAR_WORD

# "2019, 2018 and 2017", "fiscal 2019 and fiscal 2018", "2019 & 2018".
_YEAR_RUN = re.compile(
    rf"(?<![\d.,]){YEAR}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)(?:fiscal\s+)?{YEAR})+\b",
    re.I,
)
# A figure as reports write one: sign, currency, brackets for a negative, a scale or unit.
_FIGURE = re.compile(
    r"(?<![\w.,])(?:[A-Z]{1,3})?[$€£¥]?\s?\(?[-−]?\d(?:[\d,]*\d)?(?:\.\d+)?\)?"
    r"(?:\s?(?:%|percent\b|per cent\b|million\b|billion\b|thousand\b|bn\b|m\b|k\b|p\b))?"
)
# What stands between two figures of one list: "A, B and C", "A and B", "A or B".
_LIST_JOINT = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+)", re.I)
_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)


@dataclass(frozen=True, slots=True)
class Figure:
    start: int
    end: int
    years: frozenset[str]  # the years the sentence writes this figure for; empty: unsaid


@lru_cache(maxsize=8192)
def figures(text: str) -> tuple[Figure, ...]:
    """Every figure of ``text`` that is not itself a year or part of a date, with its years."""
    if not any(char.isdigit() for char in text):
        return ()
    dated = [(d.start, d.end) for d in dates_in(text)]
    found = []
    for match in _FIGURE.finditer(text):
        start, end = match.span()
        if YEAR_WORD.fullmatch(match.group(0).strip(" ()")):
            continue
        if any(s <= start and end <= e for s, e in dated):
            continue
        found.append((start, end))
    aligned = _respective(text, found)
    return tuple(
        Figure(start, end, aligned.get((start, end), _around(text, start))) for start, end in found
    )


def years_of(text: str, start: int, end: int) -> frozenset[str]:
    """The years ``text`` writes the figure at ``start:end`` for (empty when unsaid)."""
    for figure in figures(text):
        if figure.start < end and start < figure.end:
            return figure.years
    return frozenset()


def written_for(years: frozenset[str], asked: frozenset[str]) -> bool:
    """Whether a figure written for ``years`` may answer a question naming ``asked``: yes
    unless both name years and none agree."""
    return not years or not asked or bool(years & asked)


def _respective(text: str, found: list[tuple[int, int]]) -> dict[tuple[int, int], frozenset[str]]:
    """Figures of a "respectively" sentence matched one to one to its run of years ("was
    $2.5 million, $2.6 million and $2.4 million during fiscal 2019, 2018 and 2017,
    respectively")."""
    said = _RESPECTIVELY.search(text)
    if said is None:
        return {}
    runs = [m for m in _YEAR_RUN.finditer(text, 0, said.start())]
    if not runs:
        return {}
    run = runs[-1]
    years = YEAR_WORD.findall(run.group(0))
    outside = [(s, e) for s, e in found if e <= run.start() or s >= run.end()]
    outside = [(s, e) for s, e in outside if s < said.start()]
    lists: list[list[tuple[int, int]]] = []
    for span in outside:
        if lists and _LIST_JOINT.fullmatch(text[lists[-1][-1][1] : span[0]]):
            lists[-1].append(span)
        else:
            lists.append([span])
    fitting = [figures_list for figures_list in lists if len(figures_list) == len(years)]
    if not fitting:
        return {}
    return {span: frozenset({year}) for span, year in zip(fitting[-1], years, strict=True)}


def _around(text: str, start: int) -> frozenset[str]:
    """Years said beside a figure: those in its parentheses when it stands in some (the
    prior year's figure: "was £59.1m (2018: £56.5m)"), else those the sentence writes
    outside every parenthesis."""
    opened = text.rfind("(", 0, start)
    if opened >= 0 and text.find(")", opened) >= start:
        closed = text.find(")", start)
        inside = text[opened : closed if closed >= 0 else len(text)]
        return frozenset(YEAR_WORD.findall(inside))
    return frozenset(YEAR_WORD.findall(_outside_parentheses(text)))


def _outside_parentheses(text: str) -> str:
    depth, kept = 0, []
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif depth == 0:
            kept.append(char)
    return "".join(kept)
