"""Upstream backends against a real server on loopback: a second zerolayer whose fallback is
the tiny local model; a dead upstream trips the breaker and then costs milliseconds."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from zerolayer.core.fallback import Completion, FallbackUnavailable
from zerolayer.core.messages import EngineRequest, Message
from zerolayer.core.neural.anthropic import AnthropicBackend, caller_api_key
from zerolayer.core.neural.transport import TransportSettings
from zerolayer.core.neural.upstream import UpstreamBackend
from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import FakeEngine, anthropic_body, serve_app

pytestmark = pytest.mark.slow  # live servers

REQUEST = EngineRequest(
    (Message("user", "Write a short poem about the sea."),), system="Be brief.", temperature=0.0
)
FAST = TransportSettings(
    connect_timeout_s=0.5, read_timeout_s=0.3, retries=1, backoff_s=0.01, breaker_threshold=2
)


@pytest.fixture(scope="module")
def upstream_url(tiny_backend) -> Iterator[str]:
    with serve_app(create_app(FakeEngine(), fallback=tiny_backend)) as url:
        yield url


@pytest.fixture
def closing() -> Iterator[list]:
    """Backends to close after the test (their HTTP connections)."""
    backends: list = []
    yield backends
    for backend in backends:
        backend.close()


def items_of(stream) -> tuple[str, Completion]:
    items = list(stream)
    assert isinstance(items[-1], Completion)
    return "".join(items[:-1]), items[-1]


def test_openai_upstream_gives_the_local_models_answer(tiny_backend, upstream_url, closing) -> None:
    local = tiny_backend.generate(REQUEST, max_tokens=16)
    backend = UpstreamBackend(upstream_url + "/v1")
    closing.append(backend)
    whole = backend.generate(REQUEST, max_tokens=16)
    text, final = items_of(backend.stream(REQUEST, max_tokens=16))
    assert whole.text == text == final.text == local.text
    assert whole.stop_reason == final.stop_reason == "max_tokens"
    assert whole.output_tokens == 16


def test_openai_upstream_forwards_stop_sequences(tiny_backend, upstream_url, closing) -> None:
    text = tiny_backend.generate(REQUEST, max_tokens=16).text
    stop = text[len(text) // 2 : len(text) // 2 + 2]
    backend = UpstreamBackend(upstream_url + "/v1")
    closing.append(backend)
    cut = backend.generate(REQUEST, max_tokens=16, stop=[stop])
    assert cut.text == text[: text.find(stop)]


def test_anthropic_pass_through_forwards_the_callers_key(tiny_backend, upstream_url, closing):
    local = tiny_backend.generate(REQUEST, max_tokens=16, stop=["zz"])
    backend = AnthropicBackend(upstream_url)
    closing.append(backend)
    with pytest.raises(FallbackUnavailable, match="x-api-key"):
        backend.generate(REQUEST, max_tokens=16)
    token = caller_api_key.set("sk-caller")
    try:
        whole = backend.generate(REQUEST, max_tokens=16, stop=["zz"])
        text, final = items_of(backend.stream(REQUEST, max_tokens=16, stop=["zz"]))
    finally:
        caller_api_key.reset(token)
    assert whole.text == text == final.text == local.text
    assert whole.stop_reason == final.stop_reason == local.stop_reason
    assert final.input_tokens > 0 and final.output_tokens == local.output_tokens


def dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_refusing_upstream_opens_the_breaker(monkeypatch, closing) -> None:
    backend = UpstreamBackend(f"http://127.0.0.1:{dead_port()}/v1", settings=FAST)
    closing.append(backend)
    for _ in range(2):
        with pytest.raises(FallbackUnavailable, match="unavailable"):
            backend.generate(REQUEST, max_tokens=4)
    monkeypatch.setattr(backend.transport.client, "send", pytest.fail)  # no network any more
    started = time.perf_counter()
    with pytest.raises(FallbackUnavailable, match="failing"):
        list(backend.stream(REQUEST, max_tokens=4))
    assert time.perf_counter() - started < 0.01


def test_a_silent_upstream_costs_the_timeout_only_until_the_breaker_opens(closing) -> None:
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        backend = UpstreamBackend(f"http://127.0.0.1:{silent.getsockname()[1]}/v1", settings=FAST)
        closing.append(backend)
        for _ in range(2):
            started = time.perf_counter()
            with pytest.raises(FallbackUnavailable):
                backend.generate(REQUEST, max_tokens=4)
            assert time.perf_counter() - started >= 0.3  # read timeout, retried once
        started = time.perf_counter()
        with pytest.raises(FallbackUnavailable, match="failing"):
            backend.generate(REQUEST, max_tokens=4)
        assert time.perf_counter() - started < 0.01


def test_a_dead_upstream_never_touches_the_deterministic_route(closing) -> None:
    backend = UpstreamBackend(f"http://127.0.0.1:{dead_port()}/v1", settings=FAST)
    closing.append(backend)
    with serve_app(create_app(FakeEngine(), fallback=backend)) as url:
        for _ in range(3):
            r = httpx.post(url + "/v1/messages", json=anthropic_body("tell me a joke"))
            assert r.status_code == 503
        started = time.perf_counter()
        r = httpx.post(url + "/v1/messages", json=anthropic_body("ECHO-UPPER: abc"))
        assert r.status_code == 200 and r.json()["content"][0]["text"] == "ABC"
        assert r.headers["x-zero-layer-status"] == "active"
        assert time.perf_counter() - started < 1
