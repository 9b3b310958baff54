"""Engines propose candidates and plans: the protocol, the default rule-based engine, a
language model over any OpenAI-compatible server, and for tests a scripted engine and a
server that replays a model's recorded replies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.engine.http import HttpEngine
    from affidavit.engine.protocol import (
        Candidate,
        Engine,
        ListsEvents,
        Planner,
        ProposedEvent,
        ReadsAhead,
        ReadsBack,
        StartsReading,
    )
    from affidavit.engine.rules.engine import DefaultEngine
    from affidavit.engine.scripted import ScriptedEngine

# What other rooms may use of engine/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "http": "HttpEngine",
    "protocol": (
        "Candidate Engine ListsEvents Planner ProposedEvent ReadsAhead ReadsBack StartsReading"
    ),
    "rules.engine": "DefaultEngine",
    "scripted": "ScriptedEngine",
}

__all__ = [
    "Candidate", "DefaultEngine", "Engine", "HttpEngine", "ListsEvents", "Planner", "ProposedEvent",
    "ReadsAhead", "ReadsBack", "ScriptedEngine", "StartsReading",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
