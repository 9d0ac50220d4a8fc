"""The SQL → pandas transformer family: one SQL query in, pandas code computing it out."""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from typing import Any

from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.registry import Example, GrammarFragment


@hookimpl
def register_ops(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.sql_pandas.ops import OPS

    for spec in OPS:
        register(spec)


@hookimpl
def register_grammar(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.sql_pandas.clauses import TRANSFORMS, finish

    text = files("zerolayer.grammars").joinpath("sql_pandas.lark").read_text(encoding="utf-8")
    register(GrammarFragment("sql", text, TRANSFORMS, finish=finish))


EXAMPLES = (
    Example(
        "Translate this SQL query to pandas",
        "SELECT name FROM products WHERE price > 10",
        'import pandas as pd\n\nresult = products.loc[products["price"] > 10, ["name"]]\n',
    ),
    Example(
        "把下面的SQL翻译成pandas代码",
        "SELECT name FROM products WHERE price > 10",
        'import pandas as pd\n\nresult = products.loc[products["price"] > 10, ["name"]]\n',
        lang="zh",
    ),
    Example(
        "Translate this SQL query to pandas. Tables: products(id, name, price).",
        "SELECT name FROM products WHERE price > 10",
        'import pandas as pd\n\nresult = products.loc[products["price"] > 10, ["name"]]\n',
    ),
    Example(
        "把下面的SQL翻译成pandas代码，DataFrame 变量名为 df。",
        "SELECT city, COUNT(*) AS n FROM customers GROUP BY city",
        "import pandas as pd\n\n"
        'result = df.groupby("city", as_index=False, dropna=False).agg(n=("city", "size"))\n',
        lang="zh",
    ),
)


@hookimpl
def register_examples(register: Callable[[Any], None]) -> None:
    for example in EXAMPLES:
        register(example)
