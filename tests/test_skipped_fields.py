"""A field the instruction names is never dropped: the answer uses it, or the request falls back.

Many field names are also words the grammar skips ("code", "data", "text", "file", "a"): a
projection that names one must not answer without it.
"""

from __future__ import annotations

import json

import pytest

from zerolayer.core.engine import Engine
from zerolayer.core.messages import Route

# keys that are also benign words of the grammar's closed classes
BENIGN_KEYS = ["code", "data", "text", "content", "input", "file", "config", "object", "one", "a"]


def _records(key: str) -> str:
    return json.dumps([{key: "A", "price": 1, "x": 2}, {key: "B", "price": 3, "x": 4}])


@pytest.mark.parametrize("key", BENIGN_KEYS)
@pytest.mark.parametrize(
    "template",
    [
        "keep only {k} and price",
        "keep only price and {k}",
        "只要{k}、price",
        "sort by price, keep {k}",
    ],
)
def test_a_named_field_is_kept_or_the_request_falls_back(
    engine: Engine, key: str, template: str
) -> None:
    result = engine.run(template.format(k=key), _records(key))
    assert result.route is not Route.ERROR, result.reason
    if result.route is Route.DETERMINISTIC:
        out = json.loads(result.output or "")
        assert all(key in record for record in out), (template, result.output)


@pytest.mark.parametrize("key", BENIGN_KEYS)
def test_fields_not_named_do_not_stop_an_answer(engine: Engine, key: str) -> None:
    result = engine.run("keep only price", _records(key))
    assert result.route is Route.DETERMINISTIC
    assert json.loads(result.output or "") == [{"price": 1}, {"price": 3}]


def test_a_quoted_field_name_is_read(engine: Engine) -> None:
    result = engine.run('keep only "code" and "price"', _records("code"))
    assert json.loads(result.output or "") == [{"code": "A", "price": 1}, {"code": "B", "price": 3}]


def test_the_fallback_says_which_field_and_what_to_do(engine: Engine) -> None:
    result = engine.run("keep only code and price", json.dumps({"code": "A", "price": 1, "x": 2}))
    assert result.route is Route.FALLBACK and result.reason == "field.skipped"
    assert "'code'" in (result.detail or "") and "quote" in (result.detail or "")


def test_records_are_read_by_the_query_frame_with_the_field_quoted(engine: Engine) -> None:
    # the query frame reads every word itself, and quotes a key the grammar would skip
    result = engine.run("keep only code and price", _records("code"))
    assert json.loads(result.output or "") == [{"code": "A", "price": 1}, {"code": "B", "price": 3}]


def test_a_reading_across_a_question_that_does_not_fit_falls_back(engine: Engine) -> None:
    people = json.dumps([{"name": "Ann", "salary": 5}, {"name": "Raj", "salary": 9}])
    # ("makes" names the salary through the glossary now; "wins" names no field)
    result = engine.run("who wins the most? just the name", people)
    assert result.route is Route.FALLBACK and result.reason == "plan.across_question"
    # the query frame reads the same words clause by clause when every word has a class
    framed = engine.run("who earns the most? just the name", people)
    assert (framed.route, framed.output) == (Route.DETERMINISTIC, "Raj")
    # without a question mark the sentence is not read at all
    plain = engine.run("which one has the highest name", people)
    assert plain.route is not Route.DETERMINISTIC


ROUTES = json.dumps(
    [
        {"code": "A", "from": "FRA", "to": "JFK", "price": 7},
        {"code": "B", "from": "LHR", "to": "SFO", "price": 3},
    ]
)


@pytest.mark.parametrize(
    "words",
    [
        "From the list below, sort by price ascending",
        "sort by price from high to low",
        "sort by price, then convert it to YAML",
        "filter where price < 5, then output it as yaml",
    ],
)
def test_a_key_in_a_phrase_of_the_request_is_not_a_field_named(engine: Engine, words: str) -> None:
    # "from" and "to" are keys; here they say where the data is, an order or a target format
    result = engine.run(words, ROUTES)
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)


@pytest.mark.parametrize(
    "words",
    ["keep only code and to, then convert to yaml", "keep only price and from as yaml"],
)
def test_the_same_key_elsewhere_is_still_a_field_named(engine: Engine, words: str) -> None:
    result = engine.run(words, ROUTES)
    if result.route is Route.DETERMINISTIC:
        assert "from" in (result.output or "") or "to:" in (result.output or ""), result.output
