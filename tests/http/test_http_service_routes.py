"""Service routes and metrics: warm-up, plugins, health, /metrics and the window figures."""

from __future__ import annotations

import math

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from zerolayer.rules_api import ServiceSettings
from zerolayer.rules_api.metrics import Observation, ServiceMetrics, consistency, window_figures
from zerolayer.rules_api.testing import FakeEngine, FakeFallback, anthropic_body

pytestmark = pytest.mark.slow  # live servers, subprocesses or many generated requests


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """All samples of /metrics as {(name, sorted labels): value}."""
    response = httpx.get(url + "/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(response.text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def obs(route: str, latency: float = 0.01, *, failed: bool = False, saved: int = 0,
        spent: int = 0) -> Observation:  # fmt: skip
    return Observation(0.0, route, failed, latency, saved, spent)


def test_window_figures_by_definition() -> None:
    figures = window_figures(
        [
            obs("active", 0.01, saved=30),
            obs("active", 0.03, saved=10),
            obs("error", 0.02, failed=True),
            obs("inactive", 0.02, spent=60),
        ]
    )
    assert figures["zar"] == 2 / 4
    assert figures["csr"] == 40 / (40 + 60)
    assert figures["dci"] == pytest.approx(1 - 0.0070710678 / 0.02)
    assert figures["dci_active"] == pytest.approx(0.5)  # mean 0.02, pstdev 0.01
    assert math.isnan(figures["dci_inactive"])  # one value only
    assert figures["emo"] == pytest.approx(1 / 3 - 0)  # engine side 1 of 3 failed, model 0 of 1


def test_empty_window_is_nan() -> None:
    figures = window_figures([])
    assert figures["requests"] == 0
    assert all(math.isnan(figures[k]) for k in ("zar", "csr", "dci", "emo"))


def test_consistency_is_clamped() -> None:
    assert consistency([1.0, 1.0, 1.0]) == 1.0
    assert consistency([0.0, 0.0, 10.0]) == 0.0  # stdev > mean
    assert math.isnan(consistency([0.5]))


def test_window_forgets_old_requests() -> None:
    now = [1000.0]
    metrics = ServiceMetrics(window_s=60, clock=lambda: now[0])
    metrics.observe(api="anthropic", route="inactive", reason="x", plan=None, latency_s=0.1,
                    failed=False)  # fmt: skip
    now[0] += 61
    metrics.observe(api="anthropic", route="active", reason=None, plan="a.b", latency_s=0.1,
                    failed=False, saved_tokens=5)  # fmt: skip
    assert metrics.window.snapshot()[0].route == "active"
    assert len(metrics.window.snapshot()) == 1


def test_metrics_count_routes_reasons_families(make_live) -> None:
    server = make_live(fallback=FakeFallback())
    url = server.url
    for text in ("ECHO-UPPER: a", "ECHO-UPPER: b", "open question", "BAD: {"):
        httpx.post(url + "/v1/messages", json=anthropic_body(text))
    httpx.post(url + "/v1/chat/completions", json={"model": "m", "messages": "nope"})
    samples = scrape(url)

    def requests(route: str, reason: str, family: str) -> float:
        labels = (("api", "anthropic"), ("family", family), ("reason", reason), ("route", route))
        return samples.get(("zerolayer_requests_total", labels), 0.0)

    assert requests("active", "", "text") == 2
    assert requests("inactive", "parse.no_match", "") == 1
    assert requests("error", "invalid_payload", "json") == 1
    rejected = (("api", "openai"), ("status", "400"))
    assert samples[("zerolayer_rejected_requests_total", rejected)] == 1
    count = (
        "zerolayer_request_duration_seconds_count",
        (("api", "anthropic"), ("route", "active")),
    )
    assert samples[count] == 2
    assert samples[("zerolayer_zar_ratio", ())] == 2 / 4
    assert samples[("zerolayer_window_requests", ())] == 4
    assert samples[("zerolayer_saved_output_tokens_total", ())] == 2
    assert samples[("zerolayer_fallback_output_tokens_total", ())] > 0
    assert 0 < samples[("zerolayer_csr_ratio", ())] < 1
    assert samples[("zerolayer_plan_ops_total", (("family", "text"),))] == 2
    assert samples[("zerolayer_cache_lookups_total", (("result", "miss"),))] == 2
    assert ("zerolayer_dci_ratio", (("route", "all"),)) in samples
    assert samples[("zerolayer_emo_ratio", ())] == pytest.approx(1 / 3)


def test_streamed_answers_are_counted_when_they_end(make_live) -> None:
    server = make_live()
    httpx.post(server.url + "/v1/messages", json=anthropic_body("ECHO-UPPER: s", stream=True))
    samples = scrape(server.url)
    assert samples[("zerolayer_window_requests", ())] == 1
    assert samples[("zerolayer_saved_output_tokens_total", ())] == 1


def test_warmup_fills_the_cache_and_reports_skips(make_live) -> None:
    server = make_live()
    bodies = [
        anthropic_body("ECHO-UPPER: one"),
        anthropic_body("ECHO-UPPER: two"),
        anthropic_body("ECHO-UPPER: one"),
        anthropic_body("ECHO-UPPER: hot", temperature=0.9),
        anthropic_body("open question"),
        anthropic_body("ECHO-UPPER: img")
        | {"messages": [{"role": "user", "content": [{"type": "image"}]}]},
        {"model": "x"},
    ]
    response = httpx.post(server.url + "/v1/cache/warmup", json={"requests": bodies})
    assert response.status_code == 200
    report = response.json()
    assert report["warmed"] == 2
    assert report["already_cached"] == 1
    assert report["skipped"] == 4
    assert report["skipped_reasons"] == {
        "not_cacheable": 2,
        "request.non_text_content": 1,
        "invalid_request": 1,
    }
    assert [i["status"] for i in report["items"]] == ["warmed", "warmed", "cached"] + [
        "skipped"
    ] * 4
    assert "messages" in report["items"][6]["detail"]
    hit = httpx.post(server.url + "/v1/messages", json=anthropic_body("ECHO-UPPER: two"))
    assert hit.headers["x-zero-layer-cache-hit"] == "true"
    assert server.engine.runs == 2


def test_warmup_accepts_a_bare_list_and_is_bounded(make_live) -> None:
    server = make_live(settings=ServiceSettings(warmup_max_items=2))
    ok = httpx.post(server.url + "/v1/cache/warmup", json=[anthropic_body("ECHO-UPPER: a")])
    assert ok.json()["warmed"] == 1
    too_many = httpx.post(server.url + "/v1/cache/warmup", json=[anthropic_body("x")] * 3)
    assert too_many.status_code == 400
    assert too_many.json()["error"]["type"] == "invalid_request_error"


def test_warmup_needs_the_admin_token_when_set(make_live) -> None:
    server = make_live(settings=ServiceSettings(admin_token="s3cret"))
    url = server.url + "/v1/cache/warmup"
    assert httpx.post(url, json=[]).status_code == 401
    assert httpx.post(url, json=[], headers={"authorization": "Bearer s3cret"}).status_code == 200


@pytest.mark.parametrize(
    ("client", "token", "headers", "status"),
    [
        ("127.0.0.1", None, {}, 200),  # no token set: loopback clients are served
        ("::1", None, {}, 200),
        ("203.0.113.9", None, {}, 403),  # ... and no one else
        ("203.0.113.9", "s3cret", {"x-api-key": "s3cret"}, 200),
        ("203.0.113.9", "s3cret", {"authorization": "Bearer s3cret"}, 200),
        ("127.0.0.1", "s3cret", {}, 401),  # a token set is needed from loopback too
        # one precedence: x-api-key is read first
        ("127.0.0.1", "s3cret", {"x-api-key": "other", "authorization": "Bearer s3cret"}, 401),
    ],
)
def test_warmup_is_loopback_only_until_a_token_is_set(client, token, headers, status) -> None:  # type: ignore[no-untyped-def]
    from fastapi.testclient import TestClient

    from zerolayer.rules_api import create_app

    app = create_app(FakeEngine(), settings=ServiceSettings(admin_token=token))
    with TestClient(app, client=(client, 50000)) as http:
        response = http.post("/v1/cache/warmup", json=[], headers=headers)
    assert response.status_code == status, response.text
    if status == 403:
        assert "ZEROLAYER_ADMIN_TOKEN" in response.json()["error"]["message"]


def test_plugins_health_and_readiness(live) -> None:
    plugins = httpx.get(live.url + "/v1/plugins").json()
    assert plugins["rule_set_version"] == "fake-1"
    assert plugins["plugins"][0]["name"] == "fake"
    assert httpx.get(live.url + "/health").json() == {"status": "ok"}
    ready = httpx.get(live.url + "/health/ready")
    assert ready.status_code == 200
    assert ready.json()["status"] == "ready"
    assert ready.json()["cache"]["kind"] == "memory"


class NotLoaded(FakeEngine):
    def plugin_info(self):  # type: ignore[no-untyped-def]
        raise RuntimeError("grammars still loading")


def test_readiness_fails_while_the_engine_cannot_answer(make_live) -> None:
    server = make_live(NotLoaded())
    ready = httpx.get(server.url + "/health/ready")
    assert ready.status_code == 503
    assert ready.json()["status"] == "not_ready"


def test_openapi_document_lists_the_routes(live) -> None:
    doc = httpx.get(live.url + "/openapi.json").json()
    for path in ("/v1/messages", "/v1/chat/completions", "/v1/models", "/v1/cache/warmup",
                 "/v1/plugins", "/health", "/health/ready", "/metrics"):  # fmt: skip
        assert path in doc["paths"]
