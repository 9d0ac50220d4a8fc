"""``zerolayer explain --tenant``: a tenant's rule plan in the pipeline language, the plan the
service runs for the same request, and nothing of it for another tenant or a built-in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rules_helpers import Rig, ask, contrib, publish

from zerolayer.cli.main import EXIT_FALLBACK, EXIT_OK, main
from zerolayer.core.plan import Plan

INVOICE = "read the invoice lines as JSON"
INVOICE_LINES = "2 x paper @ 4.50\n1 x stapler @ 12\n"
TICKETS = '[{"id": 7, "title": "Server down", "priority": "urgent"}]'


def _explain(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["explain", *argv])
    out, _ = capsys.readouterr()
    return code, out.strip()


def _db(rig: Rig) -> str:
    return str(rig.hub.store.url)


def _payload(tmp_path: Path, text: str) -> str:
    path = tmp_path / "payload.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_rule_explains_as_the_plan_the_service_runs(
    rig: Rig, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    payload = _payload(tmp_path, INVOICE_LINES)
    db = _db(rig)
    code, out = _explain(capsys, "--tenant", "acme", "--db", db, INVOICE, payload)
    assert code == EXIT_FALLBACK and out.startswith("falls back: ")  # nothing active yet

    publish(rig, contrib("invoice-lines.json"), ctype="application/json")
    code, out = _explain(capsys, "--tenant", "acme", "--db", db, INVOICE, payload)
    assert code == EXIT_OK
    label, pipeline = out.split(" ", 1)
    assert label == "rule:invoice-lines@1"
    # the pipeline language: it reads back as a plan, and prints the same
    assert Plan.from_text(pipeline).to_text() == pipeline
    assert [s.op for s in Plan.from_text(pipeline).steps] == ["regex.findall", "json.emit"]
    served = ask(rig, "client", f"{INVOICE}:\n\n{INVOICE_LINES}")
    assert served.headers["x-zero-layer-status"] == "active"
    assert served.headers["x-zero-layer-plan"] == out

    code, out = _explain(capsys, "--tenant", "globex", "--db", db, INVOICE, payload)
    assert code == EXIT_FALLBACK  # another tenant's rules are not this one's


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_grammar_trigger_explains_with_its_slots_in_json(
    rig: Rig, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    publish(rig, contrib("ticket-checklist.yaml"))
    code, out = _explain(
        capsys,
        "--json",
        "--tenant",
        "acme",
        "--db",
        _db(rig),
        "list the urgent tickets as a checklist",
        _payload(tmp_path, TICKETS),
    )
    assert code == EXIT_OK
    body = json.loads(out)
    assert body["route"] == "deterministic" and body["output"] is None
    assert body["plan"].startswith("rule:ticket-checklist@1 json.parse | template.render(")
    assert "trigger grammar" in body["detail"] and "'level': 'urgent'" in body["detail"]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_built_in_instruction_is_never_shadowed(
    rig: Rig, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    publish(rig, contrib("invoice-lines.json"), ctype="application/json")
    payload = _payload(tmp_path, '{"b": 1, "a": 2}')
    plain = _explain(capsys, "Convert this JSON to YAML", payload)
    tenant = _explain(
        capsys, "--tenant", "acme", "--db", _db(rig), "Convert this JSON to YAML", payload
    )
    assert plain == tenant and plain[0] == EXIT_OK
    assert not plain[1].startswith("rule:")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_validate_gives_the_plan_in_the_pipeline_language(rig: Rig) -> None:
    r = rig.client.post(
        "/v1/zero-rules/validate",
        content=contrib("ticket-checklist.yaml"),
        headers={**rig.h("author"), "content-type": "application/yaml"},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    plan = Plan.from_text(body["plan"])
    assert plan.to_text() == body["plan"]
    assert [s.op for s in plan.steps] == [s["op"] for s in body["steps"]]
