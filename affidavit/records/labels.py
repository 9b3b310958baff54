"""Identity across languages: which English words name the same concept as a Spanish or
Turkish word, so that a question asked in one language is read against lines in another.

A concept is a numeric key; a word is only a label of it, in a language. Labels come from
three places, in this order of precedence:

* the operator (``Memory.label``), kept in the store;
* the bundled static model: ``affidavit/data/labels/{es,tr}.tsv``, built by
  ``tools/build_labels.py`` from the model's word-piece vectors (mutual near neighbours
  across the languages above a threshold read off a development word list);
* the entity graph: a name's inflections ("Norman", "Normans") label one concept.

How a question's words are read through them, and through the lines it finds (names and
numbers alike in every language, cognates, the lines' nearest words), is
records/gloss.py's.

One spelling may label two concepts: Turkish "son" (last) and English "son" are told
apart by their language.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import cache, lru_cache
from importlib.resources import files

from affidavit.results import Label
from affidavit.store import Store, insert_label, labels_of
from affidavit.text import analyzer_for, fold

LABELLED_LANGUAGES = ("es", "tr")
_DATA = files("affidavit") / "data" / "labels"
# Below this a Turkish or Spanish word's prefix is too short to name a stem ("kaz").
_SHORTEST_STEM = 4


def concept_of(means: str) -> int:
    """The numeric key of the concept an English word names (stable across runs)."""
    return zlib.crc32(fold(means).encode("utf-8"))


@cache
def shipped(language: str) -> dict[str, tuple[tuple[str, float], ...]]:
    """The bundled model's labels of ``language``: word -> English words, nearest first."""
    if language not in LABELLED_LANGUAGES:
        return {}
    table: dict[str, tuple[tuple[str, float], ...]] = {}
    for row in (_DATA / f"{language}.tsv").read_text(encoding="utf-8").splitlines():
        word, *meanings = row.split("\t")
        pairs = (m.rsplit(" ", 1) for m in meanings)
        table[word] = tuple((english, float(cosine)) for english, cosine in pairs)
    return table


@lru_cache(maxsize=1)
def threshold() -> float:
    """The cosine the shipped labels were cut at (the first line of threshold.txt)."""
    return float((_DATA / "threshold.txt").read_text(encoding="utf-8").split()[0])


def dev_score(
    rows: Sequence[Mapping[str, str]],
    language: str,
    table: Mapping[str, Sequence[tuple[str, float]]],
    cut: float,
) -> tuple[int, int, int]:
    """(right, wrong, none) of ``table``'s labels at or above ``cut`` on a development
    word list (rows of en and ``language``): right when a label is the English word or
    its plural or past ("city"/"cities" count alike), and when one spelling serves both
    languages and no label is needed."""
    right = wrong = none = 0
    for row in rows:
        kept = [english for english, cosine in table.get(row[language], ()) if cosine >= cut]
        if row[language] == row["en"] and not kept:
            right += 1
        elif not kept:
            none += 1
        elif _plain(row["en"]) in {_plain(e) for e in kept}:
            right += 1
        else:
            wrong += 1
    return right, wrong, none


def _plain(word: str) -> str:
    for ending in ("es", "s", "ed", "d"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def inflection_key(name: str) -> tuple[str, ...]:
    """What the inflections of a name share: its English stems ("Norman", "Normans" and
    "Norman's" are all ("norman",)); empty for a name of stop words only."""
    return tuple(analyzer_for("en").terms(name))


def aliases(word: str, names: Sequence[str]) -> list[Label]:
    """The entity-graph names that inflect ``word`` ("Norman", "Normans", "Norman's"): one
    concept, keyed by the group's shortest name, each name an English label of it."""
    stems = inflection_key(word)
    if not stems:
        return []
    group = sorted(
        {n for n in names if inflection_key(n) == stems} | {" ".join(word.split())},
        key=lambda n: (len(n), n),
    )
    key = concept_of(group[0])
    return [
        Label(name, "en", group[0], key, "entity graph")
        for name in group
        if fold(name) != fold(" ".join(word.split()))
    ]


class Labels:
    """The labels a store answers with: the operator's, then the bundled model's."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def add(self, word: str, means: str, language: str) -> Label:
        """Keep the operator's word: ``word`` in ``language`` means ``means``, stamped
        with when it was told (UTC), as a told record is."""
        told_at = datetime.now(UTC).isoformat(timespec="seconds")
        with self._store.transaction() as conn:
            insert_label(conn, fold(word, language), language, fold(means), told_at)
        return Label(fold(word, language), language, fold(means), concept_of(means), "operator")

    def operator(self) -> dict[tuple[str, str], list[str]]:
        """(word, language) -> what the operator said it means."""
        told: dict[tuple[str, str], list[str]] = {}
        for word, language, means, _ in labels_of(self._store.conn):
            told.setdefault((word, language), []).append(means)
        return told

    def meanings(
        self, word: str, language: str, operator: Mapping[tuple[str, str], list[str]]
    ) -> list[Label]:
        """What ``word`` (folded) of ``language`` labels: the operator's meanings first,
        then the bundled model's, nearest first."""
        found = [
            Label(word, language, m, concept_of(m), "operator")
            for m in operator.get((word, language), [])
        ]
        found += [
            Label(word, language, english, concept_of(english), "bundled model", cosine)
            for english, cosine in shipped(language).get(word, ())
        ]
        return found

    def stem_meanings(
        self, word: str, language: str, operator: Mapping[tuple[str, str], list[str]]
    ) -> list[Label]:
        """The meanings of the longest prefix of ``word`` that is labelled: Turkish and
        Spanish inflect by endings ("kazanmıştır" is "kazan" + tense and person)."""
        for end in range(len(word) - 1, _SHORTEST_STEM - 1, -1):
            found = self.meanings(word[:end], language, operator)
            if found:
                return found
        return []

    def of(self, word: str, names: Sequence[str] = ()) -> list[Label]:
        """Every label ``word`` takes part in, in any language: the concepts it names as a
        Spanish or Turkish word, the Spanish and Turkish words that name it, and the
        entity-graph ``names`` that are its inflections ("Normans" of "Norman")."""
        operator = self.operator()
        found: list[Label] = aliases(word, names)
        for language in LABELLED_LANGUAGES:
            found += self.meanings(fold(word, language), language, operator)
        folded = fold(word)
        for (told, language), told_meanings in sorted(operator.items()):
            found += [
                Label(told, language, m, concept_of(m), "operator")
                for m in told_meanings
                if m == folded and (told, language) != (folded, language)
            ]
        for language in LABELLED_LANGUAGES:
            for other, pairs in shipped(language).items():
                found += [
                    Label(other, language, english, concept_of(english), "bundled model", c)
                    for english, c in pairs
                    if english == folded
                ]
        unique: dict[tuple[str, str, str], Label] = {}
        for label in found:
            unique.setdefault((label.word, label.language, label.means), label)
        return list(unique.values())


class ToldLabels(Labels):
    """The labels told to stores read together (every shard's operator's, summed) and the
    bundled model's: read only, from what was told rather than from one store."""

    def __init__(self, told: Mapping[tuple[str, str], list[str]]) -> None:
        self._told = {key: list(means) for key, means in told.items()}

    def operator(self) -> dict[tuple[str, str], list[str]]:
        return {key: list(means) for key, means in self._told.items()}
