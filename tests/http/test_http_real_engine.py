"""The service around the real engine (skipped until ``zerolayer.core.engine`` exists here).

Only contract-level behaviour of docs/http.md and the zeroscore README is checked, so that
engine changes inside the contract do not break these tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import unquote

import httpx
import pytest
import yaml

from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import anthropic_body, serve_app

pytestmark = pytest.mark.slow  # builds the real engine and starts a server

engine_module = pytest.importorskip("zerolayer.core.engine", reason="the real engine is not here")


@pytest.fixture(scope="module")
def real() -> Iterator[str]:
    app = create_app(engine_module.Engine())
    with serve_app(app) as url:
        yield url


def test_json_to_yaml_is_active_with_plan_and_cached(real: str) -> None:
    body = anthropic_body('Convert the following JSON to YAML:\n\n{"id": 7, "tags": ["a", "b"]}')
    first = httpx.post(real + "/v1/messages", json=body, timeout=30)
    second = httpx.post(real + "/v1/messages", json=body, timeout=30)
    assert first.status_code == 200, first.text
    assert first.headers["x-zero-layer-status"] == "active"
    assert "yaml" in unquote(first.headers["x-zero-layer-plan"])
    assert yaml.safe_load(first.json()["content"][0]["text"]) == {"id": 7, "tags": ["a", "b"]}
    assert second.headers["x-zero-layer-cache-hit"] == "true"


def test_malformed_payload_is_400_with_line(real: str) -> None:
    body = anthropic_body('Convert the following JSON to YAML:\n\n{\n  "a": 1,\n  "b": \n}')
    response = httpx.post(real + "/v1/messages", json=body, timeout=30)
    assert response.status_code == 400
    assert response.headers.get("x-zero-layer-status") != "inactive"
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert "line" in error["message"].lower()


@pytest.mark.parametrize(
    ("text", "extra", "headers"),
    [
        ('Convert the following JSON to YAML: {"a": 1}', {"temperature": 0.7}, {}),
        ('Convert the following JSON to YAML: {"a": 1}', {}, {"x-zero-layer": "disable"}),
        ("What do you think about functional programming?", {}, {}),
    ],
)
def test_non_deterministic_requests_are_inactive(real: str, text, extra, headers) -> None:  # type: ignore[no-untyped-def]
    body = anthropic_body(text, **extra)
    response = httpx.post(real + "/v1/messages", json=body, headers=headers, timeout=30)
    assert response.headers["x-zero-layer-status"] == "inactive"
    assert response.status_code == 503  # no fallback is configured here
