"""The lean path's own pieces, and the requests it must leave to the full path.

(Byte-for-byte parity with the full path over a real upstream, errors and streams included,
is tests/gateway/test_gateway_lean_path.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.exceptions import RequestValidationError
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException
from starlette.middleware.base import BaseHTTPMiddleware

from zerolayer.rules_api import create_app
from zerolayer.rules_api.api_errors import ApiError
from zerolayer.rules_api.connections import CoalescedWrites, TimedHttpToolsProtocol
from zerolayer.rules_api.lean_path import exception_handler, json_content_type, parse_body
from zerolayer.rules_api.schemas import ChatCompletionRequest
from zerolayer.rules_api.testing import FakeEngine, FakeFallback, anthropic_body

OPENAI = {"model": "m", "messages": [{"role": "user", "content": "a poem"}]}


def make(lean: bool = True) -> Any:
    app = create_app(FakeEngine(), fallback=FakeFallback())
    if not lean:
        app.lean_path = None
    return app


@pytest.fixture
def app() -> Any:
    return make()


def served(app: Any) -> int:
    return int(app.lean_path.served)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (b"application/json", True),
        (b"Application/JSON", True),
        (b"application/json; charset=utf-8", True),
        (b" application/json ;charset=utf-8", True),
        (b"application/jsonx", False),
        (b"application/problem+json", False),  # FastAPI reads it; the lean path leaves it
        (b"text/plain", False),
        (None, False),
    ],
)
def test_json_content_type(value: bytes | None, expected: bool) -> None:
    assert json_content_type(value) is expected


@pytest.mark.parametrize(
    "raw",
    [b"", b"{", b'{"model": NaN}', b"[]", b'{"model": "m", "messages": []}', b"\xff"],
)
def test_parse_body_leaves_what_it_cannot_read_to_the_full_path(raw: bytes) -> None:
    assert parse_body(ChatCompletionRequest, raw) is None


def test_parse_body_reads_as_fastapi_does() -> None:
    raw = b'{"model": "m", "seed": 18446744073709551615, "top_k": 99999999999999999999, ' \
        b'"messages": [{"role": "user", "content": "x"}]}'  # fmt: skip
    parsed = parse_body(ChatCompletionRequest, raw)
    assert parsed is None  # seed out of range: the full path's 400
    raw = raw.replace(b"18446744073709551615", b"3")
    parsed = parse_body(ChatCompletionRequest, raw)
    assert parsed is not None and parsed.model_extra == {"top_k": 99999999999999999999}


def test_exception_handler_is_found_as_starlette_finds_it() -> None:
    async def a(request: Any, exc: Exception) -> None: ...
    async def b(request: Any, exc: Exception) -> None: ...
    async def c(request: Any, exc: Exception) -> None: ...

    handlers: dict[Any, Any] = {ApiError: a, HTTPException: b, 418: c, Exception: a, 500: a}
    assert exception_handler(handlers, ApiError(400, "x")) is a
    assert exception_handler(handlers, HTTPException(404)) is b
    assert exception_handler(handlers, HTTPException(418)) is c
    assert exception_handler(handlers, HTTPException(500)) is b  # 500: not the status's
    assert exception_handler(handlers, RuntimeError("x")) is None  # Exception: the guard's
    assert exception_handler(handlers, RequestValidationError([])) is None


@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/messages"])
def test_an_unhandled_exception_is_the_guards_500_on_both_paths(
    path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = OPENAI if path.startswith("/v1/chat") else anthropic_body("a poem")
    answers = []
    for lean in (True, False):
        app = make(lean)

        def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("broken on purpose")

        monkeypatch.setattr(app.state.service, "headers", broken)
        with TestClient(app, raise_server_exceptions=False) as client:
            answers.append(client.post(path, json=body))
    lean_answer, full_answer = answers
    assert lean_answer.status_code == full_answer.status_code == 500
    assert lean_answer.content == full_answer.content
    assert lean_answer.headers.raw == full_answer.headers.raw


def test_fallback_requests_take_the_lean_path(app: Any) -> None:
    with TestClient(app) as client:
        assert client.post("/v1/chat/completions", json=OPENAI).status_code == 200
        assert client.post("/v1/messages", json=anthropic_body("a poem")).status_code == 200
    assert served(app) == 2


def test_an_app_given_more_middleware_takes_the_full_path(app: Any) -> None:
    seen: list[str] = []

    async def note(request: Any, call_next: Any) -> Any:
        seen.append(request.url.path)
        return await call_next(request)

    app.add_middleware(BaseHTTPMiddleware, dispatch=note)
    with TestClient(app) as client:
        assert client.post("/v1/chat/completions", json=OPENAI).status_code == 200
    assert seen == ["/v1/chat/completions"] and served(app) == 0


def test_a_request_naming_a_tenant_takes_the_full_path(app: Any) -> None:
    class Tenancy:
        def has_tenant(self, headers: Any) -> bool:
            return headers.get("x-api-key", "").startswith("zlk_")

    app.state.service.tenancy = Tenancy()
    with TestClient(app) as client:
        client.post("/v1/chat/completions", json=OPENAI, headers={"x-api-key": "zlk_x"})
        assert served(app) == 0
        client.post("/v1/chat/completions", json=OPENAI, headers={"x-api-key": "sk-x"})
        assert served(app) == 1


def test_chunked_and_oversized_bodies_take_the_full_path() -> None:
    app = make()
    with TestClient(app) as client:

        def chunks() -> Iterator[bytes]:
            yield b'{"model": "m", "messages": [{"role": "user", "content": "a poem"}]}'

        answer = client.post(
            "/v1/chat/completions", content=chunks(), headers={"content-type": "application/json"}
        )
        assert answer.status_code == 200
        big = {**OPENAI, "pad": "x" * (app.lean_path.max_body_bytes + 1)}
        assert client.post("/v1/chat/completions", json=big).status_code == 413
    assert served(app) == 0


# ---- CoalescedWrites ---------------------------------------------------------------------


class Recorder:
    """A transport that records what is written to it."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closing = False
        self.events: list[str] = []

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.events.append("close")
        self.closing = True

    def abort(self) -> None:
        self.events.append("abort")
        self.closing = True

    def get_extra_info(self, name: str) -> str:
        return f"info:{name}"


def test_writes_of_one_loop_turn_go_out_as_one() -> None:
    async def scenario() -> Recorder:
        transport = Recorder()
        writes = CoalescedWrites(transport, asyncio.get_running_loop())  # type: ignore[arg-type]
        writes.write(b"HTTP/1.1 200 OK\r\n\r\n")
        writes.write(b"")
        writes.writelines([b"bo", b"dy"])
        assert transport.writes == []
        await asyncio.sleep(0)
        writes.write(b"more")
        await asyncio.sleep(0)
        assert writes.get_extra_info("peername") == "info:peername"
        return transport

    transport = asyncio.run(scenario())
    assert transport.writes == [b"HTTP/1.1 200 OK\r\n\r\nbody", b"more"]


def test_close_writes_what_is_kept_and_abort_drops_it() -> None:
    async def scenario() -> tuple[Recorder, Recorder, Recorder]:
        loop = asyncio.get_running_loop()
        closed, aborted, gone = Recorder(), Recorder(), Recorder()
        a = CoalescedWrites(closed, loop)  # type: ignore[arg-type]
        a.write(b"last")
        a.close()
        b = CoalescedWrites(aborted, loop)  # type: ignore[arg-type]
        b.write(b"lost")
        b.abort()
        c = CoalescedWrites(gone, loop)  # type: ignore[arg-type]
        c.write(b"late")
        gone.closing = True  # the peer went away before the write was due
        await asyncio.sleep(0)
        return closed, aborted, gone

    closed, aborted, gone = asyncio.run(scenario())
    assert closed.writes == [b"last"] and closed.events == ["close"]
    assert aborted.writes == [] and aborted.events == ["abort"]
    assert gone.writes == []


def test_the_end_of_an_answer_is_written_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    completed: list[list[bytes]] = []

    async def scenario() -> Recorder:
        transport = Recorder()
        protocol = TimedHttpToolsProtocol.__new__(TimedHttpToolsProtocol)
        protocol.transport = CoalescedWrites(transport, asyncio.get_running_loop())  # type: ignore[arg-type]
        monkeypatch.setattr(
            HttpToolsProtocol, "on_response_complete", lambda self: completed.append(
                list(transport.writes))
        )  # fmt: skip
        protocol.transport.write(b"HTTP/1.1 200 OK\r\n\r\n")
        protocol.transport.write(b"body")
        protocol.on_response_complete()
        assert transport.writes == [b"HTTP/1.1 200 OK\r\n\r\nbody"]  # before the turn ends
        await asyncio.sleep(0)
        return transport

    transport = asyncio.run(scenario())
    assert transport.writes == [b"HTTP/1.1 200 OK\r\n\r\nbody"]
    assert completed == [[b"HTTP/1.1 200 OK\r\n\r\nbody"]]  # uvicorn's own step after it
