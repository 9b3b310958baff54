"""The reader's network on numpy (affidavit/scorer/network.py): lines read side by side
score as lines read alone, reversal keeps the padding after the words, and weights that
carry a network move the spans' scores. The shipped weights carry none (bench/HISTORY.md,
issue 39), so these tests give it arrays of the trained shapes, drawn at random."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from affidavit.question.question import Question
from affidavit.scorer.cues import cues_of
from affidavit.scorer.network import (
    QUESTION_FEATURES,
    TOKEN_FEATURES,
    Network,
    Reading,
    reverse_words,
)
from affidavit.scorer.parsed_lines import read_line
from affidavit.scorer.read_spans import read
from affidavit.scorer.weights import weights

QUESTION = "Who was the first duke of Normandy?"
LINES = [
    "Rollo was the first duke of Normandy.",
    "The Normans were the people who in the 10th and 11th centuries gave their name to "
    "Normandy, a region in France.",
    "They were descended from Norse raiders.",
]
DIM, PROJECTED, HIDDEN = 256, 64, 48


def _gru(name: str, inputs: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    shapes = {"weight_ih": (3 * HIDDEN, inputs), "weight_hh": (3 * HIDDEN, HIDDEN)}
    shapes |= {"bias_ih": (3 * HIDDEN,), "bias_hh": (3 * HIDDEN,)}
    return {
        f"{name}.{part}_l0{way}": rng.normal(0, 0.3, shape)
        for part, shape in shapes.items()
        for way in ("", "_reverse")
    }


@pytest.fixture(scope="module")
def network() -> Network:
    rng = np.random.default_rng(7)
    arrays = {
        "project.weight": rng.normal(0, 0.1, (PROJECTED, DIM)),
        "project.bias": rng.normal(0, 0.1, PROJECTED),
        "align.weight": rng.normal(0, 0.3, (PROJECTED, PROJECTED)),
        "align.bias": rng.normal(0, 0.1, PROJECTED),
        "pool.weight": rng.normal(0, 0.3, (1, 2 * HIDDEN)),
        "pool.bias": rng.normal(0, 0.1, 1),
        **_gru("line_rnn", 2 * PROJECTED + TOKEN_FEATURES, rng),
        **_gru("question_rnn", PROJECTED, rng),
    }
    for edge in ("start", "end"):
        arrays[f"{edge}.weight"] = rng.normal(0, 0.3, (2 * HIDDEN, 2 * HIDDEN + QUESTION_FEATURES))
        arrays[f"{edge}.bias"] = rng.normal(0, 0.1, 2 * HIDDEN)
    return Network(arrays)


def test_lines_read_side_by_side_score_as_lines_read_alone(network: Network):
    question = Question.read(QUESTION, language="en")
    reading = Reading(network, cues_of(question), question.text)
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


def test_weights_with_a_network_move_the_spans_scores(network: Network):
    question = Question.read(QUESTION, language="en")
    shipped = weights()
    assert shipped.network is None  # the shipped weights are the hashed features alone
    without = read(question, LINES)
    with_network = read(question, LINES, model=replace(shipped, network=network))
    assert {r.text for r in with_network} == {r.text for r in without}
    assert {r.text: r.score for r in with_network} != {r.text: r.score for r in without}
