"""A language model as the engine, over any OpenAI-compatible server.

The model proposes; the library disposes. ``HttpEngine`` asks the model for candidate
answers per evidence subset (citing lines by their numbers) and, for a question the organs
read as a computation, for a plan over the composer's primitives; every proposal then goes
through the same gates and interpreter as the default engine's. A reply that is not the
stated format is no candidate or no plan. The default engine's own plans follow the
model's, so a model that cannot plan costs no computed answer.

Replies are cached by (model, prompt version, prompt), so asking a question set again
costs no calls; each ask's calls, tokens, cache hits and latency are kept for its audit.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from affidavit.engine.default import DefaultEngine
from affidavit.engine.http import ChatClient
from affidavit.engine.prompts import (
    ANSWER_SCHEMA,
    PROMPT_VERSION,
    answer_messages,
    plan_messages,
    read_answers,
    read_plan,
)
from affidavit.engine.protocol import Candidate, ProposedPlan
from affidavit.errors import EngineError
from affidavit.organs.arithmetic import route
from affidavit.organs.shape import Shape
from affidavit.results import Evidence


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
    """An engine whose proposals come from a model behind ``base_url`` (ending in /v1)."""

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
        self._rules = DefaultEngine()
        self.accounting = Accounting()

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

    def take_accounting(self) -> dict[str, Any]:
        """This ask's accounting, for its audit; the count starts again."""
        spent, self.accounting = self.accounting, Accounting()
        return spent.to_dict()

    def propose(self, question: str, shape: Shape, evidence: Sequence[Evidence]) -> list[Candidate]:
        if not evidence:
            return []
        reply = self._ask(answer_messages(question, evidence), schema=ANSWER_SCHEMA)
        found = read_answers(reply, len(evidence))
        return [
            Candidate(text, text, cites, score=1.0 - 0.05 * rank, note="model")
            for rank, (text, cites) in enumerate(found)
        ]

    def propose_plans(
        self, question: str, shape: Shape, evidence: Sequence[Evidence]
    ) -> list[ProposedPlan]:
        """The model's plan first, then the rule engine's, for a question the organs read
        as a computation; no call for any other question."""
        if route(question) is None:
            return []
        plan = read_plan(self._ask(plan_messages(question, evidence)))
        rules = self._rules.propose_plans(question, shape, evidence)
        return [plan, *rules] if plan is not None else rules

    def _ask(self, messages: list[dict[str, str]], schema: dict[str, Any] | None = None) -> str:
        key = hashlib.sha256(
            json.dumps([self.model, PROMPT_VERSION, messages, schema], sort_keys=True).encode()
        ).hexdigest()
        if self.cache and key in self._replies:
            self.accounting.cache_hits += 1
            return self._replies[key]
        done = self._client.complete(messages, schema=schema)
        self.accounting.calls += 1
        self.accounting.seconds += done.seconds
        if done.prompt_tokens is None or done.completion_tokens is None:
            self.accounting.unreported_tokens += 1
        self.accounting.prompt_tokens += done.prompt_tokens or 0
        self.accounting.completion_tokens += done.completion_tokens or 0
        if self.cache:
            self._replies[key] = done.text
        return done.text
