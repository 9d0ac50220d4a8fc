"""Paths written in an instruction (core/paths.py, core/query_paths.py): the value at the path,
answered when every step is in the data (cases in tests/cases/query_frames/paths.yaml)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.core.engine import Engine
from zerolayer.core.errors import Unsupported
from zerolayer.core.messages import EngineRequest, Message, Route
from zerolayer.core.paths import PathMissing, parse_path, walk
from zerolayer.core.query_paths import path_sentence

CASES: dict[str, Any] = yaml.safe_load(
    (Path(__file__).parent / "cases" / "query_frames" / "paths.yaml").read_text("utf-8")
)
DATA = CASES["data"]


def _run(engine: Engine, words: str, payload: str) -> Any:
    return engine.run(EngineRequest(messages=(Message("user", f"{words}\n\n{payload}"),)))


def _payloads(case: dict[str, Any]) -> list[str]:
    out = [f"```json\n{json.dumps(DATA)}\n```"]
    if case.get("yaml"):
        out.append(f"```yaml\n{yaml.safe_dump(DATA, sort_keys=False)}```")
    return out


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda c: c["words"])
def test_the_value_at_the_path(engine: Engine, case: dict[str, Any]) -> None:
    for payload in _payloads(case):
        result = _run(engine, case["words"], payload)
        if case.get("fallback"):
            assert result.route is Route.FALLBACK, result.output
            continue
        assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
        assert json.loads(result.output or "") == case["answer"]


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("$.a.b[0]", ["a", "b", 0]),
        ("a.b[*].c", ["a", "b", "*", "c"]),
        ("$", []),
        ("meta.page", ["meta", "page"]),
        ("sku", None),
        ("$.a[x]", None),
    ],
)
def test_parse_path(text: str, steps: list[Any] | None) -> None:
    assert parse_path(text) == steps


def test_walk_flattens_wildcards_and_needs_every_step() -> None:
    data = {"a": [{"b": [1, 2]}, {"b": [3]}]}
    assert walk(data, ["a", "*", "b", "*"]) == [1, 2, 3]
    assert walk(data, ["a", 1, "b"]) == [3]
    for steps in (["a", 2], ["a", "*", "c"], ["b"], ["a", "x"]):
        with pytest.raises(PathMissing):
            walk(data, steps)


def test_the_sentence_quotes_the_path() -> None:
    assert path_sentence("list every b: $.a[*].b", {"a": [{"b": 1}]}) == 'extract "$.a[*].b"'
    with pytest.raises(Unsupported):
        path_sentence("list every b", {"a": [{"b": 1}]})
