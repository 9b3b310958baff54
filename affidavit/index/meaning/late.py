"""Late interaction: reorder candidate lines by how well each question piece finds a match;
the candidates that come back are exactly those given. And how its order joins the words'
(``late_lines``, ``late_order``: the head of a ranking reordered, its tail kept)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np

from affidavit.errors import EngineError, InputError
from affidavit.index.fusion import rrf
from affidavit.index.meaning.encoder import BundledEncoder, Encoder
from affidavit.results import Evidence

# Documents (and, per question, candidate lines) that late interaction reorders.
LATE_DEPTH = 10

T = TypeVar("T")
# Texts whose pieces are remembered (least recently used first out).
PIECE_CACHE = 50_000


@runtime_checkable
class Reranker(Protocol):
    """Anything that scores candidate texts against a question (higher is better)."""

    def scores(self, question: str, texts: Sequence[str]) -> np.ndarray: ...


class LateInteraction:
    """MaxSim over the piece vectors of a model2vec ``StaticModel`` (or any object with
    ``tokenize(texts) -> list[list[int]]`` and an ``embedding`` table).

    The question and each candidate line are cut into the model's own word pieces; each
    piece keeps its vector from the model's table. A line's score is MaxSim: for every
    question piece, the cosine of its best-matching piece in the line, weighted by the
    question piece's own weight (the length of its vector, which the bundled model's SIF
    weighting made small for common pieces such as "the" or "de"), summed over the
    question. Pieces match across languages ("dónde" finds "where") and across
    inflections, so a line sharing no word with the question can still be put first.
    """

    def __init__(self, model: Any) -> None:
        self._model = model
        self._table: np.ndarray | None = None  # read on first use, kept as stored (int8)
        # A store's lines come back question after question: their pieces are cut once.
        self._pieces: OrderedDict[str, np.ndarray] = OrderedDict()

    def _prepare(self) -> np.ndarray:
        if self._table is None:
            table = np.asarray(self._model.embedding)
            self._norms, self._weights = _piece_norms(table)
            self._table = table
        return self._table

    def _units(self, ids: np.ndarray) -> np.ndarray:
        return self._prepare()[ids].astype(np.float32) / self._norms[ids, None]

    def scores(self, question: str, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros(0, dtype=np.float32)
        self._prepare()
        asked, *lines = self._cut([question, *texts])
        result = np.zeros(len(texts), dtype=np.float32)
        sizes = np.array([len(ids) for ids in lines])
        if not len(asked) or not sizes.sum():
            return result
        # One matrix for every distinct piece of every line, then each line's best per
        # question piece (reduceat over the runs of the flattened lines).
        flat = np.concatenate([ids for ids in lines if len(ids)])
        union, columns = np.unique(flat, return_inverse=True)
        similarity = self._units(asked) @ self._units(union).T
        spread = np.maximum(similarity[:, columns], 0.0)
        holding = np.flatnonzero(sizes)
        starts = np.concatenate([[0], np.cumsum(sizes[holding])[:-1]])
        best = np.maximum.reduceat(spread, starts, axis=1)
        result[holding] = self._weights[asked] @ best
        return result

    def remember(self, texts: Sequence[str]) -> None:
        """Cut ``texts`` into pieces now, in one batch (a store's lines, before questions)."""
        self._cut(list(texts[-PIECE_CACHE:]))

    def _cut(self, texts: list[str]) -> list[np.ndarray]:
        """Each text's distinct piece ids, from the cache or one tokenizer call for the rest."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._pieces))
        if missing:
            for text, ids in zip(missing, self._model.tokenize(missing), strict=True):
                self._pieces[text] = np.unique(np.asarray(ids, dtype=np.int64))
        found = []
        for text in texts:
            self._pieces.move_to_end(text)
            found.append(self._pieces[text])
        while len(self._pieces) > PIECE_CACHE:
            self._pieces.popitem(last=False)
        return found


# Piece norms per embedding table, by identity: every Memory on the bundled model shares
# one table, and its 128,000 norms are worth computing once.
_NORMS: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def default_reranker(encoder: object) -> LateInteraction | None:
    """Late interaction over ``encoder``'s word pieces, where its table can be read piece
    by piece; None otherwise."""
    # Asked of the class where it can be: the bundled model's table is a property that
    # loads the model, and a Memory that never asks must not pay for it. A
    # vocabulary-quantised model2vec model maps pieces to rows (token_mapping): its table
    # cannot be read piece by piece, so it gets no default reranker.
    pieces = isinstance(encoder, BundledEncoder) or (
        hasattr(encoder, "tokenize")
        and hasattr(encoder, "embedding")
        and getattr(encoder, "token_mapping", None) is None
    )
    return LateInteraction(encoder) if pieces else None  # type: ignore[arg-type]


def _piece_norms(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    cached = _NORMS.get(id(table))
    if cached is None or cached[0] is not table:
        norms = np.sqrt(np.einsum("ij,ij->i", table, table, dtype=np.float64))
        unit = np.maximum(norms, 1e-12).astype(np.float32)
        weights = (norms / max(float(norms.max()), 1e-12)).astype(np.float32)
        if len(_NORMS) > 4:
            _NORMS.clear()
        cached = _NORMS[id(table)] = (table, unit, weights)
    return cached[1], cached[2]


def rerank(
    reranker: Reranker, question: str, candidates: Sequence[T], text: Callable[[T], str]
) -> list[T]:
    """``candidates`` reordered by the reranker's scores; equal scores keep their order."""
    if len(candidates) < 2:
        return list(candidates)
    scores = np.asarray(reranker.scores(question, [text(c) for c in candidates]))
    if scores.shape != (len(candidates),):
        raise EngineError(
            f"the reranker returned {scores.shape} scores for {len(candidates)} candidates; "
            "a Reranker must return one score per text"
        )
    order = sorted(range(len(candidates)), key=lambda i: (-float(scores[i]), i))
    return [candidates[i] for i in order]


def meaning_channel(
    dense: bool, encoder: Encoder | None, reranker: Reranker | None
) -> tuple[Encoder | None, Reranker | None]:
    """The encoder and reranker a Memory opened with these options searches by: the
    bundled model and its late interaction by default, neither with ``dense=False``."""
    if not dense:
        if encoder is not None:
            raise InputError(
                "Memory(encoder=..., dense=False)",
                "an encoder was given with the meaning channel off",
                "give one or the other",
            )
        return None, reranker
    encoder = encoder if encoder is not None else BundledEncoder()
    return encoder, reranker if reranker is not None else default_reranker(encoder)


def late_lines(
    reranker: Reranker, query: str, hits: list[Evidence], *, follow_words: bool
) -> list[Evidence]:
    """The top LATE_DEPTH hits reordered as documents are: fused with the words' order
    when ``follow_words`` (the store knows the question's words), else by themselves."""
    head = hits[:LATE_DEPTH]
    by_late = rerank(reranker, query, head, lambda hit: hit.text)
    if follow_words:
        order = [hit for hit, _ in rrf([head, by_late])]
    else:
        order = by_late
    return order + hits[LATE_DEPTH:]


def late_order(
    fused: list[tuple[Any, float]], late: dict[Any, float], *, follow_words: bool
) -> list[tuple[Any, float]]:
    """``fused`` (documents and fused scores, best first) with its top LATE_DEPTH reordered
    by their ``late`` scores: where the store knows the question's words their order is
    strong, and late interaction's is fused with it; where it does not, late
    interaction's decides. The head stays above the tail, whose order is unchanged."""
    top = [d for d, _ in fused[:LATE_DEPTH]]
    by_late = sorted(top, key=lambda d: (-late[d], top.index(d)))
    head = rrf([top, by_late]) if follow_words else rrf([by_late])
    tail = fused[LATE_DEPTH:]
    lift = tail[0][1] if tail else 0.0
    return [(d, score + lift) for d, score in head] + tail
