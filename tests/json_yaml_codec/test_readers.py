"""parse_json and parse_yaml on hand-written cases (cases/json_errors.yaml, yaml_read.yaml)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
import ruamel.yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from zerolayer.core.errors import LimitExceeded, PayloadError, Unsupported
from zerolayer.plugins.json_yaml.codec import (
    decode_payload,
    parse_json,
    parse_yaml,
    parse_yaml_documents,
)

from ._support import load_cases, strict_equal

JSON_ERRORS = load_cases("json_errors.yaml")
YAML_CASES = load_cases("yaml_read.yaml")


@pytest.mark.parametrize("case", JSON_ERRORS, ids=lambda c: c["name"])
def test_json_error_position_and_reason(case: dict[str, Any]) -> None:
    with pytest.raises(PayloadError) as info:
        parse_json(case["payload"])
    err = info.value
    assert (err.line, err.column) == (case["line"], case["column"]), err.reason
    assert case["reason"] in err.reason
    assert str(err).startswith(f"invalid JSON at line {case['line']}, column {case['column']}")


@pytest.mark.parametrize("case", YAML_CASES, ids=lambda c: c["name"])
def test_yaml_reading_rule(case: dict[str, Any]) -> None:
    if "value" in case:
        assert strict_equal(parse_yaml(case["yaml"]), case["value"])
    elif "unsupported" in case:
        with pytest.raises(Unsupported) as info:
            parse_yaml(case["yaml"])
        assert info.value.reason == case["unsupported"]
    else:
        want = case["error"]
        with pytest.raises(PayloadError) as err_info:
            parse_yaml(case["yaml"])
        err = err_info.value
        assert (err.line, err.column) == (want["line"], want["column"]), err.reason
        assert want["reason"] in err.reason
        assert str(err).startswith("invalid YAML at line")


def test_json_numbers_keep_their_kind() -> None:
    value = parse_json("[1, 1.0, -0.0, 1e2, 123456789012345678901234567890, true, null]")
    assert [type(v) for v in value] == [int, float, float, float, int, bool, type(None)]
    assert value[4] == 123456789012345678901234567890
    assert json.dumps(value[2]) == "-0.0"


def test_json_bom_is_tolerated() -> None:
    assert parse_json('\ufeff{"a": 1}') == {"a": 1}


def test_json_duplicate_keys_last_wins() -> None:
    assert parse_json('{"a": 1, "a": 2}') == {"a": 2}


def test_json_overflowing_number_is_unsupported() -> None:
    with pytest.raises(Unsupported) as info:
        parse_json("[1e400]")
    assert info.value.reason == "json_number_out_of_range"


@pytest.mark.parametrize(
    "text", ["[1e400, }", '{"a": -1e999, "b": tru}', "[" + "9" * 400 + ".0, 1,]"]
)
def test_json_syntax_error_after_an_overflowing_number_is_reported(text: str) -> None:
    with pytest.raises(PayloadError):
        parse_json(text)


@pytest.mark.parametrize("text", ["[1.5e308, 1e308]", "[" + "9" * 300 + "]", "[1e-400]"])
def test_json_numbers_near_the_limits_are_read(text: str) -> None:
    assert parse_json(text) == json.loads(text)


def test_json_valid_surrogate_pair_is_kept() -> None:
    assert parse_json('"\\ud83d\\ude00"') == "\U0001f600"


def test_json_integer_beyond_conversion_limit() -> None:
    with pytest.raises(LimitExceeded):
        parse_json("9" * 5000)


def test_yaml_integer_beyond_conversion_limit() -> None:
    with pytest.raises(LimitExceeded):
        parse_yaml("a: " + "9" * 5000 + "\n")


def test_json_deep_valid_nesting_is_a_limit_not_a_crash() -> None:
    with pytest.raises(LimitExceeded):
        parse_json("[" * 100_000 + "]" * 100_000)


def test_json_deep_unclosed_nesting_is_positioned() -> None:
    with pytest.raises(PayloadError) as info:
        parse_json("[" * 100_000)
    assert (info.value.line, info.value.column) == (1, 100_001)


def test_decode_payload_points_at_the_bad_byte() -> None:
    with pytest.raises(PayloadError) as info:
        decode_payload(b'{\n  "a": "\xff"\n}')
    assert (info.value.line, info.value.column) == (2, 9)


def test_yaml_documents_list() -> None:
    assert parse_yaml_documents("a: 1\n---\n- 2\n...\n") == [{"a": 1}, [2]]
    assert parse_yaml_documents("") == []


def test_yaml_alias_bomb_is_limited() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    with pytest.raises(LimitExceeded):
        parse_yaml("\n".join(lines) + "\n")


def test_yaml_aliases_share_values_without_copy_errors() -> None:
    value = parse_yaml("a: &x {k: [1, 2]}\nb: *x\nc: *x\n")
    assert value == {"a": {"k": [1, 2]}, "b": {"k": [1, 2]}, "c": {"k": [1, 2]}}


# -- parse_yaml on text written by another YAML 1.2 emitter ------------------------------

_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=10)
_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        _TEXT,
        st.sampled_from(["yes", "no", "on", "0755", "1_000", "0o17", "2024-03-01", "~", ""]),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=4)),
    max_leaves=15,
)


@settings(max_examples=150, deadline=None, database=None)
@given(value=_VALUES, flow=st.booleans())
def test_parse_yaml_reads_ruamel_output(value: Any, flow: bool) -> None:
    """Text that ruamel.yaml writes and reads back as ``value``: parse_yaml reads ``value``
    too, or falls back (ruamel.yaml's own emitter is not always right, e.g. it writes the
    string '? a' plain in a flow sequence, so only self-consistent outputs count)."""
    yaml12 = ruamel.yaml.YAML(typ="safe", pure=True)
    yaml12.default_flow_style = flow
    stream = io.StringIO()
    yaml12.dump(value, stream)
    text = stream.getvalue()
    try:
        consistent = strict_equal(ruamel.yaml.YAML(typ="safe", pure=True).load(text), value)
    except ruamel.yaml.YAMLError:
        consistent = False
    assume(consistent)
    try:
        got = parse_yaml(text)
    except Unsupported:
        return
    assert strict_equal(got, value), text
