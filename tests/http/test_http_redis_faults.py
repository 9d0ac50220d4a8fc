"""The response cache when Redis stops and comes back, with a real redis-server.

Requests keep being answered (no 5xx) while Redis is down: answers already seen come from the
worker's near tier, new ones from the engine; Redis is not asked again for a while after an
error, so no request waits on a timeout; ``/metrics`` counts the errors and shows the store as
down. Once Redis is back, answers are stored there again.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from typing import Any

import httpx
import pytest

from zerolayer.rules_api.settings import ServiceSettings
from zerolayer.rules_api.testing import anthropic_body, free_socket

pytestmark = pytest.mark.slow  # live servers, subprocesses or many generated requests


class RedisProcess:
    """A redis-server on one loopback port that a test can stop and start again."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (apt-get install -y redis-server)")
        self.binary = binary
        with closing(free_socket()) as sock:
            self.port = sock.getsockname()[1]
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def keys(self) -> int:
        import redis

        return len(redis.Redis.from_url(self.url).keys("zerolayer:answer:*"))


@pytest.fixture
def redis_process() -> Iterator[RedisProcess]:
    server = RedisProcess()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def metric(url: str, name: str, **labels: str) -> float:
    """One sample of ``/metrics`` (0 when absent)."""
    want = name + ("{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "}" if labels else "")
    for line in httpx.get(url + "/metrics").text.splitlines():
        if line.startswith(want + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def ask(url: str, text: str, **fields: Any) -> httpx.Response:
    response = httpx.post(url + "/v1/messages", json=anthropic_body(text, **fields), timeout=10)
    assert response.status_code == 200, response.text
    return response


def test_answers_continue_while_redis_is_down_and_reach_it_again_when_it_is_back(
    make_live: Callable[..., Any], redis_process: RedisProcess
) -> None:
    live = make_live(settings=ServiceSettings(redis_url=redis_process.url))
    seen = "ECHO-UPPER: answered before Redis stopped"
    assert ask(live.url, seen).headers["x-zero-layer-cache-hit"] == "false"
    assert redis_process.keys() == 1
    assert metric(live.url, "zerolayer_cache_store_up") == 1

    redis_process.stop()
    started = time.monotonic()
    for i in range(20):
        new = f"ECHO-UPPER: new while Redis is down {i}"
        assert ask(live.url, new).json()["content"][0]["text"] == new.upper()[len("ECHO-UPPER: ") :]
        assert ask(live.url, new).headers["x-zero-layer-cache-hit"] == "true"  # the near tier
        assert ask(live.url, seen, stream=False).headers["x-zero-layer-cache-hit"] == "true"
    streamed = httpx.post(
        live.url + "/v1/messages", json=anthropic_body(seen, stream=True), timeout=10
    )
    assert streamed.status_code == 200 and "event: message_stop" in streamed.text
    assert time.monotonic() - started < 10  # no request waited on Redis's timeout
    assert metric(live.url, "zerolayer_cache_errors_total", op="get") >= 1
    assert metric(live.url, "zerolayer_cache_store_up") == 0
    ready = httpx.get(live.url + "/health/ready").json()
    assert ready["cache"]["ok"] is False and ready["cache"]["near"]["entries"] >= 21

    redis_process.start()  # empty: it keeps nothing on disk
    time.sleep(1.2)  # the cache leaves Redis alone for a second after an error
    ask(live.url, "ECHO-UPPER: after Redis came back")
    assert redis_process.keys() == 1
    assert metric(live.url, "zerolayer_cache_store_up") == 1
