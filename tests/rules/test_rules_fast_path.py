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
from rules_helpers import LIMITS, Rig, ask, contrib, publish, wait_until
from sqlalchemy import update

from zerolayer.core.engine import Engine
from zerolayer.rules_api import create_app
from zerolayer.rules_api.rules.install import builtin_parser_of
from zerolayer.rules_api.rules.isolation import WorkerPool
from zerolayer.rules_api.rules.keys import create_key
from zerolayer.rules_api.rules.store import RuleStore, api_keys
from zerolayer.rules_api.rules.workflow import RulesHub
from zerolayer.rules_api.testing import FakeFallback

EMAILS = "Extract the email addresses:\n\nmail a@b.io and c@d.io"
BUILTIN = 'Convert this JSON to YAML: {"a": 1}'


def _hub(url: str, engine: Engine, pool: WorkerPool, poll_s: float) -> RulesHub:
    return RulesHub(
        RuleStore(url),
        pool,
        builtin_ops=engine.registry.ops,
        builtin_parser=builtin_parser_of(engine),
        limits=LIMITS,
        poll_s=poll_s,
    )


@pytest.fixture
def fast_rig(tmp_path: Path, engine: Engine, pool: WorkerPool) -> Iterator[Rig]:
    hub = _hub(f"sqlite:///{tmp_path / 'rules.db'}", engine, pool, poll_s=3600.0)
    app = create_app(engine, fallback=FakeFallback())
    app.state.rules.factory = lambda: hub
    keys = {
        "author": create_key(hub.store, "acme", ["author"]),
        "reviewer": create_key(hub.store, "acme", ["reviewer"]),
        "publisher": create_key(hub.store, "acme", ["publisher"]),
        "client": create_key(hub.store, "acme", ["client"]),
        "client2": create_key(hub.store, "acme", ["client"]),
        "b_client": create_key(hub.store, "globex", ["client"]),
    }
    with TestClient(app) as client:
        yield Rig(app, client, hub, keys)
    hub.store.close()


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
    c = rig.client
    etag = c.get("/v1/zero-rules/email-list", headers=rig.h("author")).headers["ETag"]
    doc = (
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
    r = c.put(
        "/v1/zero-rules/email-list/draft",
        content=doc,
        headers={**rig.h("author", etag), "content-type": "application/yaml"},
    )
    assert r.status_code == 200, r.text
    v2 = c.post(
        "/v1/zero-rules/email-list/versions", headers=rig.h("author", r.headers["ETag"])
    ).json()
    c.post("/v1/zero-rules/email-list/versions/2/test", headers=rig.h("reviewer"))
    r = c.post("/v1/zero-rules/email-list/versions/2/submit", headers=rig.h("author", v2["etag"]))
    r = c.post(
        "/v1/zero-rules/email-list/versions/2/approve",
        json={"content_hash": v2["content_hash"]},
        headers=rig.h("reviewer", r.json()["etag"]),
    )
    r = c.post(
        "/v1/zero-rules/email-list/activate",
        json={"version": 2},
        headers=rig.h("publisher", r.json()["etag"]),
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
    other_hub = _hub(rig.hub.store.url, engine, pool, poll_s=0.2)
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
