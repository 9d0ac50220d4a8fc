"""The dashboard, the alert rules and the docs name only metrics and settings that exist."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from zerolayer.rules_api.metrics import ServiceMetrics
from zerolayer.rules_api.settings import ServiceSettings

ROOT = Path(__file__).resolve().parents[2]
METRIC = re.compile(r"\bzerolayer_[a-z_]+\b")
SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "gauge": ("",),
}


def exposed_names() -> tuple[set[str], set[str]]:
    """(family names, every series name PromQL can use) of a fresh app's registry."""
    families = list(text_string_to_metric_families(ServiceMetrics().render().decode()))
    series = {f.name + s for f in families for s in SUFFIXES[f.type]}
    return {f.name for f in families}, series


def balanced(expr: str) -> bool:
    depth = 0
    for ch in expr:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def test_dashboard_is_grafana_json_over_real_metrics() -> None:
    dash = json.loads((ROOT / "contrib" / "grafana" / "zerolayer.json").read_text("utf-8"))
    assert dash["title"] and dash["uid"] and isinstance(dash["schemaVersion"], int)
    _, series = exposed_names()
    ids = [p["id"] for p in dash["panels"]]
    assert len(ids) == len(set(ids))
    used = set()
    for panel in dash["panels"]:
        assert set(panel["gridPos"]) == {"h", "w", "x", "y"}
        assert panel["gridPos"]["x"] + panel["gridPos"]["w"] <= 24
        refs = [t["refId"] for t in panel["targets"]]
        assert len(refs) == len(set(refs))
        for target in panel["targets"]:
            assert balanced(target["expr"])
            names = set(METRIC.findall(target["expr"]))
            assert names <= series, names - series
            used |= names
    for figure in ("zar", "csr", "dci", "emo"):
        assert f"zerolayer_{figure}_ratio" in used


def test_alert_rules_are_prometheus_rule_files_over_real_metrics() -> None:
    rules = yaml.safe_load((ROOT / "contrib" / "prometheus" / "alerts.yml").read_text("utf-8"))
    _, series = exposed_names()
    assert set(rules) == {"groups"}
    seen = []
    for group in rules["groups"]:
        assert set(group) <= {"name", "interval", "rules"} and group["name"]
        for rule in group["rules"]:
            assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}
            assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", rule["alert"])
            assert re.fullmatch(r"\d+[smhd]", rule["for"])
            assert rule["labels"]["severity"] in {"info", "warning", "critical"}
            assert rule["annotations"]["summary"]
            assert balanced(rule["expr"])
            assert set(METRIC.findall(rule["expr"])) <= series
            seen.append(rule)
    zar = [r for r in seen if "zerolayer_zar_ratio" in r["expr"]]
    assert any("< 0.6" in r["expr"] and r["for"] == "5m" for r in zar)


def test_docs_define_every_exposed_metric() -> None:
    text = (ROOT / "docs" / "metrics.md").read_text("utf-8")
    families, _ = exposed_names()
    for name in families - {n for n in families if n.endswith("_created")}:
        assert name in text, name


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(ServiceSettings)])
def test_docs_list_every_setting(field: str) -> None:
    """The service's settings are listed once, in configuration.md's generated table, which
    http.md links to instead of repeating it."""
    table = (ROOT / "docs" / "configuration.md").read_text("utf-8")
    assert f"| `ZEROLAYER_{field.upper()}` |" in table
    http = (ROOT / "docs" / "http.md").read_text("utf-8")
    assert "](configuration.md)" in http and "| variable | default | meaning |" not in http
