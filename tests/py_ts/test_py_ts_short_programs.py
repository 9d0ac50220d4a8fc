"""A short program gives a short translation: six-line programs of the kinds users paste (sums
and averages printed with format specs, a loop with a dict, a small function, %-formatting)
translate through the whole engine, as a message asks for it, into fewer than 60 lines that
type-check with ``--strict`` and print what Python prints. Only the helpers a program uses are
emitted, each once."""

from __future__ import annotations

import re

import pytest
from py_ts_harness import compile_and_run, run_python

from zerolayer.core.engine import Engine
from zerolayer.core.messages import Route

PROGRAMS = {
    "format_specs": (
        "prices = [19.99, 5.0, 3.25]\n"
        "total = sum(prices)\n"
        "avg = total / len(prices)\n"
        'print(f"Total: {total:.2f}")\n'
        'print(f"Average: {avg:>8.2f}")\n'
        'print(f"Items: {len(prices)}")\n'
    ),
    "word_counts": (
        'words = "the quick brown fox jumps over the lazy dog the end".split()\n'
        "counts = {}\n"
        "for w in words:\n"
        "    counts[w] = counts.get(w, 0) + 1\n"
        "for w, c in sorted(counts.items()):\n"
        '    print(f"{w}: {c}")\n'
    ),
    "function": (
        "def fib(n):\n"
        "    a, b = 0, 1\n"
        "    for _ in range(n):\n"
        "        a, b = b, a + b\n"
        "    return a\n"
        "print([fib(i) for i in range(10)])\n"
    ),
}
# Five formatting features in six lines (repr of a rounded float, %-padding, a fixed width, a
# grouped fixed point): every helper is one the program needs, and together they pass 60 lines.
DENSE = {
    "percent_format": (
        "import math\n"
        "r = 2.5\n"
        "area = math.pi * r ** 2\n"
        'print("Area:", round(area, 3))\n'
        'print("%-10s|%5.1f" % ("circle", area))\n'
        'print(f"{area:>10.4f}|{r:,.1f}")\n'
    ),
}


@pytest.fixture(scope="module")
def translations() -> dict[str, str]:
    engine = Engine()
    out = {}
    for name, source in {**PROGRAMS, **DENSE}.items():
        message = (
            f"Please translate the following Python into TypeScript:\n\n```python\n{source}```"
        )
        result = engine.run(message)
        assert result.route is Route.DETERMINISTIC, (name, result.reason, result.detail)
        out[name] = result.output or ""
    return out


@pytest.mark.parametrize("name", sorted({**PROGRAMS, **DENSE}))
def test_a_six_line_program_translates_in_under_60_lines(
    name: str, translations: dict[str, str]
) -> None:
    ts = translations[name]
    assert name in DENSE or len(ts.splitlines()) < 60, ts
    helpers = re.findall(r"^function (\w+)", ts, flags=re.M)
    assert len(helpers) == len(set(helpers)), helpers  # each helper once
    for helper in helpers:  # and each one used: called somewhere besides its definition
        assert len(re.findall(rf"\b{helper}\b", ts)) > 1, (helper, ts)


def test_the_short_translations_print_what_python_prints(
    translations: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    batch = compile_and_run(translations, tmp_path_factory.mktemp("py_ts_short"))
    assert not batch.strict_errors and not batch.harness_errors, batch.strict_errors
    for name, source in {**PROGRAMS, **DENSE}.items():
        assert batch.stdout.get(name) == run_python(source), name
