"""The engine hook: a protocol request is never answered deterministically."""

from __future__ import annotations

import json

import pytest

from zerolayer.cli.main import EXIT_FALLBACK, main
from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message, Route
from zerolayer.core.protocol import PROTOCOL_REASON


def test_a_protocol_request_falls_back_with_its_protocol(engine: Engine) -> None:
    result = engine.run("give me 3 pros and 3 cons of remote work")
    assert result.route is Route.FALLBACK and not result.active
    assert result.reason == PROTOCOL_REASON
    assert result.protocol is not None
    assert result.protocol.describe() == '"Pros": bullet*3 | "Cons": bullet*3'
    assert result.detail == f"the answer must have this structure: {result.protocol.describe()}"
    assert "protocol" in result.timings and result.output is None


def test_a_request_the_engine_could_answer_is_still_a_protocol(engine: Engine) -> None:
    """Asking for a shape makes the answer the model's, even around a payload the engine
    could convert: a deterministic answer would not have the shape."""
    message = 'Convert this JSON to YAML in exactly 3 bullet points: {"a": 1}'
    result = engine.run(message)
    assert result.route is Route.FALLBACK and result.protocol is not None
    plain = engine.run('Convert this JSON to YAML: {"a": 1}')
    assert plain.route is Route.DETERMINISTIC and plain.protocol is None


def test_sampling_does_not_matter_but_disable_does(engine: Engine) -> None:
    ask = "answer in exactly 5 bullet points: what is Rust?"
    warm = EngineRequest((Message("user", ask),), temperature=0.8)
    assert engine.run(warm).protocol is not None
    disabled = EngineRequest((Message("user", ask),), temperature=0, disabled=True)
    result = engine.run(disabled)
    assert result.route is Route.FALLBACK and result.reason == "gate.disabled"
    assert result.protocol is None


def test_ordinary_fallbacks_carry_no_protocol(engine: Engine) -> None:
    for text in ("Write a short poem about YAML indentation.", "Summarise this in about 3 points"):
        result = engine.run(text)
        assert result.route is Route.FALLBACK and result.protocol is None
        assert result.reason != PROTOCOL_REASON


def test_explain_says_the_same(engine: Engine) -> None:
    result = engine.explain("用三点总结这篇文章")
    assert result.reason == PROTOCOL_REASON and result.protocol is not None


def test_cli_json_names_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--json", "ask me three questions about Go"]) == EXIT_FALLBACK
    out = json.loads(capsys.readouterr().out)
    assert out["route"] == "fallback" and out["reason"] == PROTOCOL_REASON
    assert out["protocol"] == "question*3"
