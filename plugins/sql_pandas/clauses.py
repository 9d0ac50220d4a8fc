"""Transforms for the SQL → pandas grammar fragment.

Clauses become directives: the conversion is ``Step("sql.to_pandas")`` with ``Source("sql")``
when the instruction says the payload is SQL; options (schema, DataFrame name, query style,
dialect) are ``Option`` directives that the planner attaches to that step.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lark import Token

from zerolayer.core.errors import Unsupported
from zerolayer.core.plan import Directive, Option, Source, Step
from zerolayer.plugins.sql_pandas.translate import parse_schema

Children = list[Any]

_DIALECTS = (
    (re.compile(r"postgre", re.I), "postgres"),
    (re.compile(r"mysql|mariadb", re.I), "mysql"),
    (re.compile(r"sqlite", re.I), "sqlite"),
    (re.compile(r"duckdb", re.I), "duckdb"),
)
# one `name(col, col, ...)` group of a schema phrase
_GROUP = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\s*\(\s*[A-Za-z_][^()\n]*\)")
# a table of one column, which parse_schema leaves out (it could be a function call)
_ONE_COLUMN = re.compile(
    r"([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+[A-Za-z_][A-Za-z0-9_ ]*)?\s*\)"
)


def dialect_of(text: str) -> str:
    """The translator's dialect name for a dialect named in ``text`` (``Postgres`` → postgres)."""
    for pattern, name in _DIALECTS:
        if pattern.search(text):
            return name
    raise Unsupported("sql_dialect", f"no known SQL dialect in {text!r}")


def schema_of(text: str) -> dict[str, list[str]]:
    """Table → columns for every ``name(col, …)`` group of a schema phrase.

    Every group must read as a table (``parse_schema`` skips groups that do not look like a
    column list): a table the instruction describes but the engine did not understand would
    change the answer, so the request falls back instead.
    """
    schema: dict[str, list[str]] = {}
    for group in _GROUP.findall(text):
        one = parse_schema(group)
        single = _ONE_COLUMN.fullmatch(group)
        if not one and single:
            one = {single[1]: [single[2]]}
        if len(one) != 1:
            raise Unsupported("sql_schema", f"cannot read the table description {group!r}")
        ((name, cols),) = one.items()
        _merge_table(schema, name, cols)
    if not schema:
        raise Unsupported("sql_schema", f"no table description in {text!r}")
    return schema


def _merge_table(schema: dict[str, list[str]], name: str, cols: list[str]) -> None:
    for known, known_cols in schema.items():
        if known.lower() == name.lower():
            if [c.lower() for c in known_cols] != [c.lower() for c in cols]:
                raise Unsupported(
                    "sql_schema_conflict", f"the table {name!r} is described twice differently"
                )
            return
    schema[name] = cols


def _tokens(children: Children) -> list[Token]:
    return [c for c in children if isinstance(c, Token)]


def _directives(children: Children) -> list[Directive]:
    return [d for c in children if isinstance(c, list) for d in c]


def src(children: Children) -> list[Directive]:
    out: list[Directive] = [Source("sql")]
    for tok in _tokens(children):
        if tok.type == "SQL_DIALECT":
            out.append(Option("dialect", dialect_of(str(tok))))
    return out


def query(children: Children) -> list[Directive]:
    out: list[Directive] = []
    return out


def convert(children: Children) -> list[Directive]:
    return [*_directives(children), Step("sql.to_pandas")]


def schema(children: Children) -> list[Directive]:
    return [Option("schema", schema_of(str(children[0])))]


def df_name(children: Children) -> list[Directive]:
    names = [t for t in _tokens(children) if t.type == "SQL_NAME"]
    name = str(names[0]).strip("`\"'")
    return [Option("df_name", name)]


def dialect(children: Children) -> list[Directive]:
    return [Option("dialect", dialect_of(str(children[0])))]


def finish(directives: list[Directive]) -> list[Directive]:
    """Merge the schema options of an instruction ("Tables: a(…). Schema: b(…).") into one."""
    schemas = [d for d in directives if isinstance(d, Option) and d.name == "schema"]
    if len(schemas) < 2:
        return directives
    merged: dict[str, list[str]] = {}
    for option in schemas:
        for name, cols in option.value.items():
            _merge_table(merged, name, cols)
    out: list[Directive] = []
    for d in directives:
        if d is schemas[0]:
            out.append(Option("schema", merged))
        elif not (isinstance(d, Option) and d.name == "schema"):
            out.append(d)
    return out


def _const(value: list[Directive]) -> Callable[[Children], list[Directive]]:
    return lambda _children: list(value)


_NAMES_LANGUAGE = re.compile(r"(?i)pandas|python")


def _code_only(children: Children) -> list[Directive]:
    """ "only the code" restates any code answer; "only the Python code" names the pandas
    answer's language, an option of the SQL translation alone (a request for TypeScript
    that says it falls back: the option is unused there)."""
    text = " ".join(str(c) for c in children if isinstance(c, Token))
    if _NAMES_LANGUAGE.search(text):
        return [Option("pandas_code_only", True)]
    return [Option("code_only", True)]


TRANSFORMS: dict[str, Callable[[Children], Any]] = {
    "sql_src": src,
    "sql_query": query,
    "sql_of": _directives,
    "sql_convert": convert,
    "sql_schema": schema,
    "sql_df_name": df_name,
    "sql_use_query": _const([Option("use_query", True)]),
    "sql_no_query": _const([Option("use_query", False)]),
    "sql_dialect": dialect,
    "sql_code_only": _code_only,
    "sql_tables_as_frames": _const([Option("tables_as_named", True)]),
}
