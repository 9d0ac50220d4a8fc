"""Misreadings the paraphrase corpus found, as plain engine requests: each gave a wrong
answer; now each is answered right or falls back."""

from __future__ import annotations

import json

import pytest
import yaml

from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Route

RECORDS = json.dumps([{"code": "A", "price": 1, "x": 2}, {"code": "B", "price": 3, "x": 4}])


@pytest.mark.parametrize("instruction", ["keep only code and price", "只要code、price"])
def test_a_projection_keeps_a_field_named_code(engine: Engine, instruction: str) -> None:
    result = engine.run(EngineRequest.from_instruction(instruction, RECORDS))
    if result.route is Route.DETERMINISTIC:
        assert json.loads(result.output or "") == [
            {"code": "A", "price": 1},
            {"code": "B", "price": 3},
        ]


def test_who_earns_the_most_is_not_an_error(engine: Engine) -> None:
    people = json.dumps([{"name": "Ann", "salary": 5}, {"name": "Raj", "salary": 9}])
    result = engine.run(EngineRequest.from_instruction("who earns the most? just the name", people))
    assert result.route is not Route.ERROR
    if result.route is Route.DETERMINISTIC:
        assert (result.output or "").strip() == "Raj"


@pytest.mark.parametrize(
    ("instruction", "payload"),
    [
        # "compact JSON" read as the field "compact" of JSON data, "this YAML" as a second
        # source: a 400 on the YAML payload, or the field's value where the data has one.
        # "compact" is the one-line option of the JSON written; "indented" is no option here.
        ("Give me compact JSON for this YAML", "a: 1\n"),
        ("Give me compact JSON for this YAML", '{"compact": {"a": 1}}'),
        ("Give me indented YAML for this JSON", '{"indented": {"a": 1}}'),
    ],
)
def test_an_adjective_before_a_format_is_not_a_field_of_another_source(
    engine: Engine, instruction: str, payload: str
) -> None:
    result = engine.run(EngineRequest.from_instruction(instruction, payload))
    if result.route is Route.DETERMINISTIC:
        assert "\n" not in (result.output or "").strip()
        assert json.loads(result.output or "") == yaml.safe_load(payload)
    else:
        # the payload is JSON text named YAML too: the fence check may speak first
        assert result.route is Route.FALLBACK
        assert result.reason in ("plan.sources_conflict", "plan.fence_source_conflict")


@pytest.mark.parametrize(
    ("instruction", "payload", "output"),
    [
        # a second format named as a source that a step writes is the chain's, not the payload's
        ("Convert this YAML to JSON, then sort the keys in the JSON", "b: 1\na: 2\n", None),
        ("把这段YAML转成JSON", "a: 1\n", '{\n  "a": 1\n}'),
    ],
)
def test_a_source_the_chain_writes_is_not_a_conflict(
    engine: Engine, instruction: str, payload: str, output: str | None
) -> None:
    result = engine.run(EngineRequest.from_instruction(instruction, payload))
    assert result.reason != "plan.sources_conflict"
    if output is not None:
        assert (result.route, result.output) == (Route.DETERMINISTIC, output)


@pytest.mark.parametrize(
    "message",
    [
        'Convert this JSON to YAML: {"a": 1}. Thanks!',
        'JSON to YAML: {"a": 1} (keep key order)',
        '转成YAML：{"a": 1}。谢谢',
        # any format: an error at the start of a last line of words is the data's end
        "Python to TypeScript: def f(x):\n    return x\n\nprint(f(1))\nThank you",
    ],
)
def test_words_after_whole_data_are_not_a_payload_error(engine: Engine, message: str) -> None:
    # the JSON is whole; the user's words after it are no fault of the data: never a 400
    result = engine.run(EngineRequest.from_instruction(message))
    assert (result.route, result.reason) == (Route.FALLBACK, "segment.closing_sentence")


@pytest.mark.parametrize(
    ("message", "without"),
    [
        ('Convert this JSON to YAML:\n{"a": 1}\nThanks!', 'Convert this JSON to YAML:\n{"a": 1}'),
        (
            "SQL to pandas, please: SELECT status, MAX(amount) AS top FROM orders GROUP BY "
            "status\nThanks!",
            "SQL to pandas, please: SELECT status, MAX(amount) AS top FROM orders GROUP BY status",
        ),
    ],
)
def test_thanks_right_under_self_claiming_data_say_nothing(
    engine: Engine, message: str, without: str
) -> None:
    # a line of thanks right under data whose reader claims only its own data (JSON, SQL),
    # and that the reader does not claim alone, is the user's: the answer is the one without
    want = engine.run(EngineRequest.from_instruction(without))
    result = engine.run(EngineRequest.from_instruction(message))
    assert want.route is Route.DETERMINISTIC
    assert (result.route, result.output) == (Route.DETERMINISTIC, want.output)


@pytest.mark.parametrize(
    "message",
    [
        'Convert this JSON to YAML:\n{"a": 1,}',
        'Convert this JSON to YAML:\n{"a": 1} {"b": 2}',
        'Convert this JSON to YAML:\n{"a": 1}\n{"b": 2}',
        '把这段JSON转成YAML：{"a": tru}',
        "SQL to pandas: SELECT status FROM orders\nWHER amount > 1",
    ],
)
def test_malformed_data_is_still_a_positioned_error(engine: Engine, message: str) -> None:
    result = engine.run(EngineRequest.from_instruction(message))
    assert result.route is Route.ERROR
    assert result.error is not None and getattr(result.error, "line", None) is not None


@pytest.mark.parametrize(
    "message",
    [
        # the data's first paragraph right under the instruction's sentence, which the grammar
        # reads as nothing: it may be the instruction's or the data's (was answered with the
        # second paragraph alone)
        "Rewrite this Markdown as HTML.\nHello there\n\nMore text",
        "Rewrite this Markdown as HTML.\nSome text here\n\nMore text",
    ],
)
def test_a_paragraph_under_the_instruction_is_ambiguous(engine: Engine, message: str) -> None:
    result = engine.run(EngineRequest.from_instruction(message))
    assert (result.route, result.reason) == (Route.FALLBACK, "segment.ambiguous")


@pytest.mark.parametrize(
    ("message", "output"),
    [
        # a sentence on the first line, the data on the next with no blank line between
        (
            "Rewrite this Markdown as HTML.\n## Setup\n\n1. Install Python",
            "<h2>Setup</h2>\n<ol>\n<li>Install Python</li>\n</ol>\n",
        ),
        # lines the grammar reads as options stay instruction
        ("Convert this YAML to JSON.\nSort the keys.\n\nb: 1\na: 2", '{\n  "a": 2,\n  "b": 1\n}'),
        # a template's "System:" label and a task noun say nothing
        ('System: conversion task. convert this json to yaml\n\n"""\n{"a": 1}\n"""', "a: 1\n"),
    ],
)
def test_the_data_under_a_first_line_sentence(engine: Engine, message: str, output: str) -> None:
    result = engine.run(EngineRequest.from_instruction(message))
    assert (result.route, result.output) == (Route.DETERMINISTIC, output)
