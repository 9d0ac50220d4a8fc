"""Helpers of the rules tests: the Rig (app, client, hub, keys) and workflow shortcuts."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from zerolayer.rules_api.rules.limits import RuleLimits
from zerolayer.rules_api.rules.workflow import RulesHub

CONTRIB = Path(__file__).resolve().parents[2] / "contrib" / "rules"
LIMITS = RuleLimits(run_timeout_s=1.0, regex_timeout_s=0.3)


@dataclass
class Rig:
    """An app on a store, a client, and keys of tenants acme and globex."""

    app: Any
    client: TestClient
    hub: RulesHub
    keys: dict[str, str]

    def h(self, who: str, etag: str | None = None, **extra: str) -> dict[str, str]:
        headers = {"x-api-key": self.keys[who], **extra}
        if etag is not None:
            headers["If-Match"] = etag
        return headers


def contrib(name: str) -> str:
    return (CONTRIB / name).read_text(encoding="utf-8")


def publish(
    rig: Rig,
    text: str,
    *,
    author: str = "author",
    reviewer: str = "reviewer",
    publisher: str = "publisher",
    ctype: str = "application/yaml",
) -> dict[str, Any]:
    """Create, freeze, test, submit, approve and activate a rule; the final rule view."""
    c = rig.client
    r = c.post("/v1/zero-rules", content=text, headers={**rig.h(author), "content-type": ctype})
    assert r.status_code == 201, r.text
    name, etag = r.json()["name"], r.headers["ETag"]
    r = c.post(f"/v1/zero-rules/{name}/versions", headers=rig.h(author, etag))
    assert r.status_code == 201, r.text
    number, etag, digest = r.json()["number"], r.json()["etag"], r.json()["content_hash"]
    r = c.post(f"/v1/zero-rules/{name}/versions/{number}/test", headers=rig.h(author))
    assert r.status_code == 200 and r.json()["passed"], r.text
    r = c.post(f"/v1/zero-rules/{name}/versions/{number}/submit", headers=rig.h(author, etag))
    assert r.status_code == 200, r.text
    r = c.post(
        f"/v1/zero-rules/{name}/versions/{number}/approve",
        json={"content_hash": digest},
        headers=rig.h(reviewer, r.json()["etag"]),
    )
    assert r.status_code == 200, r.text
    r = c.post(
        f"/v1/zero-rules/{name}/activate",
        json={"version": number},
        headers=rig.h(publisher, r.json()["etag"]),
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def ask(rig: Rig, who: str | None, text: str, client: Any = None) -> Any:
    """POST /v1/messages with the key ``who`` (None: no key), to ``client`` or the rig's."""
    headers = {"anthropic-version": "2023-06-01"}
    if who is not None:
        headers["x-api-key"] = rig.keys[who]
    return (client or rig.client).post(
        "/v1/messages",
        json={
            "model": "m",
            "max_tokens": 1000,
            "temperature": 0,
            "messages": [{"role": "user", "content": text}],
        },
        headers=headers,
    )


def wait_until(check: Any, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db_url: str, port: int, **env: str) -> subprocess.Popen[bytes]:
    """``zerolayer serve`` on ``db_url`` in a process of its own, once it answers /health."""
    environment = {
        **os.environ,
        "ZEROLAYER_DB_URL": db_url,
        "ZEROLAYER_RULE_WORKERS": "1",
        **env,
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "zerolayer.core.cli",
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    end = time.monotonic() + 90
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
