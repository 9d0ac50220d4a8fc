"""The model path as a gateway: both official SDKs against a real upstream process with
programmable faults (``fault_upstream.py``), once directly and once through zerolayer; what
the SDK sees (exception type, status, body, Retry-After, usage, stream events) must agree."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import anthropic
import httpx
import openai
import pytest
from serve_process import free_port

from zerolayer.core.neural.anthropic import AnthropicBackend
from zerolayer.core.neural.transport import TransportSettings
from zerolayer.core.neural.upstream import UpstreamBackend
from zerolayer.rules_api import ServiceSettings, create_app
from zerolayer.rules_api.testing import FakeEngine, serve_app

pytestmark = pytest.mark.slow  # live servers

FAST = TransportSettings(connect_timeout_s=0.5, read_timeout_s=5, retries=2, backoff_s=0.01,
                         retry_budget_s=0.5, breaker_threshold=50)  # fmt: skip


@dataclass
class Gateway:
    url: str
    app: Any
    backend: Any


@pytest.fixture(scope="module")
def via_openai(upstream: str) -> Iterator[Gateway]:
    """zerolayer whose fallback is the upstream's OpenAI API."""
    backend = UpstreamBackend(upstream + "/v1", model="up-model", settings=FAST)
    app = create_app(FakeEngine(), fallback=backend)
    with serve_app(app) as url:
        yield Gateway(url, app, backend)
    backend.close()


@pytest.fixture(scope="module")
def via_anthropic(upstream: str) -> Iterator[Gateway]:
    """zerolayer whose fallback is the upstream's Messages API (the pass-through)."""
    backend = AnthropicBackend(upstream, model="claude-up", api_key="sk-up", settings=FAST)
    app = create_app(FakeEngine(), fallback=backend)
    with serve_app(app) as url:
        yield Gateway(url, app, backend)
    backend.close()


CLIENTS: dict[tuple[str, str], Any] = {}


@pytest.fixture(scope="module", autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    for client in CLIENTS.values():
        client.close()
    CLIENTS.clear()


def oai(base: str) -> openai.OpenAI:
    """The OpenAI SDK at ``base`` (no retries of its own: the gateway's are under test)."""
    key = ("openai", base)
    if key not in CLIENTS:
        CLIENTS[key] = openai.OpenAI(base_url=base + "/v1", api_key="sk-test", max_retries=0)
    return CLIENTS[key]  # type: ignore[no-any-return]


def ant(base: str) -> anthropic.Anthropic:
    """The Anthropic SDK at ``base``."""
    key = ("anthropic", base)
    if key not in CLIENTS:
        CLIENTS[key] = anthropic.Anthropic(base_url=base, api_key="sk-test", max_retries=0)
    return CLIENTS[key]  # type: ignore[no-any-return]


def chat(client: openai.OpenAI, text: str, **extra: Any) -> Any:
    return client.chat.completions.create(
        model="up-model", messages=[{"role": "user", "content": text}], max_tokens=50, **extra
    )


def message(client: anthropic.Anthropic, text: str, **extra: Any) -> Any:
    return client.messages.create(
        model="claude-up", max_tokens=50, messages=[{"role": "user", "content": text}], **extra
    )


def failure(call: Any) -> Exception:
    try:
        result = call()
        if hasattr(result, "__iter__") and not isinstance(result, dict):
            for _ in result:
                pass
    except Exception as exc:
        return exc
    raise AssertionError("the call did not fail")


def seen(exc: Exception) -> tuple[Any, ...]:
    """What an SDK user sees of an API error."""
    response = getattr(exc, "response", None)
    retry = response.headers.get("retry-after") if response is not None else None
    return type(exc), getattr(exc, "status_code", None), getattr(exc, "body", None), str(exc), retry


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("fault", ["400", "429", "500"])
def test_openai_sdk_sees_the_upstreams_error(upstream, via_openai, fault, stream) -> None:
    text = f"tell me a joke fault={fault}"
    direct = failure(lambda: chat(oai(upstream), text, stream=stream))
    through = failure(lambda: chat(oai(via_openai.url), text, stream=stream))
    assert seen(through) == seen(direct)
    assert isinstance(through, openai.APIStatusError) and through.status_code == int(fault)


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("fault", ["400", "429", "500"])
def test_anthropic_sdk_sees_the_upstreams_error(upstream, via_anthropic, fault, stream) -> None:
    text = f"tell me a joke fault={fault}"
    direct = failure(lambda: message(ant(upstream), text, stream=stream))
    through = failure(lambda: message(ant(via_anthropic.url), text, stream=stream))
    assert seen(through) == seen(direct)


@pytest.mark.parametrize(
    ("fault", "error"),
    [("400", anthropic.BadRequestError), ("429", anthropic.RateLimitError),
     ("500", anthropic.InternalServerError)],
)  # fmt: skip
def test_anthropic_sdk_over_an_openai_upstream_keeps_status_and_message(
    via_openai, fault, error
) -> None:
    exc = failure(lambda: message(ant(via_openai.url), f"tell me a joke fault={fault}"))
    assert type(exc) is error
    upstream_message = {"400": "max_tokens: 99999999", "429": "Rate limit reached",
                        "500": "The model server had an error"}[fault]  # fmt: skip
    assert upstream_message in exc.body["error"]["message"]  # type: ignore[attr-defined]
    if fault == "429":
        assert exc.response.headers["retry-after"] == "1"  # type: ignore[attr-defined]


def test_openai_answers_and_usage_are_the_upstreams(upstream, via_openai) -> None:
    for extra in ({}, {"n": 3, "temperature": 0.7, "seed": 5, "presence_penalty": 0.5}):
        direct = chat(oai(upstream), "tell me a story", **extra)
        through = chat(oai(via_openai.url), "tell me a story", **extra)
        assert [c.message.content for c in through.choices] == [
            c.message.content for c in direct.choices
        ]
        assert [c.finish_reason for c in through.choices] == [
            c.finish_reason for c in direct.choices
        ]
        assert through.usage.model_dump() == direct.usage.model_dump()
    assert len({c.message.content for c in through.choices}) == 3  # generated, not copied


def stream_of(client: openai.OpenAI, text: str, **extra: Any) -> tuple[dict[int, str], Any, Any]:
    texts: dict[int, str] = {}
    finishes: dict[int, str] = {}
    used = None
    for chunk in chat(client, text, stream=True, stream_options={"include_usage": True}, **extra):
        used = chunk.usage or used
        for choice in chunk.choices:
            texts[choice.index] = texts.get(choice.index, "") + (choice.delta.content or "")
            if choice.finish_reason:
                finishes[choice.index] = choice.finish_reason
    return texts, finishes, used and used.model_dump()


@pytest.mark.parametrize("extra", [{}, {"n": 2, "temperature": 1.0}])
@pytest.mark.parametrize("text", ["tell me a story", "tell me a story fault=slow"])
def test_openai_stream_and_its_usage_are_the_upstreams(upstream, via_openai, text, extra) -> None:
    assert stream_of(oai(via_openai.url), text, **extra) == stream_of(oai(upstream), text, **extra)


def events_of(url: str, model: str, include_usage: bool) -> list[Any]:
    """The data of each server-sent event of a raw Chat Completions stream."""
    body = {"model": model, "max_tokens": 50, "stream": True,
            "messages": [{"role": "user", "content": "tell me a story"}]}  # fmt: skip
    if include_usage:
        body["stream_options"] = {"include_usage": True}
    with httpx.stream("POST", url + "/v1/chat/completions", json=body, timeout=10) as answer:
        assert answer.status_code == 200
        text = answer.read().decode()
    datas = [line[6:] for line in text.split("\n") if line.startswith("data: ")]
    return [d if d == "[DONE]" else json.loads(d) for d in datas]


@pytest.mark.parametrize("include_usage", [False, True])
def test_an_openai_stream_is_relayed_as_the_upstreams_events(upstream, via_openai, include_usage):
    """OpenAI in, OpenAI-compatible upstream out: the upstream's own events (its id, chunks,
    usage), with the model the client asked for, and no usage chunk it did not ask for."""
    direct = events_of(upstream, "up-model", include_usage)
    through = events_of(via_openai.url, "client-model", include_usage)
    assert through == [
        d if d == "[DONE]" else {**d, "model": "client-model"} for d in direct
    ]  # fmt: skip
    assert any("usage" in d for d in through if d != "[DONE]") == include_usage


@pytest.mark.parametrize("text", ["tell me a story", "tell me a story fault=slow"])
def test_anthropic_usage_is_the_upstreams_streaming_too(upstream, via_anthropic, text) -> None:
    direct = message(ant(upstream), text)
    through = message(ant(via_anthropic.url), text)
    assert through.content[0].text == direct.content[0].text
    assert through.usage.input_tokens == direct.usage.input_tokens
    assert through.usage.output_tokens == direct.usage.output_tokens
    for client in (ant(upstream), ant(via_anthropic.url)):
        with client.messages.stream(model="claude-up", max_tokens=50,
                                    messages=[{"role": "user", "content": text}]) as s:  # fmt: skip
            final = s.get_final_message()
        assert final.content[0].text == direct.content[0].text
        assert (final.usage.input_tokens, final.usage.output_tokens) == (
            direct.usage.input_tokens, direct.usage.output_tokens)  # fmt: skip


def test_anthropic_sdk_over_an_openai_upstream_reports_its_usage(upstream, via_openai) -> None:
    direct = chat(oai(upstream), "tell me a story")
    with ant(via_openai.url).messages.stream(
        model="m", max_tokens=50, messages=[{"role": "user", "content": "tell me a story"}]
    ) as s:
        final = s.get_final_message()
    assert final.usage.input_tokens == direct.usage.prompt_tokens
    assert final.usage.output_tokens == direct.usage.completion_tokens
    whole = message(ant(via_openai.url), "tell me a story")
    assert whole.usage.input_tokens == direct.usage.prompt_tokens


@pytest.mark.parametrize("fault", ["cut", "errevent"])
def test_a_broken_openai_stream_raises_in_the_sdk(via_openai, fault) -> None:
    exc = failure(lambda: chat(oai(via_openai.url), f"a story fault={fault}", stream=True))
    assert isinstance(exc, openai.APIError)
    assert "failed while streaming" in str(exc)
    if fault == "errevent":
        assert "lost its GPU" in str(exc)


@pytest.mark.parametrize("gateway", ["via_openai", "via_anthropic"])
@pytest.mark.parametrize("fault", ["cut", "errevent"])
def test_a_broken_stream_ends_in_the_anthropic_error_event(request, gateway, fault) -> None:
    base = request.getfixturevalue(gateway).url
    exc = failure(lambda: message(ant(base), f"a story fault={fault}", stream=True))
    assert isinstance(exc, anthropic.APIStatusError)
    assert "failed while streaming" in str(exc)


@pytest.mark.parametrize("gateway", ["via_openai", "via_anthropic"])
def test_an_answer_that_is_not_a_stream_is_an_error_not_a_clean_stop(request, gateway) -> None:
    base = request.getfixturevalue(gateway).url
    for call in (
        lambda: chat(oai(base), "a story fault=badstream", stream=True),
        lambda: message(ant(base), "a story fault=badstream", stream=True),
    ):
        exc = failure(call)
        assert isinstance(exc, openai.InternalServerError | anthropic.InternalServerError)
        assert "not an event stream" in str(exc)


def test_a_500_once_is_retried_and_counted(upstream, via_openai) -> None:
    answer = chat(oai(via_openai.url), "tell me a story fault=500once:retry-test")
    assert answer.choices[0].message.content.startswith("You said:")
    metrics = httpx.get(via_openai.url + "/metrics").text
    assert 'zerolayer_upstream_retries_total{cause="500"}' in metrics


def test_a_429_with_retry_after_beyond_the_budget_is_passed_on_at_once(
    upstream, via_openai
) -> None:
    before = httpx.get(upstream + "/calls").json()["count"]
    started = time.perf_counter()
    failure(lambda: chat(oai(via_openai.url), "a joke fault=429"))
    assert time.perf_counter() - started < 0.5  # retry-after: 1 > the 0.5 s budget
    assert httpx.get(upstream + "/calls").json()["count"] == before + 1


def test_a_400_is_not_retried(upstream, via_openai) -> None:
    before = httpx.get(upstream + "/calls").json()["count"]
    failure(lambda: chat(oai(via_openai.url), "a joke fault=400"))
    assert httpx.get(upstream + "/calls").json()["count"] == before + 1


def test_the_anthropic_backend_refuses_what_it_cannot_send(via_anthropic) -> None:
    exc = failure(lambda: chat(oai(via_anthropic.url), "a story", seed=3))
    assert isinstance(exc, openai.BadRequestError)
    assert exc.param == "seed" and "seed=3" in exc.message


LONE = "a story \\ud800 lone"  # JSON of a string with a lone surrogate
LONE_BODIES = {
    "openai": ("/v1/chat/completions", "messages.1.content",
               '{"model": "m", "max_tokens": 50, "stream": %s, "messages": [{"role": "system", '
               '"content": "be brief"}, {"role": "user", "content": "%s"}]}'),
    "anthropic": ("/v1/messages", "messages.0.content.1.text",
                  '{"model": "m", "max_tokens": 50, "stream": %s, "messages": [{"role": "user", '
                  '"content": [{"type": "text", "text": "hi"}, {"type": "text", "text": "%s"}]}]}'),
}  # fmt: skip


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("api", ["openai", "anthropic"])
@pytest.mark.parametrize("gateway", ["via_openai", "via_anthropic"])
def test_a_lone_surrogate_is_a_400_that_names_its_field_before_any_upstream_call(
    request: pytest.FixtureRequest, upstream: str, gateway: str, api: str, stream: bool
) -> None:
    """Text that UTF-8 cannot encode cannot reach the upstream: the client gets a 400 in its
    API's shape naming the field, and the upstream is not called."""
    url = request.getfixturevalue(gateway).url
    path, field, template = LONE_BODIES[api]
    before = httpx.get(upstream + "/calls").json()["count"]
    content = (template % ("true" if stream else "false", LONE)).encode()
    got = httpx.post(url + path, content=content, timeout=10,
                     headers={"content-type": "application/json", "x-api-key": "k"})  # fmt: skip
    assert got.status_code == 400, got.text
    error = got.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["message"].startswith(field + ": the text holds a lone surrogate (U+D800)")
    if api == "openai":
        assert error["param"] == field and error["code"] is None
    else:
        assert got.json()["type"] == "error"
    assert httpx.get(upstream + "/calls").json()["count"] == before


def dead_url() -> str:
    return f"http://127.0.0.1:{free_port()}/v1"


@pytest.mark.parametrize("keep", [False, True])
def test_an_open_breaker_sets_retry_after_and_degrades_readiness(keep) -> None:
    settings = TransportSettings(connect_timeout_s=0.2, retries=0, breaker_threshold=1,
                                 breaker_cooldown_s=30)  # fmt: skip
    backend = UpstreamBackend(dead_url(), settings=settings)
    app = create_app(FakeEngine(), fallback=backend,
                     settings=ServiceSettings(ready_when_degraded=keep))  # fmt: skip
    with serve_app(app) as url:
        assert httpx.get(url + "/health/ready").json()["status"] == "ready"
        failure(lambda: chat(oai(url), "a joke"))  # opens the breaker
        exc = failure(lambda: chat(oai(url), "a joke"))
        assert isinstance(exc, openai.InternalServerError) and exc.status_code == 503
        assert 25 <= int(exc.response.headers["retry-after"]) <= 30
        ready = httpx.get(url + "/health/ready")
        assert ready.json()["status"] == "degraded"
        assert ready.status_code == (200 if keep else 503)
        metrics = httpx.get(url + "/metrics").text
        assert "zerolayer_upstream_breaker_open 1.0" in metrics
    backend.close()
