"""Helpers of the rules tests: the Rig (app, client, hub, keys) and workflow shortcuts."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from serve_process import start_server

from zerolayer.core.engine import Engine
from zerolayer.rules_api import create_app
from zerolayer.rules_api.rules.install import builtin_parser_of
from zerolayer.rules_api.rules.isolation import WorkerPool
from zerolayer.rules_api.rules.keys import create_key
from zerolayer.rules_api.rules.limits import RuleLimits
from zerolayer.rules_api.rules.store import RuleStore
from zerolayer.rules_api.rules.workflow import RulesHub
from zerolayer.rules_api.testing import FakeFallback

CONTRIB = Path(__file__).resolve().parents[2] / "contrib" / "rules"
LIMITS = RuleLimits(run_timeout_s=1.0, regex_timeout_s=0.3)
# the keys of a rig: who → (tenant, roles)
KEYS = {
    "author": ("acme", ["author"]),
    "author2": ("acme", ["author"]),
    "reviewer": ("acme", ["reviewer"]),
    "publisher": ("acme", ["publisher"]),
    "auditor": ("acme", ["auditor"]),
    "client": ("acme", ["client"]),
    "b_author": ("globex", ["author", "reviewer", "publisher"]),
    "b_reviewer": ("globex", ["reviewer"]),
    "b_client": ("globex", ["client"]),
}


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


def new_hub(
    db_url: str, engine: Engine, pool: WorkerPool, *, poll_s: float = 0.0, listen: bool = False
) -> RulesHub:
    """A rules hub on the store at ``db_url``, with the engine's ops and the test limits."""
    return RulesHub(
        RuleStore(db_url),
        pool,
        builtin_ops=engine.registry.ops,
        builtin_parser=builtin_parser_of(engine),
        limits=LIMITS,
        poll_s=poll_s,
        listen=listen,
    )


@contextmanager
def open_rig(
    hub: RulesHub, engine: Engine, keys: Mapping[str, tuple[str, list[str]]]
) -> Iterator[Rig]:
    """An app serving ``hub`` and a client of it, with a key per ``keys`` entry
    (``who: (tenant, roles)``); the hub's store is closed afterwards."""
    app = create_app(engine, fallback=FakeFallback())
    app.state.rules.factory = lambda: hub
    made = {who: create_key(hub.store, tenant, roles) for who, (tenant, roles) in keys.items()}
    try:
        with TestClient(app) as client:
            yield Rig(app, client, hub, made)
    finally:
        hub.store.close()


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
    name = r.json()["name"]
    number, etag = approve_draft(rig, name, r.headers["ETag"], author=author, reviewer=reviewer)
    r = c.post(
        f"/v1/zero-rules/{name}/activate",
        json={"version": number},
        headers=rig.h(publisher, etag),
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def approve_draft(
    rig: Rig, name: str, etag: str, *, author: str = "author", reviewer: str = "reviewer"
) -> tuple[int, str]:
    """Freeze the draft of rule ``name`` (whose ETag is ``etag``) as a version, test, submit
    and approve it, checking each step; the version's number and the rule's ETag after."""
    c = rig.client
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
    return number, str(r.json()["etag"])


def approve_revision(rig: Rig, name: str, text: str) -> tuple[int, str]:
    """Replace the draft of rule ``name`` by the YAML ``text`` and approve it as the next
    version (``approve_draft``); that version's number and the rule's ETag after."""
    c = rig.client
    etag = c.get(f"/v1/zero-rules/{name}", headers=rig.h("author")).headers["ETag"]
    r = c.put(
        f"/v1/zero-rules/{name}/draft",
        content=text,
        headers={**rig.h("author", etag), "content-type": "application/yaml"},
    )
    assert r.status_code == 200, r.text
    return approve_draft(rig, name, r.headers["ETag"])


def email_list_with_commas() -> str:
    """contrib's email-list rule, answering with the addresses joined by commas."""
    return (
        contrib("email-list.yaml")
        .replace(
            'lines: "{% for address in data %}{{ address }}\\n{% endfor %}"',
            "lines: \"{{ data | join(', ') }}\"",
        )
        .replace(
            "expected: |\n      ana@example.com\n      bills@corp.example.org\n",
            'expected: "ana@example.com, bills@corp.example.org"\n',
        )
        .replace(
            "expected: |\n      wang.wei@example.cn\n      backup+cn@example.cn\n",
            'expected: "wang.wei@example.cn, backup+cn@example.cn"\n',
        )
    )


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


def start_rules_server(db_url: str, port: int, **env: str) -> subprocess.Popen[bytes]:
    """``zerolayer serve`` on ``db_url`` with one rule worker, once it answers /health."""
    environment = {
        **os.environ,
        "ZEROLAYER_DB_URL": db_url,
        "ZEROLAYER_RULE_WORKERS": "1",
        **env,
    }
    return start_server(port, environment)
