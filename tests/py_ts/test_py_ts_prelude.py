"""The runtime prelude against Python itself: float repr, format specs and rounding on
seeded random values, all evaluated in one node run."""

from __future__ import annotations

import json
import math
import random
import struct

import pytest
from py_ts_harness import compile_and_run

from zerolayer.plugins.py_ts.prelude import render_prelude

SPECS_FLOAT = [
    "", ".2f", ".0f", ".1f", ".3f", "10.3f", "<12.4e", "^12g", "+.1f", ".3", ".1%", ".2e",
    "g", ".10g", "e", ",.2f", "_.1f", "010.2f", "08,.1f", ".12f", "#.0f", " .2f", "=+10.2f",
]  # fmt: skip
SPECS_INT = ["", "d", "5d", "<5", ">5", "^7", "05d", ",", "+d", "x", "X", "#x", "b", "o", "08,"]
SPECS_STR = ["", "<6", ">6", "^7", "*^9", ".2", "10.3"]


def _random_floats(rng: random.Random, n: int) -> list[float]:
    out: list[float] = [0.5, 1.5, 2.5, -0.5, 0.125, 2.675, 1.005, 1e16, 1e-5, 123456.5, -0.0]
    while len(out) < n:
        kind = rng.random()
        if kind < 0.3:
            x = round(rng.uniform(-1000, 1000), rng.randint(0, 4))
        elif kind < 0.5:
            x = rng.randint(-99999, 99999) / 8
        elif kind < 0.8:
            x = rng.uniform(-1, 1) * 10 ** rng.randint(-12, 22)
        else:
            x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(63)))[0]
        if math.isfinite(x):
            out.append(x)
    return out


def _cases() -> list[tuple[str, str, object, str]]:
    """(helper call, kind, value, spec) with Python's expected output computed later."""
    rng = random.Random(20240601)
    cases: list[tuple[str, str, object, str]] = []
    floats = _random_floats(rng, 160)
    for x in floats:
        cases.append(("repr", "float", x, ""))
        cases.append(("format", "float", x, rng.choice(SPECS_FLOAT)))
        cases.append(("round", "float", x, str(rng.randint(0, 3))))
        if abs(x) < 2**52:  # larger results are ints beyond JS's exact range (they throw)
            cases.append(("round0", "float", x, ""))
    # ties of fixed-point rounding (Python rounds them to even), values beyond toFixed's
    # fixed range, subnormals, and precisions up to the translator's limit
    ties = [0.5, 1.5, 2.5, 3.5, -4.5, 0.125, 0.375, -0.625, 2.675, 1.0625, 1e21, 2.0**70, 5e-324]
    for x in ties:
        for spec in (".0f", ".1f", ".2f", ".3f", ",.2f", ".96f", ".3g", ".2%"):
            cases.append(("format", "float", x, spec))
        cases.append(("round", "float", x, "2"))
    for _ in range(120):
        n = rng.choice([0, 7, -42, 255, 1000000, -123456789, rng.randint(-(10**9), 10**9)])
        cases.append(("format", "int", n, rng.choice(SPECS_INT)))
    for s in ["", "a", "abc", "hello world", "ünï"]:
        for spec in SPECS_STR:
            cases.append(("format", "str", s, spec))
    return cases


def _expected(op: str, kind: str, value: object, spec: str) -> str:
    if op == "repr":
        return repr(value)
    if op == "round":
        return repr(round(value, int(spec)))  # type: ignore[call-overload]
    if op == "round0":
        return str(round(value))  # type: ignore[call-overload]
    return format(value, spec)


def _ts_literal(value: object) -> str:
    if isinstance(value, float):
        if value == 0 and math.copysign(1, value) < 0:
            return "-0"
        return repr(value)
    return json.dumps(value)


def test_prelude_matches_python(tmp_path_factory: pytest.TempPathFactory) -> None:
    cases = _cases()
    lines = []
    for op, kind, value, spec in cases:
        lit = _ts_literal(value)
        if op == "repr":
            lines.append(f"console.log(pyStrFloat({lit}));")
        elif op == "round":
            lines.append(f"console.log(pyStrFloat(pyRoundTo({lit}, {spec})));")
        elif op == "round0":
            lines.append(f"console.log(pyStrInt(pyRound({lit})));")
        else:
            lines.append(f"console.log(pyFormat({lit}, {json.dumps(spec)}, {json.dumps(kind)}));")
    helpers = {"pyStrFloat", "pyRoundTo", "pyRound", "pyFormat", "pyStrInt"}
    program = render_prelude(helpers) + "\n" + "\n".join(lines) + "\nexport {};\n"
    batch = compile_and_run({"prelude_check": program}, tmp_path_factory.mktemp("prelude"))
    assert not batch.strict_errors and not batch.harness_errors, (
        batch.strict_errors,
        batch.harness_errors,
    )
    got = batch.stdout["prelude_check"].split("\n")
    mismatches = []
    for i, (op, kind, value, spec) in enumerate(cases):
        want = _expected(op, kind, value, spec)
        if got[i] != want:
            mismatches.append(f"{op} {kind} {value!r} {spec!r}: python {want!r} ts {got[i]!r}")
    assert not mismatches, "\n".join(mismatches[:20])
