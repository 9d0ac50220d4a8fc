"""The context family: paragraphs, sections, questions and tables from the conversation."""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from typing import Any

from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.registry import GrammarFragment


@hookimpl
def register_ops(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.context.ops import OPS

    for spec in OPS:
        register(spec)


@hookimpl
def register_grammar(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.context.clauses import TRANSFORMS, finish

    text = files("zerolayer.grammars").joinpath("context.lark").read_text(encoding="utf-8")
    register(GrammarFragment("ctx", text, TRANSFORMS, finish=finish))
