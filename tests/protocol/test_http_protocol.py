"""Protocol answers through both HTTP APIs with the official SDKs, the real engine and a
scripted backend: headers, the structure of the answer, streaming, errors, metrics."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from urllib.parse import unquote

import anthropic
import httpx
import openai
import pytest

from zerolayer.core.engine import Engine
from zerolayer.core.fallback import Completion
from zerolayer.core.messages import EngineRequest
from zerolayer.core.protocol import PROTOCOL_REASON, read_structure, recognise
from zerolayer.core.protocol.markdown import expected_structure
from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import serve_app

pytestmark = pytest.mark.slow  # builds the real engine and starts servers

PROS_CONS = "give me 2 pros and 2 cons of remote work"
PROTOCOL = recognise(PROS_CONS)
assert PROTOCOL is not None
_TARGET = re.compile(r"Write (.+?) now\. ")


class TargetBackend:
    """Answers each call with messy Markdown naming what it was asked to write; a request
    that is not a slot call (no "Write … now.") gets "[plain] <text>"."""

    name = "target"

    def __init__(self, *, fail: bool = False) -> None:
        self.fail = fail
        self.calls = 0

    def _text(self, request: EngineRequest) -> str:
        if self.fail:
            raise ConnectionError("backend down")
        self.calls += 1
        prompt = request.messages[-1].content
        target = _TARGET.search(prompt)
        if target is None:
            return f"[plain] {prompt}"
        return f"## Heading\n\n1. Text of {target.group(1)}\n2. something else"

    def generate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        return Completion(self._text(request))

    def stream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Iterator[str | Completion]:
        text = self._text(request)
        for i in range(0, len(text), 4):
            yield text[i : i + 4]
        yield Completion(text)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


@pytest.fixture
def serve(engine: Engine) -> Iterator[object]:
    """``serve(backend)`` starts a server and returns its URL; servers and the SDK clients
    made for them are closed at the end of the test."""
    contexts = []

    def start(backend: object | None) -> str:
        context = serve_app(create_app(engine, fallback=backend))  # type: ignore[arg-type]
        contexts.append(context)
        return context.__enter__()

    yield start
    for client in _CLIENTS:
        client.close()
    _CLIENTS.clear()
    for context in reversed(contexts):
        context.__exit__(None, None, None)


_CLIENTS: list[anthropic.Anthropic | openai.OpenAI] = []


def _anthropic(url: str) -> anthropic.Anthropic:
    _CLIENTS.append(anthropic.Anthropic(base_url=url, api_key="k", max_retries=0))
    return _CLIENTS[-1]  # type: ignore[return-value]


def _openai(url: str) -> openai.OpenAI:
    _CLIENTS.append(openai.OpenAI(base_url=url + "/v1", api_key="k", max_retries=0))
    return _CLIENTS[-1]  # type: ignore[return-value]


def _check_answer(text: str) -> None:
    assert read_structure(text) == expected_structure(PROTOCOL)
    assert text.startswith(
        "## Pros\n\n- Text of one pro, an advantage of remote work (bullet point 1"
    )
    assert "something else" not in text


def _check_headers(headers: httpx.Headers) -> None:
    assert headers["x-zero-layer-status"] == "inactive"
    assert headers["x-zero-layer-reason"] == PROTOCOL_REASON
    assert unquote(headers["x-zero-layer-protocol"]) == PROTOCOL.describe()
    assert headers["x-zero-layer-cache-hit"] == "false"
    assert "x-zero-layer-plan" not in headers


def test_anthropic_answer_follows_the_protocol(serve) -> None:  # type: ignore[no-untyped-def]
    backend = TargetBackend()
    url = serve(backend)
    raw = _anthropic(url).messages.with_raw_response.create(
        model="m",
        max_tokens=512,
        messages=[{"role": "user", "content": PROS_CONS}],
        extra_body={"temperature": 0},
    )
    _check_headers(raw.headers)
    message = raw.parse()
    _check_answer(message.content[0].text)
    assert message.stop_reason == "end_turn" and message.usage.output_tokens > 0
    assert backend.calls == PROTOCOL.fills


def test_anthropic_stream_sends_the_skeleton_and_slots_in_order(serve) -> None:  # type: ignore[no-untyped-def]
    url = serve(TargetBackend())
    client = _anthropic(url)
    with client.messages.stream(
        model="m", max_tokens=512, messages=[{"role": "user", "content": PROS_CONS}]
    ) as stream:
        _check_headers(stream.response.headers)
        deltas = [e.delta.text for e in stream if e.type == "content_block_delta"]
        final = stream.get_final_message()
    assert len(deltas) >= PROTOCOL.fills
    assert "".join(deltas) == final.content[0].text
    _check_answer(final.content[0].text)
    assert final.stop_reason == "end_turn"


def test_openai_answer_and_stream_follow_the_protocol(serve) -> None:  # type: ignore[no-untyped-def]
    url = serve(TargetBackend())
    client = _openai(url)
    raw = client.chat.completions.with_raw_response.create(
        model="m", messages=[{"role": "user", "content": PROS_CONS}], temperature=0
    )
    _check_headers(raw.headers)
    completion = raw.parse()
    _check_answer(completion.choices[0].message.content or "")
    assert completion.choices[0].finish_reason == "stop"
    chunks = list(
        client.chat.completions.create(
            model="m",
            messages=[{"role": "user", "content": PROS_CONS}],
            stream=True,
            stream_options={"include_usage": True},
        )
    )
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == completion.choices[0].message.content
    assert chunks[-1].usage is not None and chunks[-1].usage.completion_tokens > 0


def test_chinese_sections_through_openai(serve) -> None:  # type: ignore[no-untyped-def]
    url = serve(TargetBackend())
    ask = "针对昨晚的系统宕机，按'问题-影响-方案-风险'四段式输出"
    completion = _openai(url).chat.completions.create(
        model="m", messages=[{"role": "user", "content": ask}]
    )
    text = completion.choices[0].message.content or ""
    assert [b for b in read_structure(text) if b[0] == "heading"] == [
        ("heading", "问题"),
        ("heading", "影响"),
        ("heading", "方案"),
        ("heading", "风险"),
    ]
    assert read_structure(text) == expected_structure(recognise(ask))  # type: ignore[arg-type]


def test_without_a_backend_it_is_503_with_the_protocol_named(serve) -> None:  # type: ignore[no-untyped-def]
    url = serve(None)
    with pytest.raises(anthropic.APIStatusError) as caught:
        _anthropic(url).messages.create(
            model="m", max_tokens=64, messages=[{"role": "user", "content": PROS_CONS}]
        )
    assert caught.value.status_code == 503
    _check_headers(caught.value.response.headers)


def test_disable_header_sends_the_request_to_the_model_as_it_is(serve) -> None:  # type: ignore[no-untyped-def]
    backend = TargetBackend()
    url = serve(backend)
    raw = _anthropic(url).messages.with_raw_response.create(
        model="m",
        max_tokens=64,
        messages=[{"role": "user", "content": PROS_CONS}],
        extra_headers={"x-zero-layer": "disable"},
    )
    assert raw.headers["x-zero-layer-reason"] == "gate.disabled"
    assert "x-zero-layer-protocol" not in raw.headers
    assert raw.parse().content[0].text == f"[plain] {PROS_CONS}"
    assert backend.calls == 1


def test_a_failing_backend_is_502_before_any_answer(serve) -> None:  # type: ignore[no-untyped-def]
    url = serve(TargetBackend(fail=True))
    with pytest.raises(anthropic.APIStatusError) as caught:
        _anthropic(url).messages.create(
            model="m", max_tokens=64, messages=[{"role": "user", "content": PROS_CONS}]
        )
    assert caught.value.status_code == 502
    with pytest.raises(openai.APIStatusError) as streamed:
        list(
            _openai(url).chat.completions.create(
                model="m", messages=[{"role": "user", "content": PROS_CONS}], stream=True
            )
        )
    assert streamed.value.status_code == 502


def test_metrics_count_protocol_answers(serve) -> None:  # type: ignore[no-untyped-def]
    url = serve(TargetBackend())
    _anthropic(url).messages.create(
        model="m", max_tokens=512, messages=[{"role": "user", "content": PROS_CONS}]
    )
    metrics = httpx.get(url + "/metrics").text
    assert 'zerolayer_protocol_answers_total{api="anthropic",result="ok"} 1.0' in metrics
    assert 'reason="protocol.recognised"' in metrics
