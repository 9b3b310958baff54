"""The wire under a model engine, against the replay server on 127.0.0.1 serving a script:
success with token counts, retries after 429 and 503, a timeout, malformed JSON, a server
without structured output, an unknown model and a refused key — each a result or an
EngineError naming the server, never the key."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from affidavit.engine.chat import ChatClient
from affidavit.engine.replay import ReplayServer
from affidavit.errors import EngineError

KEY = "sk-secret-123"


def completion(text: str) -> dict[str, Any]:
    """A reply with the token counts the server reports."""
    return {"reply": text, "usage": {"prompt_tokens": 42, "completion_tokens": 7}}


def failure(status: int, message: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    return {"status": status, "reply": message, "headers": headers or {}}


@pytest.fixture()
def server() -> Iterator[tuple[str, ReplayServer, list[dict[str, Any]]]]:
    """The replay server answering each request with the next scripted exchange, whatever
    it asks (status, reply, ``delay`` seconds, ``headers``, or a raw ``body``)."""
    script: list[dict[str, Any]] = []
    with ReplayServer(respond=lambda body: script.pop(0)) as replay:
        yield replay.url, replay, script


def client(url: str, **kwargs: Any) -> ChatClient:
    return ChatClient(url, "replay-model", api_key=KEY, backoff=0.01, **kwargs)


MESSAGES = [{"role": "user", "content": "Which line says when the bridge opened?"}]


def test_a_completion_with_its_token_counts(server) -> None:
    url, replay, script = server
    script.append(completion('{"cites": [3]}'))
    done = client(url).complete(MESSAGES, schema={"type": "object"})
    assert (done.text, done.prompt_tokens, done.completion_tokens) == ('{"cites": [3]}', 42, 7)
    assert replay.received[0] == ("/v1/chat/completions", f"Bearer {KEY}")
    sent = replay.requests[0]
    assert sent["model"] == "replay-model"
    assert sent["response_format"]["type"] == "json_schema"


@pytest.mark.parametrize("status", [429, 503])
def test_a_busy_server_is_asked_again(server, status: int) -> None:
    url, _, script = server
    script += [failure(status, "busy", {"retry-after": "0"})] * 2
    script.append(completion("ok"))
    done = client(url).complete(MESSAGES)
    assert done.text == "ok" and done.attempts == 3


def test_a_server_that_stays_busy_is_an_engine_error(server) -> None:
    url, _, script = server
    script += [failure(503, "overloaded")] * 3
    with pytest.raises(EngineError, match="HTTP 503"):
        client(url, max_retries=2).complete(MESSAGES)


def test_a_timeout_is_an_engine_error_naming_the_server(server) -> None:
    url, _, script = server
    script += [{**completion("late"), "delay": 1.0}] * 2
    with pytest.raises(EngineError, match="no answer within 0.2 s") as raised:
        client(url, timeout=0.2, max_retries=1).complete(MESSAGES)
    assert url in str(raised.value)


def test_malformed_json_is_an_unusable_response(server) -> None:
    url, _, script = server
    script.append({"body": "{not json"})
    with pytest.raises(EngineError, match="unusable response"):
        client(url).complete(MESSAGES)


def test_a_server_without_structured_output_is_asked_for_json_in_text(server) -> None:
    url, replay, script = server
    script.append(failure(400, "response_format not supported"))
    script.append(completion('{"cites": [1]}'))
    script.append(completion('{"cites": [2]}'))
    chat = client(url)
    assert chat.complete(MESSAGES, schema={"type": "object"}).text == '{"cites": [1]}'
    assert "response_format" not in replay.requests[1]
    chat.complete(MESSAGES, schema={"type": "object"})  # remembered: not offered again
    assert "response_format" not in replay.requests[2]


@pytest.mark.parametrize(
    ("status", "said"),
    [(401, "refused the API key"), (404, "does not know the model 'replay-model'")],
)
def test_a_refused_key_or_an_unknown_model_says_so_without_the_key(
    server, status: int, said: str
) -> None:
    url, _, script = server
    script.append(failure(status, f"no such thing: {KEY}?"))
    with pytest.raises(EngineError, match=said) as raised:
        client(url).complete(MESSAGES)
    assert KEY not in str(raised.value)


def test_an_unreachable_server_is_an_engine_error() -> None:
    with pytest.raises(EngineError, match="cannot reach the server"):
        client("http://127.0.0.1:9/v1", max_retries=1).complete(MESSAGES)
