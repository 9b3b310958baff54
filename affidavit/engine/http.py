"""A language model as the engine, over any OpenAI-compatible server: the model proposes,
the library disposes."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from affidavit.engine.chat import ChatClient
from affidavit.engine.prompts import (
    ANSWER_SCHEMA,
    CLAIMS_SCHEMA,
    EVENTS_SCHEMA,
    PROMPT_VERSION,
    answer_messages,
    events_messages,
    plan_messages,
    read_answers,
    read_back_messages,
    read_claims,
    read_events,
    read_plan,
)
from affidavit.engine.protocol import Candidate, ProposedEvent, ProposedPlan
from affidavit.engine.rules.engine import DefaultEngine
from affidavit.errors import EngineError
from affidavit.question import Question
from affidavit.results import Evidence
from affidavit.store import CachedReply, Replies

# How many lines one call lists the events of: a long document is asked block by block.
EVENT_BLOCK = 40


@dataclass
class Accounting:
    """What one ask cost in calls to the model."""

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    unreported_tokens: int = 0  # calls whose server reported no token counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "seconds": round(self.seconds, 3),
            "calls_without_token_counts": self.unreported_tokens,
        }


@dataclass
class HttpEngine:
    """An engine whose proposals come from a model behind ``base_url`` (ending in /v1).

    The model is asked for candidate answers per evidence subset (citing lines by their
    numbers), for a plan over the plan language's primitives when the question is read as
    a computation at the door, and for the read-back of a sentence that passed the gates
    (its claims, each then checked on its own); every proposal goes through the same gates
    and interpreter as the default engine's. A reply that is not the stated format is no
    candidate, no plan or no claim. Each ask's calls, tokens, cache hits and latency are
    kept for its audit (``take_accounting``).
    """

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    timeout: float = 30.0
    max_retries: int = 3
    cache: bool = True
    name: str = field(default="model", init=False)

    def __post_init__(self) -> None:
        self._client = ChatClient(
            self.base_url,
            self.model,
            api_key=self.api_key,
            timeout=self.timeout,
            max_retries=self.max_retries,
        )
        self._replies: dict[str, str] = {}
        self._stored: Replies | None = None
        self._rules = DefaultEngine()
        self.accounting = Accounting()

    def __getstate__(self) -> dict[str, Any]:
        """Its settings only: a batch ships the engine to worker processes, each of which
        opens its own connection and reads the replies cached in its own store."""
        return {
            "base_url": self.base_url,
            "model": self.model,
            "api_key": self.api_key,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
            "cache": self.cache,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            setattr(self, key, value)
        self.name = "model"
        self.__post_init__()

    @classmethod
    def from_environment(cls, **overrides: Any) -> HttpEngine | None:
        """The engine AFFIDAVIT_ENGINE_URL and AFFIDAVIT_ENGINE_MODEL name (with
        AFFIDAVIT_API_KEY), or None when no URL is set; ``overrides`` win."""
        url = overrides.pop("base_url", None) or os.environ.get("AFFIDAVIT_ENGINE_URL")
        if not url:
            return None
        model = overrides.pop("model", None) or os.environ.get("AFFIDAVIT_ENGINE_MODEL")
        if not model:
            raise EngineError(
                f"{url}: no model named; set AFFIDAVIT_ENGINE_MODEL or pass --engine-model"
            )
        key = overrides.pop("api_key", None) or os.environ.get("AFFIDAVIT_API_KEY")
        return cls(url, model, api_key=key, **{k: v for k, v in overrides.items() if v is not None})

    def use_replies(self, stored: Replies | None) -> None:
        """Cache replies in ``stored`` (the asking Memory's store) from now on."""
        self._stored = stored

    def take_accounting(self) -> dict[str, Any]:
        """This ask's accounting, for its audit; the count starts again."""
        spent, self.accounting = self.accounting, Accounting()
        return spent.to_dict()

    def propose(self, question: Question, evidence: Sequence[Evidence]) -> list[Candidate]:
        if not evidence:
            return []
        reply = self._ask(answer_messages(question.text, evidence), schema=ANSWER_SCHEMA)
        found = read_answers(reply, len(evidence))
        return [
            Candidate(text=text, value=text, cites=cites, score=1.0 - 0.05 * rank, note="model")
            for rank, (text, cites) in enumerate(found)
        ]

    def propose_plans(self, question: Question, evidence: Sequence[Evidence]) -> list[ProposedPlan]:
        """The model's plan first, then the rule engine's, for a question read as a
        computation at the door (so a model that cannot plan costs no computed answer);
        no call for any other question."""
        if question.route is None:
            return []
        plan = read_plan(self._ask(plan_messages(question.text, evidence)))
        rules = self._rules.propose_plans(question, evidence)
        return [plan, *rules] if plan is not None else rules

    def read_back(self, sentence: str) -> list[str]:
        """The claims the model reads ``sentence`` as making, each to be checked by the
        gates on its own; [] when the reply is not the stated format."""
        return read_claims(self._ask(read_back_messages(sentence), schema=CLAIMS_SCHEMA))

    def events(self, lines: Sequence[Evidence]) -> list[ProposedEvent]:
        """The events the model lists of ``lines``, asked a block of lines at a time;
        each still enters the store only if its own line says it."""
        found: list[ProposedEvent] = []
        for start in range(0, len(lines), EVENT_BLOCK):
            block = lines[start : start + EVENT_BLOCK]
            found.extend(read_events(self._ask(events_messages(block), EVENTS_SCHEMA), block))
        return found

    def _ask(self, messages: list[dict[str, str]], schema: dict[str, Any] | None = None) -> str:
        """The model's reply, cached by (model, prompt version, prompt): in the process, and
        in the store the asking Memory hands over (``use_replies``), so asking a question
        set again, in this process or the next, costs no calls. ``cache=False`` neither
        reads nor writes the cache."""
        key = hashlib.sha256(
            json.dumps([self.model, PROMPT_VERSION, messages, schema], sort_keys=True).encode()
        ).hexdigest()
        if self.cache:
            known = self._replies.get(key)
            if known is None and self._stored is not None:
                kept = self._stored.get(key)
                known = kept.text if kept is not None else None
            if known is not None:
                self.accounting.cache_hits += 1
                self._replies[key] = known
                return known
        done = self._client.complete(messages, schema=schema)
        self.accounting.calls += 1
        self.accounting.seconds += done.seconds
        if done.prompt_tokens is None or done.completion_tokens is None:
            self.accounting.unreported_tokens += 1
        self.accounting.prompt_tokens += done.prompt_tokens or 0
        self.accounting.completion_tokens += done.completion_tokens or 0
        if self.cache:
            self._replies[key] = done.text
            if self._stored is not None:
                reply = CachedReply(done.text, done.prompt_tokens, done.completion_tokens)
                self._stored.put(key, self.model, PROMPT_VERSION, reply)
        return done.text
