"""add_jsdoc: docstrings and TS types become JSDoc blocks; the result still compiles and runs."""

from __future__ import annotations

import pytest
from py_ts_cases import program_files
from py_ts_harness import compile_and_run, run_python, same_output

from zerolayer.plugins.py_ts.jsdoc import add_jsdoc, parse_docstring, split_params
from zerolayer.plugins.py_ts.translate import parse_python, python_to_typescript

DOC_PROGRAMS = ["p13_classes", "p56_main_guard", "p60_shapes_classes", "p66_docstrings"]


def _jsdoc_of(stem: str) -> tuple[str, str]:
    path = next(p for p in program_files() if p.stem == stem)
    source = path.read_text(encoding="utf-8")
    return source, add_jsdoc(python_to_typescript(parse_python(source)))


def test_docstring_sections_become_tags() -> None:
    _, ts = _jsdoc_of("p66_docstrings")
    assert "/**\n * A bank account.\n *\n * Keeps a running balance.\n */\nclass Account {" in ts
    assert " * @param {number} amount - How much to add. Must be positive.\n" in ts
    assert " * @returns {number} The new balance.\n" in ts
    assert " * @param {number} [factor=2.0] - the multiplier\n" in ts
    assert " * @returns {number[]} scaled numbers\n" in ts
    # a function without a docstring still gets typed tags
    assert "/**\n * @param {string} s\n * @returns {string}\n */\nfunction shout(" in ts
    # the docstring comments were consumed, not duplicated
    assert "// Add money" not in ts


def test_void_functions_have_no_returns_tag() -> None:
    _, ts = _jsdoc_of("p56_main_guard")
    assert "@returns {void}" not in ts
    assert "*/\nfunction main(" not in ts  # nothing to say about main(): no block
    assert "@param {string[]} names" in ts


def test_prelude_is_left_alone() -> None:
    _, ts = _jsdoc_of("p13_classes")
    prelude = ts[: ts.index("end of helpers")]
    assert "/**" not in prelude


def test_idempotent() -> None:
    _, ts = _jsdoc_of("p60_shapes_classes")
    assert add_jsdoc(ts) == ts


def test_hand_written_typescript() -> None:
    src = (
        "// Adds two numbers.\n"
        "export function add(a: number, b: number = 1): number {\n  return a + b;\n}\n"
        "class Box<T> {\n  constructor(private value: T) {}\n"
        "  get(): T {\n    if (true) {\n      return this.value;\n    }\n  }\n}\n"
    )
    out = add_jsdoc(src)
    assert "/**\n * Adds two numbers.\n *\n * @param {number} a\n" in out
    assert " * @param {number} [b=1]\n * @returns {number}\n */\nexport function add(" in out
    assert "  /**\n   * @returns {T}\n   */\n  get(): T {" in out
    assert "/**" not in out.split("get(): T {")[1]


def test_split_params_nested_types() -> None:
    params = split_params('a: Map<string, number[]>, b: [number, string] = [1, "x,y"], c?: T')
    assert params == [
        ("a", "Map<string, number[]>", None),
        ("b", "[number, string]", '[1, "x,y"]'),
        ("c", "T", None),
    ]


def test_parse_docstring_google_and_sphinx() -> None:
    doc = parse_docstring(["Summary.", "", "Args:", "    x: first", "Returns:", "    int: a value"])
    assert doc.description == ["Summary."]
    assert doc.params == {"x": "first"}
    assert doc.returns == "a value"
    doc = parse_docstring([":param y: second", ":return: it"])
    assert doc.params == {"y": "second"} and doc.returns == "it"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    sources = {f"jsdoc_{s}": _jsdoc_of(s)[1] for s in DOC_PROGRAMS}
    return compile_and_run(sources, tmp_path_factory.mktemp("py_ts_jsdoc"))


@pytest.mark.parametrize("stem", DOC_PROGRAMS)
def test_jsdoc_output_compiles_and_runs(stem: str, compiled) -> None:  # type: ignore[no-untyped-def]
    source, ts = _jsdoc_of(stem)
    assert "@param" in ts and "@returns" in ts
    name = f"jsdoc_{stem}"
    assert not compiled.strict_errors.get(f"{name}.ts"), compiled.strict_errors
    assert not compiled.harness_errors.get(f"{name}.ts"), compiled.harness_errors
    assert same_output(run_python(source), compiled.stdout[name])
