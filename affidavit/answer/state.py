"""What one question (or one sentence to verify) carries from stage to stage: a frozen
``Asking``, each stage handing the next a new one with what it found. Once a stage has
something to say (an answer, a refusal, a verdict), ``said`` holds it and the stages after
it pass it by."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from affidavit.answer.audit import AskRecord
from affidavit.archive import Archive, Naming
from affidavit.engine import Candidate, Engine
from affidavit.gates import MIN_CARRIED, Judgement
from affidavit.index import Retrieved, Scope
from affidavit.question import Question
from affidavit.reasons import Reason
from affidavit.results import Evidence
from affidavit.text import Analyzer, Reading, analyzer_for


class Flow(StrEnum):
    """Which of the two flows a state is on: a question to answer, a sentence to check."""

    ASK = "ask"
    VERIFY = "verify"


@dataclass(frozen=True, slots=True, kw_only=True)
class Said:
    """What ask says, before its audit is frozen."""

    text: str
    value: Any = None
    refused: bool = False
    reason: str | None = None
    citations: list[Evidence] = field(default_factory=list)
    census: str = ""
    probability: float | None = None
    rivals: list[tuple[str, float]] = field(default_factory=list)
    quoted: bool = False

    @classmethod
    def refusal(cls, reason: Reason, census: str = "", detail: str = "") -> Said:
        text = f"{reason.text} ({detail})" if detail else reason.text
        return cls(text=text, refused=True, reason=reason.value, census=census)


@dataclass(frozen=True, slots=True)
class Proposed:
    """One evidence subset as the engine was shown it, and what it proposed there:
    ``weight`` is how well its document matched (its best line against the best found),
    ``asked`` the key terms its lines must carry (the words naming its document aside),
    ``chained`` whether it is the last organ's whole telling."""

    number: int
    subset: list[Evidence]
    weight: float
    asked: frozenset[str]
    candidates: tuple[Candidate, ...]
    chained: bool = False


@dataclass(frozen=True, slots=True)
class Passed:
    """A candidate the judges let through: its weighed score, where it came from (subset
    number, the engine's rank), its judgement and the lines it cites."""

    score: float
    number: int
    rank: int
    candidate: Candidate
    judgement: Judgement
    cited: list[Evidence]


@dataclass(frozen=True, slots=True, kw_only=True)
class Asking:
    """One question or sentence on its way through the stages (answer/pipeline.py)."""

    flow: Flow
    text: str  # the question as asked, or the sentence to check
    archive: Archive
    engine: Engine | None = None
    record: AskRecord
    # Given with it.
    asked_at: str | None = None
    speaker: str | None = None
    min_probability: float | None = None
    question_text: str | None = None  # verify's question, when it was given one
    language: str = ""  # the language the text is read in (verify's: the whole text's)
    # What the stages found, in order.
    question: Question | None = None  # read (verify's: its question, read once for the text)
    checked: str = ""  # read: the statement verify checks (a bare "yes": the question's)
    read_in: dict[str, object] | None = None  # read: a sentence read in the store's language
    scope: Scope | None = None  # scope (the filters given, or the one document named)
    naming: Naming | None = None  # scope
    query: str | Reading = ""  # scope: what retrieval reads
    retrieved: Retrieved | None = None  # retrieve
    census_line: str = ""  # compute
    turns_need: float = MIN_CARRIED  # propose: the support tier's share for a speaker's turns
    proposed: tuple[Proposed, ...] = ()  # propose
    passed: tuple[Passed, ...] = ()  # judge
    chosen: Passed | None = None  # choose (verify's: the first judgement, when none passed)
    contested: tuple[tuple[Candidate, Sequence[Evidence]], ...] = ()  # choose: its rivals
    likely: tuple[float | None, list[tuple[str, float]]] = (None, [])  # choose
    said: Said | None = None  # the answer or refusal, once a stage has one
    verdict: Any = None  # verify's SentenceVerdict, once a stage has one

    @property
    def analyzer(self) -> Analyzer:
        """The analyzer of the language the text is read in."""
        return analyzer_for(self.language)

    @property
    def done(self) -> bool:
        return self.said is not None or self.verdict is not None

    def saying(self, said: Said) -> Asking:
        return replace(self, said=said)

    def noting(self, **found: Any) -> Asking:
        """This state with ``found`` written into its audit record."""
        return replace(self, record=replace(self.record, **found))
