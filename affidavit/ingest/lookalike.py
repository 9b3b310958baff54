"""Document names a reader cannot tell apart but the store can: "Report.pdf" and
"report.pdf", a trailing space, "./a.txt", a zero-width character, a Cyrillic "р" for a
Latin "p". Each is kept as the distinct document it is named, and the ingest says so,
so a reviewer is never shown two documents that look like one.

Look-alike letters are Unicode's confusables (UTS #39), read through the
``confusable-homoglyphs`` package: its tables are the standard's, which a hand-kept list
would only ever partly copy."""

from __future__ import annotations

import posixpath
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from affidavit.text import fold


# NOTE: every ingest compares its names with every stored one: each stored name's key is
# kept, so a store of many documents is not read letter by letter at each ingest_text.
@lru_cache(maxsize=200_000)
def name_key(name: str) -> str:
    """What a reader sees of ``name``: compatibility forms folded (NFKC), invisible format
    characters dropped, look-alike letters read as the Latin ones, lower-cased, spaces at
    either end and ``./`` steps gone."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")  # zero-width, BOM
    text = fold("".join(_latin(c) for c in text)).strip()
    text = posixpath.normpath(text) if text else text
    return text.removeprefix("./")


def _latin(character: str) -> str:
    """The Latin letter ``character`` looks like, or itself."""
    if character.isascii():
        return character
    # NOTE: imported here, at the first letter outside ASCII: its tables took 0.07 s of
    # every process that opens a store (a cold ask's start), and most names are ASCII.
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(character, greedy=False, preferred_aliases=["latin"])
    if not found:
        return character
    homoglyphs = found[0]["homoglyphs"]
    latin = [h["c"] for h in homoglyphs if h["c"].isascii()]
    return latin[0] if latin else character


def lookalike_warnings(stored: Iterable[str], added: Iterable[str]) -> list[str]:
    """A warning for each of ``added`` that a reader would take for another document: one
    of ``stored`` (the names held, besides ``added``) or an earlier one of ``added``."""
    return StoredNames().warnings(list(stored), added)


class StoredNames:
    """The keys of the stored names, kept from one ingest to the next: an ingest_text
    compares its name with every stored one, and keying them all again took 1.4 ms of
    each call at 3,000 documents. Given the stored names in the same order with more at
    the end, only those are keyed; given anything else, all of them."""

    def __init__(self) -> None:
        self._names: list[str] = []
        self._seen: dict[str, list[str]] = {}  # a name's key -> the names with it, in order

    def warnings(self, stored: list[str], added: Iterable[str]) -> list[str]:
        """As ``lookalike_warnings``; ``stored`` in id order, the ``added`` names among
        them or not (each is compared with the others)."""
        if stored[: len(self._names)] != self._names:
            self._names, self._seen = [], {}
        for name in stored[len(self._names) :]:
            self._seen.setdefault(name_key(name), []).append(name)
        self._names = stored
        added = list(added)
        adding = set(added)
        earlier: dict[str, str] = {}  # the added names' keys, kept apart from the stored
        warnings = []
        for name in added:
            key = name_key(name)
            held = (other for other in self._seen.get(key, ()) if other not in adding)
            other = next(held, earlier.get(key))
            if other is not None and other != name:
                warnings.append(
                    f"{name!r} looks like the document {other!r} (they differ only in case, "
                    "spaces, invisible characters or look-alike letters); both are kept, as "
                    "two documents"
                )
            earlier.setdefault(key, name)
        return warnings
