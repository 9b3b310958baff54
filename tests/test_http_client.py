"""The wire under a model engine, against a real HTTP server on 127.0.0.1 started here:
success with token counts, retries after 429 and 503, a timeout, malformed JSON, a server
without structured output, an unknown model and a refused key — each a result or an
EngineError naming the server, never the key."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from affidavit.engine.http import ChatClient
from affidavit.errors import EngineError

KEY = "sk-secret-123"


def completion(text: str, usage: bool = True) -> dict[str, Any]:
    reply: dict[str, Any] = {"choices": [{"message": {"role": "assistant", "content": text}}]}
    if usage:
        reply["usage"] = {"prompt_tokens": 42, "completion_tokens": 7}
    return reply


class Replay:
    """Scripted responses, served in order: (status, body, delay seconds, headers)."""

    def __init__(self) -> None:
        self.script: list[tuple[int, Any, float, dict[str, str]]] = []
        self.requests: list[dict[str, Any]] = []


@pytest.fixture()
def server() -> Iterator[tuple[str, Replay]]:
    replay = Replay()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 — the http.server hook's name
            length = int(self.headers.get("content-length", 0))
            replay.requests.append(
                {
                    "path": self.path,
                    "auth": self.headers.get("authorization"),
                    "body": json.loads(self.rfile.read(length) or b"{}"),
                }
            )
            status, body, delay, headers = replay.script.pop(0)
            time.sleep(delay)
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            try:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting: that is the test

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", replay
    httpd.shutdown()
    httpd.server_close()


def client(url: str, **kwargs: Any) -> ChatClient:
    return ChatClient(url, "replay-model", api_key=KEY, backoff=0.01, **kwargs)


MESSAGES = [{"role": "user", "content": "Which line says when the bridge opened?"}]


def test_a_completion_with_its_token_counts(server) -> None:
    url, replay = server
    replay.script.append((200, completion('{"cites": [3]}'), 0, {}))
    done = client(url).complete(MESSAGES, schema={"type": "object"})
    assert (done.text, done.prompt_tokens, done.completion_tokens) == ('{"cites": [3]}', 42, 7)
    sent = replay.requests[0]
    assert sent["path"] == "/v1/chat/completions" and sent["auth"] == f"Bearer {KEY}"
    assert sent["body"]["model"] == "replay-model"
    assert sent["body"]["response_format"]["type"] == "json_schema"


@pytest.mark.parametrize("status", [429, 503])
def test_a_busy_server_is_asked_again(server, status: int) -> None:
    url, replay = server
    replay.script += [(status, {"error": {"message": "busy"}}, 0, {"retry-after": "0"})] * 2
    replay.script.append((200, completion("ok"), 0, {}))
    done = client(url).complete(MESSAGES)
    assert done.text == "ok" and done.attempts == 3


def test_a_server_that_stays_busy_is_an_engine_error(server) -> None:
    url, replay = server
    replay.script += [(503, {"error": {"message": "overloaded"}}, 0, {})] * 3
    with pytest.raises(EngineError, match="HTTP 503"):
        client(url, max_retries=2).complete(MESSAGES)


def test_a_timeout_is_an_engine_error_naming_the_server(server) -> None:
    url, replay = server
    replay.script += [(200, completion("late"), 1.0, {})] * 2
    with pytest.raises(EngineError, match="no answer within 0.2 s") as raised:
        client(url, timeout=0.2, max_retries=1).complete(MESSAGES)
    assert url in str(raised.value)


def test_malformed_json_is_an_unusable_response(server) -> None:
    url, replay = server
    replay.script.append((200, b"{not json", 0, {}))
    with pytest.raises(EngineError, match="unusable response"):
        client(url).complete(MESSAGES)


def test_a_server_without_structured_output_is_asked_for_json_in_text(server) -> None:
    url, replay = server
    replay.script.append((400, {"error": {"message": "response_format not supported"}}, 0, {}))
    replay.script.append((200, completion('{"cites": [1]}'), 0, {}))
    replay.script.append((200, completion('{"cites": [2]}'), 0, {}))
    chat = client(url)
    assert chat.complete(MESSAGES, schema={"type": "object"}).text == '{"cites": [1]}'
    assert "response_format" not in replay.requests[1]["body"]
    chat.complete(MESSAGES, schema={"type": "object"})  # remembered: not offered again
    assert "response_format" not in replay.requests[2]["body"]


@pytest.mark.parametrize(
    ("status", "said"),
    [(401, "refused the API key"), (404, "does not know the model 'replay-model'")],
)
def test_a_refused_key_or_an_unknown_model_says_so_without_the_key(
    server, status: int, said: str
) -> None:
    url, replay = server
    replay.script.append((status, {"error": {"message": f"no such thing: {KEY}?"}}, 0, {}))
    with pytest.raises(EngineError, match=said) as raised:
        client(url).complete(MESSAGES)
    assert KEY not in str(raised.value)


def test_an_unreachable_server_is_an_engine_error() -> None:
    with pytest.raises(EngineError, match="cannot reach the server"):
        client("http://127.0.0.1:9/v1", max_retries=1).complete(MESSAGES)
