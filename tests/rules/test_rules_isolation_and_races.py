"""Tenant isolation, deny-by-default authorisation, and racing writers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from rules_helpers import Rig, approve_revision, ask, contrib, publish

FAQ = "Turn the contract clauses into a FAQ:\n\n1. Term. One year."


def test_tenant_b_cannot_see_or_use_tenant_a_rules(rig: Rig) -> None:
    c = rig.client
    publish(rig, contrib("contract-faq.yaml"))
    b = rig.h("b_author")
    assert c.get("/v1/zero-rules", headers=b).json()["rules"] == []
    assert c.get("/v1/zero-rules/contract-faq", headers=b).status_code == 404
    assert c.get("/v1/zero-rules/contract-faq/versions/1", headers=b).status_code == 404
    r = c.post("/v1/zero-rules/contract-faq/evaluate", headers=b, json={"message": FAQ})
    assert r.status_code == 404
    assert c.post("/v1/zero-rules/contract-faq/versions/1/test", headers=b).status_code == 404
    r = c.post(
        "/v1/zero-rules/contract-faq/activate",
        json={"version": 1},
        headers={**b, "If-Match": '"r1"'},
    )
    assert r.status_code == 404
    assert c.get("/v1/status", headers=b).json()["rules"] == []
    assert ask(rig, "b_client", FAQ).headers["x-zero-layer-status"] == "inactive"

    # tenant B may use the same name and phrases: its own namespace, its own answer
    own = contrib("contract-faq.yaml").replace("# Frequently asked questions", "# Globex FAQ")
    publish(rig, own, author="b_author", reviewer="b_reviewer", publisher="b_author")
    assert ask(rig, "b_client", FAQ).json()["content"][0]["text"].startswith("# Globex FAQ")
    assert (
        ask(rig, "client", FAQ)
        .json()["content"][0]["text"]
        .startswith("# Frequently asked questions")
    )
    audit_a = c.get("/v1/audit", headers=rig.h("auditor")).json()["audit"]
    assert all(a["tenant"] == "acme" for a in audit_a)


def test_deny_by_default_and_roles(rig: Rig) -> None:
    c = rig.client
    doc = contrib("mask-phones.yaml")
    yaml_ct = {"content-type": "application/yaml"}
    assert c.get("/v1/zero-rules").status_code == 401
    assert (
        c.get("/v1/zero-rules", headers={"x-api-key": "zlk_000000000000_" + "a" * 40}).status_code
        == 401
    )
    assert c.get("/v1/zero-rules", headers={"authorization": "Bearer nope"}).status_code == 401
    assert c.get("/v1/zero-rules/schema").status_code == 200  # the schema is public
    r = c.post("/v1/zero-rules", content=doc, headers={**rig.h("auditor"), **yaml_ct})
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    assert c.get("/v1/zero-rules", headers=rig.h("client")).status_code == 403
    r = c.post(
        "/v1/zero-rules",
        content=doc,
        headers={"authorization": f"Bearer {rig.keys['author']}", **yaml_ct},
    )
    assert r.status_code == 201
    r = c.post(
        "/v1/zero-rules/mask-phones/activate",
        json={"version": 1},
        headers=rig.h("author", r.headers["ETag"]),
    )
    assert r.status_code == 403
    assert c.get("/v1/audit", headers=rig.h("author")).status_code == 403


def test_admin_key_from_environment_creates_tenant_keys(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = rig.client
    monkeypatch.setenv("ZEROLAYER_ADMIN_KEY", "bootstrap-secret-123")
    admin = {"x-api-key": "bootstrap-secret-123"}
    r = c.post("/v1/keys", json={"tenant": "initech", "roles": ["admin"]}, headers=admin)
    assert r.status_code == 201, r.text
    tenant_admin = {"x-api-key": r.json()["key"]}
    r = c.post("/v1/keys", json={"tenant": "acme", "roles": ["author"]}, headers=tenant_admin)
    assert r.status_code == 403  # a tenant admin stays in its tenant
    r = c.post("/v1/keys", json={"tenant": "initech", "roles": ["wizard"]}, headers=tenant_admin)
    assert r.status_code == 400
    r = c.post("/v1/keys", json={"tenant": "initech", "roles": ["author"]}, headers=tenant_admin)
    assert r.status_code == 201
    listed = c.get("/v1/zero-rules", headers={"x-api-key": r.json()["key"]}).json()
    assert listed["rules"] == []
    # the global admin names the tenant it acts on
    assert c.get("/v1/zero-rules", headers=admin).status_code == 400
    r = c.get("/v1/zero-rules", headers={**admin, "x-zerolayer-tenant": "initech"})
    assert r.status_code == 200
    assert (
        c.post(
            "/v1/keys", json={"tenant": "x", "roles": ["author"]}, headers=rig.h("author")
        ).status_code
        == 403
    )


def test_racing_drafts_with_one_etag_one_wins(rig: Rig) -> None:
    c = rig.client
    doc = contrib("mask-phones.yaml")
    r = c.post(
        "/v1/zero-rules",
        content=doc,
        headers={**rig.h("author"), "content-type": "application/yaml"},
    )
    etag = r.headers["ETag"]

    def put(i: int) -> int:
        text = doc.replace("Replaces the digits", f"Editor {i} replaces the digits")
        return c.put(
            "/v1/zero-rules/mask-phones/draft",
            content=text,
            headers={
                **rig.h("author" if i % 2 else "author2", etag),
                "content-type": "application/yaml",
            },
        ).status_code

    with ThreadPoolExecutor(8) as ex:
        codes = list(ex.map(put, range(8)))
    assert sorted(codes) == [200] + [412] * 7
    audit = c.get("/v1/zero-rules/mask-phones/audit", headers=rig.h("auditor")).json()["audit"]
    assert [a["action"] for a in audit].count("draft") == 1


def test_racing_activations_leave_one_consistent_state(rig: Rig) -> None:
    c = rig.client
    publish(rig, contrib("email-list.yaml"))
    # version 2, approved
    doc = contrib("email-list.yaml").replace("Lists the e-mail", "Lists every e-mail")
    _, etag = approve_revision(rig, "email-list", doc)

    def activate(i: int) -> int:
        action = "activate" if i % 2 else "rollback"
        version = 2 if i % 2 else 1
        return c.post(
            f"/v1/zero-rules/email-list/{action}",
            json={"version": version},
            headers=rig.h("publisher", etag),
        ).status_code

    with ThreadPoolExecutor(8) as ex:
        codes = list(ex.map(activate, range(8)))
    assert codes.count(200) + codes.count(409) >= 1
    assert codes.count(200) == 1 or (codes.count(200) == 0 and 409 in codes)
    assert set(codes) <= {200, 409, 412}
    view = c.get("/v1/zero-rules/email-list", headers=rig.h("auditor")).json()
    audit = c.get("/v1/zero-rules/email-list/audit", headers=rig.h("auditor")).json()["audit"]
    changes = [a for a in audit if a["action"] in ("activate", "rollback") and a["outcome"] == "ok"]
    assert view["active_version"] == changes[0]["version"]
    assert len(changes) == 1 + codes.count(200)  # the first activation, then at most one more


def test_failed_activation_leaves_the_previous_version_active(rig: Rig) -> None:
    c = rig.client
    yaml_ct = {"content-type": "application/yaml"}
    publish(rig, contrib("contract-faq.yaml"))
    # a draft of another rule that claims the active rule's phrase is refused on write
    clash = contrib("email-list.yaml").replace(
        "    - pull out the email addresses", "    - turn the contract clauses into a FAQ"
    )
    r = c.post("/v1/zero-rules", content=clash, headers={**rig.h("author"), **yaml_ct})
    assert r.status_code == 422
    assert "collides with a trigger of rule 'contract-faq'" in r.json()["errors"][0]["message"]
    # contract-faq v2 claims an email-list phrase while email-list is not active: accepted
    v2 = contrib("contract-faq.yaml").replace(
        "    - 把合同条款转换为FAQ", "    - 把合同条款转换为FAQ\n    - extract the email addresses"
    )
    _, etag = approve_revision(rig, "contract-faq", v2)
    # then email-list becomes active, and activating contract-faq v2 must fail atomically
    publish(rig, contrib("email-list.yaml"))
    r = c.post(
        "/v1/zero-rules/contract-faq/activate",
        json={"version": 2},
        headers=rig.h("publisher", etag),
    )
    assert r.status_code == 422, r.text
    assert "collides with a trigger of rule 'email-list'" in r.json()["errors"][0]["message"]
    status = c.get("/v1/status", headers=rig.h("auditor")).json()
    assert {r["name"]: r["active_version"] for r in status["rules"]} == {
        "contract-faq": 1,
        "email-list": 1,
    }
    assert c.get("/v1/zero-rules/contract-faq", headers=rig.h("author")).headers["ETag"] == etag
    audit = c.get("/v1/zero-rules/contract-faq/audit", headers=rig.h("auditor")).json()["audit"]
    assert (audit[0]["action"], audit[0]["outcome"]) == ("activate", "refused")
    assert ask(rig, "client", FAQ).headers["x-zero-layer-plan"].startswith("rule:contract-faq@1")


def test_openai_route_with_a_bearer_client_key(rig: Rig) -> None:
    publish(rig, contrib("mask-phones.yaml"))
    body = {
        "model": "m",
        "temperature": 0,
        "messages": [{"role": "user", "content": "Mask the phone numbers:\n\ncall 555-123-4567"}],
    }
    r = rig.client.post(
        "/v1/chat/completions", json=body, headers={"authorization": f"Bearer {rig.keys['client']}"}
    )
    assert r.status_code == 200, r.text
    assert r.json()["choices"][0]["message"]["content"] == "call ***-***-4567"
    r = rig.client.post(
        "/v1/chat/completions",
        json=body,
        headers={"authorization": f"Bearer {rig.keys['b_client']}"},
    )
    assert r.headers["x-zero-layer-status"] == "inactive"
