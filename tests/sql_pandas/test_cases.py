"""Data-driven tests from cases.yaml: exact translations, fallbacks and invalid SQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.core.errors import PayloadError, Unsupported
from zerolayer.plugins.sql_pandas.translate import translate_sql

from .harness import compare, is_ordered, run_pandas, sqlite_result

CASES = yaml.safe_load((Path(__file__).parent / "cases.yaml").read_text(encoding="utf-8"))
TABLES: dict[str, Any] = CASES["tables"]
SCHEMA = {name: t["columns"] for name, t in TABLES.items()}


def _exact(entry: Any) -> dict[str, Any]:
    return entry if isinstance(entry, dict) else {"sql": entry}


EXACT = [_exact(e) for e in CASES["exact"]]


@pytest.mark.parametrize("case", EXACT, ids=[c["sql"][:70] for c in EXACT])
def test_translation_matches_sqlite(case: dict[str, Any]) -> None:
    sql = case["sql"]
    code = translate_sql(
        sql,
        df_name=case.get("df_name"),
        use_query=case.get("use_query", False),
        schema=SCHEMA if case.get("schema") else None,
    )
    compile(code, "<generated>", "exec")
    cols, rows = sqlite_result(TABLES, sql)
    tables = TABLES
    if case.get("df_name"):
        # The translation must read the frame under the given name only.
        used = [n for n in TABLES if f"{n}[" in code or f"{n}." in code]
        assert not used, code
        (table,) = [n for n in TABLES if n in sql.lower()]
        tables = {case["df_name"]: TABLES[table]}
    result = run_pandas(tables, code)
    diff = compare(result, cols, rows, is_ordered(sql))
    assert diff is None, f"{diff}\n--- code ---\n{code}"
    if case.get("use_query"):
        assert ".query(" in code, code


@pytest.mark.parametrize(
    "case", CASES["unsupported"], ids=[c["reason"] for c in CASES["unsupported"]]
)
def test_unsupported_constructs_fall_back(case: dict[str, Any]) -> None:
    with pytest.raises(Unsupported) as info:
        translate_sql(
            case["sql"],
            dialect=case.get("dialect"),
            schema=SCHEMA if case.get("schema") else None,
        )
    assert info.value.reason == case["reason"], info.value.message


@pytest.mark.parametrize("case", CASES["invalid"], ids=[c["sql"][:40] for c in CASES["invalid"]])
def test_invalid_sql_reports_line_and_column(case: dict[str, Any]) -> None:
    with pytest.raises(PayloadError) as info:
        translate_sql(case["sql"])
    err = info.value
    assert (err.line, err.column) == (case["line"], case["column"]), str(err)
    assert f"line {case['line']}" in str(err)
    assert "SQL" in str(err)
