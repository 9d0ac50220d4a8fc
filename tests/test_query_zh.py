"""Chinese record queries read by class (core/query_zh.py with core/lexicon_zh.py): cases
written for records no probe set holds (tests/cases/query_zh/classes.yaml), Chinese numerals
with an elided unit, and the lexicon's classes adding to the reader's words, never changing
one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.core import lexicon_zh, query_zh
from zerolayer.core.engine import Engine
from zerolayer.core.errors import Unsupported
from zerolayer.core.messages import EngineRequest, Message, Route
from zerolayer.core.normalise import chinese_to_int

CASES = yaml.safe_load(
    (Path(__file__).parent / "cases" / "query_zh" / "classes.yaml").read_text("utf-8")
)


def _run(engine: Engine, words: str) -> Any:
    data = json.dumps(CASES["records"], indent=2, ensure_ascii=False)
    text = f"{words}\n\n```json\n{data}\n```"
    return engine.run(EngineRequest(messages=(Message("user", text),), temperature=0))


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda c: c["how"])
def test_class_case(engine: Engine, case: dict[str, Any]) -> None:
    result = _run(engine, case["words"])
    if case.get("fallback"):
        assert result.route is not Route.DETERMINISTIC, result.output
        return
    assert result.route is Route.DETERMINISTIC, result
    got = json.loads(result.output) if result.output.strip()[:1] in "[{" else result.output
    if isinstance(got, list) and got and isinstance(got[0], dict):
        got = [next(iter(g.values())) if len(g) == 1 else g for g in got]
    if isinstance(got, dict) and len(got) == 1:
        got = next(iter(got.values()))
    if isinstance(case["answer"], int) and isinstance(got, str):
        got = int(got)
    assert got == case["answer"]


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("一万五", 15000),
        ("三千五", 3500),
        ("两百五", 250),
        ("一百一", 110),
        ("十万五", 105000),
        ("一万零五", 10005),
        ("一千零一", 1001),
        ("十五", 15),
        ("一万五千", 15000),
    ],
)
def test_a_last_digit_after_a_unit_counts_in_the_next_lower_unit(numeral: str, value: int) -> None:
    assert chinese_to_int(numeral) == value


def test_the_lexicon_adds_words_and_changes_none() -> None:
    added = {**lexicon_zh.CLASS_WORDS, **lexicon_zh.RECORD_NOUNS}
    assert not set(added) & set(query_zh._LEXICON)


def test_a_field_word_names_a_key_with_a_unit_after_it() -> None:
    keys = {k.lower(): k for k in ("price_usd", "temperature_c", "duration_min", "flightNo")}
    said = query_zh.english_clauses("价格最高的", keys)
    assert "price_usd" in said
    assert "flightNo" in query_zh.english_clauses("只要航班号", keys)


def test_two_keys_a_word_names_are_not_guessed() -> None:
    keys = {k.lower(): k for k in ("price_usd", "price_eur")}
    with pytest.raises(Unsupported, match="does not know"):
        query_zh.english_clauses("价格最高的", keys)


SHAPES = yaml.safe_load(
    (Path(__file__).parent / "cases" / "query_zh" / "shapes.yaml").read_text("utf-8")
)


@pytest.mark.parametrize("case", SHAPES["cases"], ids=lambda c: c["how"])
def test_shape_case(engine: Engine, case: dict[str, Any]) -> None:
    data = json.dumps(SHAPES["records"][case["records"]], indent=2, ensure_ascii=False)
    text = f"{case['words']}\n\n```json\n{data}\n```"
    result = engine.run(EngineRequest(messages=(Message("user", text),), temperature=0))
    if case.get("fallback"):
        assert result.route is not Route.DETERMINISTIC, result.output
        return
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
    try:
        got = json.loads(result.output or "")
    except ValueError:
        got = (result.output or "").strip()
    if isinstance(got, list) and got and isinstance(got[0], dict):
        got = [next(iter(g.values())) if len(g) == 1 else g for g in got]
    assert got == case["answer"] and type(got) is type(case["answer"])
