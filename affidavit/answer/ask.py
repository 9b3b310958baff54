"""ask(): an answer from the store, drawn through the judges with its citations, or a
refusal that says why; the flow's stages are answer/pipeline.py's ASK."""

from __future__ import annotations

from dataclasses import replace

from affidavit.answer.archive import Archive
from affidavit.answer.audit import AskRecord
from affidavit.answer.pipeline import ASK, run
from affidavit.answer.state import Asking, Flow
from affidavit.engine.protocol import Engine
from affidavit.index.scope import Scope
from affidavit.reasons import Reason
from affidavit.results import Answer


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
