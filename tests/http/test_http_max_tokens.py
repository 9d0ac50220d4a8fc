"""A deterministic answer is never cut at ``max_tokens``, on either API, streamed or not.

An answer longer than the request's ``max_tokens`` goes to the fallback with the reason
``answer.exceeds_max_tokens`` when one is configured, and is a 400 naming the tokens needed
when none is; an answer that fits (also once cut at a stop sequence) is active and whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from zerolayer.rules_api.service import EXCEEDS_MAX_TOKENS
from zerolayer.rules_api.testing import ECHO, FakeFallback, anthropic_body
from zerolayer.rules_api.usage import count_tokens

pytestmark = pytest.mark.slow  # live servers

WORDS = " ".join(f"word{i}" for i in range(40))
ANSWER = WORDS.upper()  # what the fake engine answers to ECHO + WORDS
TOKENS = count_tokens(ANSWER)
PATHS = {"anthropic": "/v1/messages", "openai": "/v1/chat/completions"}


def body(api: str, text: str, *, max_tokens: int, stream: bool, **extra: Any) -> dict[str, Any]:
    """A request of ``api`` with one user turn."""
    if api == "anthropic":
        return anthropic_body(text, max_tokens=max_tokens, stream=stream, **extra)
    return {
        "model": "any",
        "max_tokens": max_tokens,
        "temperature": 0,
        "stream": stream,
        "messages": [{"role": "user", "content": text}],
        **extra,
    }


def answer_of(api: str, response: httpx.Response, stream: bool) -> tuple[str, str]:
    """(text, stop reason in Anthropic's names) of a 200 answer, streamed or not."""
    if not stream:
        data = response.json()
        if api == "anthropic":
            return data["content"][0]["text"], data["stop_reason"]
        choice = data["choices"][0]
        return choice["message"]["content"], {"length": "max_tokens"}.get(
            choice["finish_reason"], choice["finish_reason"]
        )
    events = [
        json.loads(line[len("data: ") :])
        for line in response.text.splitlines()
        if line.startswith("data: ") and line != "data: [DONE]"
    ]
    if api == "anthropic":
        text = "".join(e["delta"]["text"] for e in events if e["type"] == "content_block_delta")
        reason = next(e["delta"]["stop_reason"] for e in events if e["type"] == "message_delta")
        return text, reason
    text = "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])
    finish = [e["choices"][0]["finish_reason"] for e in events if e["choices"]][-1]
    return text, {"length": "max_tokens"}.get(finish, finish)


CASES = [(api, stream) for api in PATHS for stream in (False, True)]


@pytest.mark.parametrize(("api", "stream"), CASES)
def test_an_answer_longer_than_max_tokens_falls_back(
    make_live: Callable[..., Any], api: str, stream: bool
) -> None:
    server = make_live(fallback=FakeFallback())
    request = body(api, ECHO + WORDS, max_tokens=TOKENS - 1, stream=stream)
    response = httpx.post(server.url + PATHS[api], json=request)
    assert response.status_code == 200
    assert response.headers["x-zero-layer-status"] == "inactive"
    assert response.headers["x-zero-layer-reason"] == EXCEEDS_MAX_TOKENS
    text, _ = answer_of(api, response, stream)
    assert text.startswith("[fallback] ")


@pytest.mark.parametrize(("api", "stream"), CASES)
def test_an_answer_longer_than_max_tokens_without_a_fallback_is_a_400(
    make_live: Callable[..., Any], api: str, stream: bool
) -> None:
    server = make_live()
    request = body(api, ECHO + WORDS, max_tokens=TOKENS - 1, stream=stream)
    response = httpx.post(server.url + PATHS[api], json=request)
    assert response.status_code == 400
    assert response.headers["x-zero-layer-reason"] == EXCEEDS_MAX_TOKENS
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert f"is {TOKENS} tokens, more than max_tokens ({TOKENS - 1})" in error["message"]
    assert f"raise max_tokens to at least {TOKENS}" in error["message"]
    if api == "openai":
        assert error["code"] == "answer_exceeds_max_tokens"


@pytest.mark.parametrize(("api", "stream"), CASES)
@pytest.mark.parametrize("fallback", [True, False])
def test_an_answer_of_exactly_max_tokens_is_active_and_whole(
    make_live: Callable[..., Any], api: str, stream: bool, fallback: bool
) -> None:
    server = make_live(fallback=FakeFallback() if fallback else None)
    request = body(api, ECHO + WORDS, max_tokens=TOKENS, stream=stream)
    response = httpx.post(server.url + PATHS[api], json=request)
    assert response.status_code == 200
    assert response.headers["x-zero-layer-status"] == "active"
    end = "end_turn" if api == "anthropic" else "stop"
    assert answer_of(api, response, stream) == (ANSWER, end)


@pytest.mark.parametrize(("api", "stream"), CASES)
def test_an_answer_that_fits_once_cut_at_a_stop_sequence_is_active(
    make_live: Callable[..., Any], api: str, stream: bool
) -> None:
    server = make_live()
    stop_field = "stop_sequences" if api == "anthropic" else "stop"
    request = body(api, ECHO + WORDS, max_tokens=6, stream=stream, **{stop_field: ["WORD3"]})
    response = httpx.post(server.url + PATHS[api], json=request)
    assert response.status_code == 200
    text, reason = answer_of(api, response, stream)
    assert text == "WORD0 WORD1 WORD2 "
    assert reason == ("stop_sequence" if api == "anthropic" else "stop")


@pytest.mark.parametrize("api", PATHS)
def test_a_cached_answer_is_fitted_per_request(make_live: Callable[..., Any], api: str) -> None:
    server = make_live(fallback=FakeFallback())
    url = server.url + PATHS[api]
    whole = httpx.post(url, json=body(api, ECHO + WORDS, max_tokens=TOKENS, stream=False))
    short = httpx.post(url, json=body(api, ECHO + WORDS, max_tokens=2, stream=False))
    assert whole.headers["x-zero-layer-status"] == "active"
    assert short.headers["x-zero-layer-status"] == "inactive"
    assert short.headers["x-zero-layer-reason"] == EXCEEDS_MAX_TOKENS
    assert server.engine.runs == 1  # the second request was a cache hit, then fitted
