"""The fence tag of a SQL payload sets the dialect when the instruction names none.

Queries are chosen so that the translation depends on the dialect: NULL placement in
ORDER BY (first for ascending keys in SQLite and MySQL, last in PostgreSQL and DuckDB), and
what ``"name"`` and `` `name` `` mean (a column in PostgreSQL and SQLite, a string in MySQL;
backticks are no PostgreSQL syntax). The generated code is run on a frame with NULLs.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from sql_pandas.harness import compare, sqlite_result

from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.messages import EngineRequest, Message, Route
from zerolayer.plugins.sql_pandas.ops import FENCE_DIALECTS, OTHER_DIALECT_TAGS
from zerolayer.plugins.sql_pandas.translate import translate_sql

PLAYERS = {"columns": ["name", "score"], "rows": [["ann", 3], ["bo", None], ["cy", 1]]}
ORDER = "SELECT name, score FROM players ORDER BY score"
NULLS_LAST = {"postgres", "duckdb"}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(EngineConfig(plugins=None))


def ask(
    engine: Engine, sql: str, tag: str, instruction: str = "Translate this SQL query to pandas."
):
    message = f"{instruction}\n\n```{tag}\n{sql}\n```"
    return engine.run(EngineRequest(messages=(Message("user", message),), temperature=0.0))


def run_code(code: str) -> pd.DataFrame:
    env: dict[str, Any] = {"players": pd.DataFrame(PLAYERS["rows"], columns=PLAYERS["columns"])}
    exec(compile(code, "<answer>", "exec"), env)
    return env["result"]


@pytest.mark.parametrize("tag", sorted(FENCE_DIALECTS))
def test_fence_tag_sets_the_dialect(engine: Engine, tag: str) -> None:
    dialect = FENCE_DIALECTS[tag]
    result = ask(engine, ORDER, tag)
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
    assert result.plan == f'sql.read | sql.to_pandas(dialect="{dialect}")'
    assert result.output == translate_sql(ORDER, dialect=dialect)
    names = list(run_code(result.output)["name"])
    assert names == (["cy", "ann", "bo"] if dialect in NULLS_LAST else ["bo", "cy", "ann"])


def test_sqlite_fence_matches_sqlite(engine: Engine) -> None:
    result = ask(engine, ORDER, "sqlite")
    cols, rows = sqlite_result({"players": PLAYERS}, ORDER)
    assert compare(run_code(result.output or ""), cols, rows, ordered=True) is None


@pytest.mark.parametrize("tag", ["sql", ""])
def test_plain_fence_keeps_the_default(engine: Engine, tag: str) -> None:
    result = ask(engine, ORDER, tag)
    assert result.plan == "sql.read | sql.to_pandas"
    assert list(run_code(result.output or "")["name"]) == ["bo", "cy", "ann"]


def test_double_quotes_are_a_string_in_mysql_and_a_column_in_postgres(engine: Engine) -> None:
    sql = 'SELECT "name" FROM players WHERE score > 0'
    mysql = ask(engine, sql, "mysql")
    postgres = ask(engine, sql, "postgres")
    assert list(run_code(mysql.output or "").iloc[:, 0]) == ["name", "name"]
    assert list(run_code(postgres.output or "")["name"]) == ["ann", "cy"]


def test_backticks_are_mysql_not_postgres(engine: Engine) -> None:
    sql = "SELECT `name` FROM players WHERE score > 0"
    assert list(run_code(ask(engine, sql, "mysql").output or "")["name"]) == ["ann", "cy"]
    result = ask(engine, sql, "postgres")
    assert result.route is Route.ERROR
    error = result.error
    assert error is not None and error.line == 1  # type: ignore[attr-defined]
    assert 8 <= error.column <= 13  # type: ignore[attr-defined]  # on `name`


@pytest.mark.parametrize(
    ("instruction", "tag", "expected"),
    [
        ("Translate this MySQL query to pandas.", "mysql", "mysql"),  # both agree
        ("Translate this Postgres query to pandas.", "sql", "postgres"),  # the instruction
        ("把这个SQL查询转换成pandas代码。", "postgresql", "postgres"),  # the fence, Chinese
    ],
)
def test_instruction_and_fence(engine: Engine, instruction: str, tag: str, expected: str) -> None:
    result = ask(engine, ORDER, tag, instruction)
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
    assert result.plan == f'sql.read | sql.to_pandas(dialect="{expected}")'


@pytest.mark.parametrize(
    ("instruction", "tag"),
    [
        ("Translate this MySQL query to pandas.", "postgres"),
        ("Translate this Postgres query to pandas.", "sqlite"),
        ("这是MySQL语法，把这个SQL转换成pandas代码。", "postgresql"),
    ],
)
def test_instruction_and_fence_disagree(engine: Engine, instruction: str, tag: str) -> None:
    result = ask(engine, ORDER, tag, instruction)
    assert (result.route, result.reason) == (Route.FALLBACK, "plan.fence_conflict")


@pytest.mark.parametrize("tag", OTHER_DIALECT_TAGS[:6])
def test_dialects_not_followed_fall_back(engine: Engine, tag: str) -> None:
    result = ask(engine, ORDER, tag)
    assert result.route is Route.FALLBACK
    assert result.reason in ("plan.fence_unsupported", "plan.payload_format")
