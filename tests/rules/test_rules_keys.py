"""API keys: listed without secrets, revoked by an admin (HTTP) or on the database (CLI);
a revoked key is refused at once by every worker, on the rules API and the answer routes, and
every creation and revocation is in the audit log."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rules_helpers import Rig, ask, contrib, publish

from zerolayer.cli.main import EXIT_BAD_INPUT, main

ADMIN = "bootstrap-secret-for-keys"
FAQ = "Turn the contract clauses into a FAQ:\n\n1. Term. One year."


@pytest.fixture
def admin(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("ZEROLAYER_ADMIN_KEY", ADMIN)
    r = rig.client.post(
        "/v1/keys", json={"tenant": "acme", "roles": ["admin"]}, headers={"x-api-key": ADMIN}
    )
    assert r.status_code == 201, r.text
    return {"x-api-key": r.json()["key"]}


def test_keys_are_listed_without_secrets(rig: Rig, admin: dict[str, str]) -> None:
    c = rig.client
    r = c.get("/v1/keys", headers=admin)
    assert r.status_code == 200, r.text
    keys = r.json()["keys"]
    assert {k["tenant"] for k in keys} == {"acme"}  # a tenant admin sees its own tenant
    assert {tuple(k["roles"]) for k in keys} >= {("author",), ("reviewer",), ("admin",)}
    text = r.text
    for key in rig.keys.values():
        secret = key.split("_", 2)[2]
        assert secret not in text
    assert "secret" not in text and "hash" not in text
    assert set(keys[0]) == {"key_id", "tenant", "roles", "name", "created_at", "revoked"}
    everyone = c.get("/v1/keys", headers={"x-api-key": ADMIN}).json()["keys"]
    assert {k["tenant"] for k in everyone} == {"acme", "globex"}
    one = c.get("/v1/keys", headers={"x-api-key": ADMIN, "x-zerolayer-tenant": "globex"})
    assert {k["tenant"] for k in one.json()["keys"]} == {"globex"}
    assert c.get("/v1/keys", headers=rig.h("author")).status_code == 403
    assert c.get("/v1/keys").status_code == 401


def test_a_revoked_key_is_refused_at_once_by_every_worker(
    rig: Rig, admin: dict[str, str], make_worker: Any
) -> None:
    other, _ = make_worker(poll_s=3600)
    publish(rig, contrib("contract-faq.yaml"))
    author_id = rig.keys["author"].split("_")[1]
    client_id = rig.keys["client"].split("_")[1]
    for c in (rig.client, other):  # both workers have used both keys
        assert c.get("/v1/zero-rules", headers=rig.h("author")).status_code == 200
        assert ask(rig, "client", FAQ, c).headers["x-zero-layer-status"] == "active"

    r = rig.client.post(f"/v1/keys/{author_id}/revoke", headers=admin)
    assert r.status_code == 200, r.text
    assert r.json()["revoked"] is True and r.json()["key_id"] == author_id
    r = rig.client.post(f"/v1/keys/{rig.keys['client']}/revoke", headers=admin)  # the whole key
    assert r.status_code == 200 and r.json()["key_id"] == client_id

    for c in (rig.client, other):  # no waiting: the very next request is refused
        r = c.get("/v1/zero-rules", headers=rig.h("author"))
        assert r.status_code == 401 and r.json()["code"] == "unauthorized"
        r = ask(rig, "client", FAQ, c)
        assert r.status_code == 401, r.text
        assert r.json()["error"]["type"] == "authentication_error"
        body = {"model": "m", "temperature": 0, "messages": [{"role": "user", "content": FAQ}]}
        r = c.post(
            "/v1/chat/completions",
            json=body,
            headers={"authorization": f"Bearer {rig.keys['client']}"},
        )
        assert r.status_code == 401 and r.json()["error"]["code"] == "invalid_api_key"
        # other keys, and requests without a zerolayer key, are unaffected
        assert c.get("/v1/zero-rules", headers=rig.h("author2")).status_code == 200
        assert ask(rig, None, FAQ, c).status_code == 200

    listed = {k["key_id"]: k for k in rig.client.get("/v1/keys", headers=admin).json()["keys"]}
    assert listed[author_id]["revoked"] is True and listed[client_id]["revoked"] is True
    r = rig.client.post(f"/v1/keys/{author_id}/revoke", headers=admin)
    assert r.status_code == 409 and r.json()["code"] == "already_revoked"
    audit = rig.client.get("/v1/audit", headers=rig.h("auditor")).json()["audit"]
    revokes = [a for a in audit if a["action"] == "key.revoke"]
    admin_id = admin["x-api-key"].split("_")[1]
    assert {(a["detail"], a["actor"]) for a in revokes} == {
        (author_id, admin_id),
        (client_id, admin_id),
    }
    creates = [a for a in audit if a["action"] == "key.create"]
    assert any(a["detail"].startswith(admin_id) and a["actor"] == "env-admin" for a in creates)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/lint", {"prompt": "Convert this JSON to YAML"}),
        (
            "/v1/messages/count_tokens",
            {"model": "m", "messages": [{"role": "user", "content": "hi"}]},
        ),
        ("/v1/cache/warmup", {"requests": []}),
    ],
)
def test_an_invalid_or_revoked_zerolayer_key_is_401_on_the_service_routes(
    rig: Rig, admin: dict[str, str], path: str, body: dict[str, Any]
) -> None:
    """Every zerolayer key a request presents is looked up, on every route that reads a
    payload, not only the answer routes: one unknown, malformed or revoked is 401 whatever
    else the request sends; a valid one changes nothing (no admin token is set here, so the
    warm-up route serves a loopback client)."""
    c = TestClient(rig.app, client=("127.0.0.1", 50000))
    assert c.post(path, json=body).status_code == 200
    assert c.post(path, json=body, headers=rig.h("client")).status_code == 200
    client_id = rig.keys["client"].split("_")[1]
    assert c.post(f"/v1/keys/{client_id}/revoke", headers=admin).status_code == 200
    bad = [
        {"x-api-key": rig.keys["client"]},  # revoked
        {"x-api-key": "zlk_000000000000_" + "x" * 32},  # unknown
        {"x-api-key": "zlk_nonsense"},  # malformed
        {"x-api-key": "sk-upstream", "authorization": f"Bearer {rig.keys['client']}"},
        {"x-api-key": rig.keys["author"], "authorization": f"Bearer {rig.keys['client']}"},
    ]
    for headers in bad:
        r = c.post(path, json=body, headers=headers)
        assert r.status_code == 401, (headers, r.text)
        assert r.json()["error"]["type"] == "authentication_error"
    assert c.post(path, json=body, headers=rig.h("author")).status_code == 200


def test_revocation_is_admin_only_and_stays_in_the_tenant(rig: Rig, admin: dict[str, str]) -> None:
    c = rig.client
    b_id = rig.keys["b_author"].split("_")[1]
    assert c.post(f"/v1/keys/{b_id}/revoke", headers=admin).status_code == 404
    assert c.post(f"/v1/keys/{b_id}/revoke", headers=rig.h("author")).status_code == 403
    assert c.post("/v1/keys/nope'--/revoke", headers=admin).status_code == 404
    assert c.post("/v1/keys/000000000000/revoke", headers=admin).status_code == 404
    assert c.get("/v1/zero-rules", headers=rig.h("b_author")).status_code == 200
    # the environment admin may revoke any tenant's key
    r = c.post(f"/v1/keys/{b_id}/revoke", headers={"x-api-key": ADMIN})
    assert r.status_code == 200
    assert c.get("/v1/zero-rules", headers=rig.h("b_author")).status_code == 401


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_keys_list_and_revoke_on_the_command_line(
    rig: Rig, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(rig.hub.store.url)
    assert main(["keys", "list", "--tenant", "globex", "--db", url]) == 0
    listed = json.loads(capsys.readouterr().out)["keys"]
    assert {k["tenant"] for k in listed} == {"globex"} and len(listed) == 3
    assert rig.keys["b_client"].split("_", 2)[2] not in json.dumps(listed)
    assert main(["keys", "revoke", rig.keys["b_client"], "--db", url]) == 0
    assert json.loads(capsys.readouterr().out)["revoked"] is True
    assert ask(rig, "b_client", FAQ).status_code == 401
    assert main(["keys", "revoke", rig.keys["b_client"], "--db", url]) == EXIT_BAD_INPUT
    assert "already revoked" in capsys.readouterr().err
    assert main(["keys", "revoke", "not-a-key", "--db", url]) == EXIT_BAD_INPUT
    audit = rig.hub.store.audit_log("globex")
    assert audit[0]["action"] == "key.revoke" and audit[0]["actor"] == "cli"


REVOKED_WITH_OTHER_KEYS = [
    # (x-api-key, Authorization): a revoked zerolayer key is 401 wherever it is and whatever
    # comes with it; a malformed zerolayer key is invalid too.
    ("revoked", "Bearer sk-upstream-provider-key"),
    ("sk-upstream-provider-key", "Bearer revoked"),
    ("b_client", "Bearer revoked"),
    ("revoked", "Bearer b_client"),
    ("zlk_not-a-key", "Bearer sk-upstream-provider-key"),
]


@pytest.mark.parametrize(("api_key", "authorization"), REVOKED_WITH_OTHER_KEYS)
def test_an_invalid_zerolayer_key_is_401_whatever_else_is_sent(
    rig: Rig, admin: dict[str, str], api_key: str, authorization: str
) -> None:
    revoked = rig.keys["client"]
    assert rig.client.post(f"/v1/keys/{revoked}/revoke", headers=admin).status_code == 200

    def key(name: str) -> str:
        return revoked if name == "revoked" else rig.keys.get(name, name)

    scheme, _, name = authorization.partition(" ")
    headers = {"x-api-key": key(api_key), "authorization": f"{scheme} {key(name)}"}
    body = {"model": "m", "max_tokens": 10, "temperature": 0}
    body["messages"] = [{"role": "user", "content": FAQ}]
    for path in ("/v1/messages", "/v1/chat/completions"):
        r = rig.client.post(path, json=body, headers=headers)
        assert r.status_code == 401, (path, r.text)
    r = rig.client.get("/v1/zero-rules", headers=headers)
    assert r.status_code == 401, r.text


def test_x_api_key_is_read_before_the_bearer_token(rig: Rig) -> None:
    # two valid keys of two tenants: the rules API reads the x-api-key one
    headers = {
        "x-api-key": rig.keys["b_author"],
        "authorization": f"Bearer {rig.keys['author']}",
    }
    r = rig.client.post(
        "/v1/keys", json={"tenant": "acme", "roles": ["client"]}, headers=headers
    )  # b_author is no admin: refused as globex's author, not served as acme's
    assert r.status_code == 403, r.text
    swapped = {
        "x-api-key": rig.keys["author"],
        "authorization": f"Bearer {rig.keys['b_author']}",
    }
    publish(rig, contrib("contract-faq.yaml"))  # a rule of acme only
    mine = rig.client.get("/v1/zero-rules", headers=swapped)
    theirs = rig.client.get("/v1/zero-rules", headers=headers)
    assert mine.status_code == theirs.status_code == 200
    assert len(mine.json()["rules"]) == 1
    assert theirs.json()["rules"] == []
