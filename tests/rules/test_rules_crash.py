"""A server killed (SIGKILL) while rules are being uploaded, then restarted: no lost or
half-written version, and the audit log has a record of every change that was committed."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
import yaml
from rules_helpers import contrib

from zerolayer.rules_api.rules.compiler import content_hash

pytestmark = pytest.mark.slow
ADMIN = "crash-test-admin-key"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "ZEROLAYER_DB_URL": f"sqlite:///{db}",
        "ZEROLAYER_ADMIN_KEY": ADMIN,
        "ZEROLAYER_RULE_WORKERS": "1",
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
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def test_sigkill_during_uploads_loses_nothing_committed(tmp_path: Path) -> None:
    db = tmp_path / "rules.db"
    port = _port()
    proc = _start(db, port)
    base = f"http://127.0.0.1:{port}"
    key = httpx.post(
        f"{base}/v1/keys",
        json={"tenant": "acme", "roles": ["author", "auditor"]},
        headers={"x-api-key": ADMIN},
    ).json()["key"]
    doc = yaml.safe_load(contrib("email-list.yaml"))
    stop = threading.Event()
    created: list[str] = []

    def upload() -> None:
        with httpx.Client(base_url=base, headers={"x-api-key": key}, timeout=5) as c:
            i = 0
            while not stop.is_set():
                i += 1
                body = {**doc, "name": f"r{i}", "description": "x" * (i * 97 % 5000)}
                try:
                    r = c.post(
                        "/v1/zero-rules",
                        content=json.dumps(body),
                        headers={"content-type": "application/json"},
                    )
                    if r.status_code == 201:
                        created.append(f"r{i}")
                        c.post(
                            f"/v1/zero-rules/r{i}/versions", headers={"If-Match": r.headers["etag"]}
                        )
                except httpx.HTTPError:
                    return

    thread = threading.Thread(target=upload)
    thread.start()
    time.sleep(1.5)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    stop.set()
    thread.join(10)
    assert created, "no upload completed before the kill"

    proc = _start(db, port)
    try:
        with httpx.Client(base_url=base, headers={"x-api-key": key}, timeout=10) as c:
            rules = c.get("/v1/zero-rules").json()["rules"]
            names = {r["name"] for r in rules}
            assert set(created) <= names  # every acknowledged create survived
            audit = c.get("/v1/audit").json()["audit"]
            by_action: dict[str, set[str]] = {}
            for a in audit:
                by_action.setdefault(a["action"], set()).add(a["rule"])
            assert by_action["create"] == names
            for name in names:
                view = c.get(f"/v1/zero-rules/{name}").json()
                for v in view["versions"]:
                    data = (
                        json.loads(v["text"])
                        if v["format"] == "json"
                        else yaml.safe_load(v["text"])
                    )
                    assert content_hash(data) == v["content_hash"]
                    assert name in by_action["freeze"]
        import sqlite3

        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        proc.kill()
        proc.wait(10)
