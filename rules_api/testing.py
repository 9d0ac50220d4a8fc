"""Test doubles: a tiny engine and a fallback backend with the real contracts.

``FakeEngine`` answers instructions of the last user turn that start with
``ECHO-UPPER:`` by upper-casing the rest (plan ``text.read | text.upper()``), answers
``BAD:`` with a ``PayloadError`` from parsing the rest as JSON (line and column), raises an
unexpected exception for ``CRASH:``, and falls back for everything else. Its gate mimics the
real one: it calls ``core.gate.check_sampling`` (temperature 0 or absent, top_p absent or 1,
the request not disabled; ``strict_sampling=True`` treats an absent temperature as not 0).

``serve_app`` runs an app with uvicorn in a thread on a free loopback port (live-server tests).
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from zerolayer.core.errors import PayloadError
from zerolayer.core.fallback import Completion, FallbackUnavailable
from zerolayer.core.gate import check_sampling
from zerolayer.core.messages import EngineRequest, EngineResult, Route
from zerolayer.rules_api.usage import count_tokens, token_pieces

ECHO = "ECHO-UPPER:"
BAD = "BAD:"
CRASH = "CRASH:"


class FakeEngine:
    """A test double of ``zerolayer.core.engine.Engine`` (see the module docstring)."""

    rule_set_version = "fake-1"

    def __init__(self, *, strict_sampling: bool = False) -> None:
        self.strict_sampling = strict_sampling
        self.runs = 0
        self._lock = threading.Lock()

    def gate(self, request: EngineRequest) -> str | None:
        """The fallback reason of a request that is not deterministic, else None."""
        failure = check_sampling(request, absent_temperature_is_zero=not self.strict_sampling)
        return failure.reason if failure else None

    def run(self, request: EngineRequest) -> EngineResult:
        """Answer ECHO-UPPER, reject BAD, crash on CRASH, fall back otherwise."""
        with self._lock:
            self.runs += 1
        reason = self.gate(request)
        if reason:
            return EngineResult(Route.FALLBACK, reason=reason, detail="gate failed")
        text = request.messages[-1].content
        if text.startswith(CRASH):
            raise RuntimeError("fake engine crashed on purpose")
        if text.startswith(BAD):
            return EngineResult(Route.ERROR, plan="json.parse", error=_json_error(text[len(BAD) :]))
        if text.startswith(ECHO):
            payload = text[len(ECHO) :].strip()
            return EngineResult(
                Route.DETERMINISTIC, output=payload.upper(), plan="text.read | text.upper()"
            )
        return EngineResult(Route.FALLBACK, reason="parse.no_match", detail="no grammar matched")

    def fingerprint(self, request: EngineRequest) -> str | None:
        """A key for ECHO-UPPER requests that pass the gate; None otherwise."""
        text = request.messages[-1].content
        if self.gate(request) or not text.startswith(ECHO):
            return None
        payload = text[len(ECHO) :].strip()
        digest = hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()
        return f"echo-upper:{digest}:{self.rule_set_version}"

    def plugin_info(self) -> list[dict[str, Any]]:
        """One fake plugin."""
        return [{"name": "fake", "version": "1", "ops": ["text.read", "text.upper"], "grammar": []}]


def _json_error(payload: str) -> PayloadError:
    try:
        json.loads(payload)
    except json.JSONDecodeError as exc:
        return PayloadError(exc.msg, fmt="JSON", text=payload, line=exc.lineno, column=exc.colno)
    return PayloadError("rejected on purpose", fmt="JSON", text=payload, line=1, column=1)


class FakeFallback:
    """A fallback backend that answers ``[fallback] <last user turn>``, or is unavailable."""

    name = "fake-fallback"

    def __init__(self, *, unavailable: bool = False, break_after: int | None = None) -> None:
        self.unavailable = unavailable
        self.break_after = break_after  # stream: raise after this many deltas
        self.calls = 0

    def _text(self, request: EngineRequest) -> str:
        if self.unavailable:
            raise FallbackUnavailable("fake fallback is down")
        self.calls += 1
        return f"[fallback] {request.messages[-1].content}"

    def generate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        """The whole answer, with token counts."""
        text = self._text(request)
        return Completion(text, input_tokens=7, output_tokens=count_tokens(text))

    def stream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Iterator[str | Completion]:
        """The answer in one-token deltas, then the completion."""
        text = self._text(request)
        for i, piece in enumerate(token_pieces(text)):
            if self.break_after is not None and i >= self.break_after:
                raise ConnectionError("fake fallback broke mid-stream")
            yield piece
        yield Completion(text, input_tokens=7, output_tokens=count_tokens(text))


def anthropic_body(text: str, **extra: Any) -> dict[str, Any]:
    """A minimal Anthropic request body with one user turn (temperature 0)."""
    return {
        "model": "any",
        "max_tokens": 256,
        "temperature": 0,
        "messages": [{"role": "user", "content": text}],
        **extra,
    }


def chunk_event(choices: list[dict[str, Any]], **extra: Any) -> bytes:
    """One server-sent event of an OpenAI-compatible upstream's stream (a chat completion
    chunk with ``choices``), as the upstream writes it."""
    data = {"id": "up-1", "object": "chat.completion.chunk", "model": "up-model",
            "choices": choices, **extra}  # fmt: skip
    return b"data: " + json.dumps(data).encode() + b"\n\n"


def chunk_delta(text: str, finish: str | None = None, index: int = 0) -> bytes:
    """The event of one piece of text of choice ``index`` (and its finish reason)."""
    return chunk_event([{"index": index, "delta": {"content": text}, "finish_reason": finish}])


def free_socket() -> socket.socket:
    """A listening-ready TCP socket bound to a free loopback port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit this; without it small writes wait for delayed ACKs (40 ms).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@contextmanager
def serve_app(app: Any) -> Iterator[str]:
    """Run ``app`` with uvicorn in a thread on a free loopback port; yield its base URL."""
    sock = free_socket()
    port = sock.getsockname()[1]
    import uvicorn  # imported here: only live-server tests need it

    config = uvicorn.Config(app, log_level="warning", ws="none", lifespan="auto")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
