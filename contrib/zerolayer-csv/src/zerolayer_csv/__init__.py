"""zerolayer-csv: a third-party zerolayer plugin for CSV, JSON records and Markdown tables.

zerolayer finds it through the ``zerolayer`` entry-point group (``csv = "zerolayer_csv"`` in
pyproject.toml); this module is the plugin object, with one function per hook.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from typing import Any

from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.registry import Example, GrammarFragment

__version__ = "0.1.0"

EXAMPLES = (
    Example(
        "Convert this CSV to JSON",
        "name,age\nAnn,31\n",
        '[\n  {\n    "name": "Ann",\n    "age": "31"\n  }\n]\n',
    ),
    Example("Convert this JSON to CSV", '[{"name": "Ann", "age": 31}]', "name,age\nAnn,31\n"),
    Example(
        "Render this CSV as a Markdown table",
        "name,age\nAnn,31\n",
        "| name | age |\n| --- | --- |\n| Ann | 31 |\n",
    ),
    Example(
        "Convert this JSON to a Markdown table",
        '[{"city": "Oslo", "pop": 709000}]',
        "| city | pop |\n| --- | --- |\n| Oslo | 709000 |\n",
    ),
    Example(
        "Convert this Markdown table to CSV",
        "| a | b |\n| --- | --- |\n| 1 | x, y |\n",
        'a,b\n1,"x, y"\n',
    ),
    Example(
        "把这个CSV转成Markdown表格",
        "城市,人口\n杭州,1200\n",
        "| 城市 | 人口 |\n| --- | --- |\n| 杭州 | 1200 |\n",
        lang="zh",
    ),
    Example("把JSON转成CSV", '[{"城市": "杭州"}]', "城市\n杭州\n", lang="zh"),
)


@hookimpl
def register_ops(register: Callable[[Any], None]) -> None:
    """The readers into a csv-table and the writers out of it."""
    from zerolayer_csv.ops import OPS

    for spec in OPS:
        register(spec)


@hookimpl
def register_grammar(register: Callable[[Any], None]) -> None:
    """The ``csv`` grammar fragment (English and Chinese phrasings)."""
    from zerolayer_csv.clauses import TRANSFORMS

    text = files("zerolayer_csv").joinpath("csv.lark").read_text(encoding="utf-8")
    register(GrammarFragment("csv", text, TRANSFORMS))


@hookimpl
def register_examples(register: Callable[[Any], None]) -> None:
    """Worked examples: run by the tests and used by ``zerolayer lint`` as canonical phrasings."""
    for example in EXAMPLES:
        register(example)
