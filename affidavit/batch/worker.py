"""What every batch worker does, wherever it runs: answer with an Answerer (the caller's
own, or one a worker in another process opens read-only with the Opener it was sent),
and turn one question (asked) or claim (verified) into its output row."""

from __future__ import annotations

import gc
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, Unpack

from affidavit.batch.output import row_bytes
from affidavit.batch.questions import BadLine, BatchClaim, Item
from affidavit.errors import InputError
from affidavit.options import AskKeywords, ScopeKeywords
from affidavit.results import Answer, Verdict

Row = dict[str, Any]
# Questions handed out per worker ahead of the one being answered, so no worker waits
# on the parent between questions; also bounds the rows held waiting for their turn.
AHEAD_PER_WORKER = 4


# What a claim row says it is, beside the verdict (a question's row has no "kind").
VERIFY_KIND = "verify"


class Answerer(Protocol):
    """What answers a batch's questions and verifies its claims: a Memory, or a fake in a
    test (one that only asks may answer a set holding no claim: a claim it is given is an
    error row). The batch never imports the Memory it runs for: Memory.batch hands it
    itself, and a Sharing with its Opener."""

    def ask(self, question: str, **options: Unpack[AskKeywords]) -> Answer: ...

    def verify(
        self, text: str, *, question: str | None = None, **scope: Unpack[ScopeKeywords]
    ) -> Verdict: ...


@dataclass(frozen=True)
class Opener:
    """How a worker in another process opens the store for itself, read-only:
    ``open(path, **options)``. It is pickled to every worker started afresh and to every
    Ray actor, so ``open`` is found by its name there (Memory.batch gives the class
    Memory, its options those it was opened with)."""

    open: Callable[..., Answerer]
    options: Mapping[str, Any] = field(default_factory=dict)

    def __call__(self, path: str) -> Answerer:
        return self.open(path, **self.options)


@dataclass(frozen=True)
class Sharing:
    """What lets workers in other processes answer as the caller's Answerer does, over
    the same store file (Memory.batch gives it). Only ``path`` and ``opener`` ever leave
    this process."""

    path: str  # the store file every worker opens read-only
    opener: Opener
    # Called once where workers fork from (this process, or the fork server), so each
    # starts with the models they load instead of loading them again on a contended
    # core: module-level functions, as a fork server is told them by name.
    preload: tuple[Callable[[], object], ...] = ()
    # How a worker forked from this process opens the store: it may take what the
    # caller holds (its indexes, pages shared until written). A fork inherits it.
    forked: Callable[[str], Answerer] | None = None
    # Builds and caches the store's indexes here, once, before the workers open it
    # read-only (a worker could not cache what it builds).
    warm: Callable[[], None] | None = None


class Answering:
    """Answers item after item with one Answerer; before the second (the models and
    indexes are loaded by the first, and its row is delivered), calls ``settle`` once
    (see runtime.long_lived_heap)."""

    def __init__(self, answerer: Answerer, settle: Callable[[], None] = gc.freeze) -> None:
        self.answerer = answerer
        self._settle = settle
        self._answered = 0

    def __call__(self, item: Item) -> Row:
        if self._answered == 1:
            self._settle()
        self._answered += 1
        return answer_row(self.answerer, item)


# NOTE: a row is about 15 KB; unpickling and encoding 2,000 of them in the parent took a
# core's time from the workers.
@dataclass(frozen=True, slots=True)
class Written:
    """A row as its line of the answer file, encoded where it was answered: the parent
    of worker processes then only writes it."""

    kind: str  # one of ROW_KINDS, as BatchReport counts rows
    line: bytes


# How a batch report counts rows: answers, refusals and input errors; claims verified
# supported, contradicted, or not supported (any other failing status).
ROW_KINDS = ("answered", "refused", "errors", "supported", "contradicted", "not_supported")


def row_kind(row: Row) -> str:
    """How a batch report counts the row (one of ROW_KINDS)."""
    if "error" in row:
        return "errors"
    if row.get("kind") == VERIFY_KIND:
        if row.get("contradicted"):
            return "contradicted"
        return "supported" if row.get("supported") else "not_supported"
    return "refused" if row.get("refused") else "answered"


def written(row: Row) -> Written:
    return Written(row_kind(row), row_bytes(row))


def answer_row(answerer: Answerer, item: Item) -> Row:
    """The output row of one item: its answer (or refusal), its claim's verdict, or the
    error its line earned. Workers in this process, in local processes and on Ray all
    answer through this, so a row is byte for byte the same whichever computed it (the
    default engine's audit carries no clock)."""
    if isinstance(item, BadLine):
        return item.row()
    if isinstance(item, BatchClaim):
        return verified_row(answerer, item)
    try:
        # The threshold goes only where the line sets it: an answerer without one keeps
        # its own; likewise the scope (a fake answerer may take none).
        options = AskKeywords(asked_at=item.asked_at, speaker=item.speaker, **item.scope.keywords())
        if item.min_probability is not None:
            options["min_probability"] = item.min_probability
        answer = answerer.ask(item.question, **options)
    except InputError as exc:  # this question cannot be read; the next one may be fine
        return BadLine(item.line, item.id, f"line {item.line}: {exc}").row()
    return {"id": item.id, "line": item.line, **answer.to_dict()}


def verified_row(answerer: Answerer, claim: BatchClaim) -> Row:
    """The row of a claim: ``{"id", "line", "kind": "verify", **verdict.to_dict()}``, or
    the error its line earned (a claim that cannot be read, an answerer that cannot
    verify)."""
    verify = getattr(answerer, "verify", None)
    if verify is None:
        problem = f"{type(answerer).__name__} cannot verify a claim (it has no verify method)"
        return BadLine(claim.line, claim.id, f"line {claim.line}: {problem}").row()
    try:
        verdict: Verdict = verify(claim.claim, **claim.scope.keywords())
    except InputError as exc:  # this claim cannot be read; the next one may be fine
        return BadLine(claim.line, claim.id, f"line {claim.line}: {exc}").row()
    return {"id": claim.id, "line": claim.line, "kind": VERIFY_KIND, **verdict.to_dict()}
