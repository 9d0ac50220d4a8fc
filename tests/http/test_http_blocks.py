"""Messages written in blocks and block syntax versions over HTTP, with the official SDKs.

Every case of tests/blocks/cases/mixed.yaml goes through both APIs, whole and streamed, with
the real engine and the fake fallback (which answers ``[fallback] <what it was asked>``): the
answer must be the engine's parts and the fallback's answers to the others, merged in order,
with the headers saying who answered which part.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import anthropic
import httpx
import openai
import pytest
import yaml

from zerolayer.core.blocks.parts import merge_texts
from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message, Route
from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import FakeFallback, serve_app

pytestmark = pytest.mark.slow  # a live server around the real engine

CASES = yaml.safe_load(
    (Path(__file__).parents[1] / "blocks" / "cases" / "mixed.yaml").read_text(encoding="utf-8")
)
MIXED = (
    '<convert lang="json" to="yaml">\n{"a": 1}\n</convert>\n\n'
    "What do you think of YAML?\n\n"
    '<convert lang="markdown" to="html">\n# Hi\n</convert>'
)
MIXED_ANSWER = "a: 1\n\n[fallback] What do you think of YAML?\n\n<h1>Hi</h1>"


class Server:
    def __init__(self, url: str, fallback: FakeFallback | None) -> None:
        self.url = url
        self.fallback = fallback

    def anthropic(self, **kwargs: Any) -> anthropic.Anthropic:
        return anthropic.Anthropic(base_url=self.url, api_key="k", max_retries=0, **kwargs)

    def openai(self, **kwargs: Any) -> openai.OpenAI:
        return openai.OpenAI(base_url=self.url + "/v1", api_key="k", max_retries=0, **kwargs)


@pytest.fixture(scope="module")
def server(engine: Engine) -> Iterator[Server]:
    fallback = FakeFallback()
    with serve_app(create_app(engine, fallback=fallback)) as url:
        yield Server(url, fallback)


@pytest.fixture(scope="module")
def no_fallback(engine: Engine) -> Iterator[Server]:
    with serve_app(create_app(engine)) as url:
        yield Server(url, None)


def ask_anthropic(
    server: Server, text: str, *, stream: bool = False, headers: dict[str, str] | None = None,
    **extra: Any,
) -> tuple[httpx.Headers, str, str | None]:  # fmt: skip
    """(headers, answer text, stop reason) through the Anthropic SDK."""
    params: dict[str, Any] = {
        "model": "any",
        "max_tokens": extra.pop("max_tokens", 1024),
        "messages": [{"role": "user", "content": text}],
        "extra_body": {"temperature": 0},
        **extra,
    }
    with server.anthropic(default_headers=headers or {}) as client:
        if stream:
            with client.messages.stream(**params) as events:
                message = events.get_final_message()
                return events.response.headers, message.content[0].text, message.stop_reason
        raw = client.messages.with_raw_response.create(**params)
        message = raw.parse()
        return raw.headers, message.content[0].text, message.stop_reason


def ask_openai(
    server: Server, text: str, *, stream: bool = False, headers: dict[str, str] | None = None,
    **extra: Any,
) -> tuple[httpx.Headers, str, str | None]:  # fmt: skip
    """(headers, answer text, finish reason) through the OpenAI SDK."""
    params: dict[str, Any] = {
        "model": "any",
        "temperature": 0,
        "messages": [{"role": "user", "content": text}],
        **extra,
    }
    with server.openai(default_headers=headers or {}) as client:
        if stream:
            with client.chat.completions.with_streaming_response.create(
                stream=True, **params
            ) as response:
                chunks = list(response.parse())
                content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
                finish = [c.choices[0].finish_reason for c in chunks if c.choices][-1]
                return response.headers, content, finish
        raw = client.chat.completions.with_raw_response.create(**params)
        choice = raw.parse().choices[0]
        return raw.headers, choice.message.content or "", choice.finish_reason


ASK = {"anthropic": ask_anthropic, "openai": ask_openai}
STATUS, PARTS, REASON = "x-zero-layer-status", "x-zero-layer-parts", "x-zero-layer-reason"


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize("api", ["anthropic", "openai"])
@pytest.mark.parametrize(
    "case", [c for c in CASES if "temperature" not in c], ids=lambda c: c["id"]
)
def test_cases_over_both_apis(
    case: dict[str, Any], api: str, stream: bool, server: Server, engine: Engine
) -> None:
    headers = {"x-zero-layer-syntax": case["syntax"]} if "syntax" in case else {}
    request = EngineRequest((Message("user", case["message"]),), temperature=0,
                            syntax=case.get("syntax"))  # fmt: skip
    result = engine.run(request)
    if result.route is Route.ERROR:
        error = anthropic.BadRequestError if api == "anthropic" else openai.BadRequestError
        with pytest.raises(error) as info:
            ASK[api](server, case["message"], stream=stream, headers=headers)
        assert f"block {case['error']['block']} of" in str(info.value)
        assert info.value.response.headers[STATUS] == "active"
        assert info.value.response.headers[REASON] == "invalid_payload"
        return
    got_headers, text, _ = ASK[api](server, case["message"], stream=stream, headers=headers)
    kinds = [p.kind for p in result.parts]
    if result.route is Route.DETERMINISTIC:
        assert got_headers[STATUS] == "active"
        assert text == result.output
    elif result.parts:
        assert got_headers[STATUS] == "inactive"
        assert got_headers[REASON] == "blocks.mixed"
        expected = [p.text if p.kind == "zero" else f"[fallback] {p.text}" for p in result.parts]
        assert text == merge_texts(expected)
    else:
        assert got_headers[STATUS] == "inactive"
        assert text == f"[fallback] {case['message']}"
    assert got_headers.get(PARTS) == (",".join(kinds) if kinds else None)


def test_all_deterministic_blocks_never_call_the_model(engine: Engine) -> None:
    fallback = FakeFallback()
    message = '<convert lang="json" to="yaml">\n[1]\n</convert>\n<convert lang="md" to="html">\n*x*\n</convert>'  # fmt: skip
    with serve_app(create_app(engine, fallback=fallback)) as url:
        server = Server(url, fallback)
        for api in ("anthropic", "openai"):
            for stream in (False, True):
                headers, text, _ = ASK[api](server, message, stream=stream)
                assert (headers[STATUS], headers[PARTS], text) == (
                    "active",
                    "zero,zero",
                    "- 1\n\n<p><em>x</em></p>",
                )
        again, _, _ = ask_anthropic(server, message)
        assert again["x-zero-layer-cache-hit"] == "true" and again[PARTS] == "zero,zero"
        assert unquote(again["x-zero-layer-plan"]) == "json.parse | yaml.emit\nmarkdown.render"
    assert fallback.calls == 0


def test_a_mixed_answer_asks_the_model_once_per_open_part(engine: Engine) -> None:
    fallback = FakeFallback()
    with serve_app(create_app(engine, fallback=fallback)) as url:
        headers, text, _ = ask_openai(Server(url, fallback), MIXED)
    assert text == MIXED_ANSWER and fallback.calls == 1
    assert headers[PARTS] == "zero,model,zero"
    assert headers["x-zero-layer-cache-hit"] == "false"
    assert unquote(headers["x-zero-layer-plan"]) == "json.parse | yaml.emit\nmarkdown.render"


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_stop_sequences_and_max_tokens_cut_the_merged_answer(api: str, server: Server) -> None:
    stop = {"stop_sequences": ["[fallback] What"]} if api == "anthropic" else {"stop": "[fallback] What"}  # fmt: skip
    for stream in (False, True):
        _, text, reason = ASK[api](server, MIXED, stream=stream, **stop)
        assert text == "a: 1\n\n"
        assert reason == ("stop_sequence" if api == "anthropic" else "stop")
        _, text, reason = ASK[api](server, MIXED, stream=stream, max_tokens=6)
        assert text == "a: 1\n\n[fallback"
        assert reason == ("max_tokens" if api == "anthropic" else "length")


def test_streamed_parts_arrive_in_order_in_anthropic_events(server: Server) -> None:
    with server.anthropic() as client, client.messages.stream(
        model="any", max_tokens=256, extra_body={"temperature": 0},
        messages=[{"role": "user", "content": MIXED}],
    ) as stream:  # fmt: skip
        deltas = [e.delta.text for e in stream if e.type == "content_block_delta"]
    assert deltas[0] == "a: 1" and "".join(deltas) == MIXED_ANSWER
    assert deltas[-1] == "\n\n<h1>Hi</h1>"


def test_a_model_that_breaks_mid_answer_ends_the_stream_with_an_error(engine: Engine) -> None:
    fallback = FakeFallback(break_after=2)
    with serve_app(create_app(engine, fallback=fallback)) as url:
        body = {"model": "any", "max_tokens": 64, "temperature": 0, "stream": True,
                "messages": [{"role": "user", "content": MIXED}]}  # fmt: skip
        response = httpx.post(url + "/v1/messages", json=body, timeout=30)
    assert response.status_code == 200
    events = [line[7:] for line in response.text.splitlines() if line.startswith("event: ")]
    assert events[-1] == "error" and "message_stop" not in events


def test_no_fallback_configured_is_503_for_a_mixed_request(no_fallback: Server) -> None:
    with pytest.raises(anthropic.APIStatusError) as info:
        ask_anthropic(no_fallback, MIXED)
    assert info.value.status_code == 503
    assert info.value.response.headers[STATUS] == "inactive"
    assert info.value.response.headers[PARTS] == "zero,model,zero"


# ---- block syntax versions ----------------------------------------------------------------

LEGACY = "[CODE_CONVERSION lang=json to=yaml]\n[1, 2]\n[/CODE_CONVERSION]"


@pytest.mark.parametrize("api", ["anthropic", "openai"])
@pytest.mark.parametrize("value", ["v3", "2025-01", "latest"])
def test_unknown_syntax_version_is_400_listing_the_supported_ones(
    api: str, value: str, server: Server
) -> None:
    error = anthropic.BadRequestError if api == "anthropic" else openai.BadRequestError
    with pytest.raises(error) as info:
        ASK[api](server, LEGACY, headers={"x-zero-layer-syntax": value})
    message = str(info.value)
    assert "v1 (deprecated since 2026-12-01)" in message and "v2 (current)" in message
    assert info.value.response.headers[REASON] == "request.invalid"


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_legacy_blocks_are_answered_with_a_deprecation_warning(api: str, server: Server) -> None:
    for headers in ({}, {"x-zero-layer-syntax": "v1"}, {"x-zero-layer-syntax": "V1"}):
        got, text, _ = ASK[api](server, LEGACY, headers=headers)
        assert (got[STATUS], text) == ("active", "- 1\n- 2\n")
        warning = unquote(got["x-zero-layer-syntax-warning"])
        assert "deprecated since 2026-12-01" in warning and "x-zero-layer-syntax: v2" in warning


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_declared_current_version_reads_legacy_markers_as_text(api: str, server: Server) -> None:
    got, text, _ = ASK[api](server, LEGACY, headers={"x-zero-layer-syntax": "v2"})
    assert got[STATUS] == "inactive"
    assert text == f"[fallback] {LEGACY}"
    assert "read as text" in unquote(got["x-zero-layer-syntax-warning"])
    current = '<convert lang="json" to="yaml">\n[1, 2]\n</convert>'
    got, text, _ = ASK[api](server, current, headers={"x-zero-layer-syntax": "v2"})
    assert (got[STATUS], text) == ("active", "- 1\n- 2\n")
    assert "x-zero-layer-syntax-warning" not in got


def test_chinese_mixed_request_through_openai(server: Server) -> None:
    message = "[CODE_CONVERSION lang=json to=yaml]\n{\"城市\": \"杭州\"}\n[/CODE_CONVERSION]\n[OPINION_REQUEST] 这个城市适合旅游吗？"  # fmt: skip
    headers, text, _ = ask_openai(server, message)
    assert headers[PARTS] == "zero,model"
    assert text == "城市: 杭州\n\n[fallback] 这个城市适合旅游吗？"


def test_beta_status_lists_the_versions(server: Server) -> None:
    response = httpx.get(server.url + "/v1/beta/status", timeout=10)
    assert response.status_code == 200
    syntax = response.json()["syntax"]
    assert syntax["current"] == "v2" and syntax["header"] == "x-zero-layer-syntax"
    assert [(v["version"], v["status"], v["deprecation_date"]) for v in syntax["versions"]] == [
        ("v1", "deprecated", "2026-12-01"),
        ("v2", "current", None),
    ]


def test_openapi_documents_the_status_route_and_the_header(server: Server) -> None:
    doc = httpx.get(server.url + "/openapi.json", timeout=10).json()
    assert "/v1/beta/status" in doc["paths"]
    for path in ("/v1/messages", "/v1/chat/completions"):
        params = doc["paths"][path]["post"].get("parameters", [])
        assert any(p["name"] == "x-zero-layer-syntax" and p["in"] == "header" for p in params)


FENCED = {
    "v2": '<convert lang="py" to="ts">\n```python\nprint([n * n for n in range(4)])\n```\n</convert>',
    "v1": "[CODE_CONVERSION]\n```py\nprint([n * n for n in range(4)])\n```\n[/CODE_CONVERSION]",
    "json": '<convert lang="json" to="yaml">\n```\n{"a": [1, 2]}\n```\n</convert>',
}


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize("api", ["anthropic", "openai"])
@pytest.mark.parametrize("form", list(FENCED))
def test_fenced_code_in_a_block_converts_over_both_apis(
    form: str, api: str, stream: bool, server: Server, engine: Engine
) -> None:
    result = engine.run(EngineRequest((Message("user", FENCED[form]),), temperature=0))
    assert result.route is Route.DETERMINISTIC, (result.reason, result.error)
    got, text, _ = ASK[api](server, FENCED[form], stream=stream)
    assert (got[STATUS], text) == ("active", result.output)


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_a_fence_tagged_with_another_language_is_a_400_naming_it(
    api: str, stream: bool, server: Server
) -> None:
    message = FENCED["v2"].replace("```python", "```javascript")
    error = anthropic.BadRequestError if api == "anthropic" else openai.BadRequestError
    with pytest.raises(error) as info:
        ASK[api](server, message, stream=stream)
    said = info.value.response.json()["error"]["message"]
    assert 'its fence is tagged "javascript", but the block\'s lang is "py"' in said
    assert "line 1, column 4" in said
    assert info.value.response.headers[REASON] == "fence_language_mismatch"
