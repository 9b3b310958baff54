"""LoCoMo's question-answering score, re-implemented from its published rules.

The rules are those of ``task_eval/evaluation.py`` in snap-research/LoCoMo (Maharana et
al., "Evaluating Very Long-Term Conversational Memory of LLM Agents", ACL 2024), written
here afresh:

- an answer is normalised by dropping commas, lower-casing, dropping punctuation, dropping
  the words "a", "an", "the" and "and", and collapsing white space; its tokens are then
  Porter-stemmed (NLTK's ``PorterStemmer``, as there);
- token F1 is the harmonic mean of the shared-token precision and recall (0 when no token
  is shared);
- category 1 (multi-hop): the gold and the prediction are split on commas; each gold part
  takes its best F1 against any predicted part, and the parts' mean is the score;
- categories 2 (temporal) and 4 (single-hop): token F1; category 3 (open-domain): token F1
  against the gold's text before its first ";";
- category 5 (adversarial, unanswerable): 1 when the prediction says "no information
  available" or "not mentioned", else 0. A refusal is scored as the prediction "Not
  mentioned in the conversation."

Also here: when a temporal gold names a date, the interval of days it names (``gold_days``)
so a benchmark can tell whether an answer named the right date, not only shared words.
"""

from __future__ import annotations

import calendar
import re
import string
from collections import Counter
from datetime import date, timedelta

import dateparser
from nltk.stem import PorterStemmer

REFUSAL_SAID = "Not mentioned in the conversation."
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}

_STEMMER = PorterStemmer()
_DROPPED_WORDS = re.compile(r"\b(a|an|the|and)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)


def normalised(text: str) -> str:
    text = text.replace(",", "").lower().translate(_PUNCTUATION)
    return " ".join(_DROPPED_WORDS.sub(" ", text).split())


def _tokens(text: str) -> list[str]:
    return [_STEMMER.stem(word) for word in normalised(text).split()]


def token_f1(prediction: str, gold: str) -> float:
    predicted, wanted = _tokens(prediction), _tokens(gold)
    shared = sum((Counter(predicted) & Counter(wanted)).values())
    if shared == 0:
        return 0.0
    precision, recall = shared / len(predicted), shared / len(wanted)
    return 2 * precision * recall / (precision + recall)


def _parts_f1(prediction: str, gold: str) -> float:
    predicted = [p.strip() for p in prediction.split(",")]
    wanted = [g.strip() for g in gold.split(",")]
    return sum(max(token_f1(p, g) for p in predicted) for g in wanted) / len(wanted)


def score(category: int, prediction: str, gold: str) -> float:
    """LoCoMo's score of ``prediction`` for a question of ``category`` with ``gold``."""
    if category == 5:
        said = prediction.lower()
        return float("no information available" in said or "not mentioned" in said)
    if category == 1:
        return _parts_f1(prediction, gold)
    if category == 3:
        gold = gold.split(";")[0].strip()
    return token_f1(prediction, gold)


def best_span_f1(text: str, gold: str, longest: int = 25) -> float:
    """The token F1 of the best run of at most ``longest`` words of ``text``: what an
    extractive reader that always chose the best words of ``text`` would score."""
    wanted = Counter(_tokens(gold))
    if not wanted:
        return 0.0
    size = sum(wanted.values())
    words = [_tokens(word) for word in text.split()]
    best = 0.0
    for start in range(len(words)):
        held: Counter[str] = Counter()
        shared = length = 0
        for tokens in words[start : start + longest]:
            for token in tokens:
                held[token] += 1
                length += 1
                if held[token] <= wanted[token]:
                    shared += 1
            if shared:
                precision, recall = shared / length, shared / size
                best = max(best, 2 * precision * recall / (precision + recall))
    return best


# -- the days a temporal gold names --

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "a": 1}
_BEFORE = re.compile(
    r"^(?:the\s+)?(?:(?P<n>\d+|one|two|three|four|a)\s+)?"
    r"(?P<unit>" + "|".join(_WEEKDAYS) + r"|week|weekend|day)s?\s+(?P<side>before|after|of)\s+"
    r"(?P<anchor>.+)$",
    re.I,
)
_DATE_ONLY = re.compile(r"(?:\d{1,2}\s+)?[A-Za-z]+\.?,?\s*(?:\d{1,2},?\s+)?\d{4}|\d{4}")
_DAY_SETTINGS = {"DATE_ORDER": "DMY", "PREFER_DAY_OF_MONTH": "first"}


def written_days(text: str) -> tuple[date, date] | None:
    """The days a written date names: "7 May 2023" one day, "June 2023" a month, "2022" a
    year; None for anything else (a date without its year included). Glued forms of the
    gold ("21January, 2022") are read apart; a leading "in" or "on" is dropped."""
    text = re.sub(r"(\d)([A-Za-z])", r"\1 \2", text.strip().rstrip("."))
    text = re.sub(r"^(?:in|on)\s+", "", text, flags=re.I)
    if not _DATE_ONLY.fullmatch(text):
        return None
    if re.fullmatch(r"\d{4}", text):
        year = int(text)
        return date(year, 1, 1), date(year, 12, 31)
    if not re.search(r"\b\d{4}\b", text):
        return None
    parsed = dateparser.parse(text, languages=["en"], settings=_DAY_SETTINGS)
    if parsed is None:
        return None
    if re.search(r"\b\d{1,2}\b", re.sub(r"\b\d{4}\b", "", text)):
        return parsed.date(), parsed.date()
    last = calendar.monthrange(parsed.year, parsed.month)[1]
    return date(parsed.year, parsed.month, 1), date(parsed.year, parsed.month, last)


def is_relative(gold: str) -> bool:
    """A gold written as a day counted from another ("The Friday before 15 July 2023")."""
    return _BEFORE.match(gold.replace("`", "").strip()) is not None


def gold_days(gold: str) -> tuple[date, date] | None:
    """The first and last day a temporal gold answer names, or None when it names no
    placeable date ("10 years ago", "13 August")."""
    found = _BEFORE.match(gold.replace("`", "").strip())
    if not found:
        return written_days(gold)
    anchor = written_days(found.group("anchor"))
    if anchor is None or anchor[0] != anchor[1]:
        return None
    day, unit = anchor[0], found.group("unit").lower()
    count = found.group("n")
    n = 1 if count is None else (int(count) if count.isdigit() else _COUNTS[count.lower()])
    side = found.group("side").lower()
    if side != "before":
        return _after_or_of(day, unit, n, side)
    if unit == "day":
        return day - timedelta(days=n), day - timedelta(days=n)
    if unit == "week":
        return day - timedelta(days=7 * n), day - timedelta(days=7 * (n - 1) + 1)
    if unit == "weekend":
        saturday = day - timedelta(days=(day.weekday() - 5) % 7 or 7)
        if saturday + timedelta(days=1) >= day:
            saturday -= timedelta(days=7)
        saturday -= timedelta(days=7 * (n - 1))
        return saturday, saturday + timedelta(days=1)
    back = (day.weekday() - _WEEKDAYS.index(unit)) % 7 or 7
    named = day - timedelta(days=back + 7 * (n - 1))
    return named, named


def _after_or_of(day: date, unit: str, n: int, side: str) -> tuple[date, date] | None:
    """ "the weekend after D", "the week of D", "Saturday after D": the days they name."""
    if unit == "day":
        return None
    monday = day - timedelta(days=day.weekday())
    if unit in ("week", "weekend"):
        first = monday if unit == "week" else monday + timedelta(days=5)
        length = 6 if unit == "week" else 1
        if side == "after":
            if unit == "week":
                return day + timedelta(days=1), day + timedelta(days=7 * n)
            if first <= day:
                first += timedelta(days=7)
        return first, first + timedelta(days=length)
    if side == "of":
        return None
    ahead = (_WEEKDAYS.index(unit) - day.weekday()) % 7 or 7
    named = day + timedelta(days=ahead + 7 * (n - 1))
    return named, named


def right_date(named: tuple[date, date] | None, gold: tuple[date, date]) -> bool:
    """The answer named a date within the gold's days (a day inside the gold's week is
    right; a month around the gold's day is not: it is less than was asked)."""
    return named is not None and gold[0] <= named[0] and named[1] <= gold[1]
