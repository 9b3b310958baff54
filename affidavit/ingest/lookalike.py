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

from confusable_homoglyphs import confusables

from affidavit.text.words import fold


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
    found = confusables.is_confusable(character, greedy=False, preferred_aliases=["latin"])
    if not found:
        return character
    homoglyphs = found[0]["homoglyphs"]
    latin = [h["c"] for h in homoglyphs if h["c"].isascii()]
    return latin[0] if latin else character


def lookalike_warnings(stored: Iterable[str], added: Iterable[str]) -> list[str]:
    """A warning for each of ``added`` that a reader would take for another document: one
    of ``stored`` (the names already held, not ``added``) or an earlier one of ``added``."""
    seen: dict[str, str] = {}
    for name in stored:
        seen.setdefault(name_key(name), name)
    warnings = []
    for name in added:
        key = name_key(name)
        other = seen.get(key)
        if other is not None and other != name:
            warnings.append(
                f"{name!r} looks like the document {other!r} (they differ only in case, "
                "spaces, invisible characters or look-alike letters); both are kept, as "
                "two documents"
            )
        seen.setdefault(key, name)
    return warnings
