"""What a memory offers, one store or many: the seam a caller writes against (the CLI, a
batch, user code), which Memory and ShardedMemory both satisfy. Each call is documented
where it is written (memory/common.py, memory/ingesting.py, memory/one_store.py,
records/calls.py, store/upkeep.py, index/health.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Self, Unpack, runtime_checkable

from affidavit import results
from affidavit.options import AskKeywords, Progress, ScopeKeywords

if TYPE_CHECKING:
    from affidavit.batch import BatchReport
    from affidavit.engine import Engine
    from affidavit.index import DocumentHit
    from affidavit.ingest import IngestLimits


@runtime_checkable
class MemoryLike(Protocol):
    """A store of documents as verbatim lines, searchable and answerable with citations:
    Memory over one store file, ShardedMemory over a folder of shards."""

    engine: Engine  # what proposes answers
    speaking_threshold: float  # the least trust a line must have to be said

    @property
    def path(self) -> str | None:
        """Where the store lives (None: in memory)."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...

    def close(self) -> None:
        """Close the store (safe to call twice)."""
        ...

    def build_indexes(self, *, progress: Progress | None = None, frames: bool = False) -> None:
        """Build what the next question would otherwise pay for."""
        ...

    # -- documents in and out --

    def ingest(
        self,
        path: str | Path | Sequence[str | Path],
        *,
        name: str | None = None,
        date: str | None = None,
        source: str = "document",
        progress: Progress | None = None,
        limits: IngestLimits | None = None,
        replace_trusted: bool = False,
        keep_going: bool = False,
    ) -> results.IngestReport:
        """Ingest files and folders, all or nothing."""
        ...

    def ingest_text(
        self,
        text: str,
        *,
        name: str,
        date: str | None = None,
        source: str = "document",
        replace_trusted: bool = False,
    ) -> str:
        """Ingest a string as a document."""
        ...

    def ingest_dialogue(
        self, sessions: Any, *, name: str, source: str = "document", replace_trusted: bool = False
    ) -> list[str]:
        """Ingest a conversation, one document a session."""
        ...

    def remove(self, document: str) -> int:
        """Take a document out with everything drawn from it."""
        ...

    # -- lines, answers, audits --

    def search(
        self, query: str, *, k: int = 10, **scope: Unpack[ScopeKeywords]
    ) -> list[results.Evidence]:
        """The lines that best match ``query``."""
        ...

    def search_documents(self, query: str, *, k: int = 10) -> list[DocumentHit]:
        """The documents that best match ``query``."""
        ...

    def ask(self, question: str, **options: Unpack[AskKeywords]) -> results.Answer:
        """Answer ``question`` with citations, or refuse and say why."""
        ...

    def verify(
        self, text: str, *, question: str | None = None, **scope: Unpack[ScopeKeywords]
    ) -> results.Verdict:
        """Audit ``text`` sentence by sentence."""
        ...

    def batch(
        self,
        questions: str | Path | Iterable[str | Mapping[str, Any]],
        *,
        workers: int | None = None,
        progress: bool | Callable[[int, int], None] = True,
        out: str | Path | None = None,
        cluster: str | None = None,
        keep_rows: bool = True,
    ) -> BatchReport:
        """Answer a question set."""
        ...

    def line(self, document: str, position: int) -> results.Evidence | None:
        """The stored line a citation names."""
        ...

    # -- the entity graph --

    def entities(self, *, top: int = 50) -> list[results.EntityCount]:
        """The entities, most mentioned first."""
        ...

    def neighbours(self, entity: str, *, top: int = 10) -> list[results.Neighbour]:
        """The entities mentioned with ``entity``, heaviest edge first."""
        ...

    def cooccurrences(self, a: str, b: str) -> list[results.Evidence]:
        """The lines that mention both entities."""
        ...

    # -- told records (one store's) --

    def tell(
        self,
        subject: str,
        predicate: str,
        value: str,
        *,
        source: str = "operator",
        at: str | None = None,
        witness: tuple[str, int] | None = None,
        kind: str | None = None,
    ) -> results.Record:
        """Tell the store a fact."""
        ...

    def distil(self, document: str) -> results.Distilled:
        """Write the events a stored document reports as records."""
        ...

    def distil_new(self, *, progress: Progress | None = None) -> list[results.Distilled]:
        """Distil every document not distilled yet."""
        ...

    def infer(self) -> results.Inferred:
        """Derive what the transitive predicates' chains imply."""
        ...

    def records(
        self,
        subject: str | None = None,
        predicate: str | None = None,
        *,
        include_history: bool = False,
    ) -> list[results.Record]:
        """The live records of a subject and predicate."""
        ...

    def forget(self, record_id: int) -> results.Record:
        """Forget a record."""
        ...

    def end(self, record_id: int, *, at: str | None = None) -> results.Record:
        """Say that a record's fact stopped holding."""
        ...

    def label(self, word: str, means: str, *, language: str) -> results.Label:
        """Tell what a word means."""
        ...

    def labels(self, word: str) -> list[results.Label]:
        """What a word is told to mean."""
        ...

    def profile(self, entity: str, *, top: int = 10) -> results.Profile:
        """What the store holds of an entity."""
        ...

    # -- upkeep --

    def stats(self) -> dict[str, Any]:
        """The store's counts."""
        ...

    def documents(self) -> list[str]:
        """The stored documents' names."""
        ...

    def catalogue(self) -> list[results.StoredDocument]:
        """The stored documents, oldest first."""
        ...

    def fingerprint(self) -> str:
        """A digest of what the store holds."""
        ...

    def vacuum(self) -> dict[str, int]:
        """Give back the space of what was removed."""
        ...

    def forget_replies(self) -> int:
        """Drop a model engine's cached replies."""
        ...

    def health(self, *, refresh: bool = False) -> results.Health:
        """Retrieval's health on the store's canaries."""
        ...

    def last_health(self) -> results.HealthPoint | None:
        """The health last measured."""
        ...
