"""Misreadings the paraphrase corpus found, as plain engine requests: each gave a wrong
answer; now each is answered right or falls back."""

from __future__ import annotations

import json

import pytest

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
