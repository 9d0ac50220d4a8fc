"""emit_yaml: exact outputs, tricky strings in every context, and random-value properties.

Every output is read back by PyYAML (YAML 1.1, ``yaml.safe_load``) and by ruamel.yaml
(YAML 1.2 safe loader) and must give exactly the written value, and its layout must follow
the options (checked by ``option_problems``, an independent checker on PyYAML's node tree).
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core.errors import LimitExceeded, PlanError, Unsupported
from zerolayer.plugins.json_yaml.codec import emit_yaml, parse_yaml, verify_yaml
from zerolayer.plugins.json_yaml.yaml_read import parse_yaml_ruamel_safe
from zerolayer.plugins.json_yaml.yaml_scalars import TYPED_PATTERNS, is_plain_safe

from ._support import CASES, QUOTES, SEQ_STYLES, load_cases, option_problems, strict_equal

EXACT = load_cases("emit_yaml.yaml")
TRICKY: list[str] = json.loads((CASES / "tricky_strings.json").read_text(encoding="utf-8"))
STYLE_COMBOS = [
    {"quote": q, "seq_style": s, "sort_keys": k, "explicit_start": e}
    for q, s, k, e in itertools.product(QUOTES, SEQ_STYLES, (False, True), (False, True))
]


def check_round_trip(value: Any, options: dict[str, Any]) -> str:
    """Emit ``value``; assert both readers read it back exactly and the layout is right."""
    out = emit_yaml(value, **options)
    assert strict_equal(yaml.safe_load(out), value), out
    assert strict_equal(parse_yaml_ruamel_safe(out), value), out
    verify_yaml(out, value, ordered=not options.get("sort_keys", False))
    assert option_problems(out, options) == [], out
    return out


@pytest.mark.parametrize("case", EXACT, ids=lambda c: c["name"])
def test_exact_output(case: dict[str, Any]) -> None:
    value = json.loads(case["value"])
    assert emit_yaml(value, **case["options"]) == case["expected"]
    check_round_trip(value, case["options"])


@pytest.mark.parametrize("quote", QUOTES)
@pytest.mark.parametrize("seq_style", SEQ_STYLES)
def test_tricky_strings_in_every_position(quote: str, seq_style: str) -> None:
    options = {"quote": quote, "seq_style": seq_style}
    for text in TRICKY:
        for value in (text, [text], {text: text}, {"k": [text, {text: [text]}]}):
            check_round_trip(value, options)
    check_round_trip(TRICKY, options)
    check_round_trip({t: i for i, t in enumerate(TRICKY)}, options)


def test_plain_strings_match_no_typing_rule() -> None:
    for text in TRICKY:
        if is_plain_safe(text) or is_plain_safe(text, flow=True):
            assert not any(rx.match(text) for rx in TYPED_PATTERNS), text


def test_typed_looking_strings_are_quoted() -> None:
    for text in ["yes", "no", "on", "off", "y", "n", "true", "null", "~", "0755", "0x1F", "0o17",
                 "1_000", "1:30", ".inf", ".nan", "2024-03-01", "1e3", "", " a", "a: b", "a #b",
                 "- a", "[a]", "<<", "="]:  # fmt: skip
        out = emit_yaml({"k": text})
        assert out != f"k: {text}\n", text


# -- random values ----------------------------------------------------------------------

TEXT = st.one_of(
    st.sampled_from(TRICKY),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=12),
    st.builds(lambda a, b: a + b, st.sampled_from(TRICKY), st.sampled_from(TRICKY)),
    st.builds(lambda a, b: a + " " + b, st.sampled_from(TRICKY), st.text(max_size=4)),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(TEXT, inner, max_size=5)),
    max_leaves=25,
)
OPTIONS = st.fixed_dictionaries(
    {
        "quote": st.sampled_from(QUOTES),
        "seq_style": st.sampled_from(SEQ_STYLES),
        "sort_keys": st.booleans(),
        "indent": st.integers(min_value=1, max_value=10),
        "explicit_start": st.booleans(),
    }
)


@settings(max_examples=400, deadline=None, database=None)
@given(value=VALUES, options=OPTIONS)
def test_random_values_read_back_under_yaml_1_1_and_1_2(
    value: Any, options: dict[str, Any]
) -> None:
    out = check_round_trip(value, options)
    try:
        again = parse_yaml(out)
    except Unsupported:
        return  # e.g. a key our own reader refuses; the 1.1/1.2 reads above are the contract
    assert strict_equal(again, value)


@settings(max_examples=60, deadline=None, database=None)
@given(value=st.dictionaries(TEXT, st.dictionaries(TEXT, SCALARS, max_size=4), max_size=6),
       indent=st.integers(min_value=1, max_value=10))  # fmt: skip
def test_every_option_combination_on_random_nested_mappings(
    value: dict[str, Any], indent: int
) -> None:
    for options in STYLE_COMBOS:
        check_round_trip(value, {**options, "indent": indent})


def test_sort_keys_orders_every_mapping() -> None:
    value = {"b": {"z": 1, "a": [{"y": 1, "x": 2}]}, "a": 1, "C": 2}
    out = emit_yaml(value, sort_keys=True)
    assert out == "C: 2\na: 1\nb:\n  a:\n    - x: 2\n      'y': 1\n  z: 1\n"
    assert option_problems(out, {"sort_keys": True}) == []
    assert option_problems(emit_yaml(value), {"sort_keys": True}) != []


def test_quote_double_quotes_every_string_value() -> None:
    value = {"a": "x", "b": ["y", {"c": "z"}], "d": 1, "e": None, "f": True}
    out = emit_yaml(value, quote="double")
    nodes = yaml.compose(out)
    styles = [
        v.style for _, v in nodes.value if isinstance(v, yaml.ScalarNode) and v.tag.endswith(":str")
    ]
    assert styles == ['"']
    assert '- "y"' in out and 'c: "z"' in out and "d: 1" in out


def test_long_keys_use_explicit_form() -> None:
    key = "k" * 1500
    out = check_round_trip({key: {"a": 1}, "b": [key]}, {})
    assert out.startswith("? ")


def test_options_are_validated() -> None:
    with pytest.raises(PlanError):
        emit_yaml({}, quote="backtick")
    with pytest.raises(PlanError):
        emit_yaml({}, seq_style="inline")
    with pytest.raises(PlanError):
        emit_yaml({}, indent=0)
    with pytest.raises(Unsupported):
        emit_yaml({}, width=80)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (float("nan"), "yaml_non_finite_float"),
        ([float("inf")], "yaml_non_finite_float"),
        ({1: "a"}, "yaml_non_string_key"),
        ({1: "a", "b": 2}, "yaml_non_string_key"),
        ({"a": (1, 2)}, "yaml_unsupported_type"),
        ({"a": b"x"}, "yaml_unsupported_type"),
    ],
)
def test_values_without_a_json_form_are_unsupported(value: Any, reason: str) -> None:
    for sort_keys in (False, True):
        with pytest.raises(Unsupported) as info:
            emit_yaml(value, sort_keys=sort_keys)
        assert info.value.reason == reason


def test_integer_beyond_conversion_limit() -> None:
    with pytest.raises(LimitExceeded):
        emit_yaml({"n": 10**5000})


def test_nesting_limit() -> None:
    value: Any = "x"
    for _ in range(150):
        value = {"k": value}
    with pytest.raises(LimitExceeded):
        emit_yaml(value)
    shallow: Any = "x"
    for _ in range(99):
        shallow = [shallow]
    check_round_trip(shallow, {})
