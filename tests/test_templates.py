"""Prompt templates (core/segment.py, core/message.py, core/surface.py): a payload between
slot labels ("JSON:" … "YAML:"), in three quotes or a pair of tags, after a role sentence or
a sentence that presents it, is the payload given apart; labels that may be data stay data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message, Route

CASES = yaml.safe_load(
    (Path(__file__).parent / "cases" / "core" / "templates.yaml").read_text("utf-8")
)["cases"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["message"][:60])
@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["LF", "CRLF"])
def test_a_template_gives_the_answer_of_the_payload_given_apart(
    engine: Engine, case: dict[str, Any], newline: str
) -> None:
    message = case["message"].replace("\n", newline)
    got = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    if case["expect"] == "fallback":
        assert got.route is Route.FALLBACK, got.output
        return
    want = engine.run(case["instruction"], case["payload"])
    if case["expect"] == "same_or_fallback" and got.route is Route.FALLBACK:
        return
    assert want.route is Route.DETERMINISTIC
    assert (got.route, got.output) == (Route.DETERMINISTIC, want.output)
