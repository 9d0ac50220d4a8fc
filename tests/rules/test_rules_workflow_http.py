"""The whole workflow over HTTP, on SQLite and on PostgreSQL: create → draft → freeze → test →
submit → approve → activate → serve → roll back → deactivate → retire, with the audit log."""

from __future__ import annotations

from rules_helpers import Rig, ask, contrib, email_list_with_commas, publish, wait_until

FAQ_MESSAGE = (
    "Turn the contract clauses into a FAQ:\n\n"
    "1. Term. This agreement lasts one year.\n2. Fees. Fees are paid monthly."
)


def test_full_workflow_and_serving(rig: Rig) -> None:
    c = rig.client
    # before anything is active the request falls back
    r = ask(rig, "client", FAQ_MESSAGE)
    assert r.status_code == 200 and r.headers["x-zero-layer-status"] == "inactive"

    view = publish(rig, contrib("contract-faq.yaml"))
    assert view["active_version"] == 1

    r = ask(rig, "client", FAQ_MESSAGE)
    assert r.status_code == 200, r.text
    assert r.headers["x-zero-layer-status"] == "active"
    text = r.json()["content"][0]["text"]
    assert text.startswith("# Frequently asked questions")
    assert "**Q2. What does clause 2 (Fees) say?**\n\nA: Fees are paid monthly." in text
    assert "rule:contract-faq@1" in r.headers["x-zero-layer-plan"]

    # the Chinese phrase is the same rule
    r = ask(rig, "client", "把合同条款转为用户友好的FAQ：\n\n3. 保密. 双方不得披露对方数据.")
    assert r.headers["x-zero-layer-status"] == "active", r.text
    assert "What does clause 3 (保密) say?" in r.json()["content"][0]["text"]

    # without a key (or with another tenant's key) the rule does not exist
    assert ask(rig, None, FAQ_MESSAGE).headers["x-zero-layer-status"] == "inactive"
    assert ask(rig, "b_client", FAQ_MESSAGE).headers["x-zero-layer-status"] == "inactive"

    # status and audit
    status = c.get("/v1/status", headers=rig.h("auditor")).json()
    assert status["rules"] == [{"name": "contract-faq", "active_version": 1, "retired": False}]
    audit = c.get("/v1/zero-rules/contract-faq/audit", headers=rig.h("auditor")).json()["audit"]
    actions = [a["action"] for a in reversed(audit)]
    assert actions == ["create", "freeze", "test", "submit", "approve", "activate"]
    assert all(a["outcome"] == "ok" for a in audit)
    assert audit[0]["version"] == 1 and audit[0]["content_hash"].startswith("sha256:")


def test_new_version_rollback_deactivate_retire(rig: Rig) -> None:
    c = rig.client
    publish(rig, contrib("email-list.yaml"))
    msg = "Extract the email addresses:\n\nmail a@b.io and c@d.io"
    assert ask(rig, "client", msg).json()["content"][0]["text"] == "a@b.io\nc@d.io\n"

    # version 2 joins the addresses with commas
    etag = c.get("/v1/zero-rules/email-list", headers=rig.h("author")).headers["ETag"]
    r = c.put(
        "/v1/zero-rules/email-list/draft",
        content=email_list_with_commas(),
        headers={**rig.h("author", etag), "content-type": "application/yaml"},
    )
    assert r.status_code == 200, r.text
    r = c.post("/v1/zero-rules/email-list/versions", headers=rig.h("author", r.headers["ETag"]))
    assert r.status_code == 201 and r.json()["number"] == 2
    v2 = r.json()
    assert c.post("/v1/zero-rules/email-list/versions/2/test", headers=rig.h("reviewer")).json()[
        "passed"
    ]
    r = c.post("/v1/zero-rules/email-list/versions/2/submit", headers=rig.h("author", v2["etag"]))
    r = c.post(
        "/v1/zero-rules/email-list/versions/2/approve",
        json={"content_hash": v2["content_hash"]},
        headers=rig.h("reviewer", r.json()["etag"]),
    )
    assert r.status_code == 200, r.text
    r = c.post(
        "/v1/zero-rules/email-list/activate",
        json={"version": 2},
        headers=rig.h("publisher", r.json()["etag"]),
    )
    assert r.status_code == 200 and r.json()["active_version"] == 2
    # the cache key includes the rule-set version: the new answer, not the cached one
    assert ask(rig, "client", msg).json()["content"][0]["text"] == "a@b.io, c@d.io"

    r = c.post(
        "/v1/zero-rules/email-list/rollback",
        json={"version": 1},
        headers=rig.h("publisher", r.headers["ETag"]),
    )
    assert r.status_code == 200 and r.json()["active_version"] == 1
    assert ask(rig, "client", msg).json()["content"][0]["text"] == "a@b.io\nc@d.io\n"

    # retire is refused while active
    r = c.post("/v1/zero-rules/email-list/retire", headers=rig.h("publisher", r.headers["ETag"]))
    assert r.status_code == 409 and r.json()["code"] == "conflict"
    etag = c.get("/v1/zero-rules/email-list", headers=rig.h("publisher")).headers["ETag"]
    r = c.post("/v1/zero-rules/email-list/deactivate", headers=rig.h("publisher", etag))
    assert r.status_code == 200 and r.json()["active_version"] is None
    assert ask(rig, "client", msg).headers["x-zero-layer-status"] == "inactive"
    r = c.post("/v1/zero-rules/email-list/retire", headers=rig.h("publisher", r.headers["ETag"]))
    assert r.status_code == 200 and r.json()["retired"] is True

    audit = c.get("/v1/audit", headers=rig.h("auditor")).json()["audit"]
    refused = [a for a in audit if a["outcome"] == "refused"]
    assert [a["action"] for a in refused] == ["retire"]
    assert [a["action"] for a in audit][:3] == ["retire", "deactivate", "retire"]


def test_validate_and_evaluate_explain(rig: Rig) -> None:
    c = rig.client
    r = c.post(
        "/v1/zero-rules/validate",
        content=contrib("mask-phones.yaml"),
        headers={**rig.h("author"), "content-type": "application/yaml"},
    )
    assert r.status_code == 200 and r.json()["valid"] is True
    assert r.json()["steps"][0]["op"] == "regex.replace"
    assert c.get("/v1/zero-rules", headers=rig.h("author")).json()["rules"] == []  # not stored

    r = c.post(
        "/v1/zero-rules",
        content=contrib("invoice-lines.json"),
        headers={**rig.h("author"), "content-type": "application/json"},
    )
    assert r.status_code == 201, r.text
    r = c.post(
        "/v1/zero-rules/invoice-lines/evaluate",
        headers=rig.h("author"),
        json={"message": "Read the invoice lines as JSON:\n\n3 x pen @ 1.20"},
    )
    body = r.json()
    assert body["matched"] is True and body["route"] == "deterministic"
    assert body["trigger"]["phrase"] == "read the invoice lines as JSON"
    assert [s["step"] for s in body["steps"]] == [
        'regex.findall(pattern="line")',
        "json.emit(indent=2)",
    ]
    assert '"item": "pen"' in body["output"]
    r = c.post(
        "/v1/zero-rules/invoice-lines/evaluate",
        headers=rig.h("author"),
        json={"instruction": "sort the invoice lines", "input": "3 x pen @ 1.20"},
    )
    assert r.json()["matched"] is False and r.json()["route"] == "fallback"
    r = c.post(
        "/v1/zero-rules/invoice-lines/evaluate",
        headers=rig.h("author"),
        json={"instruction": "read the invoice lines as JSON", "input": "nothing here"},
    )
    assert r.json()["route"] == "fallback" and r.json()["reason"] == "rule.no_match"


def test_approval_rules(rig: Rig) -> None:
    c = rig.client
    both = {"author": rig.keys["author"]}
    r = c.post(
        "/v1/zero-rules",
        content=contrib("mask-phones.yaml"),
        headers={**rig.h("author"), "content-type": "application/yaml"},
    )
    r = c.post("/v1/zero-rules/mask-phones/versions", headers=rig.h("author", r.headers["ETag"]))
    v = r.json()
    r = c.post("/v1/zero-rules/mask-phones/versions/1/submit", headers=rig.h("author", v["etag"]))
    etag = r.json()["etag"]
    # no passing test run yet
    r = c.post(
        "/v1/zero-rules/mask-phones/versions/1/approve",
        json={"content_hash": v["content_hash"]},
        headers=rig.h("reviewer", etag),
    )
    assert r.status_code == 409 and r.json()["code"] == "tests_not_passed"
    c.post("/v1/zero-rules/mask-phones/versions/1/test", headers=rig.h("reviewer"))
    # a hash other than the version's
    r = c.post(
        "/v1/zero-rules/mask-phones/versions/1/approve",
        json={"content_hash": "sha256:" + "0" * 64},
        headers=rig.h("reviewer", etag),
    )
    assert r.status_code == 409 and r.json()["code"] == "hash_mismatch"
    # an author with the reviewer role cannot approve their own version
    from zerolayer.rules_api.rules.keys import create_key

    self_key = create_key(rig.hub.store, "acme", ["author", "reviewer"])
    r = c.post(
        "/v1/zero-rules",
        content=contrib("email-list.yaml"),
        headers={"x-api-key": self_key, "content-type": "application/yaml"},
    )
    r = c.post(
        "/v1/zero-rules/email-list/versions",
        headers={"x-api-key": self_key, "If-Match": r.headers["ETag"]},
    )
    w = r.json()
    c.post("/v1/zero-rules/email-list/versions/1/test", headers={"x-api-key": self_key})
    r = c.post(
        "/v1/zero-rules/email-list/versions/1/submit",
        headers={"x-api-key": self_key, "If-Match": w["etag"]},
    )
    r = c.post(
        "/v1/zero-rules/email-list/versions/1/approve",
        json={"content_hash": w["content_hash"]},
        headers={"x-api-key": self_key, "If-Match": r.json()["etag"]},
    )
    assert r.status_code == 409 and r.json()["code"] == "self_approval"
    # activation of an unapproved version is refused and nothing changes
    etag = c.get("/v1/zero-rules/mask-phones", headers=rig.h("publisher")).headers["ETag"]
    r = c.post(
        "/v1/zero-rules/mask-phones/activate", json={"version": 1}, headers=rig.h("publisher", etag)
    )
    assert r.status_code == 409
    assert (
        c.get("/v1/zero-rules/mask-phones", headers=rig.h("publisher")).json()["active_version"]
        is None
    )
    # reject, then a reviewer approves after resubmission
    r = c.post(
        "/v1/zero-rules/mask-phones/versions/1/reject",
        json={"reason": "naming"},
        headers=rig.h("reviewer", etag),
    )
    assert r.status_code == 200 and r.json()["status"] == "rejected"
    assert r.json()["review_note"] == "naming"
    assert both


def test_if_match_required_and_checked(rig: Rig) -> None:
    c = rig.client
    r = c.post(
        "/v1/zero-rules",
        content=contrib("mask-phones.yaml"),
        headers={**rig.h("author"), "content-type": "application/yaml"},
    )
    etag = r.headers["ETag"]
    doc = contrib("mask-phones.yaml")
    r = c.put("/v1/zero-rules/mask-phones/draft", content=doc, headers=rig.h("author"))
    assert r.status_code == 428 and r.json()["code"] == "precondition_required"
    r = c.put("/v1/zero-rules/mask-phones/draft", content=doc, headers=rig.h("author", '"r99"'))
    assert r.status_code == 412 and r.headers["ETag"] == etag
    r = c.put("/v1/zero-rules/mask-phones/draft", content=doc, headers=rig.h("author", etag))
    assert r.status_code == 200 and r.headers["ETag"] != etag
    r = c.put("/v1/zero-rules/mask-phones/draft", content=doc, headers=rig.h("author", etag))
    assert r.status_code == 412  # the old ETag is stale now
    r = c.post("/v1/zero-rules/mask-phones/versions", headers=rig.h("author", "garbage"))
    assert r.status_code == 400  # not an ETag at all
    assert r.json()["errors"][0]["location"] == "If-Match"


def test_activation_reaches_another_server_without_restart(rig: Rig, engine, pool) -> None:  # type: ignore[no-untyped-def]
    from fastapi.testclient import TestClient

    from zerolayer.rules_api import create_app
    from zerolayer.rules_api.rules.store import RuleStore
    from zerolayer.rules_api.rules.workflow import RulesHub
    from zerolayer.rules_api.testing import FakeFallback

    other_hub = RulesHub(
        RuleStore(rig.hub.store.url), pool, builtin_ops=engine.registry.ops, poll_s=0.2
    )
    other = create_app(engine, fallback=FakeFallback())
    other.state.rules.factory = lambda: other_hub
    body = {
        "model": "m",
        "max_tokens": 1000,
        "temperature": 0,
        "messages": [{"role": "user", "content": FAQ_MESSAGE}],
    }
    headers = {"anthropic-version": "2023-06-01", "x-api-key": rig.keys["client"]}
    with TestClient(other) as client:
        first = client.post("/v1/messages", json=body, headers=headers)
        assert first.headers["x-zero-layer-status"] == "inactive"
        publish(rig, contrib("contract-faq.yaml"))
        wait_until(
            lambda: (
                client.post("/v1/messages", json=body, headers=headers).headers[
                    "x-zero-layer-status"
                ]
                == "active"
            )
        )
    other_hub.store.close()
