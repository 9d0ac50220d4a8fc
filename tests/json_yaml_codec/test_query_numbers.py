"""The numeric answers of JSON queries: ``median``, aggregates per group and the ``number``
check."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolayer.core.errors import OpError, Unsupported
from zerolayer.plugins.json_yaml.query import (
    exists,
    group_aggregate,
    maximum,
    median,
    number,
    total,
)

numbers = st.one_of(
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(min_value=-1e12, max_value=1e12, allow_nan=False),
)


@given(st.lists(numbers, min_size=1, max_size=40))
def test_median_is_the_middle_of_the_sorted_values(values: list[int | float]) -> None:
    got = median([{"x": v} for v in values], field="x")
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        assert got == ordered[mid] and type(got) is type(ordered[mid])
    else:
        assert ordered[mid - 1] <= got <= ordered[mid]
        assert math.isclose(got, statistics.median(values), rel_tol=1e-12, abs_tol=1e-9)


def test_median_of_an_even_count_is_exact_in_decimal() -> None:
    assert median([0.1, 0.2]) == 0.15  # binary floats alone give 0.15000000000000002


def test_median_refuses_what_is_not_a_list_of_numbers() -> None:
    with pytest.raises(OpError, match="median of no values"):
        median([])
    with pytest.raises(OpError, match="not a number"):
        median([{"x": 1}, {"x": "2"}], field="x")


@pytest.mark.parametrize("value", [0, -3, 2.5])
def test_number_passes_numbers_through(value: int | float) -> None:
    assert number(value) == value


@pytest.mark.parametrize("value", [True, "7", None, [1], {"n": 1}])
def test_number_falls_back_on_anything_else(value: object) -> None:
    with pytest.raises(Unsupported) as caught:
        number(value)
    assert caught.value.reason == "query.not_a_number"


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(-1000, 1000)), min_size=1))
def test_group_aggregate_is_the_aggregate_of_each_group(rows: list[tuple[str, int]]) -> None:
    records = [{"k": k, "v": v} for k, v in rows]
    got = group_aggregate(records, by="k", agg="sum", field="v")
    keys = list(dict.fromkeys(k for k, _ in rows))
    assert list(got) == keys  # in order of first appearance
    for key in keys:
        members = [r for r in records if r["k"] == key]
        assert got[key] == total(members, field="v")
    assert group_aggregate(records, by="k", agg="max", field="v") == {
        key: maximum([r for r in records if r["k"] == key], field="v") for key in keys
    }


def test_group_aggregate_refuses_what_it_cannot_group() -> None:
    with pytest.raises(Unsupported) as caught:
        group_aggregate([{"k": 1, "v": 2}], by="k", agg="avg", field="v")
    assert caught.value.reason == "query.group_key"
    with pytest.raises(OpError, match="record 2 has no field 'k'"):
        group_aggregate([{"k": "a", "v": 2}, {"v": 3}], by="k", agg="avg", field="v")
    with pytest.raises(OpError, match="not a number"):
        group_aggregate([{"k": "a", "v": "2"}], by="k", agg="sum", field="v")


def test_exists_says_whether_a_list_holds_any_item() -> None:
    assert exists([{"a": 1}]) is True
    assert exists([]) is False
    with pytest.raises(OpError):
        exists({"a": 1})
