"""Differential check on mutated fixture programs: a line deleted or duplicated gives a new
program; whenever Python runs it cleanly, the translation must either fall back with
Unsupported or compile and print exactly the same (never a wrong answer)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from py_ts_cases import program_files
from py_ts_harness import compile_and_run, same_output

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.py_ts.translate import parse_python, python_to_typescript

SEED = 20241202
COUNT = 60


def _mutants() -> dict[str, str]:
    rng = random.Random(SEED)
    progs = program_files()
    out: dict[str, str] = {}
    for i in range(COUNT):
        lines = rng.choice(progs).read_text(encoding="utf-8").split("\n")
        k = rng.randrange(len(lines))
        if rng.random() < 0.5:
            new = lines[:k] + lines[k + 1 :]
        else:
            new = [*lines[:k], lines[rng.randrange(len(lines))], *lines[k:]]
        out[f"mutant{i}"] = "\n".join(new)
    return out


def _python_stdout(source: str) -> str | None:
    try:
        compile(source, "<mutant>", "exec")
        proc = subprocess.run(
            [sys.executable, "-c", source], capture_output=True, text=True, timeout=3, check=False
        )
    except (SyntaxError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def test_mutants_never_answer_wrong(tmp_path_factory: pytest.TempPathFactory) -> None:
    expected: dict[str, str] = {}
    sources: dict[str, str] = {}
    for name, src in _mutants().items():
        out = _python_stdout(src)
        if out is None:
            continue
        try:
            sources[name] = python_to_typescript(parse_python(src))
        except Unsupported as exc:
            assert exc.reason != "py_translator_error", (name, src, exc.__cause__)
            continue
        expected[name] = out
    assert len(sources) >= COUNT // 3
    batch = compile_and_run(sources, tmp_path_factory.mktemp("py_ts_mutants"))
    problems = []
    for name in sources:
        errors = batch.strict_errors.get(f"{name}.ts", []) + batch.harness_errors.get(
            f"{name}.ts", []
        )
        if errors:
            problems.append(f"{name}: tsc {errors[:1]}")
        elif not same_output(expected[name], batch.stdout.get(name, "")):
            problems.append(f"{name}: stdout differs")
    assert not problems, "\n".join(problems)
