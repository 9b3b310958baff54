"""Prose to sentences with spaCy's rule-based sentencizer, one blank pipeline per language.

The statistical parser would be slower by two orders of magnitude for a small gain; the
sentencizer splits a megabyte in about a second. Sentences are returned as written. An
ingest of many files splits them on its bounded readers, a file each (ingest/files.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

import spacy
from spacy.language import Language

# The sentencizer keeps punctuation after a full stop on the sentence it ends, so an
# opener of the next sentence ("¿", "¡", "#", "(", "“") is carried over to where it belongs.
# Straight quotes are left alone: after a full stop they usually close.
_STRAY_OPENER = re.compile(r"(?<=[.!?…])([\s]*)([¿¡#(\[“‘«]+)$")
# A cut followed by a lower-case word or an operator is a false end: "(p − 1)! + 1", "etc. and".
_FALSE_START = re.compile(r"^[a-zà-ÿğışç+\-*/=<>×÷−]")
# A paragraph longer than this is cut before spaCy sees it (spaCy's own max_length guard).
_MAX_PARAGRAPH = 900_000


@lru_cache(maxsize=4)
def _pipeline(language: str) -> Language:
    nlp = spacy.blank(language if language in ("en", "es", "tr") else "en")
    nlp.add_pipe("sentencizer")
    nlp.max_length = _MAX_PARAGRAPH + 1
    return nlp


def split_sentences(paragraphs: Iterable[str], language: str = "en") -> Iterator[list[str]]:
    """Yield, for each paragraph, its sentences (verbatim, stripped, never empty)."""
    nlp = _pipeline(language)
    for doc in nlp.pipe(p[:_MAX_PARAGRAPH] for p in paragraphs):
        sentences = [s.text.strip() for s in doc.sents]
        yield _move_openers([s for s in sentences if s])


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
