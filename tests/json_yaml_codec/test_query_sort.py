"""Sorting records (plain order, and alphabetical order: strings ignore case first) and the
distinct values of a field."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from zerolayer.plugins.json_yaml.query import distinct, sort_records

words = st.text(alphabet="abcABCxyzXYZ", min_size=0, max_size=6)


@given(st.lists(words, max_size=30), st.sampled_from(["asc", "desc"]))
def test_alphabetical_order_ignores_case_first(values: list[str], order: str) -> None:
    records = [{"name": v, "i": i} for i, v in enumerate(values)]
    got = sort_records(records, key="name", order=order, alphabetical=True)
    assert sorted(r["i"] for r in got) == list(range(len(values)))  # a permutation
    keys = [(r["name"].casefold(), r["name"]) for r in got]
    assert keys == sorted(keys, reverse=order == "desc")


@given(st.lists(words, max_size=30))
def test_plain_order_is_code_point_order(values: list[str]) -> None:
    got = sort_records([{"name": v} for v in values], key="name")
    assert [r["name"] for r in got] == sorted(values)


def test_alphabetical_order_of_numbers_is_numeric() -> None:
    records = [{"n": 10}, {"n": 9}]
    assert sort_records(records, key="n", alphabetical=True) == [{"n": 9}, {"n": 10}]


scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["a", "A", "1"]))


@given(st.lists(scalars, max_size=30))
def test_distinct_values_keep_first_appearances(values: list[object]) -> None:
    got = distinct([{"v": v} for v in values], field="v")
    as_json = [json.dumps(v) for v in values]
    assert [json.dumps(v) for v in got] == list(dict.fromkeys(as_json))
    assert all(type(g) is type(values[as_json.index(json.dumps(g))]) for g in got)


def test_distinct_tells_true_from_one() -> None:
    assert distinct([{"v": 1}, {"v": True}, {"v": 1}, {"v": "1"}], field="v") == [1, True, "1"]


def test_distinct_of_one_object_reads_the_array_at_the_field() -> None:
    config = {"regions": ["eu", "us", "eu"], "owner": "x"}
    assert distinct(config, field="regions") == ["eu", "us"]
    assert distinct(config, field="owner") == ["x"]
