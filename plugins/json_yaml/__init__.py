"""The JSON/YAML transformer family: conversions with style options and queries."""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from typing import Any

from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.registry import Example, GrammarFragment


@hookimpl
def register_ops(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.json_yaml.ops import OPS

    for spec in OPS:
        register(spec)


@hookimpl
def register_grammar(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.json_yaml.clauses import TRANSFORMS, finish

    text = files("zerolayer.grammars").joinpath("json_yaml.lark").read_text(encoding="utf-8")
    register(GrammarFragment("jy", text, TRANSFORMS, finish=finish))


@hookimpl
def register_examples(register: Callable[[Any], None]) -> None:
    register(
        Example(
            "Convert this JSON to YAML", '{"a": 1, "b": [true, null]}', "a: 1\nb:\n- true\n- null\n"
        )
    )
