"""Running the service: the environment factory, and uvicorn with several workers."""

from __future__ import annotations

import gc
import os
import socket
import subprocess
import sys
import time
from contextlib import closing

import httpx
import pytest

from zerolayer.core.errors import StartupError
from zerolayer.rules_api.server import app_from_env, load_object, serve
from zerolayer.rules_api.testing import FakeEngine, anthropic_body

pytestmark = pytest.mark.slow  # live servers, subprocesses or many generated requests

FAKE = "zerolayer.rules_api.testing:FakeEngine"


def test_app_from_env_builds_engine_fallback_and_settings(monkeypatch) -> None:
    monkeypatch.setenv("ZEROLAYER_ENGINE", FAKE)
    monkeypatch.setenv("ZEROLAYER_FALLBACK", "zerolayer.rules_api.testing:FakeFallback")
    monkeypatch.setenv("ZEROLAYER_MODEL_ID", "from-env")
    try:
        app = app_from_env()
        frozen = gc.get_freeze_count()
    finally:
        gc.unfreeze()
    service = app.state.service
    assert isinstance(service.engine, FakeEngine)
    assert service.fallback.name == "fake-fallback"
    assert service.settings.model_id == "from-env"
    assert frozen > 0  # what start-up built is out of the collector's way


@pytest.mark.parametrize("spec", ["no_colon", "zerolayer.nothing_here:X", "zerolayer:Nope"])
def test_bad_factory_names_fail_at_start_up(spec: str) -> None:
    with pytest.raises(StartupError):
        load_object(spec)


def test_create_app_refuses_what_is_not_an_engine() -> None:
    from zerolayer.rules_api import create_app

    with pytest.raises(StartupError, match="not an engine"):
        create_app(object())  # type: ignore[arg-type]


def test_serve_refuses_objects_with_several_workers() -> None:
    with pytest.raises(StartupError, match="environment"):
        serve(workers=2, engine=FakeEngine())


def test_two_uvicorn_workers_from_the_environment(redis_url: str) -> None:
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),  # import what this process can
        "ZEROLAYER_ENGINE": FAKE,
        "ZEROLAYER_REDIS_URL": redis_url,
    }
    cmd = [sys.executable, "-m", "zerolayer.rules_api", "--port", str(port),
           "--workers", "2", "--log-level", "warning"]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(url + "/health/ready", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                pytest.fail("uvicorn workers did not start")
            time.sleep(0.2)
        body = anthropic_body("ECHO-UPPER: from a worker")
        answers = [httpx.post(url + "/v1/messages", json=body, timeout=5) for _ in range(4)]
        assert {a.json()["content"][0]["text"] for a in answers} == {"FROM A WORKER"}
        hits = [a.headers["x-zero-layer-cache-hit"] for a in answers]
        assert hits[0] == "false"
        assert hits[1:] == ["true"] * 3  # whichever worker answers, Redis has the answer
    finally:
        proc.terminate()
        proc.wait(15)
        if proc.stderr is not None:
            proc.stderr.close()


def test_serve_runs_uvicorn_on_uvloop_and_httptools_when_installed() -> None:
    import uvicorn

    from zerolayer.rules_api.server import uvicorn_options

    uvloop = pytest.importorskip("uvloop")
    pytest.importorskip("httptools")
    options = uvicorn_options("127.0.0.1", 0, access_log=False)
    config = uvicorn.Config(lambda *_: None, **options)
    config.load()
    assert config.http_protocol_class.__name__ == "HttpToolsProtocol"
    assert config.access_log is False
    factory = config.get_loop_factory()
    assert factory is not None
    loop = factory()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()
