"""Train the reader's network (affidavit/scorer/network.py) with torch, for
tools/train_reader.py: the same arithmetic as the numpy forward pass, batched and padded.

A question's candidates are scored as the reader scores them at ask time: the hashed
features' score plus the network's start and end scores of the span's first and last
words; the loss is each question's negative log-probability of its right candidates,
as for the hashed weights. The hashed scores given here for training questions come from
weights fitted on the other half of the training questions (stacking), so the network
learns what the hashed features miss on questions they never saw.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from affidavit.scorer.network import (
    QUESTION_FEATURES,
    TOKEN_FEATURES,
    Network,
    question_features,
    question_words,
    token_features,
    word_vectors,
)

PROJECTED = 64
HIDDEN = 48
BATCH = 32
EPOCHS = 3
LEARNING_RATE = 2e-3
DROPOUT = 0.2
SEED = 7


class Net(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.project = nn.Linear(dim, PROJECTED)
        self.align = nn.Linear(PROJECTED, PROJECTED)
        self.line_rnn = nn.GRU(
            2 * PROJECTED + TOKEN_FEATURES, HIDDEN, batch_first=True, bidirectional=True
        )
        self.question_rnn = nn.GRU(PROJECTED, HIDDEN, batch_first=True, bidirectional=True)
        self.pool = nn.Linear(2 * HIDDEN, 1)
        self.start = nn.Linear(2 * HIDDEN + QUESTION_FEATURES, 2 * HIDDEN)
        self.end = nn.Linear(2 * HIDDEN + QUESTION_FEATURES, 2 * HIDDEN)
        self.drop = nn.Dropout(DROPOUT)

    @staticmethod
    def _rnn(rnn: nn.GRU, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        out, _ = rnn(packed)
        return pad_packed_sequence(out, batch_first=True, total_length=x.shape[1])[0]

    def forward(self, batch: Batch) -> tuple[torch.Tensor, torch.Tensor]:
        words = self.drop(self.project(batch.line_vectors))
        said = self.drop(self.project(batch.question_vectors))
        keys = torch.relu(self.align(words))
        queries = torch.relu(self.align(said))[batch.line_question]
        attention = keys @ queries.transpose(1, 2)
        pad = ~batch.question_mask[batch.line_question]
        attention = attention.masked_fill(pad[:, None, :], float("-inf")).softmax(dim=2)
        aligned = attention @ said[batch.line_question]
        x = torch.cat([words, aligned, batch.features], dim=2)
        states = self._rnn(self.line_rnn, x, batch.line_lengths)
        asked_states = self._rnn(self.question_rnn, said, batch.question_lengths)
        weights = self.pool(asked_states).squeeze(2)
        weights = weights.masked_fill(~batch.question_mask, float("-inf")).softmax(dim=1)
        pooled = (weights[:, :, None] * asked_states).sum(dim=1)
        asked = torch.cat([pooled, batch.question_features], dim=1)
        start = (states * self.start(asked)[batch.line_question][:, None, :]).sum(dim=2)
        end = (states * self.end(asked)[batch.line_question][:, None, :]).sum(dim=2)
        return start, end


@dataclass
class Batch:
    line_vectors: torch.Tensor  # (lines, words, dim)
    features: torch.Tensor
    line_lengths: torch.Tensor
    line_question: torch.Tensor  # the question of each line, in the batch
    question_vectors: torch.Tensor
    question_mask: torch.Tensor
    question_lengths: torch.Tensor
    question_features: torch.Tensor
    candidate_line: torch.Tensor
    candidate_first: torch.Tensor
    candidate_last: torch.Tensor  # inclusive
    candidate_question: torch.Tensor
    hashed: torch.Tensor  # the hashed features' score of each candidate
    right: torch.Tensor


@dataclass
class Example:
    line_words: list[list[str]]
    line_features: list[np.ndarray]
    asked: list[str]
    asked_features: np.ndarray
    first: np.ndarray
    last: np.ndarray
    rank: np.ndarray
    hashed: np.ndarray
    right: np.ndarray


def example(group, hashed_scores: np.ndarray) -> Example:
    asked = question_words(group.question)
    return Example(
        [list(line.lower) for line in group.lines],
        [token_features(line, group.cues, asked) for line in group.lines],
        asked,
        question_features(group.cues),
        np.array([c.found.first for c in group.candidates], dtype=np.int64),
        np.array([c.found.last - 1 for c in group.candidates], dtype=np.int64),
        np.array(group.ranks, dtype=np.int64),
        hashed_scores.astype(np.float32),
        np.array(group.labels, dtype=bool),
    )


def _padded(rows: list[np.ndarray], width: int) -> np.ndarray:
    out = np.zeros((len(rows), max(len(r) for r in rows), width), dtype=np.float32)
    for i, row in enumerate(rows):
        out[i, : len(row)] = row
    return out


def batch_of(examples: list[Example], table: dict[str, np.ndarray]) -> Batch:
    dim = next(iter(table.values())).shape[0]
    lines, features, owners, offsets = [], [], [], []
    candidates: dict[str, list[np.ndarray]] = {k: [] for k in ("line", "first", "last", "q")}
    for q, ex in enumerate(examples):
        offsets.append(len(lines))
        for words, marks in zip(ex.line_words, ex.line_features, strict=True):
            lines.append(np.stack([table[w] for w in words]) if words else np.zeros((1, dim)))
            features.append(marks if len(marks) else np.zeros((1, TOKEN_FEATURES)))
            owners.append(q)
        candidates["line"].append(offsets[-1] + ex.rank)
        candidates["first"].append(ex.first)
        candidates["last"].append(ex.last)
        candidates["q"].append(np.full(len(ex.first), q))
    asked = [np.stack([table[w] for w in ex.asked]) for ex in examples]
    question_lengths = torch.tensor([len(a) for a in asked])
    mask = torch.arange(int(question_lengths.max()))[None, :] < question_lengths[:, None]
    return Batch(
        torch.from_numpy(_padded(lines, dim)),
        torch.from_numpy(_padded(features, TOKEN_FEATURES)),
        torch.tensor([len(x) for x in lines]),
        torch.tensor(owners),
        torch.from_numpy(_padded(asked, dim)),
        mask,
        question_lengths,
        torch.from_numpy(np.stack([ex.asked_features for ex in examples])),
        *(torch.from_numpy(np.concatenate(candidates[k])) for k in ("line", "first", "last", "q")),
        torch.from_numpy(np.concatenate([ex.hashed for ex in examples])),
        torch.from_numpy(np.concatenate([ex.right for ex in examples])),
    )


def candidate_scores(net: Net, batch: Batch) -> torch.Tensor:
    start, end = net(batch)
    return (
        batch.hashed
        + start[batch.candidate_line, batch.candidate_first]
        + end[batch.candidate_line, batch.candidate_last]
    )


def loss_of(scores: torch.Tensor, batch: Batch, questions: int) -> torch.Tensor:
    owner = batch.candidate_question
    top = torch.zeros(questions).scatter_reduce(0, owner, scores, "amax", include_self=False)
    e = torch.exp(scores - top[owner].detach())
    total = torch.zeros(questions).index_add(0, owner, e)
    right = torch.zeros(questions).index_add(0, owner, e * batch.right)
    return (torch.log(total) - torch.log(right)).mean()


def vector_table(examples: list[Example]) -> dict[str, np.ndarray]:
    vocabulary = sorted(
        {w for ex in examples for words in ex.line_words for w in words}
        | {w for ex in examples for w in ex.asked}
    )
    vectors = word_vectors(vocabulary)
    return dict(zip(vocabulary, vectors, strict=True))


def train(examples: list[Example], epochs: int = EPOCHS) -> Net:
    """The network fitted to ``examples`` (each with a right candidate)."""
    torch.manual_seed(SEED)
    random.seed(SEED)
    table = vector_table(examples)
    net = Net(next(iter(table.values())).shape[0])
    optimiser = torch.optim.Adam(net.parameters(), lr=LEARNING_RATE)
    started = time.perf_counter()
    for epoch in range(epochs):
        net.train()
        total = 0.0
        for chosen in _batches(examples):
            batch = batch_of(chosen, table)
            loss = loss_of(candidate_scores(net, batch), batch, len(chosen))
            optimiser.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 5.0)
            optimiser.step()
            total += float(loss.detach()) * len(chosen)
        print(
            f"  network epoch {epoch + 1}/{epochs}: loss {total / len(examples):.4f}, "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
    net.eval()
    return net


def _batches(examples: list[Example]) -> list[list[Example]]:
    """Shuffled batches of examples of like length (a batch is as slow as its longest
    line): the shuffled examples are sorted by length within runs of 64 batches."""
    order = list(range(len(examples)))
    random.shuffle(order)
    run = 64 * BATCH
    batches = []
    for at in range(0, len(order), run):
        part = sorted(order[at : at + run], key=lambda i: _longest(examples[i]))
        batches.extend(part[i : i + BATCH] for i in range(0, len(part), BATCH))
    random.shuffle(batches)
    return [[examples[i] for i in batch] for batch in batches]


def _longest(example: Example) -> int:
    return max((len(words) for words in example.line_words), default=0)


def scores_of(net: Net, examples: list[Example]) -> list[np.ndarray]:
    """Every candidate's full score (hashed + network), per example, in eval mode."""
    table = vector_table(examples)
    out = []
    with torch.no_grad():
        for step in range(0, len(examples), 128):
            chosen = examples[step : step + 128]
            batch = batch_of(chosen, table)
            scores = candidate_scores(net, batch).numpy()
            sizes = np.cumsum([len(ex.first) for ex in chosen])[:-1]
            out.extend(np.split(scores, sizes))
    return out


def arrays(net: Net) -> dict[str, np.ndarray]:
    return {name: value.detach().numpy().copy() for name, value in net.state_dict().items()}


def check_numpy_agrees(net: Net, examples: list[Example], cues_of_example) -> float:
    """The largest gap between torch's and numpy's edge scores on ``examples``."""
    numpy_net = Network(arrays(net))
    table = vector_table(examples)
    gap = 0.0
    with torch.no_grad():
        for ex, cues in zip(examples, cues_of_example, strict=True):
            batch = batch_of([ex], table)
            start, end = net(batch)
            asked = numpy_net.question(word_vectors(ex.asked), cues)
            given = [
                (word_vectors(words), marks)
                for words, marks in zip(ex.line_words, ex.line_features, strict=True)
                if words
            ]
            edges = numpy_net.edges(given, word_vectors(ex.asked), asked)
            kept = [i for i, words in enumerate(ex.line_words) if words]
            for i, (s, e) in zip(kept, edges, strict=True):
                gap = max(gap, float(np.abs(s - start[i, : len(s)].numpy()).max()))
                gap = max(gap, float(np.abs(e - end[i, : len(e)].numpy()).max()))
    return gap
