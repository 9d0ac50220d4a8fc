"""Fixtures of the HTTP tests: a live uvicorn server on loopback, SDK clients, redis-server."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

import anthropic
import openai
import pytest
from fastapi import FastAPI

from zerolayer.rules_api import ServiceSettings, create_app
from zerolayer.rules_api.testing import FakeEngine, FakeFallback, free_socket, serve_app


def pytest_configure(config: pytest.Config) -> None:
    """Register ``slow`` here too, so that this folder also runs where pyproject lacks it."""
    config.addinivalue_line(
        "markers",
        "slow: builds or installs packages, or starts servers (seconds, not milliseconds)",
    )


@dataclass
class Live:
    """A running server and the objects behind it."""

    url: str
    app: FastAPI
    engine: FakeEngine
    clients: list[anthropic.Anthropic | openai.OpenAI] = field(default_factory=list)

    def anthropic(self, **kwargs: Any) -> anthropic.Anthropic:
        """An Anthropic SDK client pointed at this server (closed when the server stops)."""
        client = anthropic.Anthropic(
            base_url=self.url, api_key="test-key", **{"max_retries": 0, **kwargs}
        )
        self.clients.append(client)
        return client

    def openai(self, **kwargs: Any) -> openai.OpenAI:
        """An OpenAI SDK client pointed at this server (closed when the server stops)."""
        client = openai.OpenAI(
            base_url=f"{self.url}/v1", api_key="test-key", **{"max_retries": 0, **kwargs}
        )
        self.clients.append(client)
        return client

    def close_clients(self) -> None:
        """Close the SDK clients handed out, so that no socket is left for the GC to find."""
        for client in self.clients:
            client.close()
        self.clients.clear()


@pytest.fixture
def make_live() -> Iterator[Callable[..., Live]]:
    """Start live servers around fresh apps: ``make_live(fallback=..., settings=..., ...)``."""
    stack: list[tuple[Any, Live]] = []

    def start(engine: FakeEngine | None = None, **kwargs: Any) -> Live:
        engine = engine or FakeEngine()
        app = create_app(engine, **kwargs)
        ctx = serve_app(app)
        server = Live(ctx.__enter__(), app, engine)
        stack.append((ctx, server))
        return server

    yield start
    for ctx, server in reversed(stack):
        server.close_clients()
        ctx.__exit__(None, None, None)


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    """A server with the fake engine and a fake fallback (shared by a module's tests)."""
    engine = FakeEngine()
    app = create_app(engine, fallback=FakeFallback())
    with serve_app(app) as url:
        server = Live(url, app, engine)
        yield server
        server.close_clients()


@pytest.fixture(scope="module")
def bare() -> Iterator[Live]:
    """A server with the fake engine and no fallback (fallback requests get 503)."""
    engine = FakeEngine()
    app = create_app(engine, settings=ServiceSettings(max_body_bytes=4096))
    with serve_app(app) as url:
        server = Live(url, app, engine)
        yield server
        server.close_clients()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A throw-away redis-server on a free loopback port (skipped when not installed,
    except under CI, where a missing redis-server fails)."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is not installed (apt-get install -y redis-server)")
        pytest.skip("redis-server is not installed (apt-get install -y redis-server)")
    with closing(free_socket()) as sock:
        port = sock.getsockname()[1]
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)
