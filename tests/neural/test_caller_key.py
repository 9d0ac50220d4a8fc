"""The Anthropic pass-through forwards the caller's own key, end to end on loopback: a caller
talks to zerolayer, whose fallback is a fake Anthropic server that records the key it got."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from zerolayer.core.neural.anthropic import AnthropicBackend, caller_api_key
from zerolayer.core.neural.transport import TransportSettings
from zerolayer.rules_api import create_app
from zerolayer.rules_api.anthropic_api import forwarded_key
from zerolayer.rules_api.testing import FakeEngine, anthropic_body, serve_app

pytestmark = pytest.mark.slow  # live servers

TENANT_KEY = "zlk_0123456789ab_" + "s" * 40


def fake_anthropic(seen: list[dict[str, str]]) -> FastAPI:
    """Answers /v1/messages like Anthropic (whole or streamed) and records the headers."""
    app = FastAPI()

    @app.post("/v1/messages")
    async def messages(request: Request) -> Any:
        body = await request.json()
        seen.append(
            {k: v for k, v in request.headers.items() if k in ("x-api-key", "authorization")}
        )
        if not request.headers.get("x-api-key"):
            return JSONResponse({"type": "error"}, status_code=401)
        if not body.get("stream"):
            return {
                "content": [{"type": "text", "text": "from upstream"}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 3, "output_tokens": 2},
            }

        def events() -> Iterator[bytes]:
            yield b'event: message_start\ndata: {"type": "message_start", "message": {"usage": {"input_tokens": 3}}}\n\n'
            yield b'event: content_block_delta\ndata: {"type": "content_block_delta", "delta": {"text": "from upstream"}}\n\n'
            yield b'event: message_delta\ndata: {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 2}}\n\n'

        return StreamingResponse(events(), media_type="text/event-stream")

    return app


@pytest.fixture(scope="module")
def rig() -> Iterator[tuple[str, list[dict[str, str]]]]:
    seen: list[dict[str, str]] = []
    with serve_app(fake_anthropic(seen)) as upstream:
        settings = TransportSettings(retries=0)
        backend = AnthropicBackend(upstream, api_key=None, settings=settings)
        with serve_app(create_app(FakeEngine(), fallback=backend)) as front:
            yield front, seen
        backend.close()


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    "headers",
    [{"x-api-key": "sk-ant-caller-1"}, {"authorization": "Bearer sk-ant-caller-1"}],
    ids=["x-api-key", "bearer"],
)
def test_the_callers_key_reaches_anthropic(rig, headers, stream) -> None:
    front, seen = rig
    seen.clear()
    body = anthropic_body("tell me a joke", stream=stream)
    r = httpx.post(front + "/v1/messages", json=body, headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    assert "from upstream" in r.text
    assert r.headers["x-zero-layer-status"] == "inactive"
    assert seen == [{"x-api-key": "sk-ant-caller-1"}]
    assert caller_api_key.get() is None  # nothing leaks into this thread


def test_each_request_forwards_its_own_key(rig) -> None:
    front, seen = rig
    seen.clear()
    for key in ("sk-a", "sk-b", "sk-a"):
        r = httpx.post(
            front + "/v1/messages", json=anthropic_body("hi"), headers={"x-api-key": key}
        )
        assert r.status_code == 200
    assert [s["x-api-key"] for s in seen] == ["sk-a", "sk-b", "sk-a"]


def test_a_zerolayer_key_is_never_forwarded(rig) -> None:
    front, seen = rig
    seen.clear()
    r = httpx.post(
        front + "/v1/messages", json=anthropic_body("hi"), headers={"x-api-key": TENANT_KEY}
    )
    # an unknown zerolayer key is refused before any model is asked; a valid one names a
    # tenant and is never forwarded either (``forwarded_key`` below)
    assert r.status_code == 401
    assert seen == []


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"x-api-key": TENANT_KEY}, None),
        ({"authorization": "Bearer " + TENANT_KEY}, None),
        ({"x-api-key": "sk-caller"}, "sk-caller"),
        ({"authorization": "Bearer sk-bearer"}, "sk-bearer"),
        ({"x-api-key": "sk-first", "authorization": "Bearer sk-second"}, "sk-first"),
        ({}, None),
    ],
)
def test_only_a_callers_own_provider_key_is_forwarded(
    headers: dict[str, str], expected: str | None
) -> None:
    scope = {
        "type": "http",
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
    }
    assert forwarded_key(Request(scope)) == expected


def test_without_a_key_the_configured_one_is_used() -> None:
    seen: list[dict[str, str]] = []
    with serve_app(fake_anthropic(seen)) as upstream:
        backend = AnthropicBackend(upstream, api_key="sk-service")
        with serve_app(create_app(FakeEngine(), fallback=backend)) as front:
            r = httpx.post(front + "/v1/messages", json=anthropic_body("hi"))
            r2 = httpx.post(
                front + "/v1/messages", json=anthropic_body("hi"), headers={"x-api-key": "sk-c"}
            )
        backend.close()
    assert r.status_code == r2.status_code == 200
    assert [s["x-api-key"] for s in seen] == ["sk-service", "sk-c"]
