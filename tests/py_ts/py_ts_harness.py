"""Compile and run translated programs with tsc and node, many programs per tsc call."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HARNESS_FLAGS = ["--target", "es2020", "--module", "commonjs", "--strict", "false"]
# the strict type check needs the same library as the harness (Number.isSafeInteger, BigInt):
# tsc's default target has neither
STRICT_TARGET = ["--target", "es2020"]
_TSC_ERROR = re.compile(r"^(?P<file>[^\s(]+\.ts)\((?P<line>\d+),(?P<col>\d+)\): error (?P<msg>.*)$")


def require_tools() -> tuple[str, str]:
    """tsc and node paths; skip (or fail when CI is set) if they are missing."""
    tsc = os.environ.get("ZEROSCORE_TSC") or shutil.which("tsc")
    node = os.environ.get("ZEROSCORE_NODE") or shutil.which("node")
    if tsc and node:
        return tsc, node
    msg = "tsc/node not found: install with `npm install -g typescript` (node is required)"
    if os.environ.get("CI"):
        pytest.fail(msg)
    pytest.skip(msg)
    raise AssertionError  # unreachable


def run_python(source: str, timeout: float = 20) -> str:
    """The stdout of running ``source`` with this interpreter."""
    proc = subprocess.run(
        [sys.executable, "-c", source],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONIOENCODING": "utf-8"},
    )
    return proc.stdout


def tsc_errors(tsc: str, args: list[str], cwd: Path) -> dict[str, list[str]]:
    """Run tsc once; its error messages per file name."""
    proc = subprocess.run(
        [tsc, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )
    errors: dict[str, list[str]] = {}
    for line in (proc.stdout + proc.stderr).splitlines():
        m = _TSC_ERROR.match(line.strip())
        if m:
            errors.setdefault(Path(m.group("file")).name, []).append(line.strip())
        elif line.strip() and proc.returncode not in (0, 1, 2):
            errors.setdefault("*", []).append(line.strip())
    return errors


@dataclass
class Batch:
    """Results of compiling a set of TS files both ways and running them."""

    strict_errors: dict[str, list[str]] = field(default_factory=dict)
    harness_errors: dict[str, list[str]] = field(default_factory=dict)
    stdout: dict[str, str] = field(default_factory=dict)
    stderr: dict[str, str] = field(default_factory=dict)


def compile_and_run(sources: dict[str, str], workdir: Path, run: bool = True) -> Batch:
    """Write ``{stem: ts_source}`` to files, type-check with ``--strict``, compile with the
    harness flags (one tsc call each) and run every program with node."""
    tsc, node = require_tools()
    workdir.mkdir(parents=True, exist_ok=True)
    names = []
    for stem, code in sources.items():
        (workdir / f"{stem}.ts").write_text(code, encoding="utf-8")
        names.append(f"{stem}.ts")
    batch = Batch()
    if not names:
        return batch
    batch.strict_errors = tsc_errors(tsc, ["--strict", *STRICT_TARGET, "--noEmit", *names], workdir)
    batch.harness_errors = tsc_errors(tsc, [*HARNESS_FLAGS, "--outDir", "out", *names], workdir)
    if run:
        for stem in sources:
            js = workdir / "out" / f"{stem}.js"
            if not js.exists():
                continue
            proc = subprocess.run(
                [node, str(js)], capture_output=True, text=True, timeout=10, check=False
            )
            batch.stdout[stem] = proc.stdout
            batch.stderr[stem] = proc.stderr
    return batch


def same_output(expected: str, actual: str) -> bool:
    """Equal stdout; a final newline console.log adds after a partial last line is allowed."""
    return actual == expected or (not expected.endswith("\n") and actual == expected + "\n")
