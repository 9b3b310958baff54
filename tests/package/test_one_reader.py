"""One reader per concept: only the language layer (affidavit/text/) writes a regular
expression for a year, a date, a month or weekday name, a number word, a number, or a
word (a tokenizer); every other room composes its patterns from the layer's pieces.

A pattern is every string literal handed to ``re`` (``re.compile``, ``re.search``, ...),
f-strings by their literal parts: a piece imported from text/ is a name, not a literal,
so composing is allowed and writing the concept again is not. Plain ``str.casefold()`` is
a concept too (Turkish dotted and dotless i): ``text.words.fold`` reads it once.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "affidavit"
LANGUAGE_LAYER = PACKAGE / "text"
_RE_CALLS = frozenset(
    {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"}
)

# A year: the century written out, or four digits.
_YEAR = re.compile(r"1\[[0-9-]+\]|\(\?:19\|20\)|19\|20|\\d\{4\}|\\d\{3,4\}|\\d\{2,4\}")
# A number: digits grouped, with a decimal part, or a run of digits and separators.
_NUMBER = re.compile(
    r"\\d\+\(\?:\[[.,]+\]|\\d\[\\d,\.?\]\*|\[\\d,\.?\]\+|\\d\{1,3\}\(\?:,\\d\{3\}\)|\[0-9\]"
)
# A word, as a tokenizer cuts one: a run of word or letter characters with nothing else.
_WORD_CLASS = re.compile(r"\\w|\[\^\\W[^\]]*\]|\[a-z[^\]]*\]|\[A-Z[^\]]*\]")
_LITERAL_WORD = re.compile(r"(?<![\\\[\^?P<])(?<!\(\?P<)[A-Za-z]{2,}")
_MONTHS = (
    "january february march april june july august september october november december "
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre "
    "diciembre ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık"
).split()
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_NUMBER_WORDS = (
    "two three four five six seven eight nine eleven twelve twenty thirty forty fifty "
    "hundred thousand million billion dos tres cuatro cinco seis siete ocho nueve diez "
    "iki üç dört beş altı yedi sekiz dokuz yirmi"
).split()


def _literal(node: ast.expr) -> str | None:
    """The pattern's literal text: a string, or an f-string's constant parts joined."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "\x00".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        parts = [_literal(node.left), _literal(node.right)]
        return "\x00".join(p for p in parts if p)
    return None


@cache
def patterns() -> tuple[tuple[str, int, str], ...]:
    """(module path, line, pattern literal) for every pattern outside the language layer."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if LANGUAGE_LAYER in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and node.func.attr in _RE_CALLS
                and node.args
            ):
                continue
            literal = _literal(node.args[0])
            if literal:
                found.append((str(path.relative_to(PACKAGE.parent)), node.lineno, literal))
    return tuple(found)


def _words(pattern: str) -> set[str]:
    return set(re.findall(r"[^\W\d_]+", pattern.lower()))


def concepts(pattern: str) -> list[str]:
    """The concepts a pattern writes that belong to the language layer."""
    found = []
    if _YEAR.search(pattern):
        found.append("a year")
    if _NUMBER.search(pattern):
        found.append("a number")
    words = _words(pattern)
    if words & set(_MONTHS) or words & set(_WEEKDAYS):
        found.append("a month or weekday name")
    if words & set(_NUMBER_WORDS):
        found.append("number words")
    if _WORD_CLASS.search(pattern) and not _LITERAL_WORD.search(pattern):
        found.append("a word (a tokenizer)")
    return found


def test_the_concept_checks_recognise_what_they_are_for() -> None:
    assert concepts(r"(?<![\d.,])((?:19|20)\d\d)(?![\d,%])") == ["a year"]
    assert concepts(r"\b(\d{1,2}),((?:19|20)\d\d)\b") == ["a year"]
    assert "a number" in concepts(r"(\d{1,3}(?:,\d{3})+(?!\d)|\d+)(\.\d+)?")
    assert concepts(r"[^\W\d_]+") == ["a word (a tokenizer)"]
    assert concepts(r"[^\W_]+(?:'[^\W_]+)?") == ["a word (a tokenizer)"]
    assert concepts(r"\byesterday\b|\blast (?:monday|week)\b") == ["a month or weekday name"]
    assert concepts(r"\b(?:one|two|three)\s+days\b") == ["number words"]
    assert concepts(r"^\s*how many days\s+between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$") == []
    assert concepts(r"\s+(?:and|y|ve)\s+|,\s*") == []


def test_only_the_language_layer_writes_a_year_a_date_a_number_or_a_word() -> None:
    found = [
        f"{path}:{line}: {', '.join(kinds)}: {pattern!r}"
        for path, line, pattern in patterns()
        if (kinds := concepts(pattern))
    ]
    assert not found, "patterns to compose from affidavit/text/:\n" + "\n".join(found)


def test_only_the_language_layer_folds_case() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if LANGUAGE_LAYER in path.parents:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ".casefold()" in line:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()}")
    assert not found, "plain casefold() outside text/ (use text.words.fold):\n" + "\n".join(found)
