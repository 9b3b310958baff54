"""What a shard sends its driver: plain data a Ray worker can pickle. A shard's part of
a question's retrieval (``Finding``), its tallies with what else the driver holds of it
(``ShardTallies``), and what a question wants of a line (``Typed``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from affidavit.index.entities.phrases import CorpusFacts
from affidavit.index.words.tallies import Tallies
from affidavit.question.shape import AnswerType
from affidavit.question.typed_lines import holds_answer
from affidavit.results import Evidence

# What a line found may be: cited, withheld (below the speaking threshold), or an order to
# a model (text/addressing.py); the driver counts the last two as one store does.
CITED, WITHHELD, ORDERS = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Finding:
    """One shard's part of a question's retrieval, as the driver merges it (shards/
    ranking.py): its best lines by word score (or by the partition path), each with what
    it may be; its documents ranked by their best line and by meaning; the question's
    terms its vocabulary holds; and the reading hash of each document it names."""

    lines: list[tuple[Evidence, int]]
    by_words: list[tuple[str, float]]
    by_meaning: list[tuple[str, float]]
    known: frozenset[str]
    hashes: dict[str, str]
    partitioned: bool = False
    meaning: bool = False  # is the meaning channel on (documents are then fused)
    facts: CorpusFacts | None = None  # of the question's phrases, when asked for them
    speaks: bool = True  # on the partition path: may any line of this shard's be cited


@dataclass(frozen=True)
class ShardTallies:
    """A shard's tallies (index/words/tallies.py) as its driver holds them, with the
    shard's store generation they were read at, its documents' languages and the labels
    its operator told."""

    generation: int
    tallies: Tallies
    languages: list[str]  # each document's language
    labels: dict[tuple[str, str], list[str]]  # the labels an operator told it
    names: list[str]  # every document's name
    hashes: frozenset[str]  # every document's reading hash (a copy's is its original's)


@dataclass(frozen=True, slots=True)
class Typed:
    """What a question wants of a line (its answer type) and the question's text: enough
    for a shard to grade its lines as the driver's question does (question/typed_lines)."""

    answer_type: AnswerType
    text: str

    def grade(self) -> Callable[[str], int] | None:
        return holds_answer(self.answer_type, self.text)
