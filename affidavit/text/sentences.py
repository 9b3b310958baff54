"""Prose to sentences by the rule of spaCy's sentencizer, one tokenizer per language; and
sentence ends read by rule in a line already split."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from functools import lru_cache
from threading import Lock

import numpy as np
import spacy
from spacy.attrs import IDX, IS_PUNCT, ORTH
from spacy.language import Language
from spacy.pipeline import Sentencizer

from affidavit.text.abbreviations import is_abbreviation
from affidavit.text.list_labels import is_label_alone

# The sentencizer keeps punctuation after a full stop on the sentence it ends, so an
# opener of the next sentence ("¿", "¡", "#", "(", "“") is carried over to where it belongs.
# Straight quotes are left alone: after a full stop they usually close.
_STRAY_OPENER = re.compile(r"(?<=[.!?…])([\s]*)([¿¡#(\[“‘«]+)$")
# A cut followed by a lower-case word or an operator is a false end: "(p − 1)! + 1", "etc. and".
_FALSE_START = re.compile(r"^[a-zà-ÿğışç+\-*/=<>×÷−]")
# A paragraph longer than this is cut before spaCy sees it (spaCy's own max_length guard).
_MAX_PARAGRAPH = 900_000
# Paragraphs are tokenized together up to about this many characters: the arrays of a run
# stay small, and a long file is not one Doc.
_RUN_CHARS = 200_000
_BETWEEN = "\n\n"


# NOTE: the statistical parser would be slower by two orders of magnitude for a small gain;
# the rule-based sentencizer splits a megabyte in about a second.
@lru_cache(maxsize=4)
def _pipeline(language: str) -> Language:
    nlp = spacy.blank(language if language in ("en", "es", "tr") else "en")
    nlp.add_pipe("sentencizer")
    nlp.max_length = _MAX_PARAGRAPH + 1
    return nlp


@lru_cache(maxsize=4)
def _stops(language: str) -> np.ndarray:
    """The string ids of the characters after which the sentencizer ends a sentence."""
    nlp = _pipeline(language)
    sentencizer: Sentencizer = nlp.get_pipe("sentencizer")  # type: ignore[assignment]
    chars = sentencizer.punct_chars
    return np.asarray(sorted(nlp.vocab.strings.add(c) for c in chars), dtype=np.uint64)


def split_sentences(paragraphs: Iterable[str], language: str = "en") -> Iterator[list[str]]:
    """Yield, for each paragraph, its sentences (verbatim, stripped, never empty).

    A paragraph split before (a document stored again, a new version of one) is taken
    from a bounded memory of recent splits, so a document that repeats another costs
    little more than reading it. An ingest of many files splits them on its bounded
    readers, a file each (ingest/files.py).
    """
    pending: list[tuple[str, list[str] | None]] = []
    size = 0
    for paragraph in paragraphs:
        paragraph = paragraph[:_MAX_PARAGRAPH]
        known = _SPLITS.get((language, paragraph))
        pending.append((paragraph, known))
        if known is None:
            size += len(paragraph) + len(_BETWEEN)
        if size >= _RUN_CHARS or len(pending) >= _RUN_PARAGRAPHS:
            yield from _split_pending(pending, language)
            pending, size = [], 0
    if pending:
        yield from _split_pending(pending, language)


def _split_pending(
    pending: list[tuple[str, list[str] | None]], language: str
) -> Iterator[list[str]]:
    """The sentences of each pending paragraph, in order: those remembered as they were,
    the rest split together as one run and remembered."""
    unknown = [paragraph for paragraph, known in pending if known is None]
    fresh = iter(list(_split_run(unknown, language)) if unknown else [])
    for paragraph, known in pending:
        if known is None:
            known = next(fresh)
            _SPLITS.put((language, paragraph), known)
        yield list(known)


class _Splits:
    """The most recent paragraphs' sentences, the oldest forgotten first."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._held: OrderedDict[tuple[str, str], list[str]] = OrderedDict()
        self._lock = Lock()  # batch workers' threads may share this process's memory

    def get(self, key: tuple[str, str]) -> list[str] | None:
        if len(key[1]) < _REMEMBERED_CHARS:
            return None
        with self._lock:
            found = self._held.get(key)
            if found is not None:
                self._held.move_to_end(key)
            return found

    def put(self, key: tuple[str, str], sentences: list[str]) -> None:
        if len(key[1]) < _REMEMBERED_CHARS:
            return
        with self._lock:
            self._held[key] = list(sentences)
            while len(self._held) > self._size:
                self._held.popitem(last=False)


# Paragraphs shorter than this are split again (cheaper than remembering); up to
# _REMEMBERED paragraphs are remembered (about a 10 MB document's worth).
_REMEMBERED_CHARS = 80
_REMEMBERED = 30_000
_SPLITS = _Splits(_REMEMBERED)
# A run of pending paragraphs is split once it holds this many, whatever their size.
_RUN_PARAGRAPHS = 5_000


# NOTE: the sentencizer read each paragraph as a spaCy Doc of its own and walked it a token
# object at a time; splitting text already seen took 1.27 s a 6 MB pass that way, 1.12 s
# now, and leaves the collector far fewer objects. Here the paragraphs of a run are
# tokenized as one text, joined by blank lines, and the sentencizer's rule is applied to
# the whole run's token arrays at once. spaCy cuts a text at whitespace before it
# tokenizes a piece, so a paragraph's tokens are the same either way, and the blank line
# between two paragraphs is a token of its own that ends what the paragraph before said
# (tests/text/test_sentences.py compares with the pipeline on corpora and on generated text).
def _split_run(paragraphs: list[str], language: str) -> Iterator[list[str]]:
    """The sentences of each paragraph, as the sentencizer cuts a Doc of each alone.

    Its rule: after a stop character (".", "?", ...), a sentence starts at the first
    token that is neither a stop nor punctuation ("plain"). So a plain token starts a
    sentence when a stop stands between it and the plain token before it. Each
    paragraph's first token starts one too; the blank line before it is a plain token,
    so nothing said before it carries over."""
    nlp = _pipeline(language)
    text = _BETWEEN.join(paragraphs)
    lengths = np.asarray([len(p) for p in paragraphs], dtype=np.int64)
    ends = np.cumsum(lengths + len(_BETWEEN)) - len(_BETWEEN)
    begins = ends - lengths
    tokens = nlp.tokenizer(text).to_array([ORTH, IS_PUNCT, IDX])
    stop = np.isin(tokens[:, 0], _stops(language))
    plain = ~stop & (tokens[:, 1] == 0)
    at = tokens[:, 2].astype(np.int64)
    stops_so_far = np.cumsum(stop)
    plains = np.flatnonzero(plain)
    before = np.concatenate(([0], stops_so_far[plains[:-1]]))
    by_rule = plains[stops_so_far[plains] > before]
    firsts = np.searchsorted(at, begins)  # each paragraph's first token, if it has one
    starts = np.union1d(at[by_rule], at[firsts[firsts < at.size]])
    lows, highs = np.searchsorted(starts, begins), np.searchsorted(starts, ends)
    for end, low, high in zip(ends.tolist(), lows.tolist(), highs.tolist(), strict=True):
        cuts = _past_abbreviations(
            text, _past_labels(text, [*starts[low:high].tolist(), end]), language
        )
        sentences = [text[cuts[i] : cuts[i + 1]].strip() for i in range(len(cuts) - 1)]
        yield _move_openers([s for s in sentences if s])


def _past_labels(text: str, cuts: list[int]) -> list[int]:
    """``cuts`` without those that leave a list label alone ("1.", "(a) *Scope.*",
    '1.1. "') or a caption's label ("Table 324.", "Figure 2."): the label opens the
    sentence after it, as written (a report's "Table 324. Arrests by Sex and Age: 2009"
    is one line, its title with its number)."""
    kept = cuts[:1]
    for cut in cuts[1:-1]:
        piece = text[kept[-1] : cut]
        if not (is_label_alone(piece) or _CAPTION.fullmatch(piece)):
            kept.append(cut)
    return [*kept, cuts[-1]] if len(cuts) > 1 else kept


# A caption's label alone: the word for a table, a figure, a chart or an exhibit and its
# number ("Table 324.", "Figure 2-1.", "Tabla 3.", "Şekil 4.").
_CAPTION = re.compile(
    r"\s*(?:Table|TABLE|Figure|FIGURE|Chart|CHART|Exhibit|EXHIBIT|Tabla|Figura|Tablo|Şekil)"
    r"\s+[A-Z]?\d{1,4}(?:[.-]\d{1,3})*[A-Za-z]?\.\s*"
)


# The last word of a piece and the first of the next, as written ("Cat." / "No. 11327A").
_LAST_WORD = re.compile(r"(\w+)\.\s*$")
_OPENS_A_REFERENCE = re.compile(r"\s*(?:\d|(\w+)\.)")


def _past_abbreviations(text: str, cuts: list[int], language: str) -> list[int]:
    """``cuts`` without those made at the full stop of a written abbreviation that goes on
    into a number or another abbreviation ("Cat. No. 11327A", "Fig. 3", "Tel. 555 0100"):
    the sentencizer takes each full stop for an end, and a form's catalogue number was
    stored as three lines, "Cat.", "No." and "11327A"."""
    kept = cuts[:1]
    for at, cut in enumerate(cuts[1:-1], start=1):
        last = _LAST_WORD.search(text, kept[-1], cut)
        following = _OPENS_A_REFERENCE.match(text, cut, cuts[at + 1])
        goes_on = (
            last is not None
            and is_abbreviation(last.group(1), language)
            and following is not None
            and (following.group(1) is None or is_abbreviation(following.group(1), language))
        )
        if not goes_on:
            kept.append(cut)
    return [*kept, cuts[-1]] if len(cuts) > 1 else kept


def _move_openers(sentences: list[str]) -> list[str]:
    fixed: list[str] = []
    carry = ""
    for sentence in sentences:
        sentence = carry + sentence
        carry = ""
        if fixed and _FALSE_START.match(sentence):
            fixed[-1] = f"{fixed[-1]} {sentence}"
            continue
        stray = _STRAY_OPENER.search(sentence)
        if stray and stray.start(1) > 0:
            carry = stray.group(2)
            sentence = sentence[: stray.start(1)].rstrip()
        if sentence:
            fixed.append(sentence)
    if carry:
        if fixed:
            fixed[-1] += carry
        else:
            fixed.append(carry)
    return fixed


# -- a piece of a row that says a sentence --

# A sentence that ends and goes on into the next, of three words or more ("Exemptions.
# Multiply $3,800 by ..."); an abbreviation before a word or two ("Subtotaal ex. BTW",
# "BTW nr. NL") ends nothing.
_GOES_ON = re.compile(r"[a-z]{2}[.;]\s+[A-Z][\w’'-]*(?:\s+\S+){2}")


def says_a_sentence(text: str, words: int | None = None) -> bool:
    """Does ``text`` (a cell of a row) say a sentence that goes on into another, or (given
    ``words``) run to that many words with letters (a dot leader is none)? A table's cell
    names a value; a form's line set by rows off a PDF page holds its prose beside the
    line numbers in its margins."""
    if _GOES_ON.search(text):
        return True
    return words is not None and sum(any(c.isalpha() for c in w) for w in text.split()) >= words


# -- sentence ends read by rule, in a line already split --

# A full stop after a word or figure, then a capital: "... in 2019. The ...".
_FULL_STOP = re.compile(r"(?<=[a-z0-9)%])\.\s+(?=[A-Z])")
# Two lower-case letters ending a sentence and a capital opening the next.
_SENTENCE_END_INSIDE = re.compile(r"[a-z]{2}[.!?]\s+[A-Z]")


def before_sentence_end(text: str) -> str:
    """``text`` up to its first full stop that ends a sentence (all of it when none)."""
    return _FULL_STOP.split(text, maxsplit=1)[0]


def ends_a_sentence_inside(line: str) -> bool:
    """Does a sentence end inside ``line``, another opening after it?"""
    return _SENTENCE_END_INSIDE.search(line) is not None
