"""The words of a document's name, as the word index and the gates read them.

A question word in a document's name weighs for every line of that document (the word
index's name bonus), and a line speaks under its document's name (the support tier): both
read the name's index terms, its extension ("txt", "pdf", ...) left out.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from affidavit.text.analyzer import Analyzer, analyzer_for
from affidavit.text.words import words

_NAME_NOISE = frozenset({"txt", "md", "pdf", "csv", "tsv", "html", "htm", "docx", "text"})


def name_slots(names: list[str], languages: list[str]) -> dict[str, list[int]]:
    """Document name terms -> the slots of the documents whose names carry them."""
    named: dict[str, list[int]] = {}
    for slot, (name, lang) in enumerate(zip(names, languages, strict=True)):
        for term in set(name_terms(name, analyzer_for(lang))):
            named.setdefault(term, []).append(slot)
    return named


def name_bonus(
    slots_of: dict[str, list[int]], n_documents: int, query_terms: list[str]
) -> np.ndarray | None:
    """Each document slot's bonus for the question's words in its name: log(documents /
    names carrying the word) per word (a word every name carries weighs 0); None when no
    name carries any. Words are added in sorted order, the same sum every run."""
    bonus: np.ndarray | None = None
    for term in sorted(set(query_terms)):
        slots = slots_of.get(term)
        if not slots:
            continue
        weight = math.log(n_documents / len(slots))
        if weight <= 0:
            continue
        if bonus is None:
            bonus = np.zeros(n_documents, dtype=np.float32)
        bonus[slots] += weight
    return bonus


def name_terms(name: str, analyzer: Analyzer) -> list[str]:
    """The index terms of a document's name (its extension left out)."""
    return list(_name_terms(name, analyzer.language))


@lru_cache(maxsize=4096)
def _name_terms(name: str, language: str) -> tuple[str, ...]:
    # The gates ask this of every line they read; a name's terms never change.
    analyzer = analyzer_for(language)
    tokens = [w for w in words(name, language) if w not in _NAME_NOISE]
    return tuple(t for t in (analyzer.term(w) for w in tokens) if t)
