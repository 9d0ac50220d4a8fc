"""The public API around the translation: schemas, names, dialect rules, error positions."""

from __future__ import annotations

import pandas as pd
import pytest

from zerolayer.core.errors import PayloadError
from zerolayer.plugins.sql_pandas.translate import parse_schema, translate_sql

from .harness import run_pandas


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Tables: orders(id, customer_id, amount), customers(id, name, city).",
            {"orders": ["id", "customer_id", "amount"], "customers": ["id", "name", "city"]},
        ),
        ("表结构：products（id，name，price）。", {"products": ["id", "name", "price"]}),
        ("Schema: t(id INT, name TEXT) and SELECT COUNT(*), SUM(a) FROM t", {"t": ["id", "name"]}),
        ("no schema here", {}),
    ],
)
def test_parse_schema(text: str, expected: dict[str, list[str]]) -> None:
    assert parse_schema(text) == expected


def test_default_code_shape() -> None:
    code = translate_sql("SELECT name FROM Customers WHERE city = 'Berlin'")
    assert code.startswith("import pandas as pd\n")
    assert 'customers.loc[customers["city"] == "Berlin", ["name"]]' in code
    assert "result = " in code


def test_df_name_only_for_single_table() -> None:
    assert "df[" in translate_sql("SELECT * FROM t WHERE a > 1", df_name="df")
    joined = translate_sql("SELECT a.x FROM a JOIN b ON a.id = b.id", df_name="df")
    assert "df" not in joined.replace("dropna", "")


def test_use_query_writes_query_strings() -> None:
    code = translate_sql("SELECT * FROM t WHERE a > 1 AND b <> 'x'", use_query=True)
    assert "t.query(\"a > 1 and b != 'x' and b.notna()\")" in code


@pytest.mark.parametrize(
    ("dialect", "first"),
    [(None, [None, 1.0, 2.0]), ("sqlite", [None, 1.0, 2.0]), ("postgres", [1.0, 2.0, None])],
)
def test_null_placement_follows_the_dialect(dialect: str | None, first: list) -> None:
    code = translate_sql("SELECT a FROM t ORDER BY a", dialect=dialect)
    frame = pd.DataFrame({"a": [2.0, None, 1.0]})
    result = run_pandas({}, code, frames={"t": frame})
    assert [None if pd.isna(v) else v for v in result["a"]] == first


def test_dialect_division_rules() -> None:
    assert "/" in translate_sql("SELECT a / b AS r FROM t", dialect="duckdb")


def test_invalid_sql_message_points_at_the_token() -> None:
    with pytest.raises(PayloadError) as info:
        translate_sql("SELECT a\nFROM t\nWHERE a = = 1")
    text = str(info.value)
    assert "invalid SQL at line 3, column 11" in text
    assert "WHERE a = = 1" in text and "^" in text
    assert info.value.to_dict()["line"] == 3


def test_mysql_numeric_filters_translate() -> None:
    code = translate_sql("SELECT id FROM t WHERE amount / 2 > 10 ORDER BY id", dialect="mysql")
    frame = pd.DataFrame({"id": [2, 1, 3], "amount": [30, 10, None]})
    result = run_pandas({}, code, frames={"t": frame})
    assert result["id"].tolist() == [2]
