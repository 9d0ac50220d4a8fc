"""Differential test on generated queries: each one falls back or matches SQLite.

A seeded generator writes single-table queries over the fixture tables from the supported
grammar (predicates with NULLs, NOT, IN, BETWEEN, LIKE, arithmetic, CASE, GROUP BY with
aggregates and HAVING, DISTINCT, ORDER BY, LIMIT). A query the translator accepts must give
SQLite's result; a share of them must be accepted at all. A second generator writes joins
(inner, LEFT, comma) with extra ON conditions, subqueries and grouping, on random tables.
"""

from __future__ import annotations

import random

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.sql_pandas.translate import translate_sql

from .harness import compare, is_ordered, run_pandas, sqlite_result
from .test_cases import SCHEMA, TABLES
from .test_random_data import random_tables

NUMERIC = {"orders": ["amount", "customer_id", "product_id"], "products": ["price", "id"],
           "events": ["qty", "weight"], "customers": ["id"]}  # fmt: skip
TEXT = {"orders": ["status", "created_at"], "products": ["name", "category"],
        "events": ["kind"], "customers": ["name", "city", "signup_date"]}  # fmt: skip


def _value(rng: random.Random, table: str, col: str) -> str:
    values = [r[TABLES[table]["columns"].index(col)] for r in TABLES[table]["rows"]]
    v = rng.choice([x for x in values if x is not None])
    return f"'{v}'" if isinstance(v, str) else str(v)


def _pred(rng: random.Random, table: str, depth: int = 0) -> str:
    kind = rng.randrange(9 if depth < 2 else 6)
    num, txt = rng.choice(NUMERIC[table]), rng.choice(TEXT[table])
    if kind == 0:
        return f"{num} {rng.choice(['=', '<>', '<', '<=', '>', '>='])} {_value(rng, table, num)}"
    if kind == 1:
        return f"{txt} {rng.choice(['=', '<>', '<', '>='])} {_value(rng, table, txt)}"
    if kind == 2:
        vals = ", ".join(_value(rng, table, txt) for _ in range(rng.randint(1, 3)))
        return f"{txt} {rng.choice(['IN', 'NOT IN'])} ({vals})"
    if kind == 3:
        lo, hi = sorted([float(_value(rng, table, num)), float(_value(rng, table, num))])
        return f"{num} {rng.choice(['BETWEEN', 'NOT BETWEEN'])} {lo} AND {hi}"
    if kind == 4:
        return f"{rng.choice([num, txt])} IS {rng.choice(['', 'NOT '])}NULL"
    if kind == 5:
        pat = rng.choice(["a%", "%a", "%e%", "_a%", "B%", "%1%", "p%d"])
        return f"{txt} {rng.choice(['LIKE', 'NOT LIKE'])} '{pat}'"
    if kind == 6:
        return f"NOT ({_pred(rng, table, depth + 1)})"
    op = "AND" if kind == 7 else "OR"
    return f"({_pred(rng, table, depth + 1)} {op} {_pred(rng, table, depth + 1)})"


def _query(rng: random.Random) -> str:
    table = rng.choice(sorted(TABLES))
    num, txt = rng.choice(NUMERIC[table]), rng.choice(TEXT[table])
    where = f" WHERE {_pred(rng, table)}" if rng.random() < 0.8 else ""
    if rng.random() < 0.4:
        aggs = rng.sample(
            ["COUNT(*) AS n", f"COUNT({num}) AS c", f"SUM({num}) AS s", f"AVG({num}) AS a",
             f"MIN({txt}) AS lo", f"MAX({num}) AS hi", f"COUNT(DISTINCT {txt}) AS d"],
            rng.randint(1, 3),
        )  # fmt: skip
        having = f" HAVING COUNT(*) {rng.choice(['>', '>='])} 1" if rng.random() < 0.3 else ""
        order = ""
        if rng.random() < 0.6:
            key = rng.choice([txt, aggs[0].split(" AS ")[1]])
            order = f" ORDER BY {key} {rng.choice(['ASC', 'DESC'])}"
            if rng.random() < 0.3:
                order += f" LIMIT {rng.randint(1, 3)}"
        return f"SELECT {txt}, {', '.join(aggs)} FROM {table}{where} GROUP BY {txt}{having}{order}"
    items = rng.sample([num, txt, f"{num} * 2 AS twice",
                        f"CASE WHEN {_pred(rng, table, 2)} THEN 'y' ELSE 'n' END AS flag"],
                       rng.randint(1, 3))  # fmt: skip
    distinct = "DISTINCT " if rng.random() < 0.2 else ""
    order = ""
    if rng.random() < 0.6:
        keys = rng.sample([num, txt] if not distinct else [i.split(" AS ")[-1] for i in items], 1)
        order = " ORDER BY " + ", ".join(f"{k} {rng.choice(['ASC', 'DESC'])}" for k in keys)
        if rng.random() < 0.3:
            order += f" LIMIT {rng.randint(1, 4)}"
    return f"SELECT {distinct}{', '.join(items)} FROM {table}{where}{order}"


def test_generated_queries_are_exact_or_fall_back() -> None:
    rng = random.Random(20240)
    translated, failures = 0, []
    for _ in range(400):
        sql = _query(rng)
        try:
            code = translate_sql(sql, schema=SCHEMA)
        except Unsupported:
            continue
        translated += 1
        cols, rows = sqlite_result(TABLES, sql)
        try:
            diff = compare(run_pandas(TABLES, code), cols, rows, is_ordered(sql))
        except Exception as err:
            diff = f"{type(err).__name__}: {err}"
        if diff is not None:
            failures.append(f"{sql}\n{diff}\n{code}")
    assert not failures, f"{len(failures)} wrong:\n\n" + "\n\n".join(failures[:4])
    assert translated >= 300


def _join_query(rng: random.Random) -> str:
    kind = rng.choice(["JOIN", "LEFT JOIN", "comma"])
    extra = rng.choice(["", " AND c.city = 'Berlin'", " AND o.amount > 50"])
    where = rng.choice(
        ["", "o.amount > 40", "c.city IS NULL", "c.name LIKE '%a%' OR o.status = 'paid'",
         "NOT o.status = 'paid'", "c.id IN (SELECT customer_id FROM orders WHERE amount > 100)",
         "o.amount > (SELECT AVG(amount) FROM orders)"]
    )  # fmt: skip
    sel = rng.choice(
        ["c.name, o.amount", "c.id, o.id AS oid", "c.city, COUNT(*) AS n",
         "c.city, COUNT(o.id) AS n, SUM(o.amount) AS s", "o.status, AVG(o.amount) AS a",
         "DISTINCT c.city"]
    )  # fmt: skip
    group = f" GROUP BY {sel.split(',')[0]}" if "(" in sel else ""
    order = (
        rng.choice(["", " ORDER BY 1", " ORDER BY 1 DESC"]) if group or "DISTINCT" in sel else ""
    )
    if kind == "comma":
        cond = " WHERE o.customer_id = c.id" + (f" AND ({where})" if where else "")
        return f"SELECT {sel} FROM customers c, orders o{cond}{group}{order}"
    cond = f" WHERE {where}" if where else ""
    return (
        f"SELECT {sel} FROM customers c {kind} orders o ON o.customer_id = c.id{extra}"
        f"{cond}{group}{order}"
    )


def test_generated_join_queries_are_exact_or_fall_back() -> None:
    rng = random.Random(7)
    translated, failures = 0, []
    for _ in range(150):
        sql = _join_query(rng)
        tables = random_tables(rng.randrange(10**6), sizes=(1, 4, 9, 15))
        try:
            code = translate_sql(sql, schema=SCHEMA)
        except Unsupported:
            continue
        translated += 1
        cols, rows = sqlite_result(tables, sql)
        try:
            diff = compare(run_pandas(tables, code), cols, rows, is_ordered(sql))
        except Exception as err:
            diff = f"{type(err).__name__}: {err}"
        if diff is not None:
            failures.append(f"{sql}\n{diff}\n{code}")
    assert not failures, f"{len(failures)} wrong:\n\n" + "\n\n".join(failures[:4])
    assert translated >= 120
