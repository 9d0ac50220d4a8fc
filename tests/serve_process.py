"""``zerolayer serve`` in a process of its own, on a free loopback port, for the tests that
talk to a live server over HTTP."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Mapping

import httpx


def free_port() -> int:
    """A loopback TCP port nothing listens on (just now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    port: int, env: Mapping[str, str], *, quiet: bool = True, timeout_s: float = 90.0
) -> subprocess.Popen[bytes]:
    """``zerolayer serve --port PORT`` with the environment ``env``, once it answers /health.

    ``quiet`` sends the server's output nowhere; otherwise it goes where the tests' goes.
    The caller stops the process.
    """
    output = subprocess.DEVNULL if quiet else None
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "zerolayer.cli",
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env=dict(env),
        stdout=output,
        stderr=output,
    )
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")
