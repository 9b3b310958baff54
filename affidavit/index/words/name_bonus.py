"""A document's name in the word index: a question word in a document's name weighs for
every line of that document (the name bonus); the name's terms are text.analyzer's."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from affidavit.text import analyzer_for, name_terms


def name_slots(names: list[str], languages: list[str]) -> dict[str, list[int]]:
    """Document name terms -> the slots of the documents whose names carry them."""
    named: dict[str, list[int]] = {}
    for slot, (name, lang) in enumerate(zip(names, languages, strict=True)):
        for term in set(name_terms(name, analyzer_for(lang))):
            named.setdefault(term, []).append(slot)
    return named


def joined_slots(
    first: dict[str, list[int]], then: dict[str, list[int]], offset: int
) -> dict[str, list[int]]:
    """``name_slots`` of two lists of documents, one after the other, from each list's own:
    ``then``'s slots moved past the ``offset`` documents of ``first``. An ingest adding one
    document reads its own name, not every name held."""
    joined = dict(first)  # the lists are shared, never changed: a term added to is copied
    for term, slots in then.items():
        joined[term] = [*joined.get(term, ()), *(slot + offset for slot in slots)]
    return joined


def name_bonus(
    slots_of: dict[str, list[int]],
    n_documents: int,
    query_terms: Sequence[str],
    whole: tuple[int, Mapping[str, int]] | None = None,
) -> np.ndarray | None:
    """Each document slot's bonus for the question's words in its name: log(documents /
    names carrying the word) per word (a word every name carries weighs 0); None when no
    name carries any. Words are added in sorted order, the same sum every run. ``whole``:
    the documents of a whole store these are a shard of, and each word's names in it."""
    bonus: np.ndarray | None = None
    for term in sorted(set(query_terms)):
        slots = slots_of.get(term)
        if not slots:
            continue
        if whole is None:
            weight = math.log(n_documents / len(slots))
        else:
            weight = math.log(whole[0] / whole[1][term])
        if weight <= 0:
            continue
        if bonus is None:
            bonus = np.zeros(n_documents, dtype=np.float32)
        bonus[slots] += weight
    return bonus
