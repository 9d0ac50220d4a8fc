"""The JSON/YAML transformer family: conversions with style options and queries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.registry import Example, GrammarFragment, Lexicon, grammar_text, register_each


@hookimpl
def register_ops(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.json_yaml.ops import OPS

    register_each(register, OPS)


@hookimpl
def register_grammar(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.json_yaml.clauses import TRANSFORMS, finish

    register(GrammarFragment("jy", grammar_text("json_yaml.lark"), TRANSFORMS, finish=finish))


EXAMPLES = (
    Example(
        "Convert this JSON to YAML", '{"a": 1, "b": [true, null]}', "a: 1\nb:\n  - true\n  - null\n"
    ),
    Example(
        "JSON → YAML, strings in double quotes, keys sorted",
        '{"on": "yes", "id": "0755"}',
        'id: "0755"\n"on": "yes"\n',
    ),
    Example("YAML to JSON, minified", "a: 1\nb: [x, y]\n", '{"a":1,"b":["x","y"]}'),
    Example(
        "Sort by age descending and keep only name",
        '[{"name": "Ann", "age": 31}, {"name": "Bo", "age": 42}]',
        '[\n  {\n    "name": "Bo"\n  },\n  {\n    "name": "Ann"\n  }\n]',
    ),
    Example("把下面的JSON转换成YAML", '{"城市": "杭州"}', "城市: 杭州\n", lang="zh"),
    Example(
        "Convert this YAML to JSON",
        "name: Ann\ntags: [a, b]\n",
        '{\n  "name": "Ann",\n  "tags": [\n    "a",\n    "b"\n  ]\n}',
    ),
    Example("把下面的YAML转换成JSON", "城市: 杭州\n", '{\n  "城市": "杭州"\n}', lang="zh"),
    Example(
        "Sort by age descending",
        '[{"name": "Ann", "age": 31}, {"name": "Bo", "age": 42}]',
        '[\n  {\n    "name": "Bo",\n    "age": 42\n  },\n'
        '  {\n    "name": "Ann",\n    "age": 31\n  }\n]',
    ),
    Example(
        "How many students scored above 80? Reply with the number only.",
        '[{"name": "Ava", "score": 88}, {"name": "Cleo", "score": 75}]',
        "1",
    ),
)


@hookimpl
def register_examples(register: Callable[[Any], None]) -> None:
    register_each(register, EXAMPLES)


LEXICON = Lexicon(
    aliases={"yml": "yaml"},
    nouns=frozenset(
        {
            "config",
            "configuration",
            "manifest",
            "mapping",
            "mappings",
            "dict",
            "dictionary",
            "配置",
            "配置文件",
        }
    ),
)


@hookimpl
def register_lexicon(register: Callable[[Any], None]) -> None:
    register(LEXICON)
