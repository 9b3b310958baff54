"""The reader's encoder: where its weights came from, that loading them reproduces what
was recorded when they were trained, that a line scores the same whatever is read beside
it, and that its scores move the reader's choice of span."""

from __future__ import annotations

import shutil

import pytest

from affidavit.errors import EngineError
from affidavit.question.question import Question
from affidavit.scorer import read_spans
from affidavit.scorer.encoder import ENCODER_DIR, Encoder, encoder


def test_the_encoder_records_its_base_corpus_commit_and_held_out_scores():
    provenance = encoder().provenance
    assert "all-MiniLM-L6-v2" in provenance["base"]
    assert len(provenance["base_sha256"]) == 64
    assert provenance["corpus"].startswith("SQuAD 1.1 train")
    assert len(provenance["corpus_sha256"]) == 64
    assert len(provenance["commit"]) == 40
    assert provenance["steps"] > 0
    held_out = provenance["held_out_scores"]
    assert held_out["questions"] >= 500
    assert 0.0 < held_out["exact"] <= held_out["f1"] <= 100.0


def test_loading_the_encoder_reproduces_the_recorded_sample():
    recorded = encoder().provenance["sample"]
    assert len(recorded) >= 10
    for item in recorded:
        scored = encoder().score(item["question"], [item["line"]])[0]
        start, end = scored.best_span()
        assert item["line"][start:end] == item["answer"], item["question"]


def test_a_line_scores_the_same_read_alone_or_beside_others():
    question = "Who may request a copy of the records?"
    line = "Any member of the public may request a copy of the records in writing."
    others = ["The office is closed on public holidays.", "Fees are listed in Schedule B."]
    alone = encoder().score(question, [line])[0]
    beside = encoder().score(question, [*others, line])[2]
    assert alone.start_scores.tolist() == beside.start_scores.tolist()
    assert alone.end_scores.tolist() == beside.end_scores.tolist()


def test_a_span_scores_by_its_first_and_last_tokens():
    line = "Passwords must be at least twelve characters long."
    scored = encoder().score("What is the minimum password length?", [line])[0]
    start, end = scored.best_span()
    assert "twelve characters" in line[start:end]
    assert scored.span(start, end) > scored.span(0, len("Passwords"))


def test_the_encoder_moves_the_readers_choice(monkeypatch):
    question = Question.read("Who may request a copy of the records?", language="en")
    lines = ["Any member of the public may request a copy of the records in writing."]
    with_encoder = read_spans.read(question, lines)
    monkeypatch.setattr(read_spans, "_encoded", lambda *args: {})
    hashed_alone = read_spans.read(question, lines)
    assert [r.score for r in with_encoder] != [r.score for r in hashed_alone]
    assert "member of the public" in with_encoder[0].text


def test_an_encoder_folder_without_its_network_is_an_engine_error(tmp_path):
    shutil.copytree(ENCODER_DIR, tmp_path / "encoder")
    (tmp_path / "encoder" / "encoder.onnx").write_bytes(b"not a network")
    with pytest.raises(EngineError, match="make encoder"):
        Encoder(tmp_path / "encoder")


def test_a_missing_encoder_folder_is_named(tmp_path):
    with pytest.raises(EngineError, match=str(tmp_path / "gone")):
        Encoder(tmp_path / "gone")
