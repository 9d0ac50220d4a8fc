"""The lean path answers as the full path does: the same statuses, headers and bytes.

Two zerolayer servers with the same fallback (the fault upstream's OpenAI API, or its
Messages API through the pass-through), one with the lean path (``lean_path.py``) and one
without it (every request through FastAPI's stack). Each request goes to both; what comes
back must be the same but for fresh ids, ``created`` and the date: answers whole and
streamed, the upstream's errors (400, 429 with Retry-After, 500 after retries), broken and
cut streams, and the requests the lean path hands to the full path (invalid or malformed
bodies, another content type, an unknown syntax version)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from zerolayer.core.neural.anthropic import AnthropicBackend
from zerolayer.core.neural.transport import TransportSettings
from zerolayer.core.neural.upstream import UpstreamBackend
from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import FakeEngine, serve_app

pytestmark = pytest.mark.slow  # live servers

FAST = TransportSettings(connect_timeout_s=0.5, read_timeout_s=5, retries=2, backoff_s=0.01,
                         retry_budget_s=0.5, breaker_threshold=50)  # fmt: skip
IDS = re.compile(rb"(msg_|chatcmpl-|req_)[0-9a-f]{24}")
CREATED = re.compile(rb'"created": ?\d+')
VARYING = {"date", "request-id"}


@dataclass
class Pair:
    lean: str
    full: str
    lean_app: Any


def _pair(backend: Any) -> Iterator[Pair]:
    lean_app = create_app(FakeEngine(), fallback=backend)
    full_app = create_app(FakeEngine(), fallback=backend)
    full_app.lean_path = None  # type: ignore[attr-defined]
    with serve_app(lean_app) as lean, serve_app(full_app) as full:
        yield Pair(lean, full, lean_app)
    backend.close()


@pytest.fixture(scope="module")
def openai_upstream(upstream: str) -> Iterator[Pair]:
    yield from _pair(UpstreamBackend(upstream + "/v1", model="up-model", settings=FAST))


@pytest.fixture(scope="module")
def anthropic_upstream(upstream: str) -> Iterator[Pair]:
    yield from _pair(AnthropicBackend(upstream, model="claude-up", api_key="sk-up", settings=FAST))


def body(api: str, text: str, stream: bool, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"model": "m", "max_tokens": 50, "stream": stream,
                           "messages": [{"role": "user", "content": text}], **extra}  # fmt: skip
    if api == "openai" and stream:
        out["stream_options"] = {"include_usage": True}
    return out


def path_of(api: str) -> str:
    return "/v1/chat/completions" if api == "openai" else "/v1/messages"


def normal(raw: bytes) -> bytes:
    return CREATED.sub(b'"created": 0', IDS.sub(rb"\1ID", raw))


def answer(base: str, path: str, content: bytes, headers: dict[str, str]) -> httpx.Response:
    with httpx.Client(timeout=10) as client:
        return client.post(base + path, content=content, headers=headers)


def same(pair: Pair, path: str, content: bytes, headers: dict[str, str] | None = None) -> int:
    """Send the request to both servers, assert that the answers agree; the status."""
    headers = {"content-type": "application/json", **(headers or {})}
    lean = answer(pair.lean, path, content, headers)
    full = answer(pair.full, path, content, headers)
    assert lean.status_code == full.status_code, (lean.text, full.text)
    assert [k for k, _ in lean.headers.raw] == [k for k, _ in full.headers.raw]
    for (name, a), (_, b) in zip(lean.headers.raw, full.headers.raw, strict=True):
        if name.decode().lower() not in VARYING:
            assert a == b, name
    assert normal(lean.content) == normal(full.content)
    return lean.status_code


def served(pair: Pair) -> int:
    return int(pair.lean_app.lean_path.served)


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("api", ["openai", "anthropic"])
@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("a story about the sea", 200),
        ("a joke fault=400", 400),
        ("a joke fault=429", 429),
        ("a joke fault=500", 500),
        ("a story fault=badstream", None),
        ("a story fault=cut", 200),
        ("a story fault=errevent", None),
        ("ECHO-UPPER: a deterministic answer", 200),
        ("BAD:{not json", 400),
        ("a story \ud800 with a lone surrogate", 400),
        ("CRASH: the engine fails", 200),
    ],
)
@pytest.mark.parametrize("upstream_api", ["openai_upstream", "anthropic_upstream"])
def test_the_fallbacks_answers_and_errors_are_the_full_paths(
    request: pytest.FixtureRequest,
    upstream_api: str,
    api: str,
    stream: bool,
    text: str,
    status: int | None,
) -> None:
    pair: Pair = request.getfixturevalue(upstream_api)
    before = served(pair)
    got = same(pair, path_of(api), json.dumps(body(api, text, stream)).encode())
    assert status is None or got == status
    assert served(pair) == before + 1


def test_retry_after_is_passed_on(openai_upstream: Pair) -> None:
    content = json.dumps(body("openai", "a joke fault=429", False)).encode()
    headers = {"content-type": "application/json"}
    lean = answer(openai_upstream.lean, "/v1/chat/completions", content, headers)
    assert lean.status_code == 429 and lean.headers["retry-after"] == "1"


@pytest.mark.parametrize("api", ["openai", "anthropic"])
@pytest.mark.parametrize(
    ("content", "headers"),
    [
        (b'{"model": "m", "max_tokens": 0, "messages": []}', {}),  # invalid: the full path's 400
        (b'{"model": "m", "messages": [', {}),  # malformed JSON
        (b"", {}),  # no body
        (b'{"model": "m", "max_tokens": 5, "stream": 0, "messages": []}', {}),  # strict types
        (b'{"model": 1e400}', {}),  # json.loads reads it, orjson would not
        (b"[1, 2]", {}),
        (b'{"model": "m"}', {"content-type": "text/plain"}),  # another content type
    ],
)
def test_requests_the_lean_path_passes_on_get_the_full_paths_answer(
    openai_upstream: Pair, api: str, content: bytes, headers: dict[str, str]
) -> None:
    before = served(openai_upstream)
    assert same(openai_upstream, path_of(api), content, headers) == 400
    assert served(openai_upstream) == before


@pytest.mark.parametrize("api", ["openai", "anthropic"])
@pytest.mark.parametrize(
    "headers",
    [
        {"x-zero-layer-syntax": "v9"},  # an unknown block syntax: the route's own 400
        {"x-zero-layer-syntax": "v2"},
        {"x-zero-layer": "disable"},
        {"content-type": "application/json; charset=utf-8"},
        {"x-api-key": "sk-caller", "anthropic-version": "2023-06-01"},
    ],
)
def test_headers_the_routes_read_count_the_same(
    anthropic_upstream: Pair, api: str, headers: dict[str, str]
) -> None:
    before = served(anthropic_upstream)
    content = json.dumps(body(api, "a story about the sea", False)).encode()
    same(anthropic_upstream, path_of(api), content, headers)
    assert served(anthropic_upstream) == before + 1


@pytest.mark.parametrize("api", ["openai", "anthropic"])
def test_a_deterministic_answer_and_its_cache_hits_are_the_full_paths(
    openai_upstream: Pair, api: str
) -> None:
    content = json.dumps(body(api, "ECHO-UPPER: cached " + api, False, temperature=0)).encode()
    for _ in range(3):  # a miss, a hit (then remembered), an answer of the fast path
        assert same(openai_upstream, path_of(api), content) == 200
