"""Named types shared across the engine.

Data types name what flows between ops. A payload starts as ``text``; the instruction's
context (earlier turns, the system prompt) is a ``conversation``. Plugins may add their own
type names; these are the ones the built-in families use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

TEXT = "text"  # raw payload text, and every final answer
CONVERSATION = "conversation"  # the request's context, for context ops
JSON_VALUE = "json-value"  # parsed JSON or YAML data: dict, list, str, int, float, bool, None
YAML_TEXT = "yaml-text"
JSON_TEXT = "json-text"
SQL_TEXT = "sql-text"
PANDAS_SOURCE = "pandas-source"
MARKDOWN_TEXT = "markdown-text"
HTML_TEXT = "html-text"
PYTHON_SOURCE = "python-source"
PYTHON_AST = "python-ast"
TYPESCRIPT_SOURCE = "typescript-source"
TABLE = "table"

#: Types whose values are strings and may be returned to the user as the answer.
TEXTUAL_TYPES = frozenset(
    {
        TEXT,
        YAML_TEXT,
        JSON_TEXT,
        SQL_TEXT,
        PANDAS_SOURCE,
        MARKDOWN_TEXT,
        HTML_TEXT,
        PYTHON_SOURCE,
        TYPESCRIPT_SOURCE,
    }
)

JSONValue: TypeAlias = Any
Params: TypeAlias = Mapping[str, Any]
OpFunction: TypeAlias = Callable[..., Any]
Verifier: TypeAlias = Callable[..., None]
