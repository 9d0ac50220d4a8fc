"""Error answers: malformed requests (data-driven), body limit, 5xx paths; never a bare 500."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from zerolayer.rules_api import ServiceSettings
from zerolayer.rules_api.cache import CachedAnswer
from zerolayer.rules_api.testing import FakeEngine, FakeFallback, anthropic_body

pytestmark = pytest.mark.slow  # live servers, subprocesses or many generated requests

CASES = json.loads((Path(__file__).parent / "cases" / "malformed.json").read_text("utf-8"))
ANSWER_PATHS = ("/v1/messages", "/v1/chat/completions")


def assert_shape(path: str, body: Any, status: int) -> str:
    """Check the API's own error shape; return the message."""
    if path.startswith("/v1/chat/"):
        assert set(body) == {"error"}
        assert set(body["error"]) == {"message", "type", "param", "code"}
        expected = "server_error" if status >= 500 else "invalid_request_error"
        assert body["error"]["type"] == expected
        return body["error"]["message"]
    assert body["type"] == "error"
    kinds = {400: "invalid_request_error", 404: "not_found_error", 405: "invalid_request_error",
             413: "request_too_large", 500: "api_error", 503: "overloaded_error"}  # fmt: skip
    assert body["error"]["type"] == kinds[status]
    return body["error"]["message"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_malformed_request_gets_api_error_shape(live, case: dict[str, Any]) -> None:
    headers = {"content-type": case.get("content_type", "application/json")}
    content: str | bytes = case["raw"] if "raw" in case else json.dumps(case.get("json"))
    if "raw_hex" in case:
        content = bytes.fromhex(case["raw_hex"])
    if "nested_depth" in case:
        depth = case["nested_depth"]
        content = content.replace('"NESTED"', "[" * depth + "]" * depth)
    method = case.get("method", "POST")
    with httpx.Client(base_url=live.url, timeout=10) as client:
        response = client.request(
            method, case["path"], content=content if method == "POST" else None, headers=headers
        )
    assert response.status_code == case["status"], response.text
    message = assert_shape(case["path"], response.json(), case["status"])
    for word in case.get("mentions", []):
        assert word in message
    if case["path"] in ANSWER_PATHS:
        assert response.headers["x-zero-layer-status"] == "active"
        assert response.headers["x-zero-layer-reason"] == "request.invalid"


LONE_SURROGATE = '"ECHO-UPPER: a\\ud800b"'  # valid JSON; UTF-8 cannot encode the result


@pytest.mark.parametrize("path", ANSWER_PATHS)
@pytest.mark.parametrize("stream", [False, True])
def test_lone_surrogates_are_answered_not_crashed(live, path: str, stream: bool) -> None:
    body = json.dumps(anthropic_body("PLACEHOLDER", stream=stream)).replace(
        '"PLACEHOLDER"', LONE_SURROGATE
    )
    response = httpx.post(live.url + path, content=body,
                          headers={"content-type": "application/json"})  # fmt: skip
    assert response.status_code == 200
    assert "\\ud800" in response.text  # escaped in the JSON text, decodes to the same string
    if not stream:
        data = response.json()
        text = (
            data["content"][0]["text"]
            if "content" in data
            else data["choices"][0]["message"]["content"]
        )
        assert text == "A\ud800B"


def test_lone_surrogate_in_an_error_excerpt(live) -> None:
    body = json.dumps(anthropic_body("PLACEHOLDER")).replace('"PLACEHOLDER"', '"BAD: [\\ud800"')
    response = httpx.post(live.url + "/v1/messages", content=body,
                          headers={"content-type": "application/json"})  # fmt: skip
    assert response.status_code == 400
    assert "line 1" in response.json()["error"]["message"]


def test_content_length_over_limit_is_413(bare) -> None:
    body = json.dumps(anthropic_body("ECHO-UPPER: " + "x" * 5000))
    response = httpx.post(f"{bare.url}/v1/messages", content=body,
                          headers={"content-type": "application/json"})  # fmt: skip
    assert response.status_code == 413
    assert "4096" in assert_shape("/v1/messages", response.json(), 413)
    assert response.headers["x-zero-layer-reason"] == "request.too_large"


def test_chunked_body_over_limit_is_413_while_reading(bare) -> None:
    def chunks():  # no Content-Length: the limit is enforced while the body is read
        yield b'{"model": "x", "max_tokens": 5, "messages": [{"role": "user", "content": "'
        for _ in range(10):
            yield b"y" * 1000
        yield b'"}]}'

    response = httpx.post(f"{bare.url}/v1/chat/completions", content=chunks(),
                          headers={"content-type": "application/json"})  # fmt: skip
    assert response.status_code == 413
    body = response.json()
    assert body["error"]["code"] == "request_too_large"


def test_chunked_body_under_limit_is_read(bare) -> None:
    def chunks():
        yield json.dumps(anthropic_body("ECHO-UPPER: small")).encode()

    response = httpx.post(f"{bare.url}/v1/messages", content=chunks(),
                          headers={"content-type": "application/json"})  # fmt: skip
    assert response.status_code == 200
    assert response.json()["content"][0]["text"] == "SMALL"


class BrokenCache:
    """A cache that fails on every call."""

    kind = "broken"

    def get(self, key: str) -> CachedAnswer | None:
        raise RuntimeError("cache exploded")

    def put(self, key: str, answer: CachedAnswer) -> None:
        raise RuntimeError("cache exploded")

    def stats(self) -> dict[str, Any]:
        return {"kind": self.kind, "ok": False}


def test_broken_cache_does_not_fail_requests(make_live) -> None:
    server = make_live(cache=BrokenCache())
    for _ in range(2):
        response = httpx.post(server.url + "/v1/messages", json=anthropic_body("ECHO-UPPER: hi"))
        assert response.status_code == 200
        assert response.headers["x-zero-layer-cache-hit"] == "false"
    assert server.engine.runs == 2


class BuggyFallback:
    """A backend that breaks its contract (returns no Completion): a bug in the server's
    reach that only the last-resort handler can answer."""

    name = "buggy"

    def generate(self, request, *, max_tokens, stop=()):  # type: ignore[no-untyped-def]
        return None

    def stream(self, request, *, max_tokens, stop=()):  # type: ignore[no-untyped-def]
        return iter(())


@pytest.mark.parametrize("path", ["/v1/messages", "/v1/chat/completions"])
def test_catch_all_answers_in_api_shape(make_live, path: str) -> None:
    server = make_live(fallback=BuggyFallback())
    response = httpx.post(server.url + path, json=anthropic_body("an open question"), timeout=10)
    assert response.status_code == 500
    assert "internal error" in assert_shape(path, response.json(), 500)
    metrics = httpx.get(server.url + "/metrics").text
    api = "openai" if "chat" in path else "anthropic"
    assert f'zerolayer_internal_errors_total{{api="{api}"}} 1.0' in metrics


def test_engine_crash_falls_back_instead_of_failing(make_live) -> None:
    server = make_live(fallback=FakeFallback())
    response = httpx.post(server.url + "/v1/messages", json=anthropic_body("CRASH: now"))
    assert response.status_code == 200
    assert response.headers["x-zero-layer-status"] == "inactive"
    assert response.headers["x-zero-layer-reason"] == "engine.exception"


class FingerprintFails(FakeEngine):
    def fingerprint(self, request):  # type: ignore[no-untyped-def]
        raise ValueError("fingerprint bug")


def test_fingerprint_failure_answers_without_cache(make_live) -> None:
    server = make_live(FingerprintFails())
    for _ in range(2):
        response = httpx.post(server.url + "/v1/messages", json=anthropic_body("ECHO-UPPER: a"))
        assert response.status_code == 200
        assert response.headers["x-zero-layer-cache-hit"] == "false"
    assert server.engine.runs == 2


def test_fallback_unavailable_is_503_overloaded(make_live) -> None:
    server = make_live(fallback=FakeFallback(unavailable=True))
    response = httpx.post(server.url + "/v1/messages", json=anthropic_body("hello there"))
    assert response.status_code == 503
    assert response.headers["x-zero-layer-status"] == "inactive"
    assert "unavailable" in assert_shape("/v1/messages", response.json(), 503)
    streamed = httpx.post(server.url + "/v1/messages",
                          json=anthropic_body("hello there", stream=True))  # fmt: skip
    assert streamed.status_code == 503
    assert streamed.headers["content-type"] == "application/json"


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("path", ANSWER_PATHS)
def test_a_fallback_that_cannot_answer_is_recorded_as_failed(
    make_live, path: str, stream: bool
) -> None:
    server = make_live(fallback=FakeFallback(unavailable=True))
    response = httpx.post(server.url + path, json=anthropic_body("hello there", stream=stream))
    assert response.status_code == 503
    [seen] = server.app.state.service.metrics.window.snapshot()
    assert (seen.route, seen.failed, seen.model_tokens) == ("inactive", True, 0)


@pytest.mark.parametrize("path", ANSWER_PATHS)
def test_a_fallback_answer_is_recorded_with_the_model_tokens(make_live, path: str) -> None:
    server = make_live(fallback=FakeFallback())
    response = httpx.post(server.url + path, json=anthropic_body("hello there"))
    assert response.status_code == 200
    [seen] = server.app.state.service.metrics.window.snapshot()
    assert (seen.route, seen.failed, seen.saved_tokens) == ("inactive", False, 0)
    assert seen.model_tokens > 0


def test_fallback_breaking_mid_stream_ends_with_error_event(make_live) -> None:
    server = make_live(fallback=FakeFallback(break_after=2))
    response = httpx.post(server.url + "/v1/messages",
                          json=anthropic_body("a long story please", stream=True))  # fmt: skip
    assert response.status_code == 200
    events = [line[7:] for line in response.text.splitlines() if line.startswith("event: ")]
    assert events[-1] == "error"
    assert "message_stop" not in events
    body = {**anthropic_body("a long story please"), "stream": True}
    chat = httpx.post(server.url + "/v1/chat/completions", json=body)
    lines = [line for line in chat.text.splitlines() if line]
    assert '"error"' in lines[-2]
    assert lines[-1] == "data: [DONE]"


def test_settings_limit_is_configurable(make_live) -> None:
    server = make_live(settings=ServiceSettings(max_body_bytes=200))
    response = httpx.post(
        server.url + "/v1/messages", json=anthropic_body("ECHO-UPPER: " + "z" * 300)
    )
    assert response.status_code == 413
