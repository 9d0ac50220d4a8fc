"""The SQL → pandas transformer family: one SQL query in, pandas code computing it out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.registry import Example, GrammarFragment, Lexicon, grammar_text, register_each


@hookimpl
def register_ops(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.sql_pandas.ops import OPS

    register_each(register, OPS)


@hookimpl
def register_grammar(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.sql_pandas.clauses import TRANSFORMS, finish

    register(GrammarFragment("sql", grammar_text("sql_pandas.lark"), TRANSFORMS, finish=finish))


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
    register_each(register, EXAMPLES)


LEXICON = Lexicon(
    aliases={"df": "pandas", "dataframe": "pandas", "dataframes": "pandas"},
    nouns=frozenset(
        {
            *("query", "queries", "statement", "select", "查询", "语句", "查询语句"),
            # the target named by its form: "pandas operations", "pandas calls"
            *("operations", "operation", "calls", "methods"),
        }
    ),
)


@hookimpl
def register_lexicon(register: Callable[[Any], None]) -> None:
    register(LEXICON)
