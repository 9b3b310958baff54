"""One chat completion from an OpenAI-compatible server (llama.cpp's server, Ollama, vLLM
or a hosted API: ``POST {base_url}/chat/completions``), retried, timed and typed: the wire
under a model engine."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from affidavit.errors import EngineError

if TYPE_CHECKING:
    import httpx

_RETRIED = frozenset({429, 500, 502, 503, 504})


@dataclass(frozen=True, slots=True)
class Completion:
    """What the server answered, and what it cost."""

    text: str
    prompt_tokens: int | None  # as the server reports them; None when it does not
    completion_tokens: int | None
    seconds: float  # wall time of the call, retries included
    attempts: int


class ChatClient:
    """A client for ``/chat/completions`` on one server and model.

    Every failure is an EngineError that names the server and says what to do. The API
    key travels in the Authorization header only: it is never written into an error, a
    log line or an audit.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self._schema_ok = True  # until the server rejects response_format
        self._secret = api_key or ""  # kept only to strip it from what servers echo back
        import httpx  # 0.12 s to import: a cold ask with the default engine never needs it

        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.Client(timeout=timeout, headers=headers, transport=transport)

    def close(self) -> None:
        self._http.close()

    def complete(
        self, messages: Sequence[Mapping[str, str]], *, schema: Mapping[str, Any] | None = None
    ) -> Completion:
        """The model's reply to ``messages``; with ``schema``, JSON the server was asked to
        shape by it through ``response_format`` (the caller still parses and checks it: the
        schema is a request). A server that rejects that field is asked again without it,
        and the JSON is read from the text."""
        body: dict[str, Any] = {"model": self.model, "messages": list(messages)}
        if schema is not None and self._schema_ok:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "proposal", "schema": dict(schema), "strict": True},
            }
        started = time.monotonic()
        response, attempts = self._post(body)
        if response.status_code == 400 and "response_format" in body:
            # A server without structured output: ask for the JSON in the text instead.
            self._schema_ok = False
            del body["response_format"]
            response, more = self._post(body)
            attempts += more
        self._raise_for(response)
        return self._read(response, time.monotonic() - started, attempts)

    def _post(self, body: Mapping[str, Any]) -> tuple[httpx.Response, int]:
        """The response and the attempts it took: 429, 5xx, timeouts and dropped
        connections are retried with backoff, up to ``max_retries`` times."""
        import httpx

        url = f"{self.base_url}/chat/completions"
        for attempt in range(self.max_retries + 1):
            try:
                response = self._http.post(url, json=body)
            except httpx.TimeoutException:
                if attempt == self.max_retries:
                    raise EngineError(
                        f"{self.base_url}: no answer within {self.timeout:g} s "
                        f"({attempt + 1} attempts); raise timeout= or use a faster model"
                    ) from None
            except httpx.TransportError as exc:
                if attempt == self.max_retries:
                    raise EngineError(
                        f"{self.base_url}: cannot reach the server ({type(exc).__name__}); "
                        "check that it is running and the URL ends in /v1"
                    ) from None
            else:
                if response.status_code not in _RETRIED or attempt == self.max_retries:
                    return response, attempt + 1
                time.sleep(self._wait(response, attempt))
                continue
            time.sleep(self.backoff * 2**attempt)
        raise AssertionError("unreachable: the loop returns or raises")

    def _wait(self, response: httpx.Response, attempt: int) -> float:
        """The server's Retry-After when it gives one (capped), else exponential backoff."""
        given = response.headers.get("retry-after", "")
        if given.replace(".", "", 1).isdigit():
            return min(float(given), 30.0)
        return self.backoff * 2**attempt

    def _raise_for(self, response: httpx.Response) -> None:
        status = response.status_code
        if status < 400:
            return
        said = _error_text(response)
        if self._secret:
            said = said.replace(self._secret, "***")  # some servers echo the key back
        if status in (401, 403):
            raise EngineError(
                f"{self.base_url}: the server refused the API key (HTTP {status}); "
                "set AFFIDAVIT_API_KEY or pass api_key="
            )
        if status == 404 or ("model" in said.lower() and "not" in said.lower()):
            raise EngineError(
                f"{self.base_url}: the server does not know the model {self.model!r} "
                f"(HTTP {status}: {said[:200]}); list its models at {self.base_url}/models"
            )
        raise EngineError(f"{self.base_url}: HTTP {status} ({said[:200]})")

    def _read(self, response: httpx.Response, seconds: float, attempts: int) -> Completion:
        try:
            payload = response.json()
            text = payload["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise EngineError(
                f"{self.base_url}: an unusable response (not an OpenAI chat completion); "
                "check that the URL is the server's /v1 endpoint"
            ) from None
        if not isinstance(text, str):
            raise EngineError(f"{self.base_url}: the response holds no text content")
        usage = payload.get("usage") if isinstance(payload.get("usage"), dict) else {}
        return Completion(
            text,
            _count(usage.get("prompt_tokens")),
            _count(usage.get("completion_tokens")),
            seconds,
            attempts,
        )


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _error_text(response: httpx.Response) -> str:
    try:
        payload = response.json()
    except ValueError:
        return response.text.strip()
    error = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(error, dict):
        return str(error.get("message", ""))
    return str(error or payload)
