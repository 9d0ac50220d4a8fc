"""zerolayer-csv: the cases in cases.yaml, the worked examples, and the grammar's manners."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
import zerolayer_csv

from zerolayer.core.grammar import cross_fragment_conflicts
from zerolayer.core.messages import Route

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "cases.yaml").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['instruction']}|{c['payload'][:12]}")
def test_case(csv_engine, case: dict[str, Any]) -> None:
    result = csv_engine.run(case["instruction"], case["payload"])
    if "expected" in case:
        assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
        assert result.output == case["expected"]
    elif "reason" in case:
        assert result.route is Route.FALLBACK
        assert result.reason == case["reason"], result.detail
    else:
        assert result.route is Route.ERROR
        assert f"line {case['error_line']}" in str(result.error)


@pytest.mark.parametrize("example", zerolayer_csv.EXAMPLES, ids=lambda e: e.instruction)
def test_registered_example(csv_engine, example) -> None:
    result = csv_engine.run(example.instruction, example.payload)
    assert result.output == example.expected, (result.reason, result.detail)


def test_registered_through_hooks(csv_engine) -> None:
    info = {p["name"]: p for p in csv_engine.plugin_info()}["csv"]
    assert info["grammar"] == ["csv"]
    assert "csv.parse" in info["ops"] and info["examples"] == len(zerolayer_csv.EXAMPLES)


def test_no_new_conflicts_with_builtin_grammar(csv_engine) -> None:
    assert cross_fragment_conflicts(csv_engine.registry.fragments) == set()


@pytest.mark.parametrize(
    ("instruction", "plan"),
    [
        ("Convert this JSON to YAML", "json.parse | yaml.emit"),
        ("Convert this Markdown to HTML", "markdown.render"),
    ],
)
def test_builtin_instructions_unchanged(csv_engine, instruction: str, plan: str) -> None:
    assert csv_engine.explain(instruction, "a: 1\n").plan == plan
