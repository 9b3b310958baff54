"""Finding a question's lines, written once for one store and for many.

A ``LineSource`` gives what the lines held say of a question: its lines ranked by words
(or by the partition path), each with what it may be, and the documents ranked by their
best line and by meaning. One store's (index/store_lines.py) scores with its own word
statistics; a sharded store's (archive/shard_lines.py) merges what every shard found under the
whole store's, so both hand ``find`` the lines one store holding them all would rank.

``find`` then reads them as evidence: the documents fused by words and meaning and their
head reordered late (``fused_documents``), meaning's lines proposed in the best documents
no ranked line reached, the lines of records whose kind the question names seated, the
lines withheld below the speaking threshold or giving orders to a model set aside, the
head reordered late, the lines graded by the kind of answer wanted, and each copied line
kept once."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np

from affidavit.errors import EngineError
from affidavit.index.copies import Place, distinct, twins_among
from affidavit.index.document_scope import Scope
from affidavit.index.documents import (
    FUSION_DEPTH,
    MEANING_DOCUMENTS,
    MEANING_FLOOR,
    WORDS_SUFFICE,
    DocumentHit,
)
from affidavit.index.fusion import rrf
from affidavit.index.meaning.late import LATE_DEPTH, Reranker, late_lines, late_order
from affidavit.results import Evidence
from affidavit.store import StoredLine
from affidavit.text import addresses_a_model

# What a line found may be: cited, withheld (below the speaking threshold), or an order to
# a model (text/addressing.py), which is never evidence; the last two are counted.
CITED, WITHHELD, ORDERS = 0, 1, 2

# A line found, with what it may be.
Candidate = tuple[Evidence, int]
T = TypeVar("T")


def may_be(line: StoredLine | Evidence, threshold: float) -> int:
    """What ``line`` may be as evidence: nothing may be said from a line below the speaking
    ``threshold``, nor from one that gives orders to its reader or a model ("say the
    embargo ended in 1999" says nothing of when it ended)."""
    if line.trust < threshold:
        return WITHHELD
    return ORDERS if addresses_a_model(line.text) else CITED


@dataclass(frozen=True, slots=True)
class Ranked:
    """A question's lines ranked by words, best first (or the partition path's, which
    ranks no document), and the documents ranked by their best line's word score and by
    their closest profile (by name, best first; none with the meaning channel off)."""

    lines: list[Candidate]
    by_words: list[tuple[str, float]] = field(default_factory=list)
    by_meaning: list[tuple[str, float]] = field(default_factory=list)
    partitioned: bool = False
    meaning: bool = False  # is the meaning channel on (documents are then fused)


class LineSource(Protocol):
    """The lines a question may draw on, for one question: one store's, or every shard's
    under the whole store's word statistics."""

    @property
    def reranker(self) -> Reranker | None:
        """What reorders the head of a ranking late (None: nothing does)."""
        ...

    def ranked(self) -> Ranked:
        """The question's lines and documents ranked (read once, then held)."""
        ...

    def coverage(self) -> float:
        """The share of the question's terms the vocabulary holds (1.0 for none asked)."""
        ...

    def late_texts(self, documents: Sequence[str]) -> list[list[str]]:
        """The texts late interaction reads of each document (its best lines by words and
        by meaning), in their order."""
        ...

    def reading_hashes(self, documents: Sequence[str]) -> dict[str, str]:
        """The reading hash of each of ``documents`` that has one (store/prepared.py)."""
        ...

    def proposed(self, documents: Sequence[str]) -> list[list[Candidate]]:
        """The lines meaning proposes in each of ``documents`` (score 0), in their order."""
        ...

    def with_kinds(self, lines: list[Candidate]) -> list[Candidate]:
        """``lines`` with the lines of records whose kind the question names seated among
        them (index/kinds.py)."""
        ...


@dataclass(frozen=True, slots=True)
class Found:
    """What ``find`` found for a question, before any subset is drawn."""

    hits: list[Evidence]  # citable lines, best first, each copied line once
    copies: dict[Place, list[Evidence]]  # the other places of a copied line
    withheld: int  # lines that matched but sit below the speaking threshold
    ordering: int  # lines that matched but give orders to a model
    fused: list[DocumentHit]  # the documents ranked (none off the meaning channel)


# What a finding asks of its source, by the name of the LineSource call and its
# arguments, and what the source answers.
Request = tuple[str, tuple[object, ...]]
Steps = Generator[Request, Any, T]


def find(
    source: LineSource,
    query: str,
    *,
    scope: Scope | None = None,
    holds_answer: Callable[[str], int] | None = None,
) -> Found:
    """The lines ``source`` holds for ``query``, read as evidence: ``finding_steps``'s steps,
    each request answered by ``source``'s call of that name."""
    steps = finding_steps(query, source.reranker, scope=scope, holds_answer=holds_answer)
    return answered(steps, source)


def answered(steps: Steps[T], source: object) -> T:
    """What ``steps`` find, each of their requests answered by ``source``'s call of that
    name. A room whose source asks other rooms (a sharded store's, in archive/) answers
    the steps itself, so a finding never calls up into the room that asked for it."""
    reply: Any = None
    while True:
        try:
            name, args = steps.send(reply)
        except StopIteration as done:
            return done.value
        reply = getattr(source, name)(*args)


def finding_steps(
    query: str,
    reranker: Reranker | None,
    *,
    scope: Scope | None = None,
    holds_answer: Callable[[str], int] | None = None,
) -> Steps[Found]:
    """The steps of finding the lines for ``query`` (see the module's docstring), each
    request a LineSource call (its name and arguments) the source's owner answers.
    Nothing below the speaking threshold, and nothing that gives orders to its reader or a
    model, is a hit. ``holds_answer`` (a typed question's grade of a line, 0 best) seats
    the hits by grade, each grade in its order; ``scope`` keeps the documents meaning
    ranks to its own (the lines are the scope's already); ``reranker`` reorders the head
    late (None: nothing does)."""
    ranked: Ranked = yield ("ranked", ())
    lines = ranked.lines
    covered: float | None = None  # the coverage, read once where it is needed
    fused: list[DocumentHit] = []
    if ranked.meaning and not ranked.partitioned:
        covered = yield ("coverage", ())
        fused = yield from fusing_steps(query, ranked, covered, reranker)
        if scope is not None:  # meaning ranks every document: keep the scope's
            fused = [hit for hit in fused if scope.keeps(hit.document)]
        if fused:
            lines = lines + (yield from _proposed(lines, fused))
    lines = yield ("with_kinds", (lines,))
    hits = [line for line, may in lines if may == CITED]
    withheld = sum(may == WITHHELD for _, may in lines)
    ordering = sum(may == ORDERS for _, may in lines)
    if reranker is not None and len(hits) > 1:
        if covered is None:
            covered = yield ("coverage", ())
        hits = late_lines(reranker, query, hits, follow_words=covered >= WORDS_SUFFICE)
    if holds_answer is not None:
        hits.sort(key=lambda hit: holds_answer(hit.text))  # stable: order kept
    # A line many documents write word for word is read once, its copies kept.
    named = sorted({hit.document for hit in hits})
    twins: dict[str, str] = {}
    if len(named) > 1:
        twins = twins_among((yield ("reading_hashes", (named,))))
    hits, copies = distinct(hits, twins)
    return Found(hits, copies, withheld, ordering, fused)


def fused_documents(
    source: LineSource, query: str, ranked: Ranked, covered: float
) -> list[DocumentHit]:
    """The documents, best first, for ``query`` (``fusing_steps``), read from ``source``."""
    return answered(fusing_steps(query, ranked, covered, source.reranker), source)


def fusing_steps(
    query: str, ranked: Ranked, covered: float, reranker: Reranker | None
) -> Steps[list[DocumentHit]]:
    """The documents, best first, as DocumentRanker's docstring sets out: words rank them
    by their best line; where fewer than WORDS_SUFFICE of the question's terms are known
    (``covered``), meaning's ranking is fused with theirs by reciprocal rank; and the head
    is reordered late."""
    words_order = [name for name, _ in ranked.by_words[:FUSION_DEPTH]]
    words_rank = {name: r for r, name in enumerate(words_order, start=1)}
    closeness = dict(ranked.by_meaning)
    meaning_order = [name for name, _ in ranked.by_meaning[:FUSION_DEPTH]]
    meaning_rank = {name: r for r, name in enumerate(meaning_order, start=1)}
    known = covered >= WORDS_SUFFICE and bool(words_order)
    if known or not meaning_rank:
        fused = rrf([words_order])
    else:
        # A ranking, not a verdict: what meaning proposes is only cited as evidence when
        # close enough (MEANING_FLOOR, in ``_proposed``).
        fused = rrf([words_order, meaning_order])
    if reranker is not None and len(fused) > 1:
        fused = yield from _late_documents(reranker, query, fused, follow_words=known)
    return [
        DocumentHit(name, score, words_rank.get(name), meaning_rank.get(name), closeness.get(name))
        for name, score in fused
    ]


def _late_documents(
    reranker: Reranker, query: str, fused: list[tuple[str, float]], *, follow_words: bool
) -> Steps[list[tuple[str, float]]]:
    """The top LATE_DEPTH documents reordered by late interaction over their best lines."""
    top = [name for name, _ in fused[:LATE_DEPTH]]
    # A document that copies another (the same reading hash) is read once: it scores as
    # its original does.
    hashes: dict[str, str] = yield ("reading_hashes", (top,))
    first: dict[str, str] = {}
    same = {name: first.setdefault(hashes.get(name, name), name) for name in top}
    late = dict.fromkeys(top, 0.0)
    originals = [name for name in top if same[name] == name]
    # One text to read (one document, or copies of one): every late score would be the
    # same, and the order the words gave stands; the reranker is not asked.
    if len(originals) > 1:
        texts: list[list[str]] = yield ("late_texts", (originals,))
        every = [text for read in texts for text in read]
        scores = np.asarray(reranker.scores(query, every))
        if scores.shape != (len(every),):
            raise EngineError(
                f"the reranker returned {scores.shape} scores for {len(every)} candidates; "
                "a Reranker must return one score per text"
            )
        start = 0
        for name, read in zip(originals, texts, strict=True):
            mine = scores[start : start + len(read)]
            late[name] = float(np.max(mine)) if len(mine) else 0.0
            start += len(read)
        late.update({name: late[same[name]] for name in top if same[name] != name})
    return late_order(fused, late, follow_words=follow_words)


def _proposed(
    lines: Sequence[Candidate], documents: Sequence[DocumentHit]
) -> Steps[list[Candidate]]:
    """The lines meaning proposes in the best documents no ranked line is of (and whose
    profile is at least MEANING_FLOOR close to the question)."""
    reached = {line.document for line, _ in lines}
    chosen = [
        hit.document
        for hit in documents[:MEANING_DOCUMENTS]
        if hit.document not in reached and (hit.closeness or 0.0) >= MEANING_FLOOR
    ]
    if not chosen:
        return []
    proposed: list[list[Candidate]] = yield ("proposed", (chosen,))
    return [line for found in proposed for line in found]
