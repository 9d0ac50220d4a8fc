"""Backends as plugins: the register_backends hook, the registry's checks, ZEROLAYER_FALLBACK."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from zerolayer.core.errors import StartupError
from zerolayer.core.fallback import BackendSpec
from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.neural.config import backend_from_spec, backend_registry, split_spec
from zerolayer.core.neural.upstream import UpstreamBackend
from zerolayer.rules_api.testing import FakeFallback


class EchoPlugin:
    """A third-party plugin offering one backend."""

    @hookimpl
    def register_backends(self, register) -> None:
        register(BackendSpec("echo", lambda arg, env: FakeFallback(), "answers [fallback] …"))


class Clash:
    @hookimpl
    def register_backends(self, register) -> None:
        register(BackendSpec("local", lambda arg, env: FakeFallback()))


class WrongType:
    @hookimpl
    def register_backends(self, register) -> None:
        register("local")


def test_built_in_backends_are_recorded_with_their_plugin() -> None:
    registry = backend_registry({})
    assert {"local", "upstream", "anthropic"} <= set(registry.backends)
    assert {s.plugin for s in registry.backends.values()} == {"neural"}
    assert registry.plugins["neural"].to_dict()["backends"] == ["local", "upstream", "anthropic"]


def test_a_plugin_backend_is_chosen_by_name() -> None:
    registry = backend_registry({}, extra={"echo_plugin": EchoPlugin()})
    assert registry.backends["echo"].plugin == "echo_plugin"
    assert backend_from_spec("echo", {}, registry=registry).name == "fake-fallback"


def test_two_plugins_claiming_a_backend_name_stop_start_up() -> None:
    with pytest.raises(StartupError, match=r"duplicate backend name 'local'.*'neural'.*'clash'"):
        backend_registry({}, extra={"clash": Clash()})


def test_registering_something_else_stops_start_up() -> None:
    with pytest.raises(StartupError, match="register BackendSpec"):
        backend_registry({}, extra={"wrong": WrongType()})


@pytest.mark.parametrize(
    ("spec", "picked"),
    [
        ("local", ("local", "")),
        ("local:/models/a.gguf", ("local", "/models/a.gguf")),
        ("upstream:http://127.0.0.1:8001/v1", ("upstream", "http://127.0.0.1:8001/v1")),
        ("anthropic", ("anthropic", "")),
        ("zerolayer.rules_api.testing:FakeFallback", None),
    ],
)
def test_split_spec(spec: str, picked) -> None:
    assert split_spec(spec, frozenset({"local", "upstream", "anthropic"})) == picked


def test_upstream_and_module_specs_build_backends() -> None:
    upstream = backend_from_spec(
        "upstream:http://127.0.0.1:9/v1", {"ZEROLAYER_UPSTREAM_MODEL": "m"}
    )
    assert isinstance(upstream, UpstreamBackend) and upstream.model == "m"
    upstream.close()
    assert backend_from_spec("zerolayer.rules_api.testing:FakeFallback", {}).name == "fake-fallback"


@pytest.mark.parametrize(
    "spec", ["nonsense", "upstream:ftp://x", "upstream", "zerolayer.nothing:X", "local:/no/such"]
)
def test_bad_specs_fail_at_start_up(spec: str) -> None:
    with pytest.raises(StartupError):
        backend_from_spec(spec, {})


def test_the_service_answers_both_routes_with_the_local_backend(
    monkeypatch, tiny_dir: Path, engine
) -> None:
    from zerolayer.rules_api import create_app
    from zerolayer.rules_api.server import fallback_from_env

    monkeypatch.setenv("ZEROLAYER_FALLBACK", f"local:{tiny_dir}")
    monkeypatch.setenv("ZEROLAYER_DEVICE", "cpu")
    backend = fallback_from_env()
    assert backend is not None and backend.name == "local"
    client = TestClient(create_app(engine, fallback=backend))
    body = {"model": "m", "max_tokens": 8, "temperature": 0}
    det = client.post(
        "/v1/messages",
        json={**body, "messages": [{"role": "user", "content": 'Convert to YAML: {"a": 1}'}]},
    )
    assert det.status_code == 200, det.text
    assert det.headers["x-zero-layer-status"] == "active"
    assert det.json()["content"][0]["text"].strip() == "a: 1"
    neural = client.post(
        "/v1/chat/completions",
        json={**body, "messages": [{"role": "user", "content": "Tell me a story."}]},
    )
    assert neural.status_code == 200, neural.text
    assert neural.headers["x-zero-layer-status"] == "inactive"
    assert neural.json()["choices"][0]["finish_reason"] == "length"
    assert neural.json()["usage"]["completion_tokens"] == 8
