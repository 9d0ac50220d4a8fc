"""Grammar-fragment triggers over HTTP on SQLite and PostgreSQL: upload → validate → test →
approve → activate → an instruction the fragment reads triggers the rule for its tenant
only; hostile and colliding fragments are refused with located errors, on write and inside
the activating transaction."""

from __future__ import annotations

import json
from typing import Any

import yaml
from rules_helpers import Rig, approve_draft, ask, contrib, publish

TICKETS = json.dumps(
    [
        {"id": 7, "title": "Server down", "priority": "urgent"},
        {"id": 8, "title": "Typo", "priority": "low"},
        {"id": 9, "title": "Disk full", "priority": "urgent"},
    ]
)
MESSAGE = f"Please show all the URGENT tickets as a checklist:\n\n```json\n{TICKETS}\n```"
CHECKLIST = "- [ ] #7 Server down\n- [ ] #9 Disk full\n"
YAML_CT = {"content-type": "application/yaml"}


def _with_grammar(grammar: str, name: str = "other", **changes: Any) -> str:
    doc = yaml.safe_load(contrib("ticket-checklist.yaml"))
    doc.update(name=name, triggers={"grammar": grammar}, **changes)
    doc["examples"] = [{"input": TICKETS, "expected": "- [ ] #7 Server down\n"}]
    doc["templates"] = {"checklist": "- [ ] #7 Server down\n"}
    return json.dumps(doc)


def _create(rig: Rig, text: str, who: str = "author") -> Any:
    ctype = "application/json" if text.startswith("{") else "application/yaml"
    return rig.client.post(
        "/v1/zero-rules", content=text, headers={**rig.h(who), "content-type": ctype}
    )


def test_grammar_rule_end_to_end_only_for_its_tenant(rig: Rig) -> None:
    c = rig.client
    r = c.post(
        "/v1/zero-rules/validate",
        content=contrib("ticket-checklist.yaml"),
        headers={**rig.h("author"), **YAML_CT},
    )
    assert r.status_code == 200, r.text
    assert r.json()["grammar"]["slots"] == ["level", "level_zh"]
    assert "list urgent tickets" in r.json()["grammar"]["samples"]
    assert ask(rig, "client", MESSAGE).headers["x-zero-layer-status"] == "inactive"

    view = publish(rig, contrib("ticket-checklist.yaml"))
    assert view["active_version"] == 1
    r = ask(rig, "client", MESSAGE)
    assert r.status_code == 200, r.text
    assert r.headers["x-zero-layer-status"] == "active"
    assert r.headers["x-zero-layer-plan"].startswith("rule:ticket-checklist@1")
    assert r.json()["content"][0]["text"] == CHECKLIST
    zh = ask(rig, "client", f"列出紧急工单：\n\n{TICKETS}")
    assert zh.json()["content"][0]["text"] == CHECKLIST

    r = c.post(
        "/v1/zero-rules/ticket-checklist/evaluate",
        json={"message": MESSAGE},
        headers=rig.h("reviewer"),
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["trigger"]["kind"] == "grammar" and body["trigger"]["slots"] == {"level": "urgent"}
    assert body["output"] == CHECKLIST

    # tenant B: no answer, and the rule does not exist for it
    assert ask(rig, "b_client", MESSAGE).headers["x-zero-layer-status"] == "inactive"
    assert ask(rig, None, MESSAGE).headers["x-zero-layer-status"] == "inactive"
    b = rig.h("b_author")
    assert c.get("/v1/zero-rules", headers=b).json()["rules"] == []
    assert c.get("/v1/zero-rules/ticket-checklist", headers=b).status_code == 404
    r = c.post("/v1/zero-rules/ticket-checklist/evaluate", json={"message": MESSAGE}, headers=b)
    assert r.status_code == 404
    # B's own copy lives in B's namespace and answers B only
    own = contrib("ticket-checklist.yaml").replace("- [ ] #{{", "- [x] #{{")
    own = own.replace("expected: |\n      - [ ]", "expected: |\n      - [x]").replace(
        "      - [ ] #4", "      - [x] #4"
    )
    publish(rig, own, author="b_author", reviewer="b_reviewer", publisher="b_author")
    assert ask(rig, "b_client", MESSAGE).json()["content"][0]["text"].startswith("- [x] #7")
    assert ask(rig, "client", MESSAGE).json()["content"][0]["text"] == CHECKLIST


def test_hostile_and_colliding_grammars_are_refused_with_locations(rig: Rig) -> None:
    publish(rig, contrib("ticket-checklist.yaml"))
    publish(rig, contrib("contract-faq.yaml"))
    cases = [
        ("%import common.WORD\ntrigger: WORD", "directives"),
        ('trigger: "find" /(a|aa)+$/', "only ? may follow a group"),
        ('trigger: ("convert" | "turn") "json" "to" "yaml"', "collides with a built-in"),
        ('trigger: "show" level "tickets"\nlevel: "urgent"', "rule 'ticket-checklist'"),
        (
            'trigger: "turn" "the" "contract" "clauses" "into" "a" "faq"',
            "collides with a trigger of rule 'contract-faq'",
        ),
        ('trigger: "list" a | "list" b\na: "bugs"\nb: "bugs"', "two readings of the same words"),
        ('trigger: "x" ' + '"abc" ' * 800, "is too long"),
        ('trigger{x}: "list" "bugs"', "templates"),
    ]
    for grammar, message in cases:
        r = _create(rig, _with_grammar(grammar))
        assert r.status_code == 422, (grammar, r.text)
        errors = r.json()["errors"]
        assert any(
            e["location"] == "/triggers/grammar" and message in e["message"] for e in errors
        ), (grammar, errors)
    # a located error in a YAML document points at the line of the fragment
    text = contrib("ticket-checklist.yaml").replace(
        "    level: LEVEL\n", "    level: LEVEL\n    %ignore WS\n"
    )
    r = _create(rig, text.replace("name: ticket-checklist", "name: other"))
    error = r.json()["errors"][0]
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "%ignore" in s)
    assert (error["line"], error["column"]) == (line, 5), error
    assert "grammar line 4, column 1" in error["message"]
    # a phrase rule cannot claim what an active grammar reads
    doc = yaml.safe_load(contrib("mask-phones.yaml"))
    doc["triggers"]["phrases"].append("list the urgent tickets as a checklist")
    r = _create(rig, json.dumps(doc))
    assert r.status_code == 422
    assert "collides with a trigger of rule 'ticket-checklist'" in r.text
    listed = rig.client.get("/v1/zero-rules", headers=rig.h("author")).json()["rules"]
    assert {x["name"] for x in listed} == {"ticket-checklist", "contract-faq"}


def test_injection_strings_in_a_grammar_are_only_words(rig: Rig) -> None:
    grammar = 'trigger: "render" "{{ 7*7 }}" "\'; DROP TABLE zl_rules; --" "<script>"'
    r = _create(rig, _with_grammar(grammar, name="inject"))
    assert r.status_code == 201, r.text
    view = rig.client.get("/v1/zero-rules/inject", headers=rig.h("author")).json()
    assert json.loads(view["draft"]["text"])["triggers"]["grammar"] == grammar
    r = rig.client.post(
        "/v1/zero-rules/inject/evaluate",
        json={
            "instruction": "render {{ 7*7 }} '; DROP TABLE zl_rules; -- <script>",
            "input": TICKETS,
        },
        headers=rig.h("author"),
    )
    assert r.status_code == 200 and r.json()["matched"] is True, r.text
    assert r.json()["output"] == "- [ ] #7 Server down\n"
    r = rig.client.post(
        "/v1/zero-rules/inject/evaluate",
        json={"instruction": "render 49", "input": "x"},
        headers=rig.h("author"),
    )
    assert r.json()["matched"] is False
    assert len(rig.client.get("/v1/zero-rules", headers=rig.h("author")).json()["rules"]) == 1


def test_colliding_grammar_activation_fails_atomically(rig: Rig) -> None:
    c = rig.client
    # "bugs" is written while ticket-checklist is not active: accepted on write
    bugs = _with_grammar('trigger: "show" level ("tickets" | "bugs")\nlevel: "urgent" | "low"')
    r = _create(rig, bugs)
    assert r.status_code == 201, r.text
    _, etag = approve_draft(rig, "other", r.headers["ETag"])
    publish(rig, contrib("ticket-checklist.yaml"))
    before = c.get("/v1/status", headers=rig.h("auditor")).json()
    r = c.post(
        "/v1/zero-rules/other/activate", json={"version": 1}, headers=rig.h("publisher", etag)
    )
    assert r.status_code == 422, r.text
    assert "collides with the trigger grammar of rule 'ticket-checklist'" in r.text
    assert c.get("/v1/status", headers=rig.h("auditor")).json() == before
    audit = c.get("/v1/zero-rules/other/audit", headers=rig.h("auditor")).json()["audit"]
    assert (audit[0]["action"], audit[0]["outcome"]) == ("activate", "refused")
    assert (
        ask(rig, "client", MESSAGE)
        .headers["x-zero-layer-plan"]
        .startswith("rule:ticket-checklist@1")
    )
