"""The context family: paragraphs, sections, questions and tables from the conversation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.registry import GrammarFragment, grammar_text, register_each


@hookimpl
def register_ops(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.context.ops import OPS

    register_each(register, OPS)


@hookimpl
def register_grammar(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.context.clauses import TRANSFORMS, finish

    register(GrammarFragment("ctx", grammar_text("context.lark"), TRANSFORMS, finish=finish))
