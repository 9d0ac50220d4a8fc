"""The fault-injecting upstream process (``fault_upstream.py``) the gateway tests talk to."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serve_process import free_port

SERVER = Path(__file__).with_name("fault_upstream.py")


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    """The base URL of a fresh fault upstream, stopped at the end of the module."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(SERVER), str(port)])
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise AssertionError("the fault upstream did not start") from None
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
