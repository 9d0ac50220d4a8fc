"""SQL -> pandas: the public entry points of the translator.

``translate_sql`` parses a query with sqlglot and returns Python source that computes the
same result set with pandas. Conventions of the generated code:

* it starts with ``import pandas as pd``;
* every SQL table is a DataFrame variable named after the table in lower case (``df_name``
  replaces it when the query reads exactly one table);
* the result is bound to ``result``;
* filters are boolean masks (``df[df["x"] > 1]``), or ``DataFrame.query`` strings with
  ``use_query=True`` where a query string can say the same thing.

Whatever cannot be translated exactly raises :class:`Unsupported`; text that is not valid SQL
raises :class:`PayloadError` with the line and column of the problem.
"""

from __future__ import annotations

import itertools

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import TokenType

from zerolayer.core.errors import (
    LimitExceeded,
    PayloadError,
    Unsupported,
    ZeroLayerError,
    line_col,
)
from zerolayer.plugins.sql_pandas.dialects import Semantics, semantics_for
from zerolayer.plugins.sql_pandas.planner import RESERVED_NAMES, Translator
from zerolayer.plugins.sql_pandas.pycheck import remember_bindings
from zerolayer.plugins.sql_pandas.pycode import is_identifier
from zerolayer.plugins.sql_pandas.schema import parse_schema
from zerolayer.plugins.sql_pandas.sqltree import walk_all

__all__ = ["parse_schema", "translate_sql"]

MAX_SQL_CHARS = 100_000


def translate_sql(
    sql: str,
    *,
    dialect: str | None = None,
    df_name: str | None = None,
    use_query: bool = False,
    schema: dict[str, list[str]] | None = None,
) -> str:
    """Python source computing ``sql``'s result with pandas, bound to ``result``.

    ``schema`` (table -> column names, e.g. from :func:`parse_schema`) is optional; it is
    needed for ``*`` in joins and for unqualified column names in joins.
    """
    sem = semantics_for(dialect)
    if len(sql) > MAX_SQL_CHARS:
        raise LimitExceeded(f"SQL longer than {MAX_SQL_CHARS} characters")
    try:
        return _translate(sql, sem, df_name, use_query, schema or {})
    except ZeroLayerError:
        raise
    except RecursionError:
        raise Unsupported("sql_too_deep", "the SQL nests too deeply") from None
    except Exception as err:  # a gap in the translator must fall back, never crash
        raise Unsupported(
            "sql_translation_error", f"could not translate: {type(err).__name__}: {err}"
        ) from err


def _translate(
    sql: str,
    sem: Semantics,
    df_name: str | None,
    use_query: bool,
    schema: dict[str, list[str]],
) -> str:
    text = sql  # positions in errors and result names refer to the text as given
    tree, tokens = _parse(sql, text, sem.name)
    tables = _base_tables(tree)  # and constructs refused wherever they appear
    _remember_tables(sql, sem.name, tables)
    if not tables:
        raise Unsupported("sql_select_without_from", "the query reads no table")
    table_vars = _table_vars(tables, df_name)
    if df_name is not None and len(tables) == 1 and df_name in RESERVED_NAMES:
        raise Unsupported("sql_df_name", f"{df_name!r} cannot name the DataFrame")
    translator = Translator(text, sem, schema, table_vars, tokens, use_query)
    translator.query(tree, "result")
    head = ["import pandas as pd", ""]
    if translator.preamble:
        head += ["# SQLite's UPPER/LOWER change the case of ASCII letters only"]
        head += [*translator.preamble.values(), ""]
    code = "\n".join([*head, *translator.lines]) + "\n"
    compiled = compile(code, "<sql_pandas>", "exec")  # verify: the answer is valid Python
    remember_bindings(code, compiled)  # what it binds, for the op's check
    return code


def _parse(original: str, text: str, dialect: str) -> tuple[exp.Expression, list]:
    """Parse one statement; PayloadError with line/column for invalid SQL."""
    try:
        reader = sqlglot.Dialect.get_or_raise(dialect)
        tokens = reader.tokenize(text)
        statements = reader.parser().parse(tokens, text)
    except ParseError as err:
        info = err.errors[0] if err.errors else {}
        line, col = info.get("line"), info.get("col")
        highlight = info.get("highlight") or ""
        if isinstance(col, int) and highlight:
            col = max(1, col - len(highlight) + 1)  # sqlglot points at the token's end
        desc = str(info.get("description") or err).split("\n")[0]
        raise PayloadError(desc, fmt="SQL", text=text, line=line, column=col) from None
    except TokenError as err:
        msg = str(err)
        line, col = _token_error_position(text, msg)
        raise PayloadError(
            msg.split("\n")[0], fmt="SQL", text=text, line=line, column=col
        ) from None
    statements = [s for s in statements if s is not None]
    if not statements:
        raise PayloadError("no SQL statement", fmt="SQL", text=original, line=1, column=1)
    if len(statements) > 1:
        raise Unsupported("sql_multiple_statements", "several SQL statements in one request")
    _check_tokens(text, tokens)
    return statements[0], tokens


def _token_error_position(text: str, msg: str) -> tuple[int, int]:
    """Best position for a tokenizer error: an unterminated quote, else the end."""
    for quote in ("'", '"', "`"):
        if text.count(quote) % 2:
            return line_col(text, text.rfind(quote))
    return line_col(text, len(text))


def _check_tokens(text: str, tokens: list) -> None:
    """Reject token sequences sqlglot tolerates but SQL does not (``a,, b``)."""
    for prev, tok in itertools.pairwise(tokens):
        if prev.token_type is TokenType.COMMA and tok.token_type in _NOT_AFTER_COMMA:
            line, col = line_col(text, tok.start)
            raise PayloadError(
                f"unexpected {tok.text!r}", fmt="SQL", text=text, line=line, column=col
            )


_NOT_AFTER_COMMA = frozenset(
    (
        TokenType.COMMA,
        TokenType.FROM,
        TokenType.R_PAREN,
        TokenType.WHERE,
        TokenType.GROUP_BY,
        TokenType.ORDER_BY,
        TokenType.HAVING,
        TokenType.LIMIT,
    )
)


# The base tables of recently translated queries, by (SQL text, sqlglot dialect): the op's
# verifier needs them right after the translation, and parsing the query again would cost as
# much as the translation itself. Bounded; emptied when full. Entries are tuples, so a race
# between threads can only recompute one.
_RECENT_TABLES: dict[tuple[str, str], tuple[str, ...]] = {}
_RECENT_LIMIT = 256


def _remember_tables(sql: str, dialect: str, tables: list[str]) -> None:
    if len(_RECENT_TABLES) >= _RECENT_LIMIT:
        _RECENT_TABLES.clear()
    _RECENT_TABLES[(sql, dialect)] = tuple(tables)


def recent_base_tables(sql: str, dialect: str) -> list[str] | None:
    """The base tables ``translate_sql`` found in ``sql`` (read as sqlglot ``dialect``)
    when it translated it recently, else None."""
    found = _RECENT_TABLES.get((sql, dialect))
    return list(found) if found is not None else None


def _base_tables(tree: exp.Expression) -> list[str]:
    """The tables the query reads (CTEs excluded), lower case, in the order of a
    breadth-first walk; in the same walk, refuse recursive CTEs and query parameters."""
    ctes: set[str] = set()
    tables: list[str] = []
    kinds = _KINDS
    for node in walk_all(tree):
        kind = kinds.get(node.__class__)
        if kind is None:
            kind = _kind(node.__class__)
        if not kind:
            continue
        if kind == _TABLE:
            tables.append(node.name.lower())
        elif kind == _CTE:
            ctes.add(node.alias_or_name.lower())
        elif kind == _WITH:
            if node.args.get("recursive"):
                raise Unsupported("sql_recursive_cte", "recursive CTEs are not supported")
        else:
            raise Unsupported("sql_parameter", "query parameters are not supported")
    return [name for name in dict.fromkeys(tables) if name not in ctes]


# What _base_tables looks for, by node class (one subclass test per class, not per node).
_OTHER, _TABLE, _CTE, _WITH, _PARAMETER = range(5)
_KINDS: dict[type, int] = {}


def _kind(cls: type) -> int:
    kind = _OTHER
    if issubclass(cls, exp.Table):
        kind = _TABLE
    elif issubclass(cls, exp.CTE):
        kind = _CTE
    elif issubclass(cls, exp.With):
        kind = _WITH
    elif issubclass(cls, exp.Placeholder | exp.Parameter):
        kind = _PARAMETER
    _KINDS[cls] = kind
    return kind


def _table_vars(tables: list[str], df_name: str | None) -> dict[str, str]:
    if df_name is not None and not is_identifier(df_name):
        raise Unsupported("sql_df_name", f"{df_name!r} is not a Python name")
    if df_name is not None and len(tables) == 1:
        return {tables[0]: df_name}
    out: dict[str, str] = {}
    for name in tables:
        if not is_identifier(name) or name in RESERVED_NAMES:
            raise Unsupported(
                "sql_table_name", f"the table name {name!r} cannot be a Python variable"
            )
        out[name] = name
    return out
