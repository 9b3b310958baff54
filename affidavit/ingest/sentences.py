"""Prose to sentences with spaCy's rule-based sentencizer, one blank pipeline per language.

The statistical parser would be slower by two orders of magnitude for a small gain; the
sentencizer splits a megabyte in about a second. Sentences are returned as written.
While ``splitters`` is open (an ingest of many files), paragraphs are split in runs of
about CHUNK_CHARACTERS on forked workers that live as long as it does, so their spaCy
vocabularies warm over the files; the sentences are the same, in the same order.
"""

from __future__ import annotations

import multiprocessing
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from multiprocessing.connection import Connection
from typing import Any

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


# Text a worker splits at a time: a small article is a few runs, so both cores take part.
CHUNK_CHARACTERS = 8_000
_workers: list[tuple[Any, Connection]] = []  # the open splitters' processes and pipes


@contextmanager
def splitters(workers: int) -> Iterator[None]:
    """Split on ``workers`` forked processes until closed (in this process with one).
    Plain processes and pipes, no threads: the readers forked meanwhile copy none."""
    if workers < 2 or _workers:
        yield
        return
    context = multiprocessing.get_context("fork")
    started = []
    for _ in range(workers):
        mine, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs,), daemon=True)
        try:
            process.start()
        except (OSError, AssertionError):  # no fork here: split with those started
            mine.close()
            break
        finally:
            theirs.close()
        started.append((process, mine))
    _workers.extend(started)
    try:
        yield
    finally:
        _workers.clear()
        for process, pipe in started:
            pipe.close()
            process.kill()
            process.join()


def split_sentences(paragraphs: Iterable[str], language: str = "en") -> Iterator[list[str]]:
    """Yield, for each paragraph, its sentences (verbatim, stripped, never empty)."""
    if not _workers:
        yield from _split_here(paragraphs, language)
        return
    runs = list(_runs(paragraphs))
    pipes = [pipe for _, pipe in _workers]
    sent = 0
    for done in range(len(runs)):
        try:
            # One run a worker at a time: a worker is sent its next run only once its last
            # result is back, so no pipe waits on another (a paragraph may be long).
            while sent < len(runs) and sent < done + len(pipes):
                pipes[sent % len(pipes)].send((runs[sent], language))
                sent += 1
            sentences = pipes[done % len(pipes)].recv()
        except (EOFError, OSError):
            # A worker gone (out of memory, killed): the rest is split here.
            _workers.clear()
            for run in runs[done:]:
                yield from _split_here(run, language)
            return
        yield from sentences


def _serve(pipe: Connection) -> None:
    """A splitter: runs of paragraphs in, their sentences out, until the pipe closes."""
    while True:
        try:
            paragraphs, language = pipe.recv()
        except EOFError:
            return
        pipe.send(list(_split_here(paragraphs, language)))


def _split_here(paragraphs: Iterable[str], language: str) -> Iterator[list[str]]:
    nlp = _pipeline(language)
    for doc in nlp.pipe(p[:_MAX_PARAGRAPH] for p in paragraphs):
        sentences = [s.text.strip() for s in doc.sents]
        yield _move_openers([s for s in sentences if s])


def _runs(paragraphs: Iterable[str]) -> Iterator[list[str]]:
    """The paragraphs in runs of about CHUNK_CHARACTERS (a longer one alone)."""
    run: list[str] = []
    size = 0
    for paragraph in paragraphs:
        run.append(paragraph)
        size += len(paragraph)
        if size >= CHUNK_CHARACTERS:
            yield run
            run, size = [], 0
    if run:
        yield run


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
