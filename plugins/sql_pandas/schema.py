"""Table schemas written in an instruction: ``customers(id, name, city)``."""

from __future__ import annotations

import re

_TABLE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*[(（]([^()（）]*)[)）]")
_COLUMN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SPLIT = re.compile(r"\s*[,，、]\s*")


def parse_schema(text: str) -> dict[str, list[str]]:
    """Table name -> column names for every ``table(col, col, ...)`` written in ``text``.

    Column entries may carry a type after the name (``id INT``); only the name is kept.
    Groups that do not look like a column list (``COUNT(*)``, ``SUM(amount)``) are skipped
    unless they hold at least two plain names; SQL function names are never taken as tables.
    """
    tables: dict[str, list[str]] = {}
    for match in _TABLE.finditer(text):
        name, inner = match.group(1), match.group(2).strip()
        if name.upper() in _SQL_WORDS or not inner:
            continue
        cols: list[str] = []
        for part in _SPLIT.split(inner):
            words = part.split()
            if not words or not _COLUMN.match(words[0]):
                cols = []
                break
            cols.append(words[0])
        if len(cols) < 2 or len({c.lower() for c in cols}) != len(cols):
            continue
        tables.setdefault(name, cols)
    return tables


_SQL_WORDS = {
    "COUNT", "SUM", "AVG", "MIN", "MAX", "COALESCE", "IFNULL", "ABS", "ROUND", "IN", "VALUES",
    "CAST", "SUBSTR", "SUBSTRING", "LOWER", "UPPER", "LENGTH", "NULLIF", "OVER", "USING",
    "EXISTS", "INSERT", "INTO", "DATE", "STRFTIME", "CONCAT", "TRIM", "REPLACE", "ON", "AND",
    "OR", "NOT", "WHERE", "SELECT", "FROM", "AS", "BY", "KEY", "PRIMARY", "UNIQUE", "CHECK",
    "REFERENCES", "FOREIGN", "DECIMAL", "NUMERIC", "VARCHAR", "CHAR", "PARTITION",
}  # fmt: skip
