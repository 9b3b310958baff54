"""What a shard sends its driver: plain data a Ray worker can pickle. A shard's part of
a question's retrieval (``Finding``), its tallies with what else the driver holds of it
(``ShardTallies``), and what a question wants of a line (``Typed``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from affidavit.index import CorpusFacts, Ranked, Tallies
from affidavit.question import AnswerType, holds_answer


@dataclass(frozen=True, slots=True)
class Finding:
    """One shard's part of a question's retrieval, as the driver merges it (shards/
    shard_lines.py): its lines and documents ranked as one store ranks them (index/finding.py
    ``Ranked``, each document ranking cut to the FUSION_DEPTH the fusion reads), the
    question's terms its vocabulary holds, and the reading hash of each document it
    names."""

    ranked: Ranked
    known: frozenset[str]
    hashes: dict[str, str]
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
