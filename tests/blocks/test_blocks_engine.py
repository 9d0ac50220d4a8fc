"""Messages written in blocks through ``Engine.run``: parts, merged output, errors, syntax.

Driven by cases/mixed.yaml. Python → TypeScript blocks (kind ``py_ts``) are expected to be
the engine's where it converts Python to TypeScript and the model's where it does not yet, so
the cases hold in both states of the engine.
"""

from __future__ import annotations

from typing import Any

import pytest
from blocks_cases import ids, load

from zerolayer.core.engine import Engine
from zerolayer.core.errors import PayloadError
from zerolayer.core.messages import EngineRequest, Message, Route

CASES = load("mixed.yaml")


@pytest.fixture(scope="module")
def py_ts(engine: Engine) -> bool:
    """Whether the engine answers a Python → TypeScript block."""
    return engine.run('<convert lang="py" to="ts">\nprint(1)\n</convert>').route is (
        Route.DETERMINISTIC
    )


def _request(case: dict[str, Any]) -> EngineRequest:
    return EngineRequest(
        (Message("user", case["message"]),),
        temperature=case.get("temperature", 0),
        syntax=case.get("syntax"),
    )


def _expected_parts(case: dict[str, Any], py_ts: bool) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for kind, text in case.get("parts", []):
        if kind == "py_ts":
            out.append(("zero", None) if py_ts else ("model", text))
        else:
            out.append((kind, text))
    return out


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_blocks(case: dict[str, Any], engine: Engine, py_ts: bool) -> None:
    result = engine.run(_request(case))
    route = case.get("route")
    expected = _expected_parts(case, py_ts)
    if route == "py_ts":
        assert result.route is (Route.DETERMINISTIC if py_ts else Route.FALLBACK)
        return
    if route is None:  # decided by who answers the parts
        kinds = {k for k, _ in expected}
        route = "deterministic" if kinds == {"zero"} else "fallback"
        if kinds == {"model"}:
            expected = []  # nothing to merge: the whole request is the model's
    assert result.route.value == route, (result.reason, result.detail, result.error)
    if "reason" in case:
        assert result.reason == case["reason"]
    if route == "error":
        assert isinstance(result.error, PayloadError)
        assert result.error.block == case["error"]["block"]
        assert result.error.to_dict()["block"] == case["error"]["block"]
        for words in case["error"]["says"]:
            assert words in str(result.error)
        return
    assert [p.kind for p in result.parts] == [k for k, _ in expected]
    for part, (kind, text) in zip(result.parts, expected, strict=True):
        if text is not None:
            assert part.text == text
        elif kind == "zero":  # a py_ts block: the engine's answer to that block alone
            block = engine.run(_block_of(case, part.block))
            assert block.route is Route.DETERMINISTIC and part.text == block.output
        assert (part.plan is not None) == (kind == "zero")
        assert (part.reason is None) == (kind == "zero")
    if route == "deterministic" and "output" in case:
        assert result.output == case["output"]
    if result.route is Route.FALLBACK and result.parts:
        assert result.reason == "blocks.mixed"


def _block_of(case: dict[str, Any], number: int | None) -> str:
    from zerolayer.core.blocks.split import split_blocks
    from zerolayer.core.blocks.syntax import to_current

    parts = split_blocks(to_current(case["message"]).text) or []
    return next(p.text for p in parts if p.number == number)


def test_deterministic_parts_have_block_numbers_and_plans(engine: Engine) -> None:
    case = next(c for c in CASES if c["id"] == "prose-between-deterministic-blocks")
    result = engine.run(_request(case))
    assert [p.block for p in result.parts] == [1, None, 2]
    assert result.plan == "json.parse | yaml.emit\nmarkdown.render"
    assert result.parts[1].reason == "blocks.open"


def test_explain_gives_the_plans_without_running(engine: Engine) -> None:
    case = next(c for c in CASES if c["id"] == "prose-between-deterministic-blocks")
    result = engine.explain(_request(case))
    assert result.route is Route.FALLBACK and result.reason == "blocks.mixed"
    assert [p.kind for p in result.parts] == ["zero", "model", "zero"]
    assert result.plan == "json.parse | yaml.emit\nmarkdown.render"
    both = next(c for c in CASES if c["id"] == "two-deterministic-blocks")
    explained = engine.explain(_request(both))
    assert explained.route is Route.DETERMINISTIC and explained.output is None


def test_warnings_come_with_the_result(engine: Engine) -> None:
    legacy = "[CODE_CONVERSION lang=json to=yaml]\n[1]\n[/CODE_CONVERSION]"
    result = engine.run(legacy)
    assert result.route is Route.DETERMINISTIC and result.output == "- 1\n"
    assert len(result.warnings) == 1 and "deprecated since 2026-12-01" in result.warnings[0]
    literal = engine.run(legacy, syntax="v2")
    assert literal.route is Route.FALLBACK
    assert "read as text" in literal.warnings[0]
    assert engine.run('<convert lang="json" to="yaml">\n[1]\n</convert>').warnings == ()


def test_the_syntax_version_is_part_of_the_cache_key(engine: Engine) -> None:
    legacy = "[CODE_CONVERSION lang=json to=yaml]\n[1]\n[/CODE_CONVERSION]"
    keys = {engine.fingerprint(EngineRequest.from_instruction(legacy, syntax=v)) for v in (None, "v1", "v2")}  # fmt: skip
    assert len(keys) == 3


def test_payloads_given_apart_are_never_split_or_rewritten(engine: Engine) -> None:
    result = engine.run("Convert this JSON to YAML", '["<ask>x</ask>", "[CODE_CONVERSION]"]')
    assert result.route is Route.DETERMINISTIC
    assert result.output == "- <ask>x</ask>\n- '[CODE_CONVERSION]'\n"
    assert result.parts == () and result.warnings == ()


def test_too_many_blocks_is_a_limit() -> None:
    from zerolayer.core.engine import EngineConfig

    small = Engine(EngineConfig(max_blocks=2))
    message = '<convert lang="json" to="yaml">\n[1]\n</convert>\n' * 3
    result = small.run(message)
    assert result.route is Route.ERROR and "3 blocks; the limit is 2" in str(result.error)


def test_earlier_turns_stay_context_for_the_blocks(engine: Engine) -> None:
    request = EngineRequest(
        (
            Message("user", "Earlier [CODE_CONVERSION] text"),
            Message("assistant", "ok"),
            Message("user", '<convert lang="json" to="yaml">\n[1]\n</convert><ask>and?</ask>'),
        ),
        temperature=0,
    )
    result = engine.run(request)
    assert [p.kind for p in result.parts] == ["zero", "model"]
    assert result.warnings == ()  # only the last message is read for blocks
