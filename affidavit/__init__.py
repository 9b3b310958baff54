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
    from affidavit.engine import (
        Candidate,
        DefaultEngine,
        Engine,
        HttpEngine,
        ListsEvents,
        Planner,
        ProposedEvent,
        ScriptedEngine,
    )
    from affidavit.index import DocumentHit, Encoder, LateInteraction, Reranker
    from affidavit.ingest import SUPPORTED_SUFFIXES, IngestLimits
    from affidavit.memory import Memory, MemoryLike, ShardedMemory
    from affidavit.plans import Plan
    from affidavit.question import Question
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
    "DefaultEngine": "affidavit.engine",
    "HttpEngine": "affidavit.engine",
    "Candidate": "affidavit.engine",
    "Engine": "affidavit.engine",
    "ListsEvents": "affidavit.engine",
    "Planner": "affidavit.engine",
    "ProposedEvent": "affidavit.engine",
    "ScriptedEngine": "affidavit.engine",
    "Encoder": "affidavit.index",
    "LateInteraction": "affidavit.index",
    "Reranker": "affidavit.index",
    "DocumentHit": "affidavit.index",
    "IngestLimits": "affidavit.ingest",
    "SUPPORTED_SUFFIXES": "affidavit.ingest",
    "Memory": "affidavit.memory",
    "ShardedMemory": "affidavit.memory",
    "MemoryLike": "affidavit.memory",
    "Plan": "affidavit.plans",
    "Question": "affidavit.question",
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
