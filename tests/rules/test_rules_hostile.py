"""Hostile uploads over HTTP: each is refused with a clear error, or stopped by a limit, and the
server keeps answering within its limits."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest
import yaml
from rules_helpers import Rig, contrib

BASE = yaml.safe_load(contrib("contract-faq.yaml"))


def _doc(**changes: Any) -> str:
    doc = copy.deepcopy(BASE)
    doc.update(changes)
    return json.dumps(doc)


def _create(rig: Rig, text: str) -> Any:
    ctype = "application/json" if text.startswith("{") else "application/yaml"
    return rig.client.post(
        "/v1/zero-rules", content=text, headers={**rig.h("author"), "content-type": ctype}
    )


def _freeze_and_test(rig: Rig, text: str) -> dict[str, Any]:
    r = _create(rig, text)
    assert r.status_code == 201, r.text
    name = r.json()["name"]
    r = rig.client.post(
        f"/v1/zero-rules/{name}/versions", headers=rig.h("author", r.headers["ETag"])
    )
    assert r.status_code == 201, r.text
    started = time.monotonic()
    r = rig.client.post(f"/v1/zero-rules/{name}/versions/1/test", headers=rig.h("author"))
    assert r.status_code == 200, r.text
    return {**r.json(), "wall": time.monotonic() - started}


def _still_answers(rig: Rig) -> None:
    started = time.monotonic()
    r = rig.client.get("/v1/status", headers=rig.h("auditor"))
    assert r.status_code == 200 and time.monotonic() - started < 2.0


def test_catastrophic_regex_times_out_cleanly(rig: Rig) -> None:
    text = _doc(
        name="redos",
        patterns={"clause": "(?P<body>(a|aa)+$)"},
        templates={"faq": "{{ data }}"},
        examples=[{"input": "a" * 64 + "!", "expected": "never"}],
    )
    report = _freeze_and_test(rig, text)
    assert report["passed"] is False
    assert "time limit" in report["cases"][0]["error"]
    assert report["wall"] < 6.0
    _still_answers(rig)


def test_runaway_template_is_killed_and_the_worker_replaced(rig: Rig) -> None:
    loops = (
        "{% set x = range(100000) %}{% for a in x %}{% for b in x %}{% for c in x %}"
        "{% endfor %}{% endfor %}{% endfor %}"
    )
    text = _doc(
        name="runaway",
        templates={"faq": loops},
        examples=[{"input": "1. A. B.", "expected": "x"}],
    )
    killed = rig.hub.runner.killed  # type: ignore[attr-defined]
    report = _freeze_and_test(rig, text)
    assert report["passed"] is False
    assert "time limit" in report["cases"][0]["error"]
    assert report["wall"] < 10.0
    assert rig.hub.runner.killed == killed + 1  # type: ignore[attr-defined]
    _still_answers(rig)
    # the replacement worker serves the next job
    ok = _freeze_and_test(
        rig, contrib("contract-faq.yaml").replace("name: contract-faq", "name: after")
    )
    assert ok["passed"] is True


@pytest.mark.parametrize(
    "template",
    [
        "{{ data|attr('__class__') }}",
        "{{ (data|first)|attr('__init__') }}",
        "{{ 'x' * 10**10 }}",
        "{{ ''|attr('format')('{0.__class__}', data) }}",
        "{{ namespace|attr('__init__')|attr('__globals__') }}",
    ],
)
def test_template_escapes_fail_at_run_time(rig: Rig, template: str) -> None:
    text = _doc(
        name="escape",
        templates={"faq": template},
        examples=[{"input": "1. A. B.", "expected": "x"}],
    )
    report = _freeze_and_test(rig, text)
    assert report["passed"] is False
    error = report["cases"][0]["error"]
    assert "class" not in (report["cases"][0].get("output") or ""), report
    assert error, report
    _still_answers(rig)


def test_oversized_and_malformed_bodies(rig: Rig) -> None:
    big = _doc(description="x" * 300_000)
    r = _create(rig, big)
    assert r.status_code == 413 and r.json()["code"] == "too_large"
    r = rig.client.post(
        "/v1/zero-rules",
        content=b"\xff\xfe garbage",
        headers={**rig.h("author"), "content-type": "application/yaml"},
    )
    assert r.status_code == 400 and r.json()["errors"]
    r = rig.client.post(
        "/v1/zero-rules",
        content='{"name": ',
        headers={**rig.h("author"), "content-type": "application/json"},
    )
    assert r.status_code == 422
    assert r.json()["errors"][0]["line"] == 1
    r = rig.client.post("/v1/zero-rules/x/evaluate", content="[1,2]", headers=rig.h("author"))
    assert r.status_code == 400 and r.json()["code"] == "bad_request"


def test_invalid_upload_answers_with_every_error_located(rig: Rig) -> None:
    text = _doc(
        templates={"faq": "{{ ''.__class__.__mro__ }}"},
        patterns={"clause": "(unclosed"},
    )
    r = _create(rig, text)
    assert r.status_code == 422
    body = r.json()
    assert body["code"] == "invalid_rule"
    locations = {e["location"] for e in body["errors"]}
    assert {"/templates/faq", "/patterns/clause"} <= locations
    assert rig.client.get("/v1/zero-rules", headers=rig.h("author")).json()["rules"] == []


def test_injection_strings_are_stored_and_shown_as_text(rig: Rig) -> None:
    r = _create(rig, _doc(name="nul", description="a\u0000b"))
    assert r.status_code == 422 and r.json()["errors"][0]["location"] == "/description"
    evil = "'; DROP TABLE zl_rules; -- <script>alert(1)</script> {{7*7}} \u202e\U0001f600"
    text = _doc(name="inject", description=evil)
    r = _create(rig, text)
    assert r.status_code == 201, r.text
    view = rig.client.get("/v1/zero-rules/inject", headers=rig.h("author")).json()
    assert view["description"] == evil
    r = rig.client.get("/v1/zero-rules/x'; DROP TABLE zl_rules;--", headers=rig.h("author"))
    assert r.status_code == 404
    assert len(rig.client.get("/v1/zero-rules", headers=rig.h("author")).json()["rules"]) == 1


@pytest.mark.parametrize(
    "pattern",
    ["((((a{100}){100}){100}){100})", "(?:(?:x{1000}){1000}){1000}"],
    ids=["nested-bounds", "huge-bounds"],
)
def test_a_pattern_too_costly_to_compile_is_refused_without_stalling(
    rig: Rig, pattern: str
) -> None:
    """Compiling such a pattern takes minutes and much memory: the worker compiling it first
    is stopped at its hard time limit or its memory limit and the upload refused; the server
    never compiles it."""
    killed = rig.hub.runner.killed  # type: ignore[attr-defined]
    started = time.monotonic()
    r = _create(rig, _doc(name="costly", patterns={"clause": pattern}))
    assert r.status_code == 422, r.text
    assert "too costly to compile" in r.json()["message"]
    problem = r.json()["errors"][0]["message"]
    # whichever limit the worker reaches first on this machine: its time or its memory
    assert "hard limit" in problem or "out of memory" in problem, problem
    assert time.monotonic() - started < 10.0
    if "hard limit" in problem:  # killed at its time limit (out of memory, it ends itself)
        assert rig.hub.runner.killed == killed + 1  # type: ignore[attr-defined]
    _still_answers(rig)
    assert rig.client.get("/v1/zero-rules", headers=rig.h("author")).json()["rules"] == []


INJECTION = (
    "'; DROP TABLE zl_rules; -- \" OR 1=1 -- <script>alert(1)</script> {{ 7*7 }} {% raw %}"
    " ${jndi:ldap://x/a} ../../etc/passwd %import os \u202e\U0001f600 \\ \r\n*a &b"
)
FIELDS = [
    ("name", lambda d, s: d.update(name=s)),
    ("description", lambda d, s: d.update(description=s)),
    ("phrase", lambda d, s: d["triggers"]["phrases"].append(s)),
    ("grammar", lambda d, s: d["triggers"].update(grammar=s)),
    ("grammar-literal", lambda d, s: d["triggers"].update(grammar=f"trigger: {json.dumps(s)}")),
    ("pattern", lambda d, s: d["patterns"].update(clause=s)),
    ("template", lambda d, s: d["templates"].update(faq=s)),
    ("pipeline", lambda d, s: d.update(pipeline=s)),
    ("example-input", lambda d, s: d["examples"][0].update(input=s)),
    ("example-expected", lambda d, s: d["examples"][0].update(expected=s)),
    ("example-instruction", lambda d, s: d["examples"][0].update(instruction=s)),
    ("output-type", lambda d, s: d.update(output={"type": s})),
    ("pattern-name", lambda d, s: d["patterns"].update({s: "x"})),
]


@pytest.mark.parametrize("field,put", FIELDS, ids=[f for f, _ in FIELDS])
def test_injection_strings_in_every_field(rig: Rig, field: str, put: Any) -> None:
    doc = copy.deepcopy(BASE)
    put(doc, INJECTION)
    text = json.dumps(doc)
    r = _create(rig, text)
    assert r.status_code in (201, 422), r.text  # never a 500, never a guess
    if r.status_code == 422:
        assert r.json()["code"] == "invalid_rule" and r.json()["errors"]
        assert all("location" in e and e["message"] for e in r.json()["errors"])
    else:
        view = rig.client.get(f"/v1/zero-rules/{doc['name']}", headers=rig.h("author")).json()
        assert view["draft"]["text"] == text  # stored as text, shown as text
        r = rig.client.post(
            f"/v1/zero-rules/{doc['name']}/evaluate",
            json={"instruction": INJECTION, "input": INJECTION},
            headers=rig.h("author"),
        )
        assert r.status_code == 200, r.text
    # the store is intact and the other headers and paths refuse the string cleanly
    assert rig.client.get("/v1/zero-rules", headers=rig.h("author")).status_code == 200
    bad_path = "/v1/zero-rules/" + "x'%3B%20DROP%20TABLE%20zl_rules%3B--"
    assert rig.client.get(bad_path, headers=rig.h("author")).status_code == 404
    headers = {**rig.h("publisher"), "If-Match": INJECTION.encode("ascii", "replace").decode()}
    r = rig.client.post(
        "/v1/zero-rules/contract-faq/activate", json={"version": 1}, headers=headers
    )
    assert r.status_code in (400, 404)  # not an ETag: refused before anything is read
    r = rig.client.get("/v1/zero-rules", headers={"x-api-key": "zlk_" + "a" * 12 + "_'; DROP--"})
    assert r.status_code == 401
