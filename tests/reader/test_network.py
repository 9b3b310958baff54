"""The reader's network: shipped with its record, read on numpy the same whether lines come
alone or side by side, and moving the scores it was trained to move."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from affidavit.question.question import Question
from affidavit.reader.cues import cues_of
from affidavit.reader.lines import read_line
from affidavit.reader.model import weights
from affidavit.reader.network import Reading, reverse_words
from affidavit.reader.read import read

QUESTION = "Who was the first duke of Normandy?"
LINES = [
    "Rollo was the first duke of Normandy.",
    "The Normans were the people who in the 10th and 11th centuries gave their name to "
    "Normandy, a region in France.",
    "They were descended from Norse raiders.",
]


def test_the_weights_carry_a_network_that_beat_the_hashed_features_on_held_out_articles():
    shipped = weights()
    assert shipped.network is not None
    record = shipped.provenance
    assert record["network"]["stacking"]
    scores = record["held_out_scores"]
    assert scores["f1"] > scores["hashed_alone"]["f1"]


def test_lines_read_side_by_side_score_as_lines_read_alone():
    question = Question.read(QUESTION, language="en")
    reading = Reading(weights().network, cues_of(question), question.text)
    lines = [read_line(text) for text in LINES]
    together = reading.edges(lines)
    for line, (start, end) in zip(lines, together, strict=True):
        [(alone_start, alone_end)] = reading.edges([line])
        assert len(start) == len(line.lower)
        np.testing.assert_allclose(start, alone_start, atol=1e-5)
        np.testing.assert_allclose(end, alone_end, atol=1e-5)


def test_reversing_keeps_the_padding_after_the_words():
    x = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
    lengths = np.array([3, 2])
    flipped = reverse_words(x, lengths)
    assert flipped[1, :, 0].tolist() == [8.0, 6.0, 10.0]  # two words reversed, padding kept
    np.testing.assert_array_equal(reverse_words(flipped, lengths), x)


def test_the_network_moves_the_spans_scores():
    question = Question.read(QUESTION, language="en")
    with_network = read(question, LINES)
    without = read(question, LINES, model=replace(weights(), network=None))
    assert with_network[0].text == "Rollo"
    assert {r.text: r.score for r in with_network} != {r.text: r.score for r in without}
