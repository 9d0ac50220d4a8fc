"""Activations reach every worker without a restart: LISTEN/NOTIFY on PostgreSQL (with
polling turned off, so nothing else can explain it), polling on SQLite. The cache key of a
tenant's request includes its rule-set version, so no cached answer survives an activation,
not even in a cache the workers share."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from rules_helpers import (
    Rig,
    approve_revision,
    ask,
    contrib,
    publish,
    start_rules_server,
    wait_until,
)
from serve_process import free_port
from sqlalchemy import create_engine, text

FAQ = "Turn the contract clauses into a FAQ:\n\n1. Term. One year."
V2 = contrib("contract-faq.yaml").replace("# Frequently asked questions", "# FAQ, second edition")


def _answer(rig: Rig, client: Any = None) -> tuple[str, str, str]:
    r = ask(rig, "client", FAQ, client)
    if r.status_code == 503 and "no fallback backend" in r.text:  # a server without a model
        return "inactive", "", "false"
    assert r.status_code == 200, r.text
    content = r.json()["content"][0]["text"] if r.headers["x-zero-layer-status"] == "active" else ""
    return r.headers["x-zero-layer-status"], content, r.headers["x-zero-layer-cache-hit"]


def _approve_v2(rig: Rig) -> str:
    """Version 2 of contract-faq, approved; the rule's ETag."""
    return approve_revision(rig, "contract-faq", V2)[1]


def _activate(rig: Rig, etag: str, version: int, action: str = "activate") -> str:
    r = rig.client.post(
        f"/v1/zero-rules/contract-faq/{action}",
        json={"version": version},
        headers=rig.h("publisher", etag),
    )
    assert r.status_code == 200, r.text
    return str(r.headers["ETag"])


def test_no_cached_answer_survives_an_activation(rig: Rig) -> None:
    publish(rig, contrib("contract-faq.yaml"))
    first = _answer(rig)
    assert first[0] == "active" and first[2] == "false"
    assert _answer(rig) == ("active", first[1], "true")  # now from the cache
    etag = _activate(rig, _approve_v2(rig), 2)
    second = _answer(rig)
    assert second[1].startswith("# FAQ, second edition") and second[2] == "false"
    etag = _activate(rig, etag, 1, "rollback")
    assert _answer(rig) == ("active", first[1], "false")  # a new rule-set version: no reuse
    r = rig.client.post("/v1/zero-rules/contract-faq/deactivate", headers=rig.h("publisher", etag))
    assert r.status_code == 200
    assert _answer(rig)[0] == "inactive"


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_activation_on_one_worker_reaches_another_by_notify(rig: Rig, make_worker: Any) -> None:
    cache = rig.app.state.service.cache  # the workers share a cache, as with Redis
    b, hub_b = make_worker(poll_s=3600, listen=True, cache=cache)
    wait_until(hub_b.listener.connected.is_set)
    assert hub_b.poll_interval >= 3600  # no polling could explain what follows
    assert _answer(rig, b)[0] == "inactive"  # B has served the tenant: nothing active

    publish(rig, contrib("contract-faq.yaml"))  # on A
    started = time.monotonic()
    wait_until(lambda: _answer(rig, b)[0] == "active", timeout=5)
    assert time.monotonic() - started < 2.0
    v1 = _answer(rig, b)
    assert v1[1].startswith("# Frequently asked questions") and v1[2] == "true"

    etag = _activate(rig, _approve_v2(rig), 2)  # on A
    wait_until(lambda: _answer(rig, b)[1].startswith("# FAQ, second edition"), timeout=5)
    assert _answer(rig)[1].startswith("# FAQ, second edition")  # A too, from the shared cache

    # the listener's connection is cut: it reconnects, and what it missed is re-read
    engine = create_engine(rig.hub.store.url)
    with engine.begin() as conn:
        conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": hub_b.listener.backend_pid})
    engine.dispose()
    wait_until(lambda: not hub_b.listener.connected.is_set(), timeout=5)
    etag = _activate(rig, etag, 1, "rollback")  # possibly while B is not listening
    wait_until(hub_b.listener.connected.is_set, timeout=10)
    wait_until(lambda: _answer(rig, b)[1].startswith("# Frequently asked"), timeout=5)

    r = rig.client.post("/v1/zero-rules/contract-faq/deactivate", headers=rig.h("publisher", etag))
    assert r.status_code == 200
    wait_until(lambda: _answer(rig, b)[0] == "inactive", timeout=5)


def test_workers_without_notify_poll_the_rule_set_version(rig: Rig, make_worker: Any) -> None:
    b, hub_b = make_worker(poll_s=0.3, listen=True)  # no listener on SQLite: polling
    if rig.hub.store.notifies:
        assert hub_b.listener is not None
        hub_b.listener.stop()
        wait_until(lambda: not hub_b.listener.connected.is_set())
    else:
        assert hub_b.listener is None
    assert hub_b.poll_interval == 0.3
    assert _answer(rig, b)[0] == "inactive"
    publish(rig, contrib("contract-faq.yaml"))
    wait_until(lambda: _answer(rig, b)[0] == "active", timeout=5)


@pytest.mark.slow
@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_a_separate_server_process_gets_activations_without_restart(rig: Rig) -> None:
    """A real ``zerolayer serve`` (the environment's wiring) on the same PostgreSQL."""
    port = free_port()
    proc = start_rules_server(rig.hub.store.url, port, ZEROLAYER_RULES_POLL_S="3600")
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as b:
            assert _answer(rig, b)[0] == "inactive"
            publish(rig, contrib("contract-faq.yaml"))
            wait_until(lambda: _answer(rig, b)[0] == "active", timeout=10)
            _activate(rig, _approve_v2(rig), 2)
            wait_until(lambda: _answer(rig, b)[1].startswith("# FAQ, second"), timeout=10)
            rig.hub.store.revoke_key(rig.keys["client"].split("_")[1], "test")
            assert ask(rig, "client", FAQ, b).status_code == 401  # at once, in that process
    finally:
        proc.kill()
        proc.wait(10)
