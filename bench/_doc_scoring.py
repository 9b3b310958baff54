"""How bench/doc_qa.py judges an answer: right by SQuAD's normalisation, and digit faults.

A quoted line (``answer.quoted``) is judged by ``quote_holds``, apart from the spans.
Right: after SQuAD's normalisation the answer equals a gold answer; or the gold's words
stand together in an answer of at most twice the gold's words; or the value equals a
gold (normalised, or as the same number). Where the scorer is given the question, a gold
without the words the question itself writes is a gold too ("80" for "under 80
characters" asked "Under how many characters ...?"). A digit fault is a digit run of the answer's
text or value that no cited line carries (thousands separators and leading zeros aside;
month names, number words and two-digit years count as carried).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from typing import Any

# -- judging an answer --

_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCTUATION = frozenset(string.punctuation)
_NUMBER = re.compile(r"[$]?-?\d[\d,]*(?:\.\d+)?")


def normalize(text: str) -> str:
    """SQuAD's normalisation: lower case, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def _as_number(text: str) -> float | None:
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        return None
    return float(text.replace("$", "").replace(",", ""))


def holds(tokens: Sequence[str], part: Sequence[str]) -> bool:
    width = len(part)
    return any(list(tokens[i : i + width]) == list(part) for i in range(len(tokens) - width + 1))


def unasked(gold: str, question: str) -> str:
    """``gold`` without the words ``question`` itself writes (normalised), or "" when none
    would be left: "under 80 characters" asked "Under how many characters ...?" is "80".
    An answer need not say again what the question says, as SQuAD's answers are the
    shortest span; the rule is the same for every system and baseline scored."""
    asked = set(normalize(question).split())
    kept = [word for word in normalize(gold).split() if word not in asked]
    return " ".join(kept)


def is_right(text: str, value: Any, golds: Iterable[str], question: str | None = None) -> bool:
    """The answer rule of the module docstring: equal, or gold inside a short answer, or
    value; with ``question``, each gold without the question's own words counts too."""
    golds = list(golds)
    if question is not None:
        golds += [short for gold in golds if (short := unasked(gold, question))]
    said = normalize(text).split()
    for gold in golds:
        wanted = normalize(gold).split()
        if not wanted:
            continue
        if said == wanted or (holds(said, wanted) and len(said) <= 2 * len(wanted)):
            return True
        if value is not None:
            if normalize(str(value)).split() == wanted:
                return True
            number, gold_number = _as_number(str(value)), _as_number(gold)
            if number is not None and number == gold_number:
                return True
    return False


def quote_holds(text: str, golds: Iterable[str]) -> bool:
    """Does a quoted line (an answer said as its whole line) hold a gold answer's words
    together? Such an answer is neither right (it is no span) nor wrong: it is counted
    apart, as "quoted"; a quote that holds no gold is wrong."""
    said = normalize(text.strip("“”")).split()
    return any((wanted := normalize(gold).split()) and holds(said, wanted) for gold in golds)


# -- digit faults --

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_RUN = re.compile(r"\d+")
_SHORT_DATE = re.compile(r"\b\d{1,2}/\d{1,2}/(\d{2})\b")
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
            ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
            ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
            ("december", "dec"),
        ),
        1,
    )
    for name in names
}  # fmt: skip
_NUMBER_WORDS = {
    word: number
    for number, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
     "ninety": 90, "hundred": 100, "thousand": 1000}  # fmt: skip
_WORD = re.compile(r"[a-z]+")


def digit_runs(text: str) -> set[str]:
    """The digit runs of text, thousands separators removed, leading zeros dropped."""
    return {run.lstrip("0") or "0" for run in _RUN.findall(_THOUSANDS.sub("", text))}


def carried(lines: Iterable[str]) -> set[str]:
    """Every digit run the cited lines carry, with month names, number words and yy years."""
    runs: set[str] = set()
    for line in lines:
        runs |= digit_runs(line)
        for word in _WORD.findall(line.lower()):
            if word in _MONTHS:
                runs.add(str(_MONTHS[word]))
            elif word in _NUMBER_WORDS:
                runs.add(str(_NUMBER_WORDS[word]))
        for year in _SHORT_DATE.findall(line):
            runs |= {f"19{year}", f"20{year}"}
    return runs


def digit_fault(text: str, value: Any, cited: Sequence[str]) -> list[str]:
    """The digit runs of the answer (text and value) that no cited line carries."""
    said = digit_runs(text) | (digit_runs(str(value)) if value is not None else set())
    return sorted(said - carried(cited), key=lambda run: (len(run), run))
