"""The last organ: when every subset's candidates die, a small store whose every line is
dated (a conversation) is read whole, in the order told, as one subset, through the same
gates: a candidate that cites turns of two sessions can pass, a candidate the lines do not
carry still dies, and a store of undated lines is never read this way. The conversation is
the project's own corpora/dialogue/ana-and-sam.jsonl; the engine is scripted to answer only
from lines of two sessions at once, which no subset of one document holds."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from affidavit import Candidate, Memory, ScriptedEngine
from affidavit.results import Evidence

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
QUESTION = "Which favorite book did Ana name once she lived in Porto?"


def across_sessions(answer: str, *holding: str):
    """Propose ``answer`` citing the lines holding each of ``holding``, only when the
    evidence spans two documents or more."""

    def script(question: str, evidence: Sequence[Evidence]) -> list[Candidate]:
        if len({line.document for line in evidence}) < 2:
            return []
        cites = tuple(
            next(i for i, line in enumerate(evidence) if word in line.text) for word in holding
        )
        return [Candidate(text=answer, value=answer, cites=cites, score=1.0)]

    return script


def test_a_conversation_read_whole_lets_two_sessions_meet() -> None:
    memory = Memory(
        dense=False, engine=ScriptedEngine(across_sessions("Piranesi", "Porto", "Piranesi"))
    )
    memory.ingest_dialogue(CORPORA / "dialogue" / "ana-and-sam.jsonl", name="chat")
    asked = memory.ask(QUESTION)
    assert asked.text == "Piranesi"
    assert {c.document for c in asked.citations} == {"chat/session-2", "chat/session-3"}
    assert asked.audit["last_organ"] == {"lines": 13}


def test_what_the_whole_telling_does_not_carry_still_dies() -> None:
    memory = Memory(dense=False, engine=ScriptedEngine(across_sessions("Dune", "Porto", "Dune")))
    memory.ingest_dialogue(CORPORA / "dialogue" / "ana-and-sam.jsonl", name="chat")
    asked = memory.ask("What did Ana say about her flat in Porto?")
    assert asked.refused and asked.audit["last_organ"] == {"lines": 13}


def test_a_store_of_undated_lines_is_never_read_whole() -> None:
    memory = Memory(dense=False, engine=ScriptedEngine(across_sessions("Dana", "Dana", "permit")))
    memory.ingest(CORPORA / "demo" / "site-handbook.md")
    memory.ingest(CORPORA / "demo" / "contract-sales.md")
    asked = memory.ask("Who signs a hot work permit?")
    assert asked.refused and "last_organ" not in asked.audit
