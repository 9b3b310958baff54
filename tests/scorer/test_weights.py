"""The shipped reader weights: where they came from, and that loading them reproduces the
scores recorded when they were trained."""

from __future__ import annotations

import numpy as np
import pytest

from affidavit.errors import EngineError
from affidavit.question.question import Question
from affidavit.scorer import read_spans
from affidavit.scorer.features import BITS
from affidavit.scorer.read_spans import read
from affidavit.scorer.weights import load_weights, weights


def test_the_weights_record_their_corpus_commit_and_held_out_scores():
    provenance = weights().provenance
    assert provenance["corpus"].startswith("SQuAD 1.1 train")
    assert len(provenance["corpus_sha256"]) == 64
    assert len(provenance["commit"]) == 40
    assert provenance["bits"] == BITS
    assert 0.0 < provenance["held_out_scores"]["f1"] <= provenance["held_out_scores"]["oracle_f1"]


def test_loading_the_weights_reproduces_the_recorded_sample(monkeypatch):
    # The hashed scorer's own scores, as recorded when it was trained: the encoder's,
    # added at ask time, are its own test's (tests/scorer/test_encoder.py).
    monkeypatch.setattr(read_spans, "_encoded", lambda *args: {})
    recorded = weights().provenance["sample"]
    assert len(recorded) >= 10
    for item in recorded:
        found = read(Question.read(item["question"], language="en"), item["lines"])
        assert found[0].text == item["best"], item["question"]
        assert found[0].score == pytest.approx(item["score"], abs=1e-3), item["question"]


def test_weights_for_other_features_are_refused_with_the_file_named(tmp_path):
    path = tmp_path / "reader.npz"
    np.savez(path, weights=np.zeros(16, dtype=np.float32), meta=np.array('{"bits": 4}'))
    with pytest.raises(EngineError, match="reader.npz"):
        load_weights(path)


def test_an_unreadable_weights_file_is_an_engine_error(tmp_path):
    path = tmp_path / "reader.npz"
    path.write_bytes(b"not a weights file")
    with pytest.raises(EngineError, match="make reader"):
        load_weights(path)
