"""Format specs through the translator against Python: one program prints many values with
many specs (f-strings, ``str.format`` and ``%``); its translation must print the same.

The common specs (padding, ``.2f``, ``05d``, grouping) use small helpers instead of the
general ``pyFormat``, which keeps answers short (an answer longer than the request's
max_tokens falls back in the HTTP service); the rest still use ``pyFormat``.
"""

from __future__ import annotations

import random

import pytest
from py_ts_harness import compile_and_run, run_python

from zerolayer.plugins.py_ts.translate import parse_python, python_to_typescript
from zerolayer.rules_api.usage import count_tokens

SMALL_FLOAT = [
    ".2f", ".0f", "10.3f", "<10.1f", "^11.2f", "*>9.2f", "+.1f", " .2f", "08.2f", "+08.2f",
    "<08.2f", "=+10.2f", ",.2f", "_.3f", "12,.1f", ".2F", "f", "", "10", "08", "<8", "=8",
    ".3e", "e", "+.0E", "12.2e", "012.2e", ".1%", "%", ",.2%", "8.0%",
]  # fmt: skip
SMALL_INT = [
    "d", "5d", "<5", ">5", "^7", "*^9", "05d", "03", "+d", " d", ",", "_", "+,", "10,d",
    "=6", "0=6", "<06", ".2f", "8.1f", ",.2f", "b", "o", "x", "X", "#x", "#X", "#b", "#o",
    "08b", "+x", "#10x", ">#8o", ".1%", ".2e",
]  # fmt: skip
SMALL_STR = ["<6", ">6", "^7", "*^9", "s", "10s", "-<4"]
GENERAL = {"float": ["g", ".3g", "010,.2f", "#.0f", "#.1e"], "int": ["#06x", "08,", "+08,"]}


def _floats() -> list[str]:
    rng = random.Random(4242)
    out = ["0.0", "-0.0", "0.5", "1.5", "2.5", "-2.675", "1.005", "1e16", "1e-05", "123456.5"]
    out += ['float("inf")', 'float("-inf")', 'float("nan")']
    out += [repr(round(rng.uniform(-1e6, 1e6), rng.randint(0, 4))) for _ in range(12)]
    return out


def _program() -> tuple[str, list[str]]:
    ints = [0, 7, -42, 255, 1000000, -123456789, 5]
    strs = ["", "a", "abc", "ünï", "hello world"]
    lines = [
        f"xs: list[float] = [{', '.join(_floats())}]",
        f"ns: list[int] = {ints!r}",
        f"ss: list[str] = {strs!r}",
        "for x in xs:",
    ]
    small: list[str] = []
    for spec in SMALL_FLOAT + GENERAL["float"]:
        lines.append(f'    print("{spec}", f"[{{x:{spec}}}]")')
        small += [spec] if spec in SMALL_FLOAT else []
    lines.append("for n in ns:")
    for spec in SMALL_INT + GENERAL["int"]:
        lines.append(f'    print("{spec}", f"[{{n:{spec}}}]", "[{{:{spec}}}]".format(n))')
    lines.append('    print("%5d|%-6d|%+d|%05d" % (n, n, n, n))')
    lines.append("for s in ss:")
    for spec in SMALL_STR:
        lines.append(f'    print("{spec}", f"[{{s:{spec}}}]", f"[{{s!r:{spec}}}]")')
    return "\n".join(lines) + "\n", small


def test_format_specs_print_like_python(tmp_path_factory: pytest.TempPathFactory) -> None:
    source, _ = _program()
    expected = run_python(source)
    ts = python_to_typescript(parse_python(source))
    batch = compile_and_run({"specs": ts}, tmp_path_factory.mktemp("py_ts_specs"))
    assert not batch.strict_errors and not batch.harness_errors, batch.strict_errors
    got = batch.stdout.get("specs", "")
    diff = [(e, g) for e, g in zip(expected.splitlines(), got.splitlines(), strict=False) if e != g]
    assert not diff, diff[:10]
    assert got == expected


@pytest.mark.parametrize(
    "source",
    [
        'x = 2.5\nprint(f"{x:.2f}")\n',
        'n = 5\nprint(f"{n:05d} {n:>4} {n:,}")\n',
        'x = 1234.5\nprint(f"{x:>12,.2f} {x:.1%}")\n',
        'x = 1234.5\nprint(f"{x:.3e}")\n',
        'n = 255\nprint(f"{n:b} {n:o} {n:#x} {n:08X}")\n',
        's = "ab"\nprint(f"{s:^8}")\n',
    ],
)
def test_common_specs_leave_out_the_general_formatter(source: str) -> None:
    """Answers longer than the request's max_tokens (2048 in the zeroscore cases, counted by
    rules_api.usage) fall back: a program with a ".2f" must stay far below that."""
    ts = python_to_typescript(parse_python(source))
    assert "pyFormat" not in ts
    assert count_tokens(ts) < 1400, count_tokens(ts)
