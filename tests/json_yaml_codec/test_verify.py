"""verify_yaml / verify_json: accept exact read-backs, reject every near miss."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core.errors import LimitExceeded, OpError, PlanError, Unsupported
from zerolayer.plugins.json_yaml.codec import emit_json, parse_json, verify_json, verify_yaml

from ._support import load_cases

MISMATCHES = load_cases("verify_mismatches.yaml")


@pytest.mark.parametrize("case", MISMATCHES, ids=lambda c: repr(c["yaml"]))
def test_near_misses_fail_verification(case: dict[str, Any]) -> None:
    with pytest.raises(OpError, match="internal: emitted YAML"):
        verify_yaml(case["yaml"], json.loads(case["value"]))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a: 1\nb: [x, 'y', \"z\"]\n", {"b": ["x", "y", "z"], "a": 1}),
        ("- 1.0e+16\n- -0.0\n- 0\n- true\n- null\n", [1e16, -0.0, 0, True, None]),
        ("'yes'\n", "yes"),
        ("---\n{}\n", {}),
        ("a: []\n", {"a": []}),
    ],
)
def test_exact_read_backs_pass(text: str, value: Any) -> None:
    verify_yaml(text, value)
    verify_yaml(text, value, thorough=True)


def test_ordered_checks_key_order() -> None:
    verify_yaml("b: 1\na: 2\n", {"a": 2, "b": 1})
    with pytest.raises(OpError):
        verify_yaml("b: 1\na: 2\n", {"a": 2, "b": 1}, ordered=True)


def test_thorough_catches_a_yaml_1_2_only_difference() -> None:
    verify_yaml("a: 0o17\n", {"a": "0o17"})  # YAML 1.1 reads a string
    with pytest.raises(OpError, match=r"1\.2 reader"):
        verify_yaml("a: 0o17\n", {"a": "0o17"}, thorough=True)  # YAML 1.2 reads 15


def test_verify_json() -> None:
    verify_json('{"a": [1, 1.0, true]}', {"a": [1, 1.0, True]})
    for text, value in [
        ('{"a": 1}', {"a": True}),
        ('{"a": 1}', {"a": 1.0}),
        ('{"a": 1, "a": 1}', {"a": 1}),
        ('{"a": 1', {"a": 1}),
        ('{"b": 1, "a": 1}', {"a": 1, "b": 1}),
    ]:
        with pytest.raises(OpError):
            verify_json(text, value, ordered=True)


# -- emit_json ------------------------------------------------------------------------


def test_emit_json_options() -> None:
    value = {"b": [1, {"c": "é"}], "a": None}
    assert (
        emit_json(value)
        == '{\n  "b": [\n    1,\n    {\n      "c": "é"\n    }\n  ],\n  "a": null\n}'
    )
    assert emit_json(value, single_line=True) == '{"b":[1,{"c":"é"}],"a":null}'
    assert emit_json(value, indent=None, sort_keys=True) == '{"a":null,"b":[1,{"c":"é"}]}'
    assert emit_json(value, indent=4).splitlines()[1] == '    "b": ['
    assert "\\u00e9" in emit_json(value, ensure_ascii=True)


def test_emit_json_refusals() -> None:
    with pytest.raises(Unsupported):
        emit_json([float("nan")])
    with pytest.raises(Unsupported):
        emit_json({"a": {1, 2}})
    with pytest.raises(PlanError):
        emit_json({}, indent=-1)
    with pytest.raises(LimitExceeded):
        emit_json([10**5000])


JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(st.characters(exclude_categories=("Cs",))),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None, database=None)
@given(
    value=JSON_VALUES,
    indent=st.one_of(st.none(), st.integers(min_value=0, max_value=8)),
    sort_keys=st.booleans(),
    ensure_ascii=st.booleans(),
)
def test_emit_json_round_trip(
    value: Any, indent: int | None, sort_keys: bool, ensure_ascii: bool
) -> None:
    text = emit_json(value, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
    verify_json(text, value, ordered=not sort_keys)
    assert json.dumps(parse_json(text), sort_keys=True) == json.dumps(value, sort_keys=True)
