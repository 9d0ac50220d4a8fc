"""The Python → TypeScript transformer family: a Python program in, a TypeScript program that
prints exactly the same output out (see docs/py_ts.md), optionally with JSDoc comments."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.registry import Example, GrammarFragment, Lexicon, grammar_text, register_each


@hookimpl
def register_ops(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.py_ts.ops import OPS

    register_each(register, OPS)


@hookimpl
def register_grammar(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.py_ts.clauses import TRANSFORMS, finish

    register(GrammarFragment("pyts", grammar_text("py_ts.lark"), TRANSFORMS, finish=finish))


EXAMPLES = (
    Example(
        "Convert this Python code to TypeScript",
        'def greet(name: str) -> str:\n    return "Hello, " + name + "!"\n\n\n'
        'print(greet("Ada"))\n',
        'function greet(name: string): string {\n  return "Hello, " + name + "!";\n}\n\n'
        'console.log(greet("Ada"));\n\nexport {};\n',
    ),
    Example(
        "Convert this Python to TypeScript and add JSDoc comments",
        'def wrap(text: str, mark: str = "*") -> str:\n'
        '    """Put a mark on both sides of the text.\n\n'
        "    Args:\n"
        "        text: the words to wrap\n"
        '    """\n'
        "    return mark + text + mark\n\n\n"
        'print(wrap("note"))\n',
        "/**\n * Put a mark on both sides of the text.\n *\n"
        " * @param {string} text - the words to wrap\n"
        ' * @param {string} [mark="*"]\n'
        " * @returns {string}\n */\n"
        'function wrap(text: string, mark: string = "*"): string {\n'
        "  return mark + text + mark;\n}\n\n"
        'console.log(wrap("note"));\n\nexport {};\n',
    ),
    Example(
        "Python转TypeScript",
        'for city in ["北京", "上海"]:\n    print(city + "市")\n',
        'for (const city of ["北京", "上海"]) {\n  console.log((city + "市"));\n}\n\nexport {};\n',
        lang="zh",
    ),
    Example(
        "把下面的Python代码转换成TypeScript，并加上JSDoc注释",
        'def label(city: str, country: str) -> str:\n    """城市和国家。"""\n'
        '    return city + ", " + country\n\n\nprint(label("杭州", "中国"))\n',
        "/**\n * 城市和国家。\n *\n * @param {string} city\n * @param {string} country\n"
        " * @returns {string}\n */\n"
        "function label(city: string, country: string): string {\n"
        '  return city + ", " + country;\n}\n\n'
        'console.log(label("杭州", "中国"));\n\nexport {};\n',
        lang="zh",
    ),
)


@hookimpl
def register_examples(register: Callable[[Any], None]) -> None:
    register_each(register, EXAMPLES)


LEXICON = Lexicon(
    aliases={"py": "python", "python3": "python", "ts": "typescript"},
    nouns=frozenset(
        {
            "script",
            "program",
            "function",
            "functions",
            "module",
            "class",
            "classes",
            "脚本",
            "程序",
            "函数",
        }
    ),
    # the JSDoc option's names hold "comments", an open-ask word elsewhere
    phrases=frozenset(
        {"jsdoc comments", "jsdoc comment", "jsdoc annotations", "jsdoc docs", "jsdoc注释"}
    ),
)


@hookimpl
def register_lexicon(register: Callable[[Any], None]) -> None:
    register(LEXICON)
