"""The bundled tokenizer's words split without building the tokenizer, for a cold start.

A cold ask splits a few dozen words (the question's, a small store's lines, the probes
that name the vector space), but building the bundled tokenizer from its tokenizer.json
(128,000 pieces, 4.6 MB) cost more CPU than the rest of the encoder: 0.25-0.5 s for the
tokenizer, 0.14 s more to read and parse its JSON. Its model is a SentencePiece Unigram:
a word's pieces are the path through the word that maximises the sum of the pieces'
scores (a Viterbi search), a character no piece covers costing the lowest score less 10.
``WordSplitter`` runs that search in Python over the same pieces and scores, read from a
compact file written beside the model (``write_word_pieces``), and makes the same ids:
tests/index/test_unigram.py splits every word of the project's corpora both ways. A
process that splits many words (an ingest) builds the tokenizer itself
(``pieces.CachedPieces``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

# Beside the model's own files; written from its tokenizer.json (``write_word_pieces``).
# NOTE: the scores are kept apart, as float64 in numpy's format: parsing 128,000 of them
# from JSON took 0.1 s of the 0.14 s that reading one JSON file of both took.
WORD_PIECES = "word_pieces.json"
WORD_SCORES = "word_scores.npy"
# What a character no piece covers costs below the lowest piece's score (SentencePiece's
# and the tokenizers library's penalty for an unknown piece).
_UNKNOWN_PENALTY = 10.0


@dataclass(frozen=True, slots=True)
class LightTokenizer:
    """What a cold start needs of the tokenizer: its settings (normaliser, pre-tokenizer,
    truncation, as JSON, with one piece in place of the vocabulary), the unknown piece's
    id and the median piece length model2vec truncates by. (The file also records the
    sha256 of the tokenizer.json it was written from, as provenance.)"""

    settings: str
    unknown_id: int
    median_piece_length: int


def write_word_pieces(folder: str | Path) -> Path:
    """Write ``WORD_PIECES`` and ``WORD_SCORES`` for the model in ``folder`` from its
    tokenizer.json: the pieces (one string, newline-separated: no piece holds a newline),
    the tokenizer's settings without its vocabulary, and the pieces' scores. The same
    tokenizer.json writes the same bytes."""
    path = Path(folder)
    raw = (path / "tokenizer.json").read_bytes()
    described = json.loads(raw)
    model = described["model"]
    vocabulary = model["vocab"]
    pieces = [piece for piece, _ in vocabulary]
    if any("\n" in piece for piece in pieces):
        raise ValueError(f"{path / 'tokenizer.json'}: a piece holds a newline")
    unknown = model["unk_id"]
    settings = {**described, "model": {**model, "vocab": [vocabulary[unknown]], "unk_id": 0}}
    written = {
        "source_sha256": hashlib.sha256(raw).hexdigest(),
        "unknown_id": unknown,
        "median_piece_length": int(np.median([len(piece) for piece in pieces])),
        "settings": json.dumps(settings, ensure_ascii=False),
        "pieces": "\n".join(pieces),
    }
    np.save(path / WORD_SCORES, np.array([score for _, score in vocabulary], dtype=np.float64))
    out = path / WORD_PIECES
    out.write_text(json.dumps(written, ensure_ascii=False), encoding="utf-8")
    return out


def read_light(folder: str | Path) -> tuple[LightTokenizer, dict[str, Any]] | None:
    """The light tokenizer written beside the model in ``folder`` and what was written
    with it (the pieces and their scores, for ``WordSplitter.from_written``); None when
    there is none."""
    path = Path(folder) / WORD_PIECES
    if not path.exists() or not (path.parent / WORD_SCORES).exists():
        return None
    written = json.loads(path.read_text(encoding="utf-8"))
    written["scores"] = np.load(path.parent / WORD_SCORES).tolist()
    light = LightTokenizer(
        settings=written["settings"],
        unknown_id=int(written["unknown_id"]),
        median_piece_length=int(written["median_piece_length"]),
    )
    return light, written


class WordSplitter:
    """A word (with the "▁" that marks its space) into the ids of its best pieces, as the
    tokenizer's Unigram model splits it."""

    def __init__(self, pieces: list[str], scores: list[float], unknown_id: int) -> None:
        self._ids = {piece: number for number, piece in enumerate(pieces)}
        self._scores = scores
        self._unknown = unknown_id
        self._longest = max(len(piece) for piece in pieces)
        self._unknown_score = min(scores) - _UNKNOWN_PENALTY

    @classmethod
    def from_written(cls, written: dict[str, Any]) -> WordSplitter:
        return cls(written["pieces"].split("\n"), written["scores"], int(written["unknown_id"]))

    def ids(self, word: str) -> list[int]:
        """The ids of the best path through ``word``; ties go to the piece found first
        (the one starting earliest), as in the tokenizer; a run of uncovered characters
        is one unknown piece."""
        size = len(word)
        # best[end] = (score of the best path ending there, where its last piece starts, id)
        best: list[tuple[float, int, int] | None] = [None] * (size + 1)
        best[0] = (0.0, -1, -1)
        lookup, scores = self._ids.get, self._scores
        for start in range(size):
            reached = best[start]
            assert reached is not None  # every position is reached, by a piece or an unknown
            so_far = reached[0]
            single = False
            for end in range(start + 1, min(size, start + self._longest) + 1):
                piece = lookup(word[start:end])
                if piece is None:
                    continue
                score = scores[piece] + so_far
                there = best[end]
                if there is None or score > there[0]:
                    best[end] = (score, start, piece)
                single = single or end == start + 1
            if not single:
                score = self._unknown_score + so_far
                there = best[start + 1]
                if there is None or score > there[0]:
                    best[start + 1] = (score, start, self._unknown)
        path: list[int] = []
        end = size
        while end > 0:
            step = best[end]
            assert step is not None
            _, end, piece = step
            if not (piece == self._unknown and path and path[-1] == self._unknown):
                path.append(piece)  # unknown pieces side by side are fused into one
        path.reverse()
        return path
