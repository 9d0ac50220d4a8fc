"""PostgreSQL restarted under a live server while rules are uploaded and activated.

The server keeps running through the outage: requests that need the store while it is down
(rule changes, and answers for a tenant's key, which is checked against the store on every
request) are refused with 503 and ``Retry-After``, never acknowledged and then lost; requests
without a key are answered; the server reconnects by itself once PostgreSQL is back; every
acknowledged change is in the store afterwards; the active rule answers as before, and a rule
activated after the restart reaches the answers too.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from rules_helpers import contrib, start_rules_server
from serve_process import free_port

pytestmark = pytest.mark.slow
ADMIN = "pg-restart-admin-key"
ROLES = ("author", "reviewer", "publisher")
CONVERT = 'Convert this JSON to YAML:\n\n{"a": 1}'
EMAILS = "extract the email addresses\n\nWrite to ana@example.com or bills@corp.example.org."


class Cluster:
    """A throw-away PostgreSQL cluster on one loopback port that a test can restart."""

    def __init__(self) -> None:
        installed = sorted(glob.glob("/usr/lib/postgresql/*/bin"))  # Debian keeps them off PATH
        initdb = shutil.which("initdb") or (f"{installed[-1]}/initdb" if installed else "")
        self.pg_ctl = shutil.which("pg_ctl") or (f"{installed[-1]}/pg_ctl" if installed else "")
        if not (os.path.exists(initdb) and os.path.exists(self.pg_ctl)):
            if os.environ.get("CI"):
                pytest.fail("PostgreSQL (initdb, pg_ctl) is required in CI")
            pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
        self.base = Path(tempfile.mkdtemp(prefix="zl-pg-restart-"))
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # postgres refuses to run as root: use the postgres user
            runuser = shutil.which("runuser")
            if runuser is None:
                pytest.skip("running as root without runuser")
            os.chmod(self.base, 0o777)
            self.prefix = [runuser, "-u", "postgres", "--"]
        self.port = free_port()
        self.env = {**os.environ, "LC_ALL": "C"}
        self._ctl(initdb, "-D", str(self.base / "data"), "-U", "zl", "--auth=trust", "-E", "UTF8")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://zl@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str) -> None:
        subprocess.run(
            [*self.prefix, *args], check=True, capture_output=True, env=self.env, timeout=120
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._ctl(self.pg_ctl, "-D", str(self.base / "data"), "-l", str(self.base / "log"),
                  "-w", "-o", options, "start")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        self._ctl(self.pg_ctl, "-D", str(self.base / "data"), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop("immediate")
        shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    pg = Cluster()
    pg.start()
    try:
        yield pg
    finally:
        pg.remove()


def activate(c: httpx.Client, keys: dict[str, str], text: str) -> httpx.Response:
    """Create, freeze, submit, approve and activate a rule; the last answer."""

    def h(role: str, etag: str | None = None) -> dict[str, str]:
        return {"x-api-key": keys[role], **({"If-Match": etag} if etag else {})}

    r = c.post("/v1/zero-rules", content=text,
               headers={**h("author"), "content-type": "application/yaml"})  # fmt: skip
    assert r.status_code == 201, r.text
    name = r.json()["name"]
    r = c.post(f"/v1/zero-rules/{name}/versions", headers=h("author", r.headers["ETag"]))
    assert r.status_code == 201, r.text
    number, digest = r.json()["number"], r.json()["content_hash"]
    etag = r.json()["etag"]
    r = c.post(f"/v1/zero-rules/{name}/versions/{number}/test", headers=h("author"))
    assert r.status_code == 200 and r.json()["passed"], r.text
    r = c.post(f"/v1/zero-rules/{name}/versions/{number}/submit",
               headers=h("author", etag))  # fmt: skip
    assert r.status_code == 200, r.text
    r = c.post(f"/v1/zero-rules/{name}/versions/{number}/approve",
               json={"content_hash": digest}, headers=h("reviewer", r.json()["etag"]))  # fmt: skip
    assert r.status_code == 200, r.text
    return c.post(f"/v1/zero-rules/{name}/activate", json={"version": number},
                  headers=h("publisher", r.json()["etag"]))  # fmt: skip


def ask(c: httpx.Client, key: str, text: str) -> httpx.Response:
    body = {"model": "m", "max_tokens": 500, "temperature": 0,
            "messages": [{"role": "user", "content": text}]}  # fmt: skip
    return c.post("/v1/messages", json=body, headers={"x-api-key": key})


def test_postgres_restart_during_uploads_loses_nothing_and_the_server_reconnects(
    cluster: Cluster,
) -> None:
    port = free_port()
    proc = start_rules_server(cluster.url, port, ZEROLAYER_ADMIN_KEY=ADMIN)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=15) as c:
            keys = {
                role: c.post("/v1/keys", json={"tenant": "acme", "roles": [role, "auditor"]},
                             headers={"x-api-key": ADMIN}).json()["key"]
                for role in ROLES
            }  # fmt: skip
            assert activate(c, keys, contrib("email-list.yaml")).status_code == 200
            answer = ask(c, keys["author"], EMAILS)
            assert answer.headers["x-zero-layer-status"] == "active", answer.text
            expected = answer.json()["content"][0]["text"]

            doc = yaml.safe_load(contrib("mask-phones.yaml"))
            stop = threading.Event()
            acknowledged: list[str] = []
            statuses: list[int] = []

            def upload() -> None:
                with httpx.Client(base_url=base, timeout=15) as u:
                    i = 0
                    while not stop.is_set():
                        i += 1
                        body = {**doc, "name": f"upload-{i}"}
                        try:
                            r = u.post("/v1/zero-rules", content=json.dumps(body),
                                       headers={"x-api-key": keys["author"],
                                                "content-type": "application/json"})  # fmt: skip
                        except httpx.HTTPError:
                            statuses.append(0)
                            continue
                        statuses.append(r.status_code)
                        if r.status_code == 201:
                            acknowledged.append(body["name"])
                        time.sleep(0.01)

            thread = threading.Thread(target=upload)
            thread.start()
            try:
                deadline = time.monotonic() + 30
                while len(acknowledged) < 5 and time.monotonic() < deadline:
                    time.sleep(0.05)
                before = len(acknowledged)
                cluster.stop()
                down_since = len(statuses)
                time.sleep(1.0)
                during = ask(c, keys["author"], EMAILS)  # a tenant's key cannot be checked
                builtin = c.post("/v1/messages", json={
                    "model": "m", "max_tokens": 500, "temperature": 0,
                    "messages": [{"role": "user", "content": CONVERT}]})  # fmt: skip
                cluster.start()
                deadline = time.monotonic() + 30
                while len(acknowledged) < before + 5 and time.monotonic() < deadline:
                    time.sleep(0.05)
            finally:
                stop.set()
                thread.join(30)
            assert len(acknowledged) >= before + 5, "uploads did not resume after the restart"
            refused = [s for s in statuses[down_since:] if s != 201]
            assert refused, "no upload was tried while PostgreSQL was down"
            assert 500 not in statuses and 0 not in statuses, statuses  # refused, cleanly
            assert set(refused) <= {503}, sorted(set(refused))

            listed = c.get("/v1/zero-rules", headers={"x-api-key": keys["author"]}).json()
            names = {r["name"] for r in listed["rules"]}
            assert set(acknowledged) <= names  # every acknowledged upload survived
            # while the store is down, a request with a tenant's key is refused for now (its
            # key could have been revoked), in its API's shape; one without a key is answered
            assert during.status_code == 503, (during.text, dict(during.headers))
            assert during.headers.get("retry-after") == "1", (during.text, dict(during.headers))
            assert during.json()["error"]["type"] == "overloaded_error", during.text
            assert builtin.status_code == 200, builtin.text
            assert builtin.json()["content"][0]["text"] == "a: 1\n"
            after = ask(c, keys["author"], EMAILS)
            assert after.json()["content"][0]["text"] == expected

            masked = activate(c, keys, contrib("mask-phones.yaml"))  # after the restart
            assert masked.status_code == 200, masked.text
            phones = ask(c, keys["author"], "mask the phone numbers\n\nCall +1 415 555 0100.")
            assert phones.headers["x-zero-layer-status"] == "active", phones.text
    finally:
        proc.kill()
        proc.wait(10)
