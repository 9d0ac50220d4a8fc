"""SIGTERM drains requests in flight for ZEROLAYER_SHUTDOWN_TIMEOUT_S at most: a stream that
would never end does not keep a stopping replica alive past it."""

from __future__ import annotations

import os
import signal
import time

import httpx
import pytest
from serve_process import free_port, start_server

pytestmark = pytest.mark.slow  # server processes


def test_sigterm_stops_waiting_for_a_stream_after_the_shutdown_timeout(upstream: str) -> None:
    port = free_port()
    env = {**os.environ, "ZEROLAYER_FALLBACK": f"upstream:{upstream}/v1",
           "ZEROLAYER_SHUTDOWN_TIMEOUT_S": "1"}  # fmt: skip
    proc = start_server(port, env)
    try:
        body = {"model": "m", "stream": True, "temperature": 0.7,
                "messages": [{"role": "user", "content": "tell me a story fault=hang"}]}  # fmt: skip
        with httpx.Client(timeout=30) as client:
            url = f"http://127.0.0.1:{port}/v1/chat/completions"
            with client.stream("POST", url, json=body) as response:
                assert response.status_code == 200
                lines = response.iter_lines()
                assert any('"content":"You' in line.replace(" ", "") for line in lines)
                stopped = time.monotonic()
                proc.send_signal(signal.SIGTERM)
                with pytest.raises(httpx.HTTPError):  # the hung stream is cut, not finished
                    for _ in lines:
                        pass
        code = proc.wait(15)
        took = time.monotonic() - stopped
        assert code in (0, -signal.SIGTERM)
        assert 0.9 < took < 10, took  # waited about the timeout, not the hour
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
