"""``zerolayer lint``: the verdict, the reason and the suggested rewrites; every rewrite offered
as deterministic is answered deterministically by the engine and by the HTTP API."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from plugin_kit_support import PYTHON, subprocess_env

from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.lint import LintReport, Sampling, lint
from zerolayer.core.messages import EngineRequest, Message, Route
from zerolayer.plugins import DEFAULT_PLUGINS
from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import FakeEngine, FakeFallback

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "cases" / "lint.yaml").read_text(encoding="utf-8")
)
BUILTIN = frozenset(m.rsplit(".", 1)[-1] for m in DEFAULT_PLUGINS)


@pytest.fixture(scope="module")
def builtin() -> Engine:
    """The built-in plugins only: the cases do not depend on what else is installed."""
    return Engine(EngineConfig(plugins=BUILTIN))


def _sampling(case: dict[str, Any]) -> Sampling:
    given = case.get("sampling") or {}
    return Sampling(temperature=given.get("temperature", 0.0), top_p=given.get("top_p"))


def _report(engine: Engine, case: dict[str, Any]) -> LintReport:
    return lint(engine, case["prompt"], sampling=_sampling(case))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["prompt"][:40])
def test_case(builtin: Engine, case: dict[str, Any]) -> None:
    report = _report(builtin, case)
    assert report.deterministic is case.get("deterministic", False), report.detail
    assert report.reason == case.get("reason")
    assert [s.kind for s in report.suggestions] == case["kinds"]
    if "rewrite" in case:
        assert report.suggestions[0].rewrite == case["rewrite"]
    if "split_off" in case:
        assert report.suggestions[0].split_off == case["split_off"]
    offered = [s for s in report.suggestions if s.rewrite is not None]
    if "fixed" in case:
        assert offered and offered[-1].deterministic is case["fixed"]
    else:
        assert not offered


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["prompt"][:40])
def test_rewrites_offered_as_deterministic_are_answered_deterministically(
    builtin: Engine, case: dict[str, Any]
) -> None:
    """Each rewrite marked deterministic, sent as it is, gets a deterministic route: from a
    fresh engine directly and from the HTTP API (header ``active``)."""
    fresh = Engine(EngineConfig(plugins=BUILTIN))
    client = TestClient(create_app(fresh, fallback=FakeFallback()))
    for s in _report(builtin, case).suggestions:
        if not s.deterministic:
            continue
        assert s.rewrite is not None and s.sampling is not None
        request = EngineRequest(
            messages=(Message("user", s.rewrite),),
            temperature=s.sampling.temperature,
            top_p=s.sampling.top_p,
        )
        result = fresh.run(request)
        if result.reason == "segment.no_payload":
            result = fresh.explain(request)
            assert result.route is Route.DETERMINISTIC, result.detail
            continue
        assert result.route is not Route.FALLBACK, (s.rewrite, result.reason, result.detail)
        body: dict[str, Any] = {
            "model": "any",
            "max_tokens": 256,
            "messages": [{"role": "user", "content": s.rewrite}],
        }
        if s.sampling.temperature is not None:
            body["temperature"] = s.sampling.temperature
        if s.sampling.top_p is not None:
            body["top_p"] = s.sampling.top_p
        response = client.post("/v1/messages", json=body)
        assert response.headers["x-zero-layer-status"] == "active", s.rewrite


def test_suggestions_mark_rewrites_that_still_fall_back(builtin: Engine) -> None:
    case = next(c for c in CASES if c.get("fixed") is False)
    first = _report(builtin, case).suggestions[0]
    assert first.rewrite is not None and first.deterministic is False
    again = lint(builtin, first.rewrite, sampling=first.sampling)
    assert not again.deterministic


def test_post_v1_lint(builtin: Engine) -> None:
    client = TestClient(create_app(builtin))
    body = {"prompt": 'Convert this JSON to YAML: {"a": 1}', "temperature": 0.5}
    response = client.post("/v1/lint", json=body)
    assert response.status_code == 200
    report = response.json()
    assert report["deterministic"] is False and report["reason"] == "gate.temperature"
    (suggestion,) = report["suggestions"]
    assert suggestion["kind"] == "sampling" and suggestion["deterministic"] is True
    assert suggestion["sampling"] == {"temperature": 0.0, "top_p": None}


def test_post_v1_lint_with_payload_apart(builtin: Engine) -> None:
    client = TestClient(create_app(builtin))
    body = {"prompt": "Convert this JSON to YAML", "payload": '{"a": }'}
    report = client.post("/v1/lint", json=body).json()
    assert report["deterministic"] is True and report["route"] == "error"
    assert "line 1" in report["detail"]


def test_post_v1_lint_needs_a_real_engine() -> None:
    client = TestClient(create_app(FakeEngine()))
    response = client.post("/v1/lint", json={"prompt": "anything"})
    assert response.status_code == 404


@pytest.mark.slow
def test_cli_lint() -> None:
    env = subprocess_env()
    prompt = "Convert this JSON to YAML and explain why YAML is better"
    ran = subprocess.run(
        [PYTHON, "-m", "zerolayer.cli", "lint", prompt, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 3, ran.stderr
    report = json.loads(ran.stdout)
    assert report["reason"] == "gate.open_ended"
    assert report["suggestions"][0]["rewrite"] == "Convert this JSON to YAML"
    ok = subprocess.run(
        [PYTHON, "-m", "zerolayer.cli", "lint", "Convert this JSON to YAML"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert ok.returncode == 0 and ok.stdout.startswith("deterministic: json.parse | yaml.emit")
