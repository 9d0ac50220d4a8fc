"""Where a request's instruction and payload come from: the message, the system prompt, an
earlier user turn (cases in tests/cases/message_sources/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message, Route

CASES = yaml.safe_load(
    (Path(__file__).parent / "cases" / "message_sources" / "cases.yaml").read_text("utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_case(engine: Engine, case: dict[str, Any]) -> None:
    request = EngineRequest(
        messages=tuple(Message(role, text) for role, text in case["messages"]),
        system=case.get("system"),
        temperature=0,
    )
    result = engine.run(request)
    if "output" in case:
        assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
        assert result.output == case["output"]
    elif "output_contains" in case:
        assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
        assert case["output_contains"] in (result.output or "")
    else:
        assert result.route is Route.FALLBACK, (result.route, result.output)
        assert result.reason == case["fallback"], result.detail


def test_a_long_system_prompt_is_not_read_as_the_instruction(engine: Engine) -> None:
    system = "Convert this JSON to YAML. " + "Be careful and thorough. " * 30
    request = EngineRequest(messages=(Message("user", '{"a": 1}'),), system=system, temperature=0)
    assert engine.run(request).route is Route.FALLBACK
