"""Runs SQL on SQLite and the translated pandas code on the same data, and compares them.

The comparison follows zeroscore's ``pandas_equals``: column names as a set, rows in order
only when the SQL has ORDER BY, numbers within 1e-9, NULL == NaN == None.
"""

from __future__ import annotations

import contextlib
import math
import re
import sqlite3
from typing import Any

import pandas as pd

Tables = dict[str, dict[str, list[Any]]]  # name -> {"columns": [...], "rows": [[...]]}


def sqlite_result(tables: Tables, sql: str) -> tuple[list[str], list[list[Any]]]:
    """Column names and rows of ``sql`` on an in-memory SQLite database holding ``tables``."""
    con = sqlite3.connect(":memory:")
    try:
        for name, t in tables.items():
            cols = ", ".join(f'"{c}"' for c in t["columns"])
            con.execute(f'CREATE TABLE "{name}" ({cols})')
            marks = ", ".join("?" for _ in t["columns"])
            con.executemany(f'INSERT INTO "{name}" VALUES ({marks})', [tuple(r) for r in t["rows"]])
        cur = con.execute(sql)
        return [d[0] for d in cur.description], [list(r) for r in cur.fetchall()]
    finally:
        con.close()


def run_pandas(tables: Tables, code: str, frames: dict[str, pd.DataFrame] | None = None) -> Any:
    """Execute generated code with every table bound as a DataFrame; return ``result``."""
    env: dict[str, Any] = {"pd": pd, "__name__": "__sql_pandas_test__"}
    if frames is None:
        frames = {n: pd.DataFrame(t["rows"], columns=t["columns"]) for n, t in tables.items()}
    env.update({n: f.copy() for n, f in frames.items()})
    if len(frames) == 1:
        env["df"] = next(iter(frames.values())).copy()
    exec(compile(code, "<generated>", "exec"), env)
    return env["result"]


def _conv(v: Any) -> Any:
    if hasattr(v, "item") and not isinstance(v, str | bytes):
        with contextlib.suppress(ValueError, AttributeError):
            v = v.item()
    if v is None:
        return None
    if isinstance(v, float) and math.isnan(v):
        return None
    if not isinstance(v, str | bytes | list | dict) and pd.isna(v):
        return None
    return v


def _frames(result: Any) -> list[tuple[list[str] | None, list[list[Any]]]]:
    if isinstance(result, pd.DataFrame):
        out = [(list(map(str, result.columns)), _rows(result))]
        if any(n is not None for n in result.index.names):
            r = result.reset_index()
            out.append((list(map(str, r.columns)), _rows(r)))
        return out
    if isinstance(result, pd.Series):
        f = result.to_frame(name=result.name)
        return [(list(map(str, f.columns)), _rows(f))]
    return [(None, [[_conv(result)]])]


def _rows(df: pd.DataFrame) -> list[list[Any]]:
    return [[_conv(v) for v in row] for row in df.astype(object).itertuples(index=False)]


def _eq(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    a = int(a) if isinstance(a, bool) else a
    b = int(b) if isinstance(b, bool) else b
    num = (int, float)
    if isinstance(a, num) and isinstance(b, num):
        return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return type(a) is type(b) and a == b


def _key(row: list[Any]) -> list[tuple[int, str]]:
    key = []
    for v in row:
        if v is None:
            key.append((0, ""))
        elif isinstance(v, bool | int | float):
            key.append((1, f"{round(float(v), 6):.6f}".rjust(40)))
        else:
            key.append((2, str(v)))
    return key


def compare(result: Any, cols: list[str], rows: list[list[Any]], ordered: bool) -> str | None:
    """None when ``result`` matches the SQL result, else the first difference."""
    first = None
    for ccols, crows in _frames(result):
        diff = _compare_one(ccols, crows, cols, rows, ordered)
        if diff is None:
            return None
        first = first or diff
    return first


def _compare_one(ccols, crows, cols, rows, ordered) -> str | None:
    if ccols is None:
        if len(cols) == 1 and len(rows) == 1 and _eq(crows[0][0], rows[0][0]):
            return None
        return f"scalar {crows[0][0]!r} vs {len(rows)}x{len(cols)} result"
    if sorted(ccols) != sorted(cols):
        return f"columns {ccols} != {cols}"
    idx = [ccols.index(c) for c in cols]
    crows = [[r[i] for i in idx] for r in crows]
    if len(crows) != len(rows):
        return f"{len(crows)} rows, expected {len(rows)}: {crows[:5]} vs {rows[:5]}"
    a, b = (crows, rows) if ordered else (sorted(crows, key=_key), sorted(rows, key=_key))
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        for j, (u, v) in enumerate(zip(x, y, strict=True)):
            if not _eq(u, v):
                return f"row {i + 1}, column {cols[j]!r}: {u!r} != {v!r}"
    return None


def is_ordered(sql: str) -> bool:
    """Whether the SQL has ORDER BY (the harness then compares rows in order)."""
    return re.search(r"\border\s+by\b", sql, re.I) is not None
