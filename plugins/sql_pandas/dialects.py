"""What each SQL dialect means where the pandas translation depends on it.

The translator reproduces the semantics of the dialect the query is written in. The default
is SQLite (the reference the tests execute against). Dialects differ in the places listed
in :class:`Semantics`; NULL placement in ORDER BY comes from sqlglot, which records it on
every parsed ``ORDER BY`` key according to the dialect.
"""

from __future__ import annotations

from dataclasses import dataclass

from zerolayer.core.errors import Unsupported


@dataclass(frozen=True)
class Semantics:
    """Dialect facts the generated pandas code has to respect."""

    name: str  # sqlglot dialect name used for parsing
    like_ascii_ci: bool  # LIKE ignores the case of ASCII letters (SQLite)
    like_supported: bool  # False where text matching depends on a collation (MySQL)
    float_division: bool  # ``/`` on two integers gives a fraction (MySQL, DuckDB)


_DIALECTS: dict[str, Semantics] = {
    "sqlite": Semantics("sqlite", like_ascii_ci=True, like_supported=True, float_division=False),
    "postgres": Semantics(
        "postgres", like_ascii_ci=False, like_supported=True, float_division=False
    ),
    "duckdb": Semantics("duckdb", like_ascii_ci=False, like_supported=True, float_division=True),
    "mysql": Semantics("mysql", like_ascii_ci=True, like_supported=False, float_division=True),
}
_ALIASES = {"postgresql": "postgres", "pg": "postgres", "sqlite3": "sqlite", "mariadb": "mysql"}


def semantics_for(dialect: str | None) -> Semantics:
    """The :class:`Semantics` of a dialect name (``None`` means SQLite)."""
    key = (dialect or "sqlite").strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return _DIALECTS[key]
    except KeyError:
        known = ", ".join(sorted(_DIALECTS))
        raise Unsupported(
            "sql_dialect", f"SQL dialect {dialect!r} is not supported (known: {known})"
        ) from None
