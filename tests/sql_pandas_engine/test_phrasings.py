"""Instruction phrasings of the SQL → pandas family: the plan each one gives, or its fallback.

The instruction is explained (``Engine.explain``) with a SQL payload given apart from it, so
these cases test the grammar fragment, its transforms and the planner, not the translator.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.messages import Route

PHRASINGS = yaml.safe_load((Path(__file__).parent / "phrasings.yaml").read_text("utf-8"))
SQL = "SELECT id FROM t WHERE a > 1"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(EngineConfig(plugins=None))


@pytest.mark.parametrize(("instruction", "plan"), PHRASINGS["plans"])
def test_phrasing_gives_plan(engine: Engine, instruction: str, plan: str) -> None:
    result = engine.explain(instruction, SQL)
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
    assert result.plan == plan


@pytest.mark.parametrize(("instruction", "reason"), PHRASINGS["fallbacks"])
def test_phrasing_falls_back(engine: Engine, instruction: str, reason: str) -> None:
    result = engine.explain(instruction, SQL)
    assert result.route is Route.FALLBACK, result.plan
    assert result.reason == reason, result.detail


def test_every_phrasing_is_listed_once() -> None:
    instructions: list[Any] = [p[0] for p in PHRASINGS["plans"] + PHRASINGS["fallbacks"]]
    assert len(instructions) == len(set(instructions))


@pytest.mark.parametrize("field", ["完成时间", "查询次数", "实现方法", "代码长度", "变量名称"])
def test_chinese_field_names_run_through_sql_words(engine: Engine, field: str) -> None:
    """Chinese words of this fragment (完成, 查询, 代码 …) do not cut other families' field
    names short."""
    payload = f'[{{"{field}": 2}}, {{"{field}": 1}}]'
    result = engine.explain(f"按{field}排序", payload)
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
    assert f'key="{field}"' in (result.plan or "")
