"""The fast path of cached answers and tenant rules: answers never cross tenants, never
outlive an activation, a revoked key or another server's activation.

A request with a zerolayer key always takes the full path (its key is looked up on every
request, so a revocation holds at once); the fast path serves requests without one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rules_helpers import (
    KEYS,
    Rig,
    approve_revision,
    ask,
    contrib,
    email_list_with_commas,
    new_hub,
    open_rig,
    publish,
    wait_until,
)
from sqlalchemy import update

from zerolayer.core.engine import Engine
from zerolayer.rules_api import create_app
from zerolayer.rules_api.rules.isolation import WorkerPool
from zerolayer.rules_api.rules.store import api_keys
from zerolayer.rules_api.testing import FakeFallback

EMAILS = "Extract the email addresses:\n\nmail a@b.io and c@d.io"
BUILTIN = 'Convert this JSON to YAML: {"a": 1}'


@pytest.fixture
def fast_rig(tmp_path: Path, engine: Engine, pool: WorkerPool) -> Iterator[Rig]:
    hub = new_hub(f"sqlite:///{tmp_path / 'rules.db'}", engine, pool, poll_s=3600.0)
    with open_rig(hub, engine, {**KEYS, "client2": ("acme", ["client"])}) as rig:
        yield rig


def hits(rig: Rig) -> int:
    return int(rig.app.state.service.fast.answers.stats()["hits"])


def text_of(response: Any) -> str:
    return str(response.json()["content"][0]["text"])


def test_a_tenant_answer_never_takes_the_fast_path(fast_rig: Rig) -> None:
    """A request with a zerolayer key is answered by the full path every time (its key is
    looked up on every request), and its answer reaches that tenant only."""
    rig = fast_rig
    publish(rig, contrib("email-list.yaml"))
    for who in ("client", "client2"):
        for _ in range(3):
            assert text_of(ask(rig, who, EMAILS)) == "a@b.io\nc@d.io\n"
    assert hits(rig) == 0
    # another tenant, or no key, never see it
    for who in ("b_client", None):
        for _ in range(3):
            r = ask(rig, who, EMAILS)
            assert r.headers["x-zero-layer-status"] == "inactive", who
    # a zerolayer key that is not valid is refused, however often it asks
    bogus = {"x-api-key": "zlk_000000000000_" + "x" * 40}
    for _ in range(3):
        r = rig.client.post("/v1/messages", json=_body(EMAILS), headers=bogus)
        assert r.status_code == 401
    assert hits(rig) == 0


def _body(text: str) -> dict[str, Any]:
    return {"model": "m", "max_tokens": 1000, "temperature": 0,
            "messages": [{"role": "user", "content": text}]}  # fmt: skip


def test_built_in_answers_are_served_fast_only_without_a_zerolayer_key(fast_rig: Rig) -> None:
    rig = fast_rig
    for who in ("client", "b_client", None):
        for _ in range(3):
            r = ask(rig, who, BUILTIN)
            assert text_of(r) == "a: 1\n"
    # only the caller without a key (no tenant) is served from the fast path: its second
    # request fills the entry (a hit of the full path's cache), its third uses it
    assert hits(rig) == 1
    assert rig.app.state.service.fast.answers.stats()["entries"] == 1


def _activate_comma_version(rig: Rig) -> None:
    number, etag = approve_revision(rig, "email-list", email_list_with_commas())
    r = rig.client.post(
        "/v1/zero-rules/email-list/activate",
        json={"version": number},
        headers=rig.h("publisher", etag),
    )
    assert r.status_code == 200 and r.json()["active_version"] == 2, r.text


def test_an_activation_changes_a_tenant_answer_at_once(fast_rig: Rig) -> None:
    rig = fast_rig
    publish(rig, contrib("email-list.yaml"))
    for _ in range(3):
        assert text_of(ask(rig, "client", EMAILS)) == "a@b.io\nc@d.io\n"
    _activate_comma_version(rig)
    for _ in range(3):
        assert text_of(ask(rig, "client", EMAILS)) == "a@b.io, c@d.io"
    etag = rig.client.get("/v1/zero-rules/email-list", headers=rig.h("publisher")).headers["ETag"]
    r = rig.client.post("/v1/zero-rules/email-list/deactivate", headers=rig.h("publisher", etag))
    assert r.status_code == 200
    for _ in range(3):
        assert ask(rig, "client", EMAILS).headers["x-zero-layer-status"] == "inactive"
    assert hits(rig) == 0


def test_an_activation_on_another_server_reaches_its_answers(
    fast_rig: Rig, engine: Engine, pool: WorkerPool
) -> None:
    rig = fast_rig
    publish(rig, contrib("email-list.yaml"))
    other_hub = new_hub(rig.hub.store.url, engine, pool, poll_s=0.2)
    other = create_app(engine, fallback=FakeFallback())
    other.state.rules.factory = lambda: other_hub
    headers = {"x-api-key": rig.keys["client"]}
    try:
        with TestClient(other) as client:

            def answer() -> str:
                return text_of(client.post("/v1/messages", json=_body(EMAILS), headers=headers))

            assert answer() == "a@b.io\nc@d.io\n"
            _activate_comma_version(rig)  # on the first server
            wait_until(lambda: answer() == "a@b.io, c@d.io")
            for _ in range(5):
                assert answer() == "a@b.io, c@d.io"
    finally:
        other_hub.store.close()


def test_a_revoked_key_is_refused_at_once(fast_rig: Rig) -> None:
    rig = fast_rig
    publish(rig, contrib("email-list.yaml"))
    for _ in range(3):
        assert text_of(ask(rig, "client", EMAILS)) == "a@b.io\nc@d.io\n"
    key_id = rig.keys["client"].split("_")[1]
    with rig.hub.store.engine.begin() as conn:
        conn.execute(update(api_keys).where(api_keys.c.key_id == key_id).values(revoked=True))
    for _ in range(3):
        assert ask(rig, "client", EMAILS).status_code == 401
