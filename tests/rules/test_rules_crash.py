"""A server killed (SIGKILL) while rules are being uploaded, then restarted: no lost or
half-written version, and the audit log has a record of every change that was committed."""

from __future__ import annotations

import json
import signal
import threading
import time

import httpx
import pytest
import yaml
from rules_helpers import contrib, start_rules_server
from serve_process import free_port

from zerolayer.rules_api.rules.compiler import content_hash

pytestmark = pytest.mark.slow
ADMIN = "crash-test-admin-key"


def test_sigkill_during_uploads_loses_nothing_committed(db_url: str) -> None:
    port = free_port()
    proc = start_rules_server(db_url, port, ZEROLAYER_ADMIN_KEY=ADMIN)
    base = f"http://127.0.0.1:{port}"
    key = httpx.post(
        f"{base}/v1/keys",
        json={"tenant": "acme", "roles": ["author", "auditor"]},
        headers={"x-api-key": ADMIN},
    ).json()["key"]
    doc = yaml.safe_load(contrib("email-list.yaml"))
    stop = threading.Event()
    created: list[str] = []  # acknowledged creates
    frozen: list[tuple[str, int]] = []  # acknowledged versions
    broken: list[str] = []  # requests the kill cut off
    attempted: list[str] = []

    def upload() -> None:
        with httpx.Client(base_url=base, headers={"x-api-key": key}, timeout=5) as c:
            i = 0
            while not stop.is_set():
                i += 1
                body = {**doc, "name": f"r{i}", "description": "x" * (i * 97 % 5000)}
                attempted.append(f"r{i}")
                try:
                    r = c.post(
                        "/v1/zero-rules",
                        content=json.dumps(body),
                        headers={"content-type": "application/json"},
                    )
                    if r.status_code == 201:
                        created.append(f"r{i}")
                        r = c.post(
                            f"/v1/zero-rules/r{i}/versions", headers={"If-Match": r.headers["etag"]}
                        )
                        if r.status_code == 201:
                            frozen.append((f"r{i}", r.json()["number"]))
                except httpx.HTTPError as exc:
                    broken.append(type(exc).__name__)
                    return

    thread = threading.Thread(target=upload)
    thread.start()
    end = time.monotonic() + 60
    while len(frozen) < 3 and time.monotonic() < end:  # uploads are flowing (workers started)
        time.sleep(0.05)
    time.sleep(0.25)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    stop.set()
    thread.join(10)
    assert created, "no upload completed before the kill"
    assert broken, "the kill did not cut off a request in flight"

    proc = start_rules_server(db_url, port, ZEROLAYER_ADMIN_KEY=ADMIN)
    try:
        with httpx.Client(base_url=base, headers={"x-api-key": key}, timeout=10) as c:
            rules = c.get("/v1/zero-rules").json()["rules"]
            names = {r["name"] for r in rules}
            assert set(created) <= names  # every acknowledged create survived
            assert names <= set(created) | {attempted[-1]}  # and at most the one cut off
            audit = c.get("/v1/audit").json()["audit"]
            creates = [a["rule"] for a in audit if a["action"] == "create"]
            assert sorted(creates) == sorted(names)  # one record per rule that exists
            versions: set[tuple[str, int]] = set()
            for name in names:
                view = c.get(f"/v1/zero-rules/{name}").json()
                for v in view["versions"]:
                    data = (
                        json.loads(v["text"])
                        if v["format"] == "json"
                        else yaml.safe_load(v["text"])
                    )
                    assert content_hash(data) == v["content_hash"]  # whole, not half-written
                    versions.add((name, v["number"]))
            assert set(frozen) <= versions
            freezes = [(a["rule"], a["version"]) for a in audit if a["action"] == "freeze"]
            assert sorted(freezes) == sorted(versions)  # one record per version that exists
        if db_url.startswith("sqlite"):
            import sqlite3

            with sqlite3.connect(db_url.split(":///", 1)[1]) as conn:
                assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        proc.kill()
        proc.wait(10)
