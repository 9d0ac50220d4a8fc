"""Translate each fixture program and dev case, compile with tsc (``--strict`` and the
zeroscore harness flags, one call each for all programs), run with node, compare stdout
with the Python program's own stdout."""

from __future__ import annotations

from pathlib import Path

import pytest
from py_ts_cases import dev_cases, program_files
from py_ts_harness import Batch, compile_and_run, run_python, same_output

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.py_ts.jsdoc import add_jsdoc
from zerolayer.plugins.py_ts.translate import parse_python, python_to_typescript

PROGRAMS = {p.stem: p.read_text(encoding="utf-8") for p in program_files()}
DEV = {("dev_" + c["id"].replace("-", "_")): c for c in dev_cases()}


def _translate(source: str) -> str:
    return python_to_typescript(parse_python(source))


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Batch, dict[str, str]]:
    """All programs translated, compiled and run once; translation errors by name."""
    sources: dict[str, str] = {}
    failures: dict[str, str] = {}
    everything = {**PROGRAMS, **{k: c["source"] for k, c in DEV.items()}}
    for stem, src in everything.items():
        try:
            sources[stem] = _translate(src)
        except Unsupported as exc:
            failures[stem] = f"Unsupported({exc.reason}): {exc}"
            continue
        # the JSDoc op composed after conversion must keep the program compiling and running
        sources[stem + "__jsdoc"] = add_jsdoc(sources[stem])
    return compile_and_run(sources, tmp_path_factory.mktemp("py_ts")), failures


def _check(stem: str, expected: str, result: tuple[Batch, dict[str, str]]) -> None:
    batch, failures = result
    assert stem.removesuffix("__jsdoc") not in failures, failures.get(stem)
    file = f"{stem}.ts"
    assert not batch.strict_errors.get(file), batch.strict_errors[file]
    assert not batch.harness_errors.get(file), batch.harness_errors[file]
    assert not batch.strict_errors.get("*") and not batch.harness_errors.get("*")
    actual = batch.stdout.get(stem)
    assert actual is not None, "no compiled output"
    assert same_output(expected, actual), (
        f"stdout differs\n--- python\n{expected}\n--- node\n{actual}\n{batch.stderr.get(stem)}"
    )


def test_enough_programs() -> None:
    assert len(PROGRAMS) >= 60


@pytest.mark.parametrize("stem", sorted(PROGRAMS))
def test_program(stem: str, batch: tuple[Batch, dict[str, str]]) -> None:
    expected = run_python(PROGRAMS[stem])
    assert expected, "the fixture program prints nothing"
    _check(stem, expected, batch)
    _check(stem + "__jsdoc", expected, batch)


@pytest.mark.parametrize("stem", sorted(DEV))
def test_dev_case(stem: str, batch: tuple[Batch, dict[str, str]]) -> None:
    case = DEV[stem]
    expected = run_python(case["source"])
    assert expected.rstrip() == case["gold"].rstrip()
    _check(stem, expected, batch)
    _check(stem + "__jsdoc", expected, batch)


def test_programs_folder_is_read() -> None:
    assert Path(__file__).with_name("programs").is_dir()
