"""The pipeline language: parsing, canonical formatting, round trips and positioned errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolayer.core.errors import PipelineSyntaxError
from zerolayer.core.pipeline import format_plan, parse_plan
from zerolayer.core.plan import Plan, Step


def test_parses_the_documented_example() -> None:
    text = (
        'json.parse | sort(key="created_at", order="desc") | project(fields=["id","name"])'
        ' | yaml.emit(quote="double")'
    )
    plan = parse_plan(text)
    assert [s.op for s in plan.steps] == ["json.parse", "sort", "project", "yaml.emit"]
    assert plan.steps[1].params == {"key": "created_at", "order": "desc"}
    assert plan.steps[2].params == {"fields": ["id", "name"]}
    assert format_plan(plan) == text


def test_values_are_json() -> None:
    plan = parse_plan('x(a=1, b=-2.5e3, c=true, d=null, e={"k": [1, "\\u00e9"]}, f="a\\"b")')
    assert plan.steps[0].params == {
        "a": 1,
        "b": -2500.0,
        "c": True,
        "d": None,
        "e": {"k": [1, "é"]},
        "f": 'a"b',
    }


def test_parameter_order_follows_the_schema_when_given() -> None:
    plan = Plan((Step("sort", {"order": "desc", "key": "id"}),))
    assert format_plan(plan, {"sort": ("key", "order")}) == 'sort(key="id", order="desc")'
    assert format_plan(plan) == 'sort(key="id", order="desc")'  # sorted by name otherwise


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("json.parse | sort(key=)", 1, 23),
        ("json.parse |\n| yaml.emit", 2, 1),
        ("Sort(key=1)", 1, 1),
        ('sort(key="a", key="b")', 1, 1),
        ("sort(key='single')", 1, 10),
    ],
)
def test_errors_name_line_and_column(text: str, line: int, column: int) -> None:
    with pytest.raises(PipelineSyntaxError) as info:
        parse_plan(text)
    assert info.value.line == line
    assert info.value.column == column
    assert f"line {line}, column {column}" in str(info.value)
    assert "^" in str(info.value)  # the caret excerpt


_names = st.from_regex(r"[a-z][a-z0-9_]{0,8}(\.[a-z][a-z0-9_]{0,8}){0,2}", fullmatch=True)
_params = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)
_steps = st.builds(Step, _names, st.dictionaries(_params, _json, max_size=4))


@given(st.lists(_steps, min_size=1, max_size=5))
def test_plan_text_round_trips(steps: list[Step]) -> None:
    plan = Plan(tuple(steps))
    text = format_plan(plan)
    again = parse_plan(text)
    assert json.dumps([(s.op, s.params) for s in again.steps], sort_keys=True) == json.dumps(
        [(s.op, s.params) for s in plan.steps], sort_keys=True
    )
    assert format_plan(again) == text
