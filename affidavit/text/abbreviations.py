"""Abbreviations documents write for the words questions use ("Cat. No." is a catalog
number), read both ways: a line's abbreviations spelled out, a question's words shortened;
"No." written for a number, which says no "no"; the bounds a line sets as a question names
them ("at least 8" is a minimum); and the letters a question asks to have spelled out, as
a line spells them beside their words ("Intent To Package (ITP)")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from affidavit.text.analyzer import Analyzer, analyzer_for
from affidavit.text.lang import vocabulary
from affidavit.text.tokens import fold, words, written_word_spans


# Forms, registers and reports abbreviate the very words a reader asks with ("What is the
# catalog number?" of a line reading "Cat. No. 11368V"). Each language's table is small and
# general on purpose (text/lang): no entry is a benchmark's word.
def _table(language: str) -> dict[str, str]:
    return vocabulary(language).abbreviations


# A capitalised word of up to six letters closed by a full stop (or "No:" in Turkish forms).
# An abbreviation counts only as written, so "cat." ending a sentence about a pet stays a cat.
_WRITTEN = re.compile(r"(?<![\w.])([A-ZÁÉÍÓÚÑÇĞİÖŞÜ][a-záéíóúñçğıöşü]{0,5}|[A-Z]{2,6})[.:]")


def is_abbreviation(word: str, language: str = "en") -> bool:
    """Whether ``word`` (as written, before its full stop) is a written abbreviation."""
    return bool(_WRITTEN.fullmatch(word + ".")) and fold(word, language) in _table(language)


def expansion_terms(text: str, analyzer: Analyzer) -> frozenset[str]:
    """Index terms of the full words that ``text``'s written abbreviations stand for."""
    found: frozenset[str] = frozenset()
    for match in _WRITTEN.finditer(text):
        found |= _expansion(match.group(1), analyzer)
    return found


@lru_cache(maxsize=16)
def abbreviated_terms(analyzer: Analyzer) -> frozenset[str]:
    """Every index term some abbreviation of the language stands for: a line's
    abbreviations cannot spell out a term outside these."""
    table = _table(analyzer.language)
    return frozenset(term for full in table.values() for term in analyzer.terms(full))


@lru_cache(maxsize=4096)
def _expansion(written: str, analyzer: Analyzer) -> frozenset[str]:
    """The index terms one written abbreviation stands for (none: not one): "Mr." is
    written on most lines of a novel, and the census reads hundreds a question."""
    full = _table(analyzer.language).get(fold(written, analyzer.language))
    return frozenset() if full is None else frozenset(analyzer.terms(full))


@lru_cache(maxsize=8)
def _short_forms(language: str) -> dict[str, str]:
    analyzer = Analyzer(language)
    reverse: dict[str, str] = {}
    for short, full in sorted(_table(language).items()):
        for term in analyzer.terms(full):
            # Stop words ("no") cannot be searched for; the first abbreviation listed wins.
            if analyzer.term(short) is not None:
                reverse.setdefault(term, short)
    return reverse


def short_form(term: str, language: str = "en") -> str | None:
    """The index term of the abbreviation a document may write for ``term``, if any."""
    short = _short_forms(language).get(term)
    return Analyzer(language).term(short) if short is not None else None


def short_forms_of(terms: Iterable[str], language: str = "en") -> dict[str, str]:
    """The index term of the abbreviation a document may write for each of ``terms`` ->
    the term it stands for ("cat" -> "catalog")."""
    return {short: term for term in sorted(terms) if (short := short_form(term, language))}


# "No." written for "number" ("Cat. No. 11327A", "Invoice No.: 4411", "No. of
# employees", "Phone No:", "Registration No 55"), which is no negation: with its full stop
# before a figure or "of", or after a capitalised word of its line before a figure, a
# colon or the line's end. "No." said alone, or after "said", is still the word no.
_NUMBER_SIGN = re.compile(r"\bN[oO]\b(\.)?")
_FIGURE_AFTER = re.compile(r"[ \t]*[:#]?[ \t]*\d|[ \t]+of\b")
_FIELD_AFTER = re.compile(r"[ \t]*(?:[:#]|\d|\n|\Z)")
_CAPITALISED_BEFORE = re.compile(r"\b[A-Z][\w&-]*\.?[ \t]+\Z")


def without_number_signs(text: str) -> str:
    """``text`` with each "No." that stands for "number" blanked out (same length)."""
    if "N" not in text:
        return text
    pieces: list[str] = []
    last = 0
    for match in _NUMBER_SIGN.finditer(text):
        after = text[match.end() :]
        before = text[max(0, match.start() - 40) : match.start()].rsplit("\n", 1)[-1]
        stopped = match.group(1) is not None
        if (stopped and _FIGURE_AFTER.match(after)) or (
            _CAPITALISED_BEFORE.search(before) and _FIELD_AFTER.match(after)
        ):
            pieces += [text[last : match.start()], " " * (match.end() - match.start())]
            last = match.end()
    return "".join(pieces) + text[last:] if pieces else text


# The bounds a document writes for the words a question asks with: "at least 8
# characters" is a minimum length, "no more than 100 attempts" a maximum. "Up to" counts
# only before a figure ("up to $1,000", not "up to date").
_BOUNDS: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "en": (
        (
            re.compile(
                r"\bat least\b|\b(?:no|not) (?:less|fewer|shorter) than\b|"
                r"\bor (?:more|greater|longer)\b",
                re.I,
            ),
            "minimum",
        ),
        (
            re.compile(
                r"\bat most\b|\b(?:no|not) (?:more|greater|longer) than\b|"
                r"\bup to(?=\s+[$€£]?\d)|\b(?:not|never) (?:to )?exceed|\bor (?:less|fewer)\b",
                re.I,
            ),
            "maximum",
        ),
    ),
    "es": (
        (re.compile(r"\bal menos\b|\bcomo m[ií]nimo\b|\bno menos de\b", re.I), "mínimo"),
        (re.compile(r"\bcomo m[aá]ximo\b|\bno m[aá]s de\b", re.I), "máximo"),
    ),
}


def bound_terms(text: str, analyzer: Analyzer) -> frozenset[str]:
    """Index terms of the bounds ``text`` writes as a question names them: a line saying
    "at least 8 characters" carries "minimum", one saying "no more than 100" "maximum"."""
    named = [word for pattern, word in _BOUNDS.get(analyzer.language, ()) if pattern.search(text)]
    return frozenset(analyzer.terms(" ".join(named))) if named else frozenset()


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


def acronyms(text: str) -> list[str]:
    """The words ``text`` writes in capitals, as a name is shortened ("LGPL", "CC0",
    "NICS"): two letters at least, opening on a letter."""
    written = (text[start:end] for start, end in written_word_spans(text))
    return [
        word
        for word in written
        if len(word) >= 2 and word[0].isalpha() and word.upper() == word and word.lower() != word
    ]


# Words a capitalised name runs through without their initial counting: "Court of
# Justice of the European Union" is the CJEU.
_NAME_JOINS = frozenset({"of", "the", "and", "for", "on", "de", "del", "la", "y"})
_NAME_RUN_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def initialisms(text: str) -> frozenset[str]:
    """The initials of the names ``text`` writes in capitalised words, folded: "European
    Union" is "eu", "General Data Protection Regulation" "gdpr". A line writing the name
    carries the acronym a question asks by ("EU institutions"). A name is two capitalised
    words at least, written one space apart; its joining words ("of", "the": "Court of
    Justice of the European Union" is "cjeu") carry no initial, and its opening "The" is
    left out. A name's opening and closing names count too ("Python Software Foundation
    License" is also "psf"; "Court of Justice of the European Union" also "eu")."""
    found: set[str] = set()
    run: list[str] = []
    joined = 0  # joining words read since the run's last capitalised word
    end = 0

    def close() -> None:
        initials = "".join(word[0] for word in run).lower()
        for size in range(2, len(initials) + 1):
            found.update((initials[:size], initials[-size:]))

    for match in _NAME_RUN_WORD.finditer(text):
        word = match.group(0)
        if run and text[end : match.start()] != " ":
            close()
            run, joined = [], 0
        end = match.end()
        if word[:1].isupper() and (run or word not in ("The", "A", "An")):
            run.append(word)
            joined = 0
        elif run and word in _NAME_JOINS and joined < 2:
            joined += 1
        else:
            close()
            run, joined = [], 0
    close()
    return frozenset(found)


def initial_terms(text: str, analyzer: Analyzer) -> frozenset[str]:
    """The index terms of ``initialisms(text)``: what a line carries as evidence for a
    question that asks by a name's acronym."""
    return _initial_terms(text, analyzer.language)


@lru_cache(maxsize=8192)
def _initial_terms(text: str, language: str) -> frozenset[str]:
    analyzer = analyzer_for(language)
    return frozenset(t for t in map(analyzer.term, initialisms(text)) if t is not None)


# "What does DFSG stand for?", "What is PPE short for?": the words whose initials spell
# the letters the question writes ("Debian Free Software Guidelines"). A name's joining
# words may lend no initial ("Globally Harmonized System of Classification ..."), and
# words joined by a hyphen are each a word ("Self-Contained Breathing Apparatus").
_ASKS_EXPANSION = re.compile(r"\bstands? for\b|\bshort for\b|\b(?:full|long) form of\b", re.I)
_JOINS = frozenset({"of", "the", "and", "for", "to", "in", "on", "a", "an", "de", "la", "y"})
_WORD_PIECE = re.compile(r"[^\W_]+")
# Letters in brackets after the words they spell ("Intent To Package (ITP)") or before
# them ("ITP (Intent To Package)"); the words run back from the bracket at most this far.
_SPELLED_WORDS = 12


def letters_asked(question: str) -> str | None:
    """The letters a question asks to have spelled out ("DFSG"), when it asks that."""
    if not _ASKS_EXPANSION.search(question):
        return None
    letters = acronyms(question)
    return letters[0] if len(letters) == 1 else None


def spells(words: str, letters: str) -> bool:
    """Do the initials of ``words`` (or of its words but the joining ones) open with
    ``letters``?"""
    wanted = _letters(letters)
    return bool(wanted) and any(initials.startswith(wanted) for initials in _initials(words))


def spelled_in(text: str, letters: str) -> list[str]:
    """The words ``text`` spells ``letters`` out with, beside them in brackets: the fewest
    words before "(ITP)" ('("PSF")', "(PSF, see ...)") whose initials are its letters, or
    the bracket after "ITP (" whose words are."""
    wanted = _letters(letters)
    found: list[str] = []
    quoted = re.escape(letters)
    for match in re.finditer(rf"\(\s*[\"'“‘]?{quoted}[\"'”’]?\s*[),;]", text):
        before = list(re.finditer(r"\S+", text[: match.start()]))[-_SPELLED_WORDS:]
        for first in range(len(before) - 1, -1, -1):
            words = text[before[first].start() : before[-1].end()].strip(" ,;:\"'“”‘’")
            if wanted in _initials(words):
                found.append(words)
                break
    for match in re.finditer(rf"\b{quoted}\s*\(([^()]{{3,120}})\)", text):
        words = match.group(1).strip()
        if wanted in _initials(words):
            found.append(words)
    return found


def _letters(text: str) -> str:
    return "".join(_WORD_PIECE.findall(text)).lower()


def _initials(words: str) -> tuple[str, str]:
    """The initials of every word of ``words``, and of its words but the joining ones."""
    pieces = _WORD_PIECE.findall(words)
    every = "".join(piece[0] for piece in pieces).lower()
    kept = "".join(piece[0] for piece in pieces if piece.lower() not in _JOINS).lower()
    return every, kept
