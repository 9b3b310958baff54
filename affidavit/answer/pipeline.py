"""The two flows: ``answer`` (ask) and ``verify``, each an order of named stages over one
frozen state (answer/state.py). A stage reads what the stages before it found and hands on
a new state; once one has said something (an answer, a refusal, a verdict), the stages
after it pass it by. ``ask`` and ``verify`` share the door, the scope, the evidence, the
judges and the citing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from affidavit.answer.audit import AskRecord
from affidavit.answer.choose import choose
from affidavit.answer.cite import cite
from affidavit.answer.compute import compute
from affidavit.answer.door import read, read_for_verify
from affidavit.answer.judge import judge
from affidavit.answer.polar import polar
from affidavit.answer.propose import propose, start_reading
from affidavit.answer.retrieve import retrieve
from affidavit.answer.scope import scope
from affidavit.answer.state import Asking, Flow
from affidavit.answer.whole import read_whole
from affidavit.archive import Archive
from affidavit.engine import Engine
from affidavit.index import Scope
from affidavit.question import Question
from affidavit.reasons import Reason
from affidavit.results import Answer, SentenceVerdict, Verdict
from affidavit.text import split_sentences

Stage = Callable[[Asking], Asking]


def _statement_verdict(statement: str, state: Asking) -> SentenceVerdict:
    """``statement`` judged as ``verify`` judges a sentence given alone, over the documents
    the question is asked of."""
    return _verdict(statement, state.archive, None, None, state.language, state.scope)


ASK: tuple[Stage, ...] = (
    read,  # the question, once: its language, reading, shape and what it asks for
    scope,  # the documents it is asked of, and what each one's lines must carry
    retrieve,  # the evidence: lines ranked, in one document's subsets
    start_reading,  # the engine starts reading them on a thread of its own, and we go on
    compute,  # an answer computed by plans over verified steps; the census
    # yes or no: the statement a question asking one asks about, judged as verify judges it
    partial(polar, judge_statement=_statement_verdict),
    propose,  # the engine's candidates, subset by subset
    judge,  # every candidate before the judges (gates/registry.py)
    read_whole,  # none passed: a small dated store read whole, proposed and judged again
    choose,  # the best that passed, its rivals, the reader's say; or a quote, or a refusal
    cite,  # what is said, with the lines it stands on
)

VERIFY: tuple[Stage, ...] = (read, scope, retrieve, judge, cite)


def run(state: Asking, stages: tuple[Stage, ...]) -> Asking:
    """``state`` through ``stages`` in order, until one has said something."""
    for stage in stages:
        if state.done:
            break
        state = stage(state)
    return state


def answer(
    question: str,
    archive: Archive,
    engine: Engine,
    *,
    asked_at: str | None = None,
    speaker: str | None = None,
    min_probability: float | None = None,
    scope: Scope | None = None,
) -> Answer:
    """Answer ``question`` from the documents of ``archive`` (one store's or a sharded
    store's) with citations, or refuse and say why; an answer the reader judges less likely
    than ``min_probability`` (default: the shipped threshold) is refused. With a ``scope``,
    only its documents are read.

    Candidates are proposed per evidence subset (one document's lines at a time), so an
    engine never builds an answer from lines two documents never said together, and each
    candidate is judged against the subset it was drawn from. Among the candidates that
    pass, the best by the engine's score, weighed by how well its document matched, is said.
    """
    record = AskRecord(engine.name, asked_at, speaker)
    if scope is not None:
        record = replace(record, scope=scope.to_dict())
    state = Asking(
        flow=Flow.ASK,
        text=question,
        archive=archive,
        engine=engine,
        record=record,
        asked_at=asked_at,
        speaker=speaker,
        min_probability=min_probability,
        scope=scope,
    )
    state = run(state, ASK)
    said, record = state.said, state.record
    assert said is not None
    if said.refused and said.reason and record.read_in:
        # Refused in the asker's language; the detail in brackets stays as measured.
        reason, language = Reason(said.reason), str(record.read_in["language"])
        said = replace(said, text=said.text.replace(reason.text, reason.said_in(language), 1))
    # A model engine accounts for this ask's calls, tokens, cache hits and latency.
    take = getattr(engine, "take_accounting", None)
    return Answer(
        question=question,
        text=said.text,
        value=said.value,
        refused=said.refused,
        reason=said.reason,
        citations=said.citations,
        audit=record.audit(take() if take is not None else None),
        census=said.census,
        probability=said.probability,
        rivals=said.rivals,
        quoted=said.quoted,
    )


def verify(
    text: str, archive: Archive, *, question: str | None = None, scope: Scope | None = None
) -> Verdict:
    """Audit ``text`` sentence by sentence against the documents of ``archive`` (one
    store's or a sharded store's).

    Each sentence is judged by the judges (gates/registry.py) against the evidence subsets
    its words (and the question's) retrieve, best document first: it is *supported* by the
    first subset whose lines pass every judge, *vetoed* when the best-matching document
    does not carry one of its numbers, and *dropped* otherwise, with the catalogued reason.
    A number no line writes ("rose 24.4%") is supported only when the store's own cells
    reproduce it (answer/recompute.py), and the verdict carries the plan that did. A bare
    "yes" is read as the question's statement and verified as such; a bare "no" asserts an
    absence that no line can attest, so it is unverifiable. With a ``scope`` only its
    documents are read: a sentence about one document is neither supported nor contested by
    another.
    """
    language, asked = read_for_verify(text, question, archive.main_language)
    paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()]
    sentences = [s for group in split_sentences(paragraphs, language) for s in group]
    verdicts = [
        _verdict(sentence, archive, asked, question, language, scope) for sentence in sentences
    ]
    return Verdict(text=text, question=question, sentences=verdicts)


def _verdict(
    sentence: str,
    archive: Archive,
    asked: Question | None,
    question: str | None,
    language: str,
    scope: Scope | None,
) -> SentenceVerdict:
    state = Asking(
        flow=Flow.VERIFY,
        text=sentence,
        checked=sentence,
        archive=archive,
        record=AskRecord("verify", None, None),
        question=asked,
        question_text=question,
        language=language,
        scope=scope,
    )
    state = run(state, VERIFY)
    verdict: SentenceVerdict = state.verdict
    # A Spanish or Turkish sentence was checked as its English reading, said beside it.
    return replace(verdict, read_in=state.read_in) if state.read_in else verdict
