"""affidavit: answers from documents only with what the evidence supports.

Every answer cites the exact lines behind it and carries an audit of how it was reached;
where the evidence falls short, it refuses and says why.
"""

from affidavit.engine.default.engine import DefaultEngine
from affidavit.engine.http import HttpEngine
from affidavit.engine.protocol import Candidate, Engine, ListsEvents, Planner, ProposedEvent
from affidavit.engine.scripted import ScriptedEngine
from affidavit.errors import AffidavitError, EngineError, IngestError, InputError, StoreError
from affidavit.index.meaning.encoder import Encoder
from affidavit.index.meaning.late import LateInteraction, Reranker
from affidavit.index.retrieval import DocumentHit
from affidavit.ingest.bounded import IngestLimits
from affidavit.ingest.readers.formats import SUPPORTED_SUFFIXES
from affidavit.memory import Memory
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
from affidavit.shards.memory import ShardedMemory  # Memory(folder, shards=N) opens one

__version__ = "0.1.0"

__all__ = [
    "Memory",
    "ShardedMemory",
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
