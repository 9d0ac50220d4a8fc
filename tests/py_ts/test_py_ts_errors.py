"""Constructs outside the subset raise Unsupported; syntax errors carry line and column."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from zerolayer.core.errors import PayloadError, Unsupported
from zerolayer.plugins.py_ts.translate import parse_python, python_to_typescript

CASES = yaml.safe_load(Path(__file__).with_name("unsupported.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_unsupported(case: dict[str, str]) -> None:
    with pytest.raises(Unsupported) as info:
        python_to_typescript(parse_python(case["source"]))
    assert info.value.reason == case["reason"], str(info.value)
    assert "(line " in str(info.value)


def test_unsupported_message_names_line() -> None:
    src = "x = 1\ny = 2\ntry:\n    pass\nexcept Exception:\n    pass\n"
    with pytest.raises(Unsupported) as info:
        python_to_typescript(parse_python(src))
    assert "line 3" in str(info.value)
    assert "try" in str(info.value)


@pytest.mark.parametrize(
    ("source", "line", "column"),
    [
        ("x = 1\nif x > 0\n    print(x)\n", 2, 9),
        ("def f(:\n    pass\n", 1, 7),
        ("print('unclosed)\n", 1, 7),
        ("for i in range(3):\nprint(i)\n", 2, 1),
    ],
)
def test_syntax_error_position(source: str, line: int, column: int) -> None:
    with pytest.raises(PayloadError) as info:
        parse_python(source)
    err = info.value
    assert err.line == line
    assert err.column == column
    assert f"line {line}" in str(err)
    assert "Python" in str(err)


def test_unsupported_is_not_a_crash_for_odd_input() -> None:
    tree = parse_python("")
    out = python_to_typescript(tree)
    assert out.strip() == "export {};"
