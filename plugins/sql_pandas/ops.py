"""The ops of the SQL → pandas family.

``sql.read`` (implicit) takes the payload as SQL text; ``sql.to_pandas`` translates it with
:func:`translate_sql` and its verifier checks that the answer is Python that binds ``result``
and reads the DataFrames it should.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from zerolayer.core.errors import PayloadError, Unsupported
from zerolayer.core.ops import OpSpec
from zerolayer.core.types import PANDAS_SOURCE, SQL_TEXT, TEXT
from zerolayer.plugins.sql_pandas.dialects import semantics_for
from zerolayer.plugins.sql_pandas.pycheck import recent_bindings
from zerolayer.plugins.sql_pandas.translate import recent_base_tables, translate_sql

# a query: SELECT or WITH after any comments
_SQL_START = re.compile(
    r"\A(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?\*/)*\(?\s*(?:select|with)(?![A-Za-z0-9_])",
    re.IGNORECASE | re.DOTALL,
)
DIALECTS = ("sqlite", "postgres", "mysql", "duckdb")
# Fence tags that name a dialect: a ```postgres payload is Postgres SQL unless the
# instruction says otherwise (then the request falls back: plan.fence_conflict).
FENCE_DIALECTS = {
    "sqlite": "sqlite",
    "sqlite3": "sqlite",
    "postgres": "postgres",
    "postgresql": "postgres",
    "mysql": "mysql",
    "mariadb": "mysql",
    "duckdb": "duckdb",
}
# Fence tags of dialects the translator does not follow: such payloads fall back
# (plan.fence_unsupported) even when the instruction just says "SQL".
OTHER_DIALECT_TAGS = (
    "tsql",
    "t-sql",
    "mssql",
    "sqlserver",
    "oracle",
    "plsql",
    "plpgsql",
    "bigquery",
    "snowflake",
    "redshift",
    "hive",
    "hiveql",
    "spark",
    "sparksql",
    "trino",
    "presto",
    "clickhouse",
    "teradata",
    "db2",
)
# text that is not SQL: a line starting like a sentence of the instruction, or Chinese text
# outside quotes
_PROSE_LINE = re.compile(
    r"^\s*(?:(?:tables?|schemas?|the|dataframe|use|using|note|please|here|assume)(?![A-Za-z0-9_])"
    r"|表结构|表|数据|用|使用)",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")
_CJK = re.compile(r"[\u3400-\u9fff]")


def looks_like_sql(text: str) -> bool:
    """Whether ``text`` starts like a SQL query (SELECT or WITH, after comments)."""
    return _SQL_START.match(text) is not None


def read_sql(text: str) -> str:
    """The payload as SQL text (unchanged: error positions refer to it as given)."""
    return text


def to_pandas(
    sql: str,
    *,
    dialect: str | None = None,
    df_name: str | None = None,
    use_query: bool = False,
    schema: dict[str, list[str]] | None = None,
    code_only: bool = True,
    pandas_code_only: bool = True,
    tables_as_named: bool = False,
) -> str:
    """Python source computing ``sql``'s result with pandas (see docs/sql_pandas.md).

    ``code_only`` and ``pandas_code_only`` ("only the Python code") restate what the answer
    always is (the code, without explanations). ``tables_as_named`` ("each table is a
    DataFrame with the table's name") restates the naming, which lower-cases a table's name:
    a table written otherwise makes the request fall back.
    """
    if tables_as_named:
        if df_name is not None:
            raise Unsupported(
                "sql_table_names",
                f"the instruction names the DataFrame {df_name!r} and says each table is a "
                "DataFrame of its own name",
            )
        _check_names_as_written(sql, dialect)
    try:
        code = translate_sql(
            sql, dialect=dialect, df_name=df_name, use_query=use_query, schema=schema
        )
    except PayloadError as err:
        if has_prose(sql):
            raise Unsupported(
                "sql_payload_has_prose",
                f"the payload holds text besides the SQL (part of the instruction?): {err.reason}",
            ) from err
        raise
    if df_name is not None:
        tables = base_tables(sql, dialect)
        if len(tables) != 1:
            raise Unsupported(
                "sql_df_name_several_tables",
                f"the instruction names one DataFrame ({df_name!r}) but the query reads "
                f"{len(tables)} tables ({', '.join(tables)})",
            )
    return code


def _check_names_as_written(sql: str, dialect: str | None) -> None:
    """``Unsupported`` when a table of ``sql`` is not written as the DataFrame it reads is
    named (lower case): "a DataFrame with the table's name" would then name another."""
    try:
        tree = sqlglot.parse_one(sql, read=semantics_for(dialect).name)
    except SqlglotError:
        return  # the translation reports the payload's error itself
    for table in tree.find_all(exp.Table):
        if table.name != table.name.lower():
            raise Unsupported(
                "sql_table_names",
                f"the instruction says each table is a DataFrame of its name, and the table "
                f"{table.name!r} is named as its DataFrame is not ({table.name.lower()!r})",
            )


def has_prose(text: str) -> bool:
    """Whether ``text`` holds lines that read as instruction text rather than SQL."""
    for line in text.splitlines():
        if _PROSE_LINE.match(line) or _CJK.search(_QUOTED.sub("", line)):
            return True
    return False


def base_tables(sql: str, dialect: str | None) -> list[str]:
    """The tables a (valid) query reads, CTEs excluded, lower case, in order of appearance."""
    name = semantics_for(dialect).name
    known = recent_base_tables(sql, name)
    if known is not None:
        return known
    try:
        tree = sqlglot.parse_one(sql, read=name)
    except SqlglotError as err:  # translate_sql accepted it, so this is not expected
        raise Unsupported("sql_translation_error", f"could not re-read the SQL: {err}") from None
    ctes = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
    names: list[str] = []
    for table in tree.find_all(exp.Table):
        low = table.name.lower()
        if low not in ctes and low not in names:
            names.append(low)
    return names


def verify_pandas(sql: str, code: str, **params: Any) -> None:
    """Raise ``Unsupported`` unless ``code`` is Python that binds ``result`` and leaves its
    input DataFrames unassigned (an assignment to one would read the wrong data).

    Which names the code binds at module level: ``translate_sql`` compiled the code it
    returned and recorded them from its bytecode (exact, see :mod:`.pycheck`). Code without
    such a record is parsed here, and refused unless it is a list of assignments and imports
    (the shape whose bindings the syntax tree tells exactly).
    """
    assigned: set[str] | frozenset[str] | None = recent_bindings(code)
    if assigned is not None:
        if ":=" in code:
            raise Unsupported("sql_output_shape", _SHAPE)
    else:
        try:
            tree = ast.parse(code, "<pandas>", "exec")
        except SyntaxError as err:
            raise Unsupported(
                "sql_output_not_python", f"the pandas code does not compile: {err}"
            ) from err
        assigned = _bound_names(tree, code)
    if "result" not in assigned:
        raise Unsupported("sql_output_no_result", "the pandas code does not bind `result`")
    inputs = (
        [params["df_name"]] if params.get("df_name") else base_tables(sql, params.get("dialect"))
    )
    clobbered = [name for name in inputs if name in assigned]
    if clobbered:
        raise Unsupported(
            "sql_output_shadows_input",
            f"the pandas code assigns to its input DataFrame {clobbered[0]!r}",
        )


_SHAPE = "the pandas code is not a list of assignments and imports"


def _bound_names(tree: ast.Module, code: str) -> set[str]:
    """The names the code binds at module level. The translator writes assignments and
    imports only, with no ``:=``; code of another shape is refused rather than analysed."""
    if ":=" in code or not all(
        isinstance(stmt, ast.Assign | ast.Import | ast.ImportFrom) for stmt in tree.body
    ):
        raise Unsupported("sql_output_shape", _SHAPE)
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            targets: list[ast.expr] = list(stmt.targets)
            while targets:
                target = targets.pop()
                if isinstance(target, ast.Name):
                    names.add(target.id)
                elif isinstance(target, ast.Tuple | ast.List):
                    targets.extend(target.elts)
                elif isinstance(target, ast.Starred):
                    targets.append(target.value)
        else:
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
    return names


OPS = (
    OpSpec(
        "sql.read",
        TEXT,
        SQL_TEXT,
        read_sql,
        description="Take the payload as SQL text.",
        implicit=True,
        formats=("sql", *FENCE_DIALECTS),
        sniff=looks_like_sql,
    ),
    OpSpec(
        "sql.to_pandas",
        SQL_TEXT,
        PANDAS_SOURCE,
        to_pandas,
        params={
            "type": "object",
            "properties": {
                "dialect": {"enum": list(DIALECTS)},
                "df_name": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
                "use_query": {"type": "boolean"},
                "code_only": {"const": True},
                "pandas_code_only": {"const": True},
                "tables_as_named": {"const": True},
                "schema": {
                    "type": "object",
                    "additionalProperties": {
                        "type": "array",
                        "items": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
                        "minItems": 1,
                    },
                },
            },
        },
        description=(
            "Translate one SQL query into pandas code that binds the result set to `result`; "
            "each table is a DataFrame named after it (or df_name)."
        ),
        verify=verify_pandas,
        tag_params={
            **{tag: {"dialect": d} for tag, d in FENCE_DIALECTS.items()},
            **dict.fromkeys(OTHER_DIALECT_TAGS),
        },
    ),
)
