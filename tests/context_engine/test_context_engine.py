"""Context requests end to end through ``Engine.run``: instruction + conversation → answer.

Each case in ``cases/*.yaml`` gives the messages (``[role, content]`` pairs, the request
last) and one expectation: ``output`` (the exact deterministic answer), ``fallback`` (the
reason the request goes to the model) or ``error`` (the error class of an HTTP 400 answer).
``plan`` optionally pins the plan that ran.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from case_files import assert_fallback_or_error, case_params

from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.messages import EngineRequest, Message, Route

CASES = Path(__file__).parent / "cases"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(EngineConfig(plugins=None))


def _request(case: dict[str, Any]) -> EngineRequest:
    messages = tuple(Message(role, content) for role, content in case["messages"])
    return EngineRequest(messages=messages, system=case.get("system"), temperature=0.0)


@pytest.mark.parametrize("case", case_params(CASES))
def test_case(engine: Engine, case: dict[str, Any]) -> None:
    result = engine.run(_request(case))
    if "output" in case:
        assert result.route is Route.DETERMINISTIC, (result.reason, result.detail, result.error)
        assert result.output == case["output"]
        if "plan" in case:
            assert result.plan == case["plan"]
    else:
        assert_fallback_or_error(result, case)


def test_there_are_enough_cases() -> None:
    cases = [p.values[0] for p in case_params(CASES)]
    assert len(cases) >= 40
    assert any("fallback" in c for c in cases) and any("error" in c for c in cases)
    assert any(len(c["messages"]) > 2 for c in cases)


def test_the_fragment_compiles_without_other_families() -> None:
    alone = Engine(EngineConfig(plugins=frozenset({"context"})))
    request = EngineRequest(
        messages=(
            Message("user", "One.\n\nTwo.\n\nThree."),
            Message("assistant", "OK."),
            Message("user", "Return the third paragraph of the text above verbatim."),
        ),
        temperature=0.0,
    )
    result = alone.run(request)
    assert (result.route, result.output) == (Route.DETERMINISTIC, "Three.")


def test_no_context_clause_leaves_other_families_alone(engine: Engine) -> None:
    result = engine.run("Convert this JSON to YAML", '{"a": 1}')
    assert (result.route, result.output) == (Route.DETERMINISTIC, "a: 1\n")
