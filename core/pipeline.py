"""The pipeline language: parse plan text into a ``Plan`` and format a ``Plan`` as text.

Formatting is canonical (parameters in the op schema's order when a registry is given, JSON
values written compactly), so ``parse_plan(format_plan(p)) == p`` for every plan.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

from lark import Lark, Transformer, v_args
from lark.exceptions import UnexpectedInput

from zerolayer.core.errors import PipelineSyntaxError
from zerolayer.core.plan import Plan, Step


@cache
def _parser() -> Lark:
    grammar = files("zerolayer.grammars").joinpath("pipeline.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", maybe_placeholders=False)


@v_args(inline=True)
class _ToPlan(Transformer[Any, Any]):
    def start(self, *steps: Step) -> Plan:
        return Plan(tuple(steps))

    def step(self, name: Any, params: dict[str, Any] | None = None) -> Step:
        return Step(str(name), params or {})

    def args(self, *pairs: tuple[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise ValueError(f"parameter {key!r} is given twice")
            out[key] = value
        return out

    def arg(self, name: Any, value: Any) -> tuple[str, Any]:
        return str(name), value

    def string(self, token: Any) -> str:
        return str(json.loads(token))

    def number(self, token: Any) -> int | float:
        value: int | float = json.loads(token)
        return value

    def true(self) -> bool:
        return True

    def false(self) -> bool:
        return False

    def null(self) -> None:
        return None

    def array(self, *items: Any) -> list[Any]:
        return list(items)

    def object(self, *pairs: tuple[str, Any]) -> dict[str, Any]:
        return dict(pairs)

    def pair(self, key: Any, value: Any) -> tuple[str, Any]:
        return str(json.loads(key)), value


def parse_plan(text: str) -> Plan:
    """Parse pipeline text; raise ``PipelineSyntaxError`` with line and column on bad text."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        expected = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
        hint = f"expected one of: {', '.join(expected[:8])}" if expected else None
        raise PipelineSyntaxError(
            "unexpected text", text=text, line=exc.line, column=exc.column, hint=hint
        ) from None
    try:
        plan: Plan = _ToPlan().transform(tree)
    except Exception as exc:  # lark wraps transformer errors in VisitError
        cause = getattr(exc, "orig_exc", exc)
        raise PipelineSyntaxError(str(cause), text=text, line=1, column=1) from None
    return plan


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def format_step(step: Step, order: tuple[str, ...] = ()) -> str:
    if not step.params:
        return step.op
    keys = [k for k in order if k in step.params] + sorted(k for k in step.params if k not in order)
    return f"{step.op}({', '.join(f'{k}={_value(step.params[k])}' for k in keys)})"


def format_plan(plan: Plan, orders: dict[str, tuple[str, ...]] | None = None) -> str:
    """The canonical text of ``plan``; ``orders`` maps op names to parameter order."""
    orders = orders or {}
    return " | ".join(format_step(s, orders.get(s.op, ())) for s in plan.steps)
