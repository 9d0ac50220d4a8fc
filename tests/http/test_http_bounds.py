"""Every number of both APIs has a range: outside it, a 400 naming the field, in the API's
error shape (docs/http.md, "Ranges of request fields")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from zerolayer.rules_api import create_app
from zerolayer.rules_api.schemas import MAX_STOP_SEQUENCES, MAX_TOKENS
from zerolayer.rules_api.testing import FakeEngine, anthropic_body, serve_app

HUGE = 10**400
ECHO = "ECHO-UPPER: x"
CHAT = {"model": "m", "temperature": 0, "messages": [{"role": "user", "content": ECHO}]}

ANTHROPIC_OUT_OF_RANGE: list[tuple[str, Any]] = [
    ("max_tokens", HUGE),
    ("max_tokens", MAX_TOKENS + 1),
    ("max_tokens", 0),
    ("n", 10**30),
    ("n", 2),
    ("temperature", 1.5),
    ("temperature", HUGE),
    ("top_p", -0.1),
    ("top_k", HUGE),
    ("top_k", -1),
    ("stop_sequences", ["s"] * (MAX_STOP_SEQUENCES + 1)),
    ("stop_sequences", ["s" * 5000]),
]
OPENAI_OUT_OF_RANGE: list[tuple[str, Any]] = [
    ("max_tokens", HUGE),
    ("max_completion_tokens", HUGE),
    ("max_completion_tokens", 0),
    ("n", 10**30),
    ("n", 17),
    ("temperature", 2.5),
    ("top_p", 1.01),
    ("presence_penalty", 3),
    ("frequency_penalty", -HUGE),
    ("seed", 2**63),
    ("top_logprobs", 21),
    ("logit_bias", {"50256": 1000}),
    ("stop", ["s"] * (MAX_STOP_SEQUENCES + 1)),
    ("stop", "s" * 5000),
]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve_app(create_app(FakeEngine())) as base:
        yield base


@pytest.mark.parametrize(("field", "value"), ANTHROPIC_OUT_OF_RANGE)
def test_anthropic_number_out_of_range_is_400_naming_the_field(
    url: str, field: str, value: Any
) -> None:
    response = httpx.post(url + "/v1/messages", json=anthropic_body(ECHO, **{field: value}))
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["type"] == "error"
    assert body["error"]["type"] == "invalid_request_error"
    assert body["error"]["message"].startswith(field)


@pytest.mark.parametrize(("field", "value"), OPENAI_OUT_OF_RANGE)
def test_openai_number_out_of_range_is_400_naming_the_field(
    url: str, field: str, value: Any
) -> None:
    response = httpx.post(url + "/v1/chat/completions", json={**CHAT, field: value})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["message"].startswith(field)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/messages", anthropic_body(ECHO, max_tokens=MAX_TOKENS, top_k=0, n=1)),
        ("/v1/chat/completions", {**CHAT, "max_tokens": MAX_TOKENS, "n": 16, "seed": -(2**63)}),
        ("/v1/chat/completions", {**CHAT, "presence_penalty": -2, "logit_bias": {"1": -100}}),
    ],
)
def test_numbers_at_the_ends_of_their_ranges_are_answered(
    url: str, path: str, body: dict[str, Any]
) -> None:
    response = httpx.post(url + path, json=body)
    assert response.status_code == 200, response.text


# A value of another JSON type is refused, not coerced: "stream": 0 is not false, "1" is not 1.
WRONG_TYPE: list[tuple[str, str, Any]] = [
    ("/v1/messages", "stream", 0),
    ("/v1/messages", "stream", "false"),
    ("/v1/messages", "max_tokens", "64"),
    ("/v1/messages", "max_tokens", 64.0),
    ("/v1/messages", "model", 7),
    ("/v1/chat/completions", "stream", 1),
    ("/v1/chat/completions", "n", "2"),
    ("/v1/chat/completions", "logprobs", "true"),
    ("/v1/chat/completions", "seed", 1.5),
]


@pytest.mark.parametrize(("path", "field", "value"), WRONG_TYPE)
def test_a_value_of_another_type_is_400_naming_the_field(
    url: str, path: str, field: str, value: Any
) -> None:
    body = anthropic_body(ECHO) if path == "/v1/messages" else dict(CHAT)
    response = httpx.post(url + path, json={**body, field: value})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["message"].startswith(field)


def test_an_integer_where_a_number_is_asked_is_a_number(url: str) -> None:
    body = anthropic_body(ECHO, temperature=0, top_p=1)
    assert httpx.post(url + "/v1/messages", json=body).status_code == 200
    body = {**CHAT, "top_p": 1, "presence_penalty": 1, "logit_bias": {"7": 5}}
    assert httpx.post(url + "/v1/chat/completions", json=body).status_code == 200
