"""Fenced code inside ``<convert>`` and ``[CODE_CONVERSION]`` blocks (cases/fences.yaml).

A fence whose tag agrees with the block's language (or has no tag) is taken off: the answer
is the one the same code gets without a fence. A tag naming another language is a 400-class
error (``FenceLanguageError``) that names the tag, with its line and column.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from blocks_cases import CASES, ids

from zerolayer.core.blocks.split import FenceLanguageError, block_payload
from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message, Route

DATA: dict[str, list[dict[str, Any]]] = yaml.safe_load(
    (CASES / "fences.yaml").read_text(encoding="utf-8")
)
PAYLOAD = DATA["payload"]
ENGINE = DATA["engine"]


@pytest.mark.parametrize("case", PAYLOAD, ids=ids)
def test_block_payload(case: dict[str, Any]) -> None:
    if "error" in case:
        tag, line, column = case["error"]
        with pytest.raises(FenceLanguageError) as caught:
            block_payload(case["body"], case["lang"])
        assert (caught.value.line, caught.value.column) == (line, column)
        assert f'tagged "{tag}"' in str(caught.value)
        assert f'lang is "{case["lang"].lower()}"' in str(caught.value)
        return
    read = block_payload(case["body"], case["lang"])
    assert (read.text, read.lang) == (case["text"], case["lang_out"])


def _fenced(code: str, tag: str) -> str:
    return f"```{tag}\n{code}```"


def _v2(case: dict[str, Any], body: str) -> str:
    return f'<convert lang="{case["lang"]}" to="{case["to"]}">\n{body}\n</convert>'


def _v1(case: dict[str, Any], body: str) -> str:
    return f"{case['v1']}\n{body}\n[/CODE_CONVERSION]"


def _run(engine: Engine, message: str) -> Any:
    return engine.run(EngineRequest((Message("user", message),), temperature=0))


def _writings(case: dict[str, Any]) -> list[tuple[str, Any]]:
    forms = [("v2", _v2)] + ([("v1", _v1)] if "v1" in case else [])
    return [(name, form) for name, form in forms]


ENGINE_CASES = [
    pytest.param(case, name, tag, id=f"{case['id']}-{name}-{tag or 'untagged'}")
    for case in ENGINE
    for name, _ in _writings(case)
    for tag in case["tags"]
]


@pytest.mark.parametrize(("case", "form", "tag"), ENGINE_CASES)
def test_an_agreeing_fence_answers_like_no_fence(
    engine: Engine, case: dict[str, Any], form: str, tag: str
) -> None:
    write = dict(_writings(case))[form]
    plain = _run(engine, write(case, case["code"].rstrip("\n")))
    assert plain.route is Route.DETERMINISTIC, (plain.reason, plain.error)
    fenced = _run(engine, write(case, _fenced(case["code"], tag)))
    assert fenced.route is Route.DETERMINISTIC, (fenced.reason, fenced.error)
    assert (fenced.output, fenced.plan) == (plain.output, plain.plan)


WRONG_CASES = [
    pytest.param(case, name, id=f"{case['id']}-{name}")
    for case in ENGINE
    for name, _ in _writings(case)
]


@pytest.mark.parametrize(("case", "form"), WRONG_CASES)
def test_a_contradicting_fence_tag_is_an_error_naming_it(
    engine: Engine, case: dict[str, Any], form: str
) -> None:
    write = dict(_writings(case))[form]
    result = _run(engine, write(case, _fenced(case["code"], case["wrong"])))
    assert result.route is Route.ERROR
    assert isinstance(result.error, FenceLanguageError)
    assert f'tagged "{case["wrong"]}"' in str(result.error)
    assert (result.error.line, result.error.column) == (1, 4)


def test_a_fenced_block_among_blocks_converts_and_a_wrong_tag_names_its_block(
    engine: Engine,
) -> None:
    json_block = '<convert lang="json" to="yaml">\n```json\n{"a": 1}\n```\n</convert>'
    ask = "<ask>Why YAML?</ask>"
    mixed = _run(engine, f"{json_block}\n\n{ask}")
    assert mixed.route is Route.FALLBACK
    assert (mixed.parts[0].kind, mixed.parts[0].text) == ("zero", "a: 1\n")
    wrong = json_block.replace("```json", "```yaml")
    failed = _run(engine, f"{ask}\n\n{wrong}")
    assert failed.route is Route.ERROR
    assert str(failed.error).startswith('block 2 of 2 (<convert lang="json" to="yaml">): ')
    assert 'tagged "yaml"' in str(failed.error)
