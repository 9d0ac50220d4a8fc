"""The SQL → pandas family's helpers: schema phrases, dialect names, the ops and verifier."""

from __future__ import annotations

import pytest

from zerolayer.core.errors import PayloadError, Unsupported
from zerolayer.core.plan import Option, Step
from zerolayer.plugins.sql_pandas.clauses import dialect_of, finish, schema_of
from zerolayer.plugins.sql_pandas.ops import (
    OPS,
    base_tables,
    has_prose,
    looks_like_sql,
    to_pandas,
    verify_pandas,
)


@pytest.mark.parametrize(
    ("phrase", "schema"),
    [
        ("Tables: a(x, y), b(z, w)", {"a": ["x", "y"], "b": ["z", "w"]}),
        ("schema: t(id INT, name TEXT)", {"t": ["id", "name"]}),
        ("表结构:t(id, v)", {"t": ["id", "v"]}),
        ("table: t(id)", {"t": ["id"]}),
        ("tables: t(id INTEGER)", {"t": ["id"]}),
        ("tables: T(a, b) and t(A, B)", {"T": ["a", "b"]}),
    ],
)
def test_schema_of(phrase: str, schema: dict[str, list[str]]) -> None:
    assert schema_of(phrase) == schema


@pytest.mark.parametrize(
    ("phrase", "reason"),
    [
        ("tables: t(a, a)", "sql_schema"),
        ("tables: t(a, 2b)", "sql_schema"),
        ("tables: t(a, b), t(a, c)", "sql_schema_conflict"),
        ("tables", "sql_schema"),
    ],
)
def test_schema_of_refuses(phrase: str, reason: str) -> None:
    with pytest.raises(Unsupported) as info:
        schema_of(phrase)
    assert info.value.reason == reason


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Postgres", "postgres"),
        ("this PostgreSQL", "postgres"),
        ("dialect: MySQL", "mysql"),
        ("MariaDB", "mysql"),
        ("sqlite3", "sqlite"),
        ("DuckDB SQL", "duckdb"),
    ],
)
def test_dialect_of(text: str, name: str) -> None:
    assert dialect_of(text) == name


def test_dialect_of_unknown() -> None:
    with pytest.raises(Unsupported):
        dialect_of("Oracle")


def test_finish_merges_schemas() -> None:
    out = finish(
        [
            Step("sql.to_pandas"),
            Option("schema", {"a": ["x"]}),
            Option("df_name", "df"),
            Option("schema", {"b": ["y", "z"]}),
        ]
    )
    assert out == [
        Step("sql.to_pandas"),
        Option("schema", {"a": ["x"], "b": ["y", "z"]}),
        Option("df_name", "df"),
    ]


def test_finish_leaves_other_instructions_alone() -> None:
    directives = [Step("sort", {"key": "id"}), Option("indent", 2)]
    assert finish(list(directives)) == directives


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SELECT 1", True),
        ("  select a from t", True),
        ("-- top orders\nWITH x AS (SELECT 1) SELECT * FROM x", True),
        ("/* c */ (SELECT a FROM t)", True),
        ('{"a": 1}', False),
        ("selection: 3", False),
        ("DELETE FROM t", False),
    ],
)
def test_looks_like_sql(text: str, expected: bool) -> None:
    assert looks_like_sql(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SELECT a FROM t\n\nTables: t(a)", True),
        ("SELECT a FROM t\nDataFrame 变量名为 df", True),
        ("SELECT a FROM t WHERE name = '张三'", False),
        ("SELECT a\nFROM t\nWHERE b > 1", False),
    ],
)
def test_has_prose(text: str, expected: bool) -> None:
    assert has_prose(text) is expected


def test_base_tables_leaves_ctes_out() -> None:
    sql = "WITH x AS (SELECT id FROM Orders) SELECT * FROM x JOIN customers c ON x.id = c.id"
    assert sorted(base_tables(sql, None)) == ["customers", "orders"]


def test_to_pandas_names_the_dataframe() -> None:
    code = to_pandas("SELECT id FROM orders WHERE amount > 1", df_name="df")
    assert 'df["amount"] > 1' in code and "orders" not in code


def test_to_pandas_refuses_one_name_for_two_tables() -> None:
    with pytest.raises(Unsupported) as info:
        to_pandas("SELECT o.id FROM orders o JOIN c ON o.cid = c.id", df_name="df")
    assert info.value.reason == "sql_df_name_several_tables"


def test_to_pandas_invalid_sql_is_a_payload_error() -> None:
    with pytest.raises(PayloadError) as info:
        to_pandas("SELECT id,\n  FROM t")
    assert (info.value.line, info.value.column) == (2, 3)


def test_to_pandas_prose_in_the_payload_falls_back() -> None:
    with pytest.raises(Unsupported) as info:
        to_pandas("SELECT id FROM t\n\nTables: t(id, a)")
    assert info.value.reason == "sql_payload_has_prose"


@pytest.mark.parametrize(
    ("code", "params", "reason"),
    [
        ("result = (", {}, "sql_output_not_python"),
        ("import pandas as pd\nout = t\n", {}, "sql_output_no_result"),
        ("t = t.head(1)\nresult = t\n", {}, "sql_output_shadows_input"),
        ("df = df.head(1)\nresult = df\n", {"df_name": "df"}, "sql_output_shadows_input"),
        ("x, t = 1, 2\nresult = x\n", {}, "sql_output_shadows_input"),
        ("[u, *t] = 1, 2\nresult = u\n", {}, "sql_output_shadows_input"),
        ("import t\nresult = 1\n", {}, "sql_output_shadows_input"),
        ("result = [t := 1]\n", {}, "sql_output_shape"),
        ("for t in []:\n    pass\nresult = 1\n", {}, "sql_output_shape"),
        ("t += 1\nresult = 1\n", {}, "sql_output_shape"),
        ("if True:\n    result = 1\n", {}, "sql_output_shape"),
        ("def f():\n    result = 1\n", {}, "sql_output_shape"),
    ],
)
def test_verify_refuses(code: str, params: dict[str, str], reason: str) -> None:
    """Every way of binding an input's name is caught; code not shaped like the translator's
    (assignments and imports only) is refused rather than analysed."""
    with pytest.raises(Unsupported) as info:
        verify_pandas("SELECT a FROM t", code, **params)
    assert info.value.reason == reason


def test_verify_accepts_translations() -> None:
    sql = "SELECT a FROM t WHERE b > 1"
    verify_pandas(sql, to_pandas(sql))
    verify_pandas(sql, to_pandas(sql, df_name="df"), df_name="df")


def test_op_parameters_are_validated() -> None:
    spec = next(op for op in OPS if op.name == "sql.to_pandas")
    spec.validate_params({"dialect": "mysql", "df_name": "df", "schema": {"t": ["a"]}})
    for bad in ({"dialect": "oracle"}, {"df_name": "1df"}, {"schema": {"t": []}}, {"x": 1}):
        with pytest.raises(Exception, match="parameter"):
            spec.validate_params(bad)
