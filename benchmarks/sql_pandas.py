"""Benchmark: translate_sql vs bare sqlglot parse + generate on the same ~1 KB query.

Run from the repository root with the package importable, e.g.
``PYTHONPATH=.dev python3 benchmarks/sql_pandas.py``. Prints the median time of each over
many runs and their ratio, and of the translation followed by the op's check of its code
(``verify_pandas``), as the engine runs them.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import sqlglot

from zerolayer.plugins.sql_pandas.ops import verify_pandas
from zerolayer.plugins.sql_pandas.translate import translate_sql

QUERY = """
WITH totals AS (
    SELECT o.customer_id, SUM(o.amount) AS total, COUNT(*) AS n_orders,
           AVG(o.amount) AS avg_amount, MAX(o.created_at) AS last_order
    FROM orders o
    WHERE o.status IN ('paid', 'shipped') AND o.amount IS NOT NULL
      AND o.created_at BETWEEN '2024-01-01' AND '2024-12-31'
    GROUP BY o.customer_id
    HAVING COUNT(*) >= 2
)
SELECT c.name AS customer, c.city, t.total, t.n_orders, t.avg_amount,
       CASE WHEN t.total >= 1000 THEN 'gold' WHEN t.total >= 500 THEN 'silver'
            ELSE 'bronze' END AS tier,
       t.total * 1.0 / t.n_orders AS per_order
FROM totals t
JOIN customers c ON c.id = t.customer_id
LEFT JOIN regions r ON r.city = c.city
WHERE c.city NOT IN ('Nowhere', 'Atlantis') AND c.name LIKE '%a%'
  AND (r.region = 'EU' OR r.region IS NULL)
ORDER BY t.total DESC, c.name
LIMIT 20 OFFSET 5
"""


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of ``fn`` over ``runs`` calls (after a few warm-up calls)."""
    for _ in range(5):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(runs: int = 300) -> None:
    """Time both and print the ratio."""
    engine = median_seconds(lambda: translate_sql(QUERY), runs)
    checked = median_seconds(lambda: verify_pandas(QUERY, translate_sql(QUERY)), runs)
    bare = median_seconds(
        lambda: sqlglot.parse_one(QUERY, read="sqlite").sql(dialect="sqlite"), runs
    )
    print(f"query size: {len(QUERY.encode())} bytes, runs: {runs}")
    print(f"translate_sql (median):             {engine * 1e3:8.3f} ms")
    print(f"translate_sql + check (median):     {checked * 1e3:8.3f} ms")
    print(f"sqlglot parse+generate (median):    {bare * 1e3:8.3f} ms")
    print(f"ratio translate_sql / sqlglot:      {engine / bare:8.2f}x")
    print(f"ratio with the check / sqlglot:     {checked / bare:8.2f}x")


if __name__ == "__main__":
    main()
