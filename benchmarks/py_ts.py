"""Benchmark: Python -> TypeScript translation of a ~1 KB program vs a bare ``ast.parse``.

Run from the repository root with the package importable (e.g. ``PYTHONPATH=.dev``):

    python benchmarks/py_ts.py [--repeat N]

Prints the median time of each in one run and their ratio.
"""

from __future__ import annotations

import argparse
import ast
import statistics
import time

from zerolayer.plugins.py_ts.jsdoc import add_jsdoc
from zerolayer.plugins.py_ts.translate import parse_python, python_to_typescript

PROGRAM = '''
class Account:
    """A bank account."""

    def __init__(self, owner: str, balance: float = 0.0):
        self.owner = owner
        self.balance = balance
        self.history = []

    def deposit(self, amount: float) -> None:
        self.balance += amount
        self.history.append(("deposit", amount))

    def withdraw(self, amount: float) -> bool:
        if amount > self.balance:
            return False
        self.balance -= amount
        self.history.append(("withdraw", amount))
        return True


def summarize(words: list[str]) -> dict[str, int]:
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return counts


acct = Account("Ada", 100.0)
acct.deposit(50.5)
print(acct.withdraw(20.25), f"{acct.balance:.2f}")
for kind, amount in acct.history:
    print(f"{kind:<10}{amount:>8.2f}")
counts = summarize("the cat and the hat and the bat".split())
for word, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
    print(word, n)
print([i * i for i in range(10) if i % 2 == 0], sum(range(10)) // 3, -7 % 3)
'''


def _median_seconds(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Time both and print the ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    size = len(PROGRAM.encode())
    t_parse = _median_seconds(lambda: ast.parse(PROGRAM), args.repeat)
    t_translate = _median_seconds(lambda: python_to_typescript(parse_python(PROGRAM)), args.repeat)
    t_jsdoc = _median_seconds(
        lambda: add_jsdoc(python_to_typescript(parse_python(PROGRAM))), args.repeat
    )
    print(f"program size:            {size} bytes")
    print(f"ast.parse:               {t_parse * 1e3:8.3f} ms")
    print(f"parse + translate:       {t_translate * 1e3:8.3f} ms")
    print(f"parse + translate+jsdoc: {t_jsdoc * 1e3:8.3f} ms")
    print(f"ratio translate/parse:   {t_translate / t_parse:8.1f}x")


if __name__ == "__main__":
    main()
