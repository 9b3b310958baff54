"""affidavit: answers from documents only with what the evidence supports.

Every answer cites the exact lines behind it and carries an audit of how it was reached;
where the evidence falls short, it refuses and says why.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from affidavit.errors import AffidavitError, EngineError, IngestError, InputError, StoreError
from affidavit.runtime import spacy_commands_when_used

spacy_commands_when_used()

if TYPE_CHECKING:
    from affidavit.engine.http import HttpEngine
    from affidavit.engine.protocol import Candidate, Engine, ListsEvents, Planner, ProposedEvent
    from affidavit.engine.rules.engine import DefaultEngine
    from affidavit.engine.scripted import ScriptedEngine
    from affidavit.index.meaning.encoder import Encoder
    from affidavit.index.meaning.late import LateInteraction, Reranker
    from affidavit.index.retrieval import DocumentHit
    from affidavit.ingest.bounded import IngestLimits
    from affidavit.ingest.formats.dispatch import SUPPORTED_SUFFIXES
    from affidavit.memory import Memory, MemoryLike, ShardedMemory
    from affidavit.plans.plan import Plan
    from affidavit.question.question import Question
    from affidavit.reasons import Reason
    from affidavit.results import (
        Answer,
        Distilled,
        EntityCount,
        Evidence,
        Health,
        HealthPoint,
        Inferred,
        IngestReport,
        Label,
        Neighbour,
        Profile,
        Record,
        RecordState,
        SentenceVerdict,
        StoredDocument,
        Verdict,
    )

__version__ = "0.1.0"

__all__ = [
    "Memory",
    "ShardedMemory",
    "MemoryLike",
    "Question",
    "Answer",
    "Verdict",
    "SentenceVerdict",
    "Evidence",
    "Engine",
    "Candidate",
    "Planner",
    "Plan",
    "DefaultEngine",
    "ScriptedEngine",
    "HttpEngine",
    "Reason",
    "DocumentHit",
    "EntityCount",
    "Neighbour",
    "Profile",
    "Record",
    "RecordState",
    "Label",
    "Distilled",
    "Inferred",
    "ProposedEvent",
    "ListsEvents",
    "IngestReport",
    "StoredDocument",
    "Health",
    "HealthPoint",
    "IngestLimits",
    "SUPPORTED_SUFFIXES",
    "Encoder",
    "Reranker",
    "LateInteraction",
    "AffidavitError",
    "IngestError",
    "StoreError",
    "InputError",
    "EngineError",
]

# NOTE: each public name is imported from its room when first read (PEP 562), not here:
# importing them all took 1.1 s (spaCy, scipy, the readers), which `affidavit --help` and
# a module that needs only the errors paid for nothing.
_HOMES = {
    "DefaultEngine": "affidavit.engine.rules.engine",
    "HttpEngine": "affidavit.engine.http",
    "Candidate": "affidavit.engine.protocol",
    "Engine": "affidavit.engine.protocol",
    "ListsEvents": "affidavit.engine.protocol",
    "Planner": "affidavit.engine.protocol",
    "ProposedEvent": "affidavit.engine.protocol",
    "ScriptedEngine": "affidavit.engine.scripted",
    "Encoder": "affidavit.index.meaning.encoder",
    "LateInteraction": "affidavit.index.meaning.late",
    "Reranker": "affidavit.index.meaning.late",
    "DocumentHit": "affidavit.index.retrieval",
    "IngestLimits": "affidavit.ingest.bounded",
    "SUPPORTED_SUFFIXES": "affidavit.ingest.formats.dispatch",
    "Memory": "affidavit.memory",
    "ShardedMemory": "affidavit.memory",
    "MemoryLike": "affidavit.memory",
    "Plan": "affidavit.plans.plan",
    "Question": "affidavit.question.question",
    "Reason": "affidavit.reasons",
    **{
        name: "affidavit.results"
        for name in (
            "Answer Distilled EntityCount Evidence Health HealthPoint Inferred IngestReport "
            "Label Neighbour Profile Record RecordState SentenceVerdict StoredDocument Verdict"
        ).split()
    },
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'affidavit' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # read once; later reads find it here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
