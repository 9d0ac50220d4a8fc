"""TPC-H (SQLite variants) from the shared corpus: exact where translated, else a fallback.

Every query either raises Unsupported or yields pandas code whose result equals SQLite's on
the corpus sample data. The set of translated queries is pinned so that a regression shows.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import sqlglot
from sqlglot import exp

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.sql_pandas.translate import translate_sql

from .harness import compare, is_ordered, run_pandas

CORPUS = Path("/work/shared/corpora/sql-tpch")
pytestmark = pytest.mark.skipif(not CORPUS.exists(), reason="TPC-H corpus not available")


def _queries() -> list[dict[str, Any]]:
    if not CORPUS.exists():
        return []
    return json.loads((CORPUS / "tpch-queries.json").read_text(encoding="utf-8"))


QUERIES = _queries()
# Queries the translator handles today; one of them falling back is a regression.
TRANSLATED = {1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20, 22}


@pytest.fixture(scope="module")
def tpch() -> tuple[dict[str, pd.DataFrame], sqlite3.Connection, dict[str, list[str]]]:
    schema: dict[str, list[str]] = {}
    for stmt in sqlglot.parse((CORPUS / "schema.sql").read_text(encoding="utf-8")):
        if isinstance(stmt, exp.Create):
            table = stmt.this
            schema[table.this.name] = [
                c.name for c in table.expressions if isinstance(c, exp.ColumnDef)
            ]
    frames = {
        name: pd.read_csv(CORPUS / "data" / f"{name}.csv.gz", sep="|", quoting=3, dtype=object)
        for name in schema
    }
    con = sqlite3.connect(":memory:")
    for name, frame in frames.items():
        frame = _typed(frame)
        frames[name] = frame
        cols = ", ".join(f'"{c}"' for c in frame.columns)
        con.execute(f'CREATE TABLE "{name}" ({cols})')
        rows = [
            tuple(None if pd.isna(v) else v for v in r)
            for r in frame.astype(object).itertuples(index=False)
        ]
        con.executemany(
            f'INSERT INTO "{name}" VALUES ({", ".join("?" * len(frame.columns))})', rows
        )
    yield frames, con, schema
    con.close()


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    out = {}
    for col in frame.columns:
        try:
            out[col] = pd.to_numeric(frame[col])
        except (ValueError, TypeError):
            out[col] = frame[col]
    return pd.DataFrame(out)


@pytest.mark.parametrize("query", QUERIES, ids=[q["name"] for q in QUERIES])
def test_tpch_query_exact_or_fallback(query: dict[str, Any], tpch: Any) -> None:
    frames, con, schema = tpch
    sql = query["sql_sqlite"]
    try:
        code = translate_sql(sql, schema=schema)
    except Unsupported as err:
        assert err.reason.startswith("sql_")
        assert query["query"] not in TRANSLATED, f"{query['name']} fell back: {err.reason}"
        return
    cur = con.execute(sql)
    cols, rows = [d[0] for d in cur.description], [list(r) for r in cur.fetchall()]
    result = run_pandas({}, code, frames=frames)
    diff = compare(result, cols, rows, is_ordered(sql))
    assert diff is None, f"{diff}\n--- code ---\n{code}"
