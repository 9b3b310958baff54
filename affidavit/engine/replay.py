"""A model server that replays recorded replies, for tests and benchmarks without a model,
or records a real one's (so a recording is a real model's words)::

    python -m affidavit.engine.replay serve recording.jsonl --port 8099
    python -m affidavit.engine.replay record recording.jsonl --upstream http://host/v1
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from affidavit.errors import InputError


def fingerprint(model: str, messages: Sequence[Any]) -> str:
    """The key a request is matched by: its model and its messages, exactly."""
    return hashlib.sha256(json.dumps([model, list(messages)], sort_keys=True).encode()).hexdigest()


def read_recording(path: Path) -> list[dict[str, Any]]:
    """The exchanges of a recording file, each checked to have its model and messages.

    A recording is JSON Lines, one exchange a line::

        {"model": "m", "messages": [...], "reply": "...", "usage": {"prompt_tokens": 9}}

    with optional ``status`` (an error to serve instead, e.g. 429), ``headers``, ``delay``
    (seconds to wait first) and ``body`` (raw text to send as is: a malformed response).
    Several lines for one prompt are served in order, the last one repeating, so "429,
    then the reply" is two lines.
    """
    exchanges = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                exchange = json.loads(line)
            except ValueError as exc:
                raise InputError(str(path), f"line {number} is not JSON ({exc})") from None
            if not isinstance(exchange, dict) or not {"model", "messages"} <= exchange.keys():
                raise InputError(str(path), f"line {number} names no model and messages")
            exchanges.append(exchange)
    return exchanges


Responder = Callable[[dict[str, Any]], "dict[str, Any] | None"]


class ReplayServer:
    """Serves ``exchanges`` on 127.0.0.1 (a free port unless given), in a thread, speaking
    ``POST /v1/chat/completions``: each request is answered with the reply recorded for its
    (model, messages). A request with no recording goes to ``respond`` (a function from the
    request body to an exchange, for tests that answer by rule) and then, with
    ``upstream``, to a real server, whose reply is recorded; with neither it is HTTP 501
    naming the prompt's model, never an invented reply."""

    def __init__(
        self,
        exchanges: Sequence[dict[str, Any]] = (),
        *,
        port: int = 0,
        respond: Responder | None = None,
        upstream: str | None = None,
        api_key: str | None = None,
        record_to: Path | None = None,
    ) -> None:
        self.respond = respond
        self._record_to = record_to  # each forwarded exchange is appended here at once
        self._queues: dict[str, list[dict[str, Any]]] = {}
        for exchange in exchanges:
            self.add(exchange)
        self.requests: list[dict[str, Any]] = []  # every request body, in order
        # Where each POST went and the Authorization header it carried, in order (for
        # tests of the client; kept in this process's memory only).
        self.received: list[tuple[str, str | None]] = []
        self.recorded: list[dict[str, Any]] = []  # exchanges forwarded upstream
        self._upstream = upstream.rstrip("/") if upstream else None
        self._key = api_key
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def add(self, exchange: dict[str, Any]) -> None:
        key = fingerprint(exchange["model"], exchange["messages"])
        self._queues.setdefault(key, []).append(exchange)

    def __enter__(self) -> ReplayServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def exchange_for(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """The recorded exchange that answers ``body`` (served in order, the last repeats),
        or the upstream's reply, recorded; None when neither has one."""
        key = fingerprint(str(body.get("model")), body.get("messages") or [])
        with self._lock:
            self.requests.append(body)
            queue = self._queues.get(key)
            if queue:
                return queue.pop(0) if len(queue) > 1 else queue[0]
        made = self.respond(body) if self.respond is not None else None
        if made is not None or self._upstream is None:
            return made
        try:
            exchange = self._forward(body)
        except httpx.HTTPError as exc:  # not the model's answer: served, never recorded
            said = f"the upstream server {self._upstream} did not answer ({type(exc).__name__})"
            return {"status": 502, "reply": said}
        with self._lock:
            self.recorded.append(exchange)
            if exchange.get("status", 200) == 200:
                self.add(exchange)
            if self._record_to is not None:
                with self._record_to.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(exchange, ensure_ascii=False) + "\n")
        return exchange

    def _forward(self, body: dict[str, Any]) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        response = httpx.post(
            f"{self._upstream}/chat/completions", json=body, headers=headers, timeout=300
        )
        exchange: dict[str, Any] = {"model": body.get("model"), "messages": body.get("messages")}
        try:
            payload = response.json()
            exchange["reply"] = payload["choices"][0]["message"]["content"]
            exchange["usage"] = payload.get("usage") or {}
        except (ValueError, KeyError, IndexError, TypeError):
            exchange["body"] = response.text
        if response.status_code != 200:
            exchange["status"] = response.status_code
        return exchange


def _handler(server: ReplayServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 — the http.server hook's name
            server.received.append((self.path, self.headers.get("authorization")))
            length = int(self.headers.get("content-length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._send(400, {"error": {"message": "the request is not JSON"}})
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no such endpoint {self.path}"}})
                return
            exchange = server.exchange_for(body)
            if exchange is None:
                message = f"no recorded reply for this prompt to model {body.get('model')!r}"
                self._send(501, {"error": {"message": message}})
                return
            time.sleep(float(exchange.get("delay", 0)))
            status = int(exchange.get("status", 200))
            if "body" in exchange:
                self._send(status, str(exchange["body"]).encode(), exchange.get("headers"))
                return
            if status != 200:
                error = {"error": {"message": exchange.get("reply", "recorded error")}}
                self._send(status, error, exchange.get("headers"))
                return
            completion = {
                "object": "chat.completion",
                "model": body.get("model"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": exchange.get("reply", "")},
                        "finish_reason": "stop",
                    }
                ],
                "usage": exchange.get("usage") or {},
            }
            self._send(200, completion, exchange.get("headers"))

        def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            try:
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped waiting (a timeout being tested)

        def log_message(self, *args: Any) -> None:
            pass  # a replay is quiet; the requests are kept on the server

    return Handler


def _stop(*_: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m affidavit.engine.replay", allow_abbrev=False)
    parser.add_argument("mode", choices=["serve", "record"])
    parser.add_argument("recording", type=Path, help="the JSON Lines file of exchanges")
    parser.add_argument("--port", type=int, default=8099)
    parser.add_argument("--upstream", help="record: the real server's URL, ending in /v1")
    args = parser.parse_args(argv)
    if args.mode == "record" and not args.upstream:
        parser.error("record needs --upstream")
    known = read_recording(args.recording) if args.recording.exists() else []
    upstream = args.upstream if args.mode == "record" else None
    key = os.environ.get("AFFIDAVIT_API_KEY")  # from the environment only, as for the engine
    record_to = args.recording if args.mode == "record" else None
    # Stopped by Ctrl-C or by a plain kill alike; what was recorded is already on disk.
    signal.signal(signal.SIGTERM, _stop)
    try:
        server = ReplayServer(
            known, port=args.port, upstream=upstream, api_key=key, record_to=record_to
        )
    except OSError as exc:
        parser.exit(2, f"cannot listen on 127.0.0.1:{args.port} ({exc.strerror}); pass --port\n")
    with server:
        print(f"replaying {len(known)} exchanges at {server.url} (Ctrl-C to stop)", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    if server.recorded:
        print(f"recorded {len(server.recorded)} exchanges into {args.recording}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
