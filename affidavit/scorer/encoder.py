"""The reader's encoder: a small transformer that reads a question with one line and scores
each of the line's tokens as where an answer starts and where it ends, against the line
saying it holds no answer. all-MiniLM-L6-v2, fine-tuned on SQuAD 1.1 train by
tools/train_encoder_reader.py, ships as eight-bit ONNX with its tokenizer and provenance
in affidavit/data/encoder/ and runs on onnxruntime; read_spans.py adds its score of each
candidate span to the hashed scorer's. An ask may start it on its lines early, on a thread
of its own (read_ahead), and take their scores when the reader wants them."""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from threading import Lock
from typing import Any

import numpy as np

from affidavit.errors import EngineError
from affidavit.runtime import ENCODER_AHEAD_VARIABLE

ENCODER_DIR = Path(__file__).resolve().parents[1] / "data" / "encoder"
_HINT = "reinstall affidavit, or retrain it with `make encoder`"
MAX_TOKENS = 192  # a question with a line longer than this is cut at the line's end
_LONGEST_ANSWER = 30  # tokens, for the encoder's own best span
_KEPT = 4096  # (question, line) scores kept for the other subsets of an ask


@dataclass(frozen=True, slots=True)
class LineScores:
    """The encoder's scores of one line's tokens for one question: each token's character
    offsets in the line and its start and end scores over the no-answer place's."""

    starts: np.ndarray
    ends: np.ndarray
    start_scores: np.ndarray
    end_scores: np.ndarray

    def span(self, start: int, end: int) -> float:
        """The score of the characters ``start:end`` as the answer: the start score of the
        first token reaching into them plus the end score of the last token starting in
        them. A span past the tokens read (a line cut at MAX_TOKENS) scores as the
        line's worst start and end."""
        first = int(np.searchsorted(self.ends, start, side="right"))
        last = int(np.searchsorted(self.starts, end, side="left")) - 1
        if first >= len(self.starts) or last < first:
            return float(self.start_scores.min(initial=0.0) + self.end_scores.min(initial=0.0))
        return float(self.start_scores[first] + self.end_scores[last])

    def best_span(self) -> tuple[int, int]:
        """The characters of the encoder's own best span."""
        return self._best()[1]

    def best_score(self) -> float:
        """The score of the encoder's own best span: above 0, the line holds an answer as
        the encoder reads it."""
        return self._best()[0]

    def _best(self) -> tuple[float, tuple[int, int]]:
        top, best = -np.inf, (0, 0)
        for first in np.argsort(-self.start_scores, kind="stable")[:20]:
            for last in range(first, min(first + _LONGEST_ANSWER, len(self.end_scores))):
                score = self.start_scores[first] + self.end_scores[last]
                if score > top:
                    top, best = score, (int(self.starts[first]), int(self.ends[last]))
        return (float(top) if np.isfinite(top) else 0.0), best


class Encoder:
    """The shipped network and tokenizer, one onnxruntime session (thread-safe to run)."""

    def __init__(self, folder: Path) -> None:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - both are dependencies
            raise EngineError(
                f"the reader's encoder needs onnxruntime and tokenizers ({exc})"
            ) from exc
        try:
            self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
            options = onnxruntime.SessionOptions()
            # One thread a session: batch answers questions on threads of its own.
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            self.session = onnxruntime.InferenceSession(
                str(folder / "encoder.onnx"), options, providers=["CPUExecutionProvider"]
            )
            self.provenance: dict[str, Any] = json.loads(
                (folder / "provenance.json").read_text(encoding="utf-8")
            )
        except Exception as exc:  # noqa: BLE001  (tokenizers and onnxruntime raise bare ones)
            raise EngineError(f"{folder}: the reader's encoder cannot be read ({_HINT})") from exc
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS, strategy="only_second")

    def score(self, question: str, lines: Sequence[str]) -> list[LineScores]:
        """Each line's scores for ``question``. Each line is read alone: the eight-bit
        network scales its activations by the largest in its batch, so a line read
        beside others would score a little otherwise, and an answer would hang on which
        lines an ask happened to read together."""
        return [
            self._score_one(e)
            for e in self.tokenizer.encode_batch([(question, line) for line in lines])
        ]

    def _score_one(self, encoded: Any) -> LineScores:
        ids = np.array([encoded.ids], dtype=np.int64)
        types = np.array([encoded.type_ids], dtype=np.int64)
        start, end = self.session.run(
            None, {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": types}
        )
        inside = [i for i, s in enumerate(encoded.sequence_ids) if s == 1]
        offsets = np.array([encoded.offsets[i] for i in inside], dtype=np.int64).reshape(-1, 2)
        return LineScores(
            offsets[:, 0],
            offsets[:, 1],
            start[0, inside] - start[0, 0],
            end[0, inside] - end[0, 0],
        )


@lru_cache(maxsize=1)
def encoder() -> Encoder:
    """The shipped encoder; an EngineError naming its folder when it cannot be read."""
    return Encoder(ENCODER_DIR)


_scores: OrderedDict[tuple[str, str], LineScores] = OrderedDict()
_scores_lock = Lock()  # batch answers questions on threads
# The (question, line) pairs being read ahead, each with the reading that will hold it,
# and the thread they are read on (one a process, started when first needed).
_pending: dict[tuple[str, str], Future[None]] = {}
_ahead: ThreadPoolExecutor | None = None


def read_ahead(question: str, lines: Sequence[str]) -> None:
    """Start reading ``lines`` for ``question`` on a thread of their own and return at
    once: the network runs while the ask does other work (onnxruntime leaves Python's
    lock while it runs), and ``line_scores`` then waits for a line read ahead rather than
    reading it again. Each line is read alone, as ``line_scores`` reads it, so the scores
    are the same whichever thread read them. Nothing is read ahead where the environment
    sets ENCODER_AHEAD_VARIABLE to "0" (a batch's workers: each has a core, no more)."""
    global _ahead
    if os.environ.get(ENCODER_AHEAD_VARIABLE) == "0":
        return
    with _scores_lock:
        # In the order given (the first subset's lines first), each line its own reading,
        # so the reader of the first subset waits only for its own lines.
        missing = [
            line
            for line in dict.fromkeys(lines)
            if (question, line) not in _scores and (question, line) not in _pending
        ]
        if not missing:
            return
        if _ahead is None:
            _ahead = ThreadPoolExecutor(1, thread_name_prefix="affidavit-encoder")
        for line in missing:
            _pending[(question, line)] = _ahead.submit(_read_and_keep, question, [line])


def _forget_the_thread() -> None:
    """In a forked child (a batch worker): the parent's reading thread and whatever it
    held are not there, so nothing is waited for and the lock is a new one."""
    global _ahead, _pending, _scores_lock
    _ahead, _pending, _scores_lock = None, {}, Lock()


os.register_at_fork(after_in_child=_forget_the_thread)


def _read_and_keep(question: str, lines: list[str]) -> None:
    """The reading thread's work: ``lines`` scored and kept. An error is kept in the
    future, and ``line_scores`` reads the line again where the ask can raise it."""
    try:
        _keep(question, dict(zip(lines, encoder().score(question, lines), strict=True)))
    finally:
        with _scores_lock:
            for line in lines:
                _pending.pop((question, line), None)


def _keep(question: str, fresh: dict[str, LineScores]) -> None:
    """Fresh scores into the bounded memory, the oldest dropped."""
    with _scores_lock:
        for line, scored in fresh.items():
            _scores[(question, line)] = scored
        while len(_scores) > _KEPT:
            _scores.popitem(last=False)


def line_scores(question: str, lines: Sequence[str]) -> list[LineScores]:
    """Each line's scores for ``question``: those read before (the other subsets of one
    ask, the answerability model's reading of a span's line, lines read ahead) from a
    bounded memory."""
    with _scores_lock:
        waiting = {_pending[(question, line)] for line in lines if (question, line) in _pending}
    wait(waiting)  # a reading that failed leaves its lines missing: they are read here
    with _scores_lock:
        known = {line: _scores.get((question, line)) for line in lines}
    missing = sorted({line for line, s in known.items() if s is None})
    if missing:
        fresh = dict(zip(missing, encoder().score(question, missing), strict=True))
        known.update(fresh)
        _keep(question, fresh)
    return [known[line] for line in lines]  # type: ignore[misc]
