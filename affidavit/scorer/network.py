"""The reader's second opinion: a small recurrent network that reads a line word by word
beside the question and says how well each word would start or end its answer.

A word enters as its vector in the bundled static model, the question's words it
resembles most (attention), and what the parse says of it (tag, entity, whether it
repeats the question). A two-way GRU reads the line; the question, read the same way and
pooled, with its wh-word and answer type, weighs each word as a start and as an end. A
candidate span's network score is its first word's start plus its last word's end, added
to the hashed features' score. tools/train_reader.py trains it with torch; here it runs
on numpy alone, the same arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from threading import Lock

import numpy as np

from affidavit.index import bundled_encoder
from affidavit.question import AnswerType
from affidavit.scorer.cues import WH_WORDS, Cues
from affidavit.scorer.parsed_lines import LineRead
from affidavit.text import words

_TAGS = "ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM VERB X".split()
_LABELS = (
    "PERSON NORP FAC ORG GPE LOC PRODUCT EVENT WORK_OF_ART LAW LANGUAGE DATE TIME PERCENT "
    "MONEY QUANTITY ORDINAL CARDINAL".split()
)
_WH = (*WH_WORDS, "none")  # Cues.wh is "none" without a wh-word
_TYPES = tuple(t.value for t in AnswerType)
# Per word: repeats a question stem, repeats a question word, is the focus, is the verb,
# its tag, its entity label, inside a patterned value, holds a digit, capitalised.
TOKEN_FEATURES = 4 + len(_TAGS) + len(_LABELS) + 3
QUESTION_FEATURES = len(_WH) + len(_TYPES)
# A word vector is cached by its spelling; the cache is emptied when it grows past this.
_CACHED_WORDS = 200_000
_vectors: dict[str, np.ndarray] = {}
_vectors_lock = Lock()  # batch answers questions on threads


def word_vectors(words: Sequence[str]) -> np.ndarray:
    """The bundled model's vector of each word, one row each (unseen words encoded in one
    call, then kept)."""
    model = bundled_encoder()
    with _vectors_lock:
        missing = sorted({w for w in words if w not in _vectors})
        if missing:
            if len(_vectors) + len(missing) > _CACHED_WORDS:
                _vectors.clear()
            encoded = np.asarray(model.encode(missing), dtype=np.float32)
            _vectors.update(zip(missing, encoded, strict=True))
        if not words:
            return np.zeros((0, model.embedding.shape[1]), dtype=np.float32)
        return np.stack([_vectors[w] for w in words])


def question_words(text: str, language: str = "en") -> list[str]:
    """The question's words as the network reads them (folded, in order; never none)."""
    return words(text, language) or [text.strip().lower() or "?"]


def token_features(line: LineRead, cues: Cues, asked: Sequence[str]) -> np.ndarray:
    """What the parse and the question say of each word of ``line``: (words, TOKEN_FEATURES)."""
    size = len(line.lower)
    out = np.zeros((size, TOKEN_FEATURES), dtype=np.float32)
    said = set(asked)
    for i in range(size):
        term = line.terms[i]
        out[i, 0] = term is not None and term in cues.terms
        out[i, 1] = line.lower[i] in said
        out[i, 2] = term is not None and term == cues.focus
        out[i, 3] = term is not None and term == cues.verb
        if line.pos[i] in _TAGS:
            out[i, 4 + _TAGS.index(line.pos[i])] = 1.0
        word = line.text[line.starts[i] : line.ends[i]]
        out[i, -2] = any(c.isdigit() for c in word)
        out[i, -1] = word[:1].isupper()
    base = 4 + len(_TAGS)
    for found in line.found:
        if "entity" in found.kinds and found.label in _LABELS:
            out[found.first : found.last, base + _LABELS.index(found.label)] = 1.0
        if "pattern" in found.kinds:
            out[found.first : found.last, -3] = 1.0
    return out


def question_features(cues: Cues) -> np.ndarray:
    out = np.zeros(QUESTION_FEATURES, dtype=np.float32)
    out[_WH.index(cues.wh)] = 1.0
    if cues.answer_type in _TYPES:
        out[len(_WH) + _TYPES.index(cues.answer_type)] = 1.0
    return out


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _gru(x: np.ndarray, gru: tuple[np.ndarray, ...]) -> np.ndarray:
    """Both directions of torch's GRU at once: ``x`` is (2, sequences, words, inputs), the
    second direction's words already reversed, each sequence's padding after its words;
    ``gru`` the two directions' weights stacked (see Network._stacked). The states, one a
    word: (2, sequences, words, hidden)."""
    w_ih, w_hh, b_ih, b_hh = gru
    size = w_hh.shape[1]
    gates_in = x @ w_ih[:, None] + b_ih[:, None, None]
    h = np.zeros((2, x.shape[1], size), dtype=np.float32)
    out = np.zeros((*x.shape[:3], size), dtype=np.float32)
    for t in range(x.shape[2]):
        gates_h = h @ w_hh + b_hh[:, None]
        step = gates_in[:, :, t]
        rz = _sigmoid(step[..., : 2 * size] + gates_h[..., : 2 * size])
        n = np.tanh(step[..., 2 * size :] + rz[..., :size] * gates_h[..., 2 * size :])
        h = n + rz[..., size:] * (h - n)
        out[:, :, t] = h
    return out


def reverse_words(x: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Each sequence's words in reverse order, its padding still after them (an involution)."""
    steps = np.arange(x.shape[1])
    index = np.where(
        steps[None, :] < lengths[:, None], lengths[:, None] - 1 - steps[None, :], steps[None, :]
    )
    return np.take_along_axis(x, index[:, :, None], axis=1)


class Network:
    """The trained arrays (named as torch names them) and the forward pass."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self.a = {k: v.astype(np.float32) for k, v in arrays.items()}
        self._grus: dict[str, tuple[np.ndarray, ...]] = {}

    def _stacked(self, name: str) -> tuple[np.ndarray, ...]:
        """The GRU ``name``'s two directions, stacked and transposed for ``_gru``."""
        if name not in self._grus:
            parts = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
            both = [[self.a[f"{name}.{p}_l0{way}"] for p in parts] for way in ("", "_reverse")]
            self._grus[name] = (
                np.stack([both[0][0].T, both[1][0].T]),
                np.stack([both[0][1].T, both[1][1].T]),
                np.stack([both[0][2], both[1][2]]),
                np.stack([both[0][3], both[1][3]]),
            )
        return self._grus[name]

    def _both_ways(self, x: np.ndarray, lengths: np.ndarray, name: str) -> np.ndarray:
        """The two-way GRU ``name`` over padded sequences: (sequences, words, 2 x hidden)."""
        states = _gru(np.stack([x, reverse_words(x, lengths)]), self._stacked(name))
        return np.concatenate([states[0], reverse_words(states[1], lengths)], axis=2)

    def question(self, vectors: np.ndarray, cues: Cues) -> np.ndarray:
        """The question pooled into one vector, with its wh-word and type: what a line's
        words are weighed against."""
        a = self.a
        projected = vectors @ a["project.weight"].T + a["project.bias"]
        states = self._both_ways(projected[None], np.array([len(projected)]), "question_rnn")[0]
        weights = states @ a["pool.weight"][0] + a["pool.bias"][0]
        weights = np.exp(weights - weights.max())
        pooled = (weights / weights.sum()) @ states
        return np.concatenate([pooled, question_features(cues)])

    def edges(
        self,
        lines: Sequence[tuple[np.ndarray, np.ndarray]],
        question_vectors: np.ndarray,
        asked: np.ndarray,
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Of each line given as (its word vectors, its word features): each word's score as
        an answer's first word and as its last. The lines are read side by side."""
        a = self.a
        lengths = np.array([len(vectors) for vectors, _ in lines])
        width = int(lengths.max())
        dim = lines[0][0].shape[1]
        vectors = np.zeros((len(lines), width, dim), dtype=np.float32)
        features = np.zeros((len(lines), width, TOKEN_FEATURES), dtype=np.float32)
        for i, (v, f) in enumerate(lines):
            vectors[i, : len(v)], features[i, : len(f)] = v, f
        words = vectors @ a["project.weight"].T + a["project.bias"]
        said = question_vectors @ a["project.weight"].T + a["project.bias"]
        keys = np.maximum(words @ a["align.weight"].T + a["align.bias"], 0.0)
        queries = np.maximum(said @ a["align.weight"].T + a["align.bias"], 0.0)
        attention = keys @ queries.T
        attention = np.exp(attention - attention.max(axis=2, keepdims=True))
        aligned = (attention / attention.sum(axis=2, keepdims=True)) @ said
        x = np.concatenate([words, aligned, features], axis=2)
        states = self._both_ways(x, lengths, "line_rnn")
        start = states @ (a["start.weight"] @ asked + a["start.bias"])
        end = states @ (a["end.weight"] @ asked + a["end.bias"])
        return [(start[i, :n], end[i, :n]) for i, n in enumerate(lengths)]


class Reading:
    """One question read by the network once, then weighed against each of its lines."""

    def __init__(self, network: Network, cues: Cues, text: str) -> None:
        self.network = network
        self.cues = cues
        self.asked = question_words(text, cues.language)
        self.vectors = word_vectors(self.asked)
        self.pooled = network.question(self.vectors, cues)

    def edges(self, lines: Sequence[LineRead]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Each word of each line (none empty): its score as an answer's first word and as
        its last."""
        given = [
            (word_vectors(line.lower), token_features(line, self.cues, self.asked))
            for line in lines
        ]
        return self.network.edges(given, self.vectors, self.pooled)
