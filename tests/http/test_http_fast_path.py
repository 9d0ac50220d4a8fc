"""The fast path of cached answers answers exactly as the full path would, and only then.

A request is remembered when the full path answered it from the response cache; the same
request again is answered by the fast path. These tests compare the two answers byte for
byte (but for fresh ids and the date), and check every request that must not be answered
from memory: other headers that matter, streaming, oversized or chunked bodies, no cache.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from zerolayer.core.messages import EngineRequest, Message
from zerolayer.rules_api import ServiceSettings, create_app
from zerolayer.rules_api.answers import Finish
from zerolayer.rules_api.anthropic_api import message_body, message_template
from zerolayer.rules_api.encoding import dump_json
from zerolayer.rules_api.fast_path import (
    CREATED,
    ID,
    FastAnswers,
    FastEntry,
    FastPath,
    Template,
)
from zerolayer.rules_api.openai_api import completion_body, completion_template
from zerolayer.rules_api.testing import FakeEngine, FakeFallback, anthropic_body
from zerolayer.rules_api.translate import Prepared
from zerolayer.rules_api.usage import count_tokens

IDS = re.compile(rb'"(msg_|chatcmpl-)[0-9a-f]{24}"')
CREATED_AT = re.compile(rb'"created": \d+')
VARYING = {b"request-id", b"date"}


def openai_body(text: str, **extra: Any) -> dict[str, Any]:
    return {"model": "any", "temperature": 0, "messages": [{"role": "user", "content": text}],
            **extra}  # fmt: skip


def fast_stats(app: Any) -> dict[str, Any]:
    return dict(app.state.service.fast.answers.stats())


def same_answer(slow: httpx.Response, fast: httpx.Response) -> None:
    """Equal status, header names in order, header values (but ids and date), and bodies
    (but ids and ``created``)."""
    assert slow.status_code == fast.status_code
    assert [k for k, _ in slow.headers.raw] == [k for k, _ in fast.headers.raw]
    for (name, a), (_, b) in zip(slow.headers.raw, fast.headers.raw, strict=True):
        if name.lower() not in VARYING:
            assert a == b, name
    if b"request-id" in (k.lower() for k, _ in slow.headers.raw):
        assert re.fullmatch(r"req_[0-9a-f]{24}", fast.headers["request-id"])
        assert fast.headers["request-id"] != slow.headers["request-id"]

    def normal(raw: bytes) -> bytes:
        return CREATED_AT.sub(b'"created": 0', IDS.sub(b'"ID"', raw))

    assert IDS.search(fast.content) and IDS.search(slow.content)
    assert normal(slow.content) == normal(fast.content)
    assert IDS.search(slow.content).group() != IDS.search(fast.content).group()  # type: ignore[union-attr]


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(FakeEngine(), fallback=FakeFallback())
    with TestClient(app) as c:
        yield c


# ---- byte parity of the templates ------------------------------------------------------


def _prepared(model: str) -> Prepared:
    return Prepared(EngineRequest(messages=(Message("user", "x"),), temperature=0), model)


@given(text=st.text(), model=st.text(max_size=20), out=st.integers(0, 10**6))
def test_message_template_renders_what_the_json_encoder_writes(
    text: str, model: str, out: int
) -> None:
    finish = Finish("end_turn", None, 3, out)
    template = message_template(_prepared(model), text, finish)
    rendered = template.render({ID: b"0123456789abcdef01234567"})
    expected = dump_json(message_body(_prepared(model), "msg_0123456789abcdef01234567", text,
                                      finish))  # fmt: skip
    assert rendered == expected


@given(text=st.text(), n=st.integers(1, 3), stop=st.sampled_from(["end_turn", "max_tokens"]))
def test_completion_template_renders_what_the_json_encoder_writes(
    text: str, n: int, stop: str
) -> None:
    finish = Finish(stop, None, 3, 7)
    template = completion_template(_prepared("m"), text, finish, n)
    rendered = template.render({ID: b"00000000000000000000abcd", CREATED: b"1700000000"})
    expected = dump_json(
        completion_body(_prepared("m"), "chatcmpl-00000000000000000000abcd", 1700000000, text,
                        finish, n)
    )  # fmt: skip
    assert rendered == expected


@pytest.mark.parametrize("text", ["lone \ud800 surrogate", "中文 ünïcode", 'quote " and \\'])
def test_templates_keep_the_encoder_fallback_for_odd_text(text: str) -> None:
    finish = Finish("end_turn", None, 1, 1)
    a = message_template(_prepared("m"), text, finish).render({ID: b"a" * 24})
    assert a == dump_json(message_body(_prepared("m"), "msg_" + "a" * 24, text, finish))
    assert json.loads(a)["content"][0]["text"] == text


# ---- the fast path answers like the full path -----------------------------------------


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/messages", anthropic_body("ECHO-UPPER: same answer twice")),
        ("/v1/chat/completions", openai_body("ECHO-UPPER: same answer twice", n=2)),
        (
            "/v1/messages",
            anthropic_body("ECHO-UPPER: cut me short", max_tokens=2, stop_sequences=["SHORT"]),
        ),
    ],
)
def test_live_fast_answer_equals_the_full_path_cache_hit(
    make_live: Any, path: str, body: dict[str, Any]
) -> None:
    server = make_live(fallback=FakeFallback())
    with httpx.Client(base_url=server.url) as http:
        miss = http.post(path, json=body)
        slow_hit = http.post(path, json=body)
        assert fast_stats(server.app)["hits"] == 0
        fast_hit = http.post(path, json=body)
    assert fast_stats(server.app)["hits"] == 1
    assert miss.headers["x-zero-layer-cache-hit"] == "false"
    assert slow_hit.headers["x-zero-layer-cache-hit"] == "true"
    assert server.engine.runs == 1
    same_answer(slow_hit, fast_hit)


def test_fast_hits_are_counted_in_the_metrics_like_slow_hits(client: TestClient) -> None:
    metrics = client.app.state.service.metrics  # type: ignore[attr-defined]

    def sample(name: str, **labels: str) -> float:
        return float(metrics.registry.get_sample_value(name, labels) or 0.0)

    body = anthropic_body("ECHO-UPPER: counted")
    labels = {"api": "anthropic", "route": "active", "reason": "", "family": "text"}
    client.post("/v1/messages", json=body)
    client.post("/v1/messages", json=body)  # the full path's cache hit
    before = (sample("zerolayer_requests_total", **labels),
              sample("zerolayer_cache_lookups_total", result="hit"),
              sample("zerolayer_plan_ops_total", family="text"),
              sample("zerolayer_saved_output_tokens_total"))  # fmt: skip
    client.post("/v1/messages", json=body)  # the fast path's hit
    after = (sample("zerolayer_requests_total", **labels),
             sample("zerolayer_cache_lookups_total", result="hit"),
             sample("zerolayer_plan_ops_total", family="text"),
             sample("zerolayer_saved_output_tokens_total"))  # fmt: skip
    assert fast_stats(client.app)["hits"] == 1
    assert after[0] - before[0] == 1
    assert after[1] - before[1] == 1
    assert after[2] - before[2] == 1
    assert after[3] - before[3] == count_tokens("COUNTED")
    assert sample("zerolayer_window_requests") == 3


def test_readiness_reports_the_fast_path(client: TestClient) -> None:
    ready = client.get("/health/ready").json()
    assert ready["fast_path"]["entries"] == 0
    assert ready["fast_path"]["max_bytes"] == ServiceSettings().fast_path_cache_bytes


# ---- what must not be answered from memory -------------------------------------------


def _remember(client: TestClient, body: dict[str, Any], path: str = "/v1/messages") -> None:
    for _ in range(2):
        assert client.post(path, json=body).status_code == 200
    assert fast_stats(client.app)["remembered"] == 1


def test_disable_header_is_part_of_the_key(client: TestClient) -> None:
    body = anthropic_body("ECHO-UPPER: maybe disabled")
    _remember(client, body)
    r = client.post("/v1/messages", json=body, headers={"x-zero-layer": "disable"})
    assert r.headers["x-zero-layer-status"] == "inactive"
    assert r.headers["x-zero-layer-reason"] == "gate.disabled"
    assert r.json()["content"][0]["text"].startswith("[fallback]")
    assert fast_stats(client.app)["hits"] == 0


def test_content_type_is_part_of_the_key(client: TestClient) -> None:
    raw = json.dumps(anthropic_body("ECHO-UPPER: typed")).encode()
    as_json = {"content-type": "application/json"}
    for _ in range(2):
        assert client.post("/v1/messages", content=raw, headers=as_json).status_code == 200
    r = client.post("/v1/messages", content=raw, headers={"content-type": "text/plain"})
    assert fast_stats(client.app)["hits"] == 0
    assert r.status_code == 400  # the full path does not read a text/plain body as JSON
    r = client.post("/v1/messages", content=raw, headers=as_json)
    assert r.status_code == 200 and fast_stats(client.app)["hits"] == 1


def test_other_body_bytes_are_another_key(client: TestClient) -> None:
    body = anthropic_body("ECHO-UPPER: spaced")
    _remember(client, body)
    r = client.post("/v1/messages", content=json.dumps(body, indent=1),
                    headers={"content-type": "application/json"})  # fmt: skip
    assert r.json()["content"][0]["text"] == "SPACED"
    assert fast_stats(client.app)["hits"] == 0


@pytest.mark.parametrize("path", ["/v1/messages", "/v1/chat/completions"])
def test_streaming_requests_are_never_answered_from_memory(client: TestClient, path: str) -> None:
    make = anthropic_body if path == "/v1/messages" else openai_body
    _remember(client, make("ECHO-UPPER: streamed"), path)
    stream = make("ECHO-UPPER: streamed", stream=True)
    for _ in range(3):
        r = client.post(path, json=stream)
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        assert "STREAMED" in r.text
    stats = fast_stats(client.app)
    assert (stats["hits"], stats["remembered"]) == (0, 1)


@pytest.mark.parametrize(
    "body",
    [
        anthropic_body("open question"),  # fallback
        anthropic_body("BAD: {"),  # engine error, 400
        anthropic_body("ECHO-UPPER: hot", temperature=0.7),  # the gate refuses it
        anthropic_body("ECHO-UPPER: x", messages="not a list"),  # invalid request
    ],
)
def test_fallback_and_error_answers_are_never_remembered(
    client: TestClient, body: dict[str, Any]
) -> None:
    for _ in range(3):
        client.post("/v1/messages", json=body)
    assert fast_stats(client.app)["remembered"] == 0


def test_chunked_and_oversized_bodies_take_the_full_path() -> None:
    app = create_app(FakeEngine(), settings=ServiceSettings(fast_path_max_bytes=200))
    small = anthropic_body("ECHO-UPPER: s")
    big = anthropic_body("ECHO-UPPER: " + "b" * 300)
    with TestClient(app) as client:
        for _ in range(3):
            assert client.post("/v1/messages", json=big).json()["content"][0]["text"] == "B" * 300
        raw = json.dumps(small).encode()
        for _ in range(3):
            r = client.post("/v1/messages", content=iter([raw[:10], raw[10:]]),
                            headers={"content-type": "application/json"})  # fmt: skip
            assert r.json()["content"][0]["text"] == "S"
        assert fast_stats(app)["remembered"] == 0


def test_no_cache_means_no_fast_path() -> None:
    app = create_app(FakeEngine(), settings=ServiceSettings(cache_max_bytes=0))
    assert app.fast_path is None  # type: ignore[attr-defined]
    app = create_app(FakeEngine(), settings=ServiceSettings(fast_path_max_bytes=0))
    assert app.fast_path is None  # type: ignore[attr-defined]


def test_a_changed_engine_version_is_another_key(client: TestClient) -> None:
    engine = client.app.state.service.engine  # type: ignore[attr-defined]
    engine = getattr(engine, "inner", engine)  # under the tenant rules wrapper
    body = anthropic_body("ECHO-UPPER: versioned")
    _remember(client, body)
    engine.rule_set_version = "fake-2"  # the FakeEngine's own key changes with it
    r = client.post("/v1/messages", json=body)
    assert r.headers["x-zero-layer-cache-hit"] == "false"
    assert fast_stats(client.app)["hits"] == 0


def test_query_string_and_trailing_slash_do_not_share_answers(client: TestClient) -> None:
    body = anthropic_body("ECHO-UPPER: routed")
    _remember(client, body)
    r = client.post("/v1/messages?beta=true", json=body)
    assert r.status_code == 200 and fast_stats(client.app)["hits"] == 0
    r = client.post("/v1/messages", json=body)
    assert r.status_code == 200 and fast_stats(client.app)["hits"] == 1


# ---- the ASGI handler and the store, on their own --------------------------------------


class _Inner:
    """An ASGI app that records what it received."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            self.received.append(message)
            if message["type"] != "http.request" or not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})


def _run_handler(messages: list[dict[str, Any]], headers: list[tuple[bytes, bytes]]) -> _Inner:
    import asyncio

    app = create_app(FakeEngine())
    fast = app.fast_path  # type: ignore[attr-defined]
    inner = _Inner()
    queue = list(messages)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/v1/messages", "query_string": b"",
             "headers": headers, "root_path": ""}  # fmt: skip
    asyncio.run(fast.handle(scope, receive, send, inner))
    assert sent[0]["status"] == 204
    return inner


def test_handler_replays_the_body_chunks_it_read() -> None:
    messages = [
        {"type": "http.request", "body": b'{"a":', "more_body": True},
        {"type": "http.request", "body": b" 1}", "more_body": False},
    ]
    inner = _run_handler(messages, [(b"content-length", b"8")])
    assert inner.received == messages


def test_handler_replays_a_disconnect() -> None:
    messages = [
        {"type": "http.request", "body": b'{"a":', "more_body": True},
        {"type": "http.disconnect"},
    ]
    inner = _run_handler(messages, [(b"content-length", b"8")])
    assert inner.received == messages


def test_handler_leaves_bodies_without_length_unread() -> None:
    messages = [{"type": "http.request", "body": b"{}", "more_body": False}]
    inner = _run_handler(messages, [(b"transfer-encoding", b"chunked")])
    assert inner.received == messages


def _entry(size: int, expires: float | None = None) -> FastEntry:
    return FastEntry(Template((b"x",), ()), (), False, None, 0, size, expires)  # type: ignore[arg-type]


def test_fast_answers_stay_within_their_byte_budget() -> None:
    answers = FastAnswers(1000)
    for i in range(10):
        answers.put((i,), _entry(300))
    assert len(answers) == 3
    assert answers.get((9,)) is not None and answers.get((0,)) is None
    answers.put(("huge",), _entry(1001))
    assert answers.get(("huge",)) is None
    assert answers.stats()["bytes"] == 900


def test_fast_answers_expire_with_the_cache_ttl(monkeypatch: pytest.MonkeyPatch) -> None:
    import zerolayer.rules_api.fast_path as fast_path

    now = [100.0]
    monkeypatch.setattr(fast_path.time, "monotonic", lambda: now[0])
    answers = FastAnswers(1000, ttl_s=10)
    answers.put(("k",), _entry(10, expires=110.0))
    assert answers.get(("k",)) is not None
    now[0] = 110.0
    assert answers.get(("k",)) is None
    assert answers.stats()["bytes"] == 0


def test_handler_is_built_only_for_posts_to_answer_routes() -> None:
    from zerolayer.rules_api.fast_path import fast_route

    base = {"type": "http", "method": "POST", "path": "/v1/messages", "root_path": ""}
    assert fast_route(base)
    assert not fast_route({**base, "method": "GET"})
    assert not fast_route({**base, "path": "/v1/messages/count_tokens"})
    assert not fast_route({**base, "type": "websocket"})
    assert not fast_route({**base, "root_path": "/api"})
    assert isinstance(FastPath, type)


def test_metric_recorders_are_reused_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from zerolayer.rules_api import metrics as metrics_module
    from zerolayer.rules_api.metrics import ServiceMetrics

    monkeypatch.setattr(metrics_module, "RECORDERS_KEPT", 3)
    metrics = ServiceMetrics()
    first = metrics.recorder("anthropic", "active", None, "json.parse | yaml.emit")
    assert metrics.recorder("anthropic", "active", None, "json.parse | yaml.emit") is first
    for i in range(5):
        metrics.recorder("openai", "inactive", f"reason.{i}", None)
    assert len(metrics._recorders) <= 3
    for _ in range(2):
        metrics.observe(api="openai", route="inactive", reason="reason.0", plan=None,
                        latency_s=0.1, failed=False)  # fmt: skip
    labels = {"api": "openai", "route": "inactive", "reason": "reason.0", "family": ""}
    assert metrics.registry.get_sample_value("zerolayer_requests_total", labels) == 2
