"""The sql_pandas cases of zeroscore's dev.jsonl: translate, run, compare with SQLite.

The schema comes from the instruction (``parse_schema``); each case runs on the case's own
rows and on the NULL-heavy fixture rows of cases.yaml for the same tables.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.plugins.sql_pandas.translate import parse_schema, translate_sql

from .harness import compare, is_ordered, run_pandas, sqlite_result

DEV = Path("/work/shared/zeroscore/dev.jsonl")
FIXTURES = yaml.safe_load((Path(__file__).parent / "cases.yaml").read_text(encoding="utf-8"))


def _cases() -> list[dict[str, Any]]:
    if not DEV.exists():
        return []
    cases = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line]
    return [c for c in cases if c["category"] == "sql_pandas"]


CASES = _cases()
pytestmark = pytest.mark.skipif(not CASES, reason="zeroscore dev.jsonl is not available")


@pytest.mark.parametrize("data", ["gold_rows", "fixture_rows"])
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_dev_case(case: dict[str, Any], data: str) -> None:
    text = case["request"]["messages"][-1]["content"]
    gold = case["expect"]["gold"]
    sql = gold["sql"]
    schema = parse_schema(text)
    for name, table in gold["tables"].items():
        assert schema.get(name) == table["columns"], f"schema of {name} not read from {text!r}"
    df_name = "df" if re.search(r"\bdf\b", text) else None
    code = translate_sql(sql, df_name=df_name, schema=schema)
    tables = gold["tables"]
    if data == "fixture_rows":
        tables = {n: FIXTURES["tables"][n] for n in tables}
    cols, rows = sqlite_result(tables, sql)
    bound = dict(tables)
    if df_name:
        assert len(tables) == 1
        bound = {df_name: next(iter(tables.values()))}
    result = run_pandas(bound, code)
    diff = compare(result, cols, rows, is_ordered(sql))
    assert diff is None, f"{diff}\n--- code ---\n{code}"
