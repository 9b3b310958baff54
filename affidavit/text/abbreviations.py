"""Abbreviations documents write for the words questions use ("Cat. No." is a catalog
number), read both ways: a line's abbreviations spelled out, a question's words shortened."""

from __future__ import annotations

import re
from functools import lru_cache

from affidavit.text.analyzer import Analyzer
from affidavit.text.words import words

# Forms, registers and reports abbreviate the very words a reader asks with ("What is the
# catalog number?" of a line reading "Cat. No. 11368V"). The table is small and general on
# purpose: no entry is a benchmark's word.
_TABLE: dict[str, dict[str, str]] = {
    "en": {
        "no": "number",
        "cat": "catalog",
        "pub": "publication",
        "publ": "publication",
        "reg": "regulation",
        "regs": "regulations",
        "sec": "section",
        "art": "article",
        "para": "paragraph",
        "ch": "chapter",
        "vol": "volume",
        "fig": "figure",
        "ref": "reference",
        "dept": "department",
        "div": "division",
        "admin": "administration",
        "govt": "government",
        "natl": "national",
        "intl": "international",
        "assn": "association",
        "univ": "university",
        "corp": "corporation",
        "inc": "incorporated",
        "ltd": "limited",
        "co": "company",
        "tel": "telephone",
        "ph": "phone",
        "ext": "extension",
        "amt": "amount",
        "qty": "quantity",
        "approx": "approximately",
        "est": "established",
        "acct": "account",
        "dist": "district",
        "ave": "avenue",
        "blvd": "boulevard",
        "rd": "road",
        "mt": "mount",
        "jan": "january",
        "feb": "february",
        "mar": "march",
        "apr": "april",
        "aug": "august",
        "sep": "september",
        "sept": "september",
        "oct": "october",
        "nov": "november",
        "dec": "december",
    },
    "es": {
        "núm": "número",
        "nº": "número",
        "art": "artículo",
        "pág": "página",
        "tel": "teléfono",
        "dpto": "departamento",
        "admón": "administración",
    },
    "tr": {"no": "numara", "tel": "telefon", "md": "madde"},
}
# A capitalised word of up to six letters closed by a full stop (or "No:" in Turkish forms).
# An abbreviation counts only as written, so "cat." ending a sentence about a pet stays a cat.
_WRITTEN = re.compile(r"(?<![\w.])([A-ZÁÉÍÓÚÑÇĞİÖŞÜ][a-záéíóúñçğıöşü]{0,5}|[A-Z]{2,6})[.:]")


def is_abbreviation(word: str, language: str = "en") -> bool:
    """Whether ``word`` (as written, before its full stop) is a written abbreviation."""
    return bool(_WRITTEN.fullmatch(word + ".")) and word.casefold() in _TABLE.get(
        language, _TABLE["en"]
    )


def expansion_terms(text: str, analyzer: Analyzer) -> frozenset[str]:
    """Index terms of the full words that ``text``'s written abbreviations stand for."""
    table = _TABLE.get(analyzer.language, _TABLE["en"])
    found = set()
    for match in _WRITTEN.finditer(text):
        full = table.get(match.group(1).casefold())
        if full is not None:
            found.update(analyzer.terms(full))
    return frozenset(found)


@lru_cache(maxsize=8)
def _short_forms(language: str) -> dict[str, str]:
    analyzer = Analyzer(language)
    reverse: dict[str, str] = {}
    for short, full in sorted(_TABLE.get(language, _TABLE["en"]).items()):
        for term in analyzer.terms(full):
            # Stop words ("no") cannot be searched for; the first abbreviation listed wins.
            if analyzer.term(short) is not None:
                reverse.setdefault(term, short)
    return reverse


def short_form(term: str, language: str = "en") -> str | None:
    """The index term of the abbreviation a document may write for ``term``, if any."""
    short = _short_forms(language).get(term)
    return Analyzer(language).term(short) if short is not None else None


# Question phrases whose answer a document writes with another word: a deadline is what
# a form says something is "due" by.
_PHRASES: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "en": ((re.compile(r"\bby what date\b|\bdeadline\b|\bwhen must\b", re.I), "due"),),
    "es": ((re.compile(r"\bplazo\b|\bfecha l[íi]mite\b|\bhasta qu[ée] fecha\b", re.I), "vence"),),
    "tr": ((re.compile(r"\bson tarih|\bne zamana kadar\b", re.I), "kadar"),),
}


def short_forms(text: str, language: str = "en") -> list[str]:
    """Words a document may write for ``text``'s: its abbreviations ("catalog" -> "cat"),
    and "due" for a deadline."""
    analyzer = Analyzer(language)
    reverse = _short_forms(language)
    found = [word for pattern, word in _PHRASES.get(language, ()) if pattern.search(text)]
    for word in words(text, language):
        term = analyzer.term(word)
        short = reverse.get(term) if term is not None else None
        if short is not None and short not in found:
            found.append(short)
    return found
