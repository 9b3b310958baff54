"""Entity mining, its first half: a store's lines read into token ids (``Corpus``)."""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from affidavit.index.entities.seen import SeenTexts
from affidavit.index.packing import typed_numbers
from affidavit.text import bare, fold, name_words, pieces


@dataclass
class Corpus:
    """A store's lines as token ids: flat arrays, one row per token, in line id order
    (the line each token is in, as runs: mining never asks it, the kept corpus does).

    Kept with the graph, so a document added to the store is read alone
    (``extended_arrays``) and the counts of mining.py are taken again over arrays, not
    over the text.
    """

    vocabulary: list[str]  # id -> folded word
    ids: np.ndarray  # token id per token (int32)
    segment: np.ndarray  # segment number per token (int32)
    line_runs: tuple[np.ndarray, np.ndarray]  # each line's id (int64), its tokens (int32)
    capital: np.ndarray  # written with a capital, not at a segment's start
    opening: np.ndarray  # the first token of its segment
    forms: list[str]  # id -> a word as written
    surface: np.ndarray  # form id per token (one small int, not a string, per token)

    @classmethod
    def read(cls, lines: Iterable[tuple[int, str, str]]) -> Corpus:
        """``lines``: (line id, text, language). Lines are cut into *segments* at
        punctuation (the full stop of a title or an initial, "Mr.", "St.", "J.", does not
        cut: text/names.py), and segments into word tokens, folded to lower case;
        possessive and contracted endings are cut ("Lydgate’s" is Lydgate)."""
        return read_lines(lines, KeptWords([], {}, [], {}), 0)

    def to_arrays(self, *, vocabulary: bool = True) -> dict[str, np.ndarray]:
        """Compact arrays: the line and segment of each token as runs (a line's tokens
        are consecutive, a segment's too), the two flags as bits, ids as int32. About 9
        bytes a token, against 26 as plain columns. Without ``vocabulary``: neither the
        words nor the forms (the caller has them)."""
        line_values, line_counts = self.line_runs
        segment_values, segment_counts = _runs(self.segment)
        arrays = {
            "c_ids": self.ids.astype(np.int32),
            "c_segment_values": segment_values,
            "c_segment_counts": segment_counts,
            "c_line_values": line_values,
            "c_line_counts": line_counts,
            "c_flags": np.packbits(np.stack([self.capital, self.opening]).astype(bool), axis=1),
            "c_tokens": np.array([len(self.ids)], dtype=np.int64),
            "c_surface": self.surface.astype(np.int32),
        }
        if vocabulary:
            arrays["c_vocabulary"] = _strings(self.vocabulary)
            arrays["c_forms"] = _strings(self.forms)
        return arrays

    @classmethod
    def from_arrays(cls, data: Any) -> Corpus:
        if "c_line" in data:  # the plain columns an older store cached
            line_runs, segment = _runs(data["c_line"]), data["c_segment"]
            capital, opening = data["c_capital"], data["c_opening"]
        else:
            line_runs = (
                data["c_line_values"].astype(np.int64),
                data["c_line_counts"].astype(np.int32),
            )
            segment = np.repeat(data["c_segment_values"], data["c_segment_counts"])
            tokens = int(data["c_tokens"][0])
            flags = np.unpackbits(data["c_flags"], axis=1, count=tokens).astype(bool)
            capital, opening = flags[0], flags[1]
        return cls(
            _unstrings(data["c_vocabulary"]),
            data["c_ids"].astype(np.int32),
            segment.astype(np.int32),
            line_runs,
            capital,
            opening,
            _unstrings(data["c_forms"]),
            data["c_surface"].astype(np.int32),
        )


@dataclass
class KeptWords:
    """A kept corpus's words and forms, decoded, each with its id: handed from one grown
    graph to the next (``extended_arrays``), so an addition decodes none of them again.
    NOTE: decoding them at each call was most of an ``ingest_text`` call's graph time
    at 7 MB of distinct text."""

    vocabulary: list[str]  # id -> folded word
    index: dict[str, int]  # folded word -> id
    forms: list[str]  # id -> a word as written
    written: dict[str, int]  # a word as written -> id

    @classmethod
    def of_corpus(cls, corpus: Corpus) -> KeptWords:
        """A decoded corpus's words, its own lists extended in place as lines are read."""
        index = {word: number for number, word in enumerate(corpus.vocabulary)}
        written = {form: number for number, form in enumerate(corpus.forms)}
        return cls(corpus.vocabulary, index, corpus.forms, written)

    @classmethod
    def of(cls, kept: dict[str, np.ndarray]) -> KeptWords:
        vocabulary, forms = _unstrings(kept["c_vocabulary"]), _unstrings(kept["c_forms"])
        index = {word: number for number, word in enumerate(vocabulary)}
        written = {form: number for number, form in enumerate(forms)}
        return cls(vocabulary, index, forms, written)


def extended_arrays(
    kept: dict[str, np.ndarray],
    lines: Iterable[tuple[int, str, str]],
    words: KeptWords | None = None,
    spelled: dict[int, str] | None = None,
) -> tuple[dict[str, np.ndarray], KeptWords]:
    """The compact arrays (``Corpus.to_arrays``) of the kept corpus with ``lines`` (later
    line ids) read after it, made without decoding it: the new lines' arrays are joined
    to its compact ones, their segments numbered on from its last. ``words``: the kept
    corpus's (decoded here when not given), extended in place and returned; ``spelled``
    as ``read_lines``'s. NOTE: at 100 MB of text the decoded corpus and its extension
    were 0.75 GB held at once, to add one small file."""
    if "c_line" in kept:  # the plain columns an older store cached
        kept = Corpus.from_arrays(kept).to_arrays()
    segments = kept["c_segment_values"]
    start = int(segments[-1]) + 1 if len(segments) else 0
    words = words or KeptWords.of(kept)
    known_words, known_forms = len(words.vocabulary), len(words.forms)
    fresh = read_lines(lines, words, start, spelled).to_arrays(vocabulary=False)
    tokens = int(kept["c_tokens"][0])
    flags = np.concatenate(
        [
            np.unpackbits(kept["c_flags"], axis=1, count=tokens),
            np.unpackbits(fresh["c_flags"], axis=1, count=int(fresh["c_tokens"][0])),
        ],
        axis=1,
    )
    joined = dict(fresh)
    joined["c_vocabulary"] = _appended(kept["c_vocabulary"], words.vocabulary[known_words:])
    joined["c_forms"] = _appended(kept["c_forms"], words.forms[known_forms:])
    for name in ("c_ids", "c_surface"):
        joined[name] = np.concatenate([kept[name], fresh[name]])
    for runs in ("c_segment", "c_line"):
        joined[f"{runs}_values"], joined[f"{runs}_counts"] = joined_runs(
            (kept[f"{runs}_values"], kept[f"{runs}_counts"]),
            (fresh[f"{runs}_values"], fresh[f"{runs}_counts"]),
        )
    joined["c_flags"] = np.packbits(flags, axis=1)  # unpacked bits: already 0 or 1
    joined["c_tokens"] = np.array([tokens + int(fresh["c_tokens"][0])], dtype=np.int64)
    return joined, words


def _appended(strings: np.ndarray, more: list[str]) -> np.ndarray:
    """``_strings`` of the strings held in ``strings`` and then ``more``."""
    if not more:
        return strings
    if not len(strings):
        return _strings(more)
    return np.concatenate([strings, _strings(["", *more])])


def joined_runs(
    first: tuple[np.ndarray, np.ndarray], then: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """The runs of two arrays one after the other, as ``_runs`` gives them of the whole:
    a run crossing the join is one."""
    (values, counts), (more_values, more_counts) = first, then
    if len(values) and len(more_values) and values[-1] == more_values[0]:
        counts = np.concatenate([counts[:-1], [counts[-1] + more_counts[0]]]).astype(np.int32)
        more_values, more_counts = more_values[1:], more_counts[1:]
    return (
        np.concatenate([values, more_values]).astype(np.int64),
        np.concatenate([counts, more_counts]).astype(np.int32),
    )


_ASCII_RUNS = re.compile(r"[\x00-\x7f]+")


def read_after(
    corpus: Corpus,
    lines: Iterable[tuple[int, str, str]],
    words: KeptWords,
    spelled: dict[int, str] | None = None,
) -> Corpus:
    """The tokens of ``lines`` (later line ids) read after ``corpus``: their segments
    numbered on from its last, their words from its words (``words``, extended in place:
    ``KeptWords.of_corpus``), as ``extended_arrays`` reads an addition."""
    segment = int(corpus.segment[-1]) + 1 if len(corpus.segment) else 0
    return read_lines(lines, words, segment, spelled)


def read_lines(
    lines: Iterable[tuple[int, str, str]],
    words: KeptWords,
    segment: int,
    spelled: dict[int, str] | None = None,
) -> Corpus:
    """The tokens of ``lines`` alone, their segments numbered from ``segment``, their
    word and form ids continuing ``words`` (extended in place, and the corpus's).
    ``spelled``, if given, receives each line's text as the matcher reads it
    (text/names.py ``segments``), made from the words just read, where folding a
    segment at once and word by word give the same words (``_folds_alike``)."""
    # Typed arrays, not lists: a list holds a pointer and an int object a token
    # (NOTE: at 100 MB of text, 17 million tokens, the lists were most of the peak).
    ids = array("i")
    segments = array("i")
    owners, owned = array("q"), array("i")  # each line's id and its tokens
    capitals = array("b")
    openings = array("b")
    surface = array("i")
    # A word as written is read once a language: its folded id, its form's id and
    # whether it starts with a capital (NOTE: the per-token folding was most of the
    # graph's build at 20 MB). Ids are still given in token order.
    known: dict[str, dict[str, tuple[int, int, bool]]] = {}
    # A line read before (a copy's): its tokens are copied from where they were read, its
    # segments numbered on. Held: (first token, past the last, first segment, segments).
    lines_read: SeenTexts[tuple[int, int, int, int]] = SeenTexts()
    for line_id, text, language in lines:
        before = len(ids)
        read_before = lines_read.get(text, language)
        if read_before is not None:
            start, end, first, count = read_before
            ids.extend(ids[start:end])
            surface.extend(surface[start:end])
            openings.extend(openings[start:end])
            capitals.extend(capitals[start:end])
            segments.extend([s - first + segment for s in segments[start:end]])
            segment += count
        else:
            seen = known.setdefault(language, {})
            opened = segment
            spell = spelled is not None and _folds_alike(text)
            parts = []
            for piece in pieces(text):
                raw = name_words(piece)
                segment += 1
                if not raw:
                    continue
                read = [seen.get(w) or _read_word(w, language, seen, words) for w in raw]
                word_ids, form_ids, upper = zip(*read, strict=True)
                if spell:
                    vocabulary = words.vocabulary
                    parts.append(" " + " ".join([vocabulary[i] for i in word_ids]) + " ")
                ids.extend(word_ids)
                surface.extend(form_ids)
                segments.extend([segment - 1] * len(raw))
                openings.append(True)
                openings.extend([False] * (len(raw) - 1))
                capitals.append(False)
                capitals.extend(upper[1:])
            lines_read.keep(text, language, (before, len(ids), opened, segment - opened))
            if spell and spelled is not None:
                spelled[line_id] = "|".join(parts)
        if len(ids) > before:
            if owners and owners[-1] == line_id:  # a run, as ``_runs`` would make it
                owned[-1] += len(ids) - before
            else:
                owners.append(line_id)
                owned.append(len(ids) - before)
    return Corpus(
        words.vocabulary,
        typed_numbers(ids),
        typed_numbers(segments),
        (typed_numbers(owners), typed_numbers(owned)),
        _flags(capitals),
        _flags(openings),
        words.forms,
        typed_numbers(surface),
    )


def _folds_alike(text: str) -> bool:
    """Whether folding ``text`` at once gives the words folding each word gives: lower
    case maps each ASCII character alone, and a character lower case leaves as it is
    ("é", "’", "—") stays what it was, in a word or between words. Only a character that
    lower case changes ("Σ" is "σ" or "ς" by what follows it, "İ" is two) may differ."""
    if text.isascii():
        return True
    beyond = _ASCII_RUNS.sub("", text)
    return beyond.lower() == beyond


def _read_word(
    raw: str, language: str, seen: dict[str, tuple[int, int, bool]], words: KeptWords
) -> tuple[int, int, bool]:
    """A word first met in ``language``: its folded id and form id, given in the order
    first met, and whether its form starts with a capital; remembered in ``seen``."""
    word = bare(raw, language)
    folded = fold(word, language)
    number = words.index.get(folded)
    if number is None:
        number = words.index[folded] = len(words.vocabulary)
        words.vocabulary.append(folded)
    form = words.written.get(word)
    if form is None:
        form = words.written[word] = len(words.forms)
        words.forms.append(word)
    read = (number, form, word[0].isupper())
    seen[raw] = read
    return read


def _flags(values: array[int]) -> np.ndarray:
    return np.frombuffer(values, dtype=np.int8).astype(bool) if len(values) else np.zeros(0, bool)


def _runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value, how many times in a row) of each run of equal neighbours in ``values``."""
    if not len(values):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32)
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    counts = np.diff(np.r_[starts, len(values)])
    return values[starts].astype(np.int64), counts.astype(np.int32)


def _strings(values: list[str]) -> np.ndarray:
    return np.frombuffer("\n".join(values).encode("utf-8"), dtype=np.uint8)


def _unstrings(array: np.ndarray) -> list[str]:
    text = bytes(array).decode("utf-8")
    return text.split("\n") if text else []
