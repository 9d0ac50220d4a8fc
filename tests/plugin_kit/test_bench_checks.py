"""The bench's output checks: each passes what the zeroscore contract accepts and fails what
it does not (cases in cases/checks.yaml); pandas and TypeScript run their tools."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.cli.bench_checks import check_error_message, check_output, strip_fence

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "cases" / "checks.yaml").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['check']}:{c['output'][:24]}")
def test_check(case: dict[str, Any]) -> None:
    result = check_output(case["check"], case["output"], case["gold"], case.get("options", {}))
    assert result.ok is case["ok"], result.reason


@pytest.mark.parametrize(
    ("text", "inner"),
    [
        ("```json\n{}\n```", "{}"),
        ("~~~\nx\n~~~\n", "x"),
        ("````md\n```\ny\n```\n````", "```\ny\n```"),
        ("text ```x```", "text ```x```"),
    ],
)
def test_strip_fence(text: str, inner: str) -> None:
    assert strip_fence(text) == inner


@pytest.mark.parametrize(
    ("message", "options", "ok"),
    [
        ("JSON: Expecting value at line 3, column 8", {"mentions": ["line"], "line": 3}, True),
        ("JSON: Expecting value at line 3, column 8", {"line": 4}, False),
        ("第3行格式错误", {"line": 3}, True),
        ("bad input", {"mentions": ["line"]}, False),
    ],
)
def test_error_message(message: str, options: dict[str, Any], ok: bool) -> None:
    assert check_error_message(message, options).ok is ok


GOLD_SQL = {
    "sql": "SELECT name FROM people WHERE age > 30 ORDER BY age DESC",
    "tables": {
        "people": {"columns": ["name", "age"], "rows": [["Ann", 31], ["Bo", 42], ["Cy", 25]]}
    },
}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("code", "ok"),
    [
        ("result = people[people.age > 30].sort_values('age', ascending=False)[['name']]", True),
        ("result = df[df['age'] > 30].sort_values('age')[['name']]", False),  # order matters
        ("result = people[['name']]", False),
        ("raise ValueError('no')", False),
    ],
)
def test_pandas_equals(code: str, ok: bool) -> None:
    pytest.importorskip("pandas")
    assert check_output("pandas_equals", code, GOLD_SQL, {}).ok is ok


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("tsc") and shutil.which("node")), reason="no tsc/node")
@pytest.mark.parametrize(
    ("code", "ok"),
    [
        ("console.log([1, 2].map((x: number) => x * 2).join(' '));", True),
        ("console.log('2 4 ');", True),  # trailing white space at the very end is ignored
        ("console.log('2 5');", False),
        ("const x: number = 'a';", False),  # a compiler error fails
    ],
)
def test_ts_stdout(code: str, ok: bool) -> None:
    assert check_output("ts_stdout", code, "2 4\n", {}).ok is ok
