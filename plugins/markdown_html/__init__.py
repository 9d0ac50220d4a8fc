"""The Markdown → HTML transformer family (markdown-it-py; CommonMark, GFM on request)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.registry import Example, GrammarFragment, Lexicon, grammar_text, register_each


@hookimpl
def register_ops(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.markdown_html.ops import OPS

    register_each(register, OPS)


@hookimpl
def register_grammar(register: Callable[[Any], None]) -> None:
    from zerolayer.plugins.markdown_html.clauses import TRANSFORMS, finish

    register(GrammarFragment("md", grammar_text("markdown_html.lark"), TRANSFORMS, finish=finish))


EXAMPLES = (
    Example(
        "Convert this Markdown to HTML",
        "# Notes\n\nVersion **2.1** adds *dark mode*.\n",
        "<h1>Notes</h1>\n<p>Version <strong>2.1</strong> adds <em>dark mode</em>.</p>\n",
    ),
    Example(
        "Render as HTML (GitHub-flavoured)",
        "| a | b |\n|---|---|\n| 1 | ~~2~~ |\n",
        "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n"
        "<td>1</td>\n<td><del>2</del></td>\n</tr>\n</tbody>\n</table>\n",
    ),
    Example(
        "把下面的Markdown转换成HTML",
        "- 第一步\n- 第二步\n",
        "<ul>\n<li>第一步</li>\n<li>第二步</li>\n</ul>\n",
        lang="zh",
    ),
)


@hookimpl
def register_examples(register: Callable[[Any], None]) -> None:
    register_each(register, EXAMPLES)


LEXICON = Lexicon(
    aliases={"md": "markdown", "htm": "html"},
    nouns=frozenset({"markup", "fragment", "page", "notes", "readme", "文档", "页面", "网页"}),
    targets={"render": "html", "rendered": "html", "渲染": "html"},
    # the GFM option's names hold the source format's name
    phrases=frozenset(
        {
            "github-flavored markdown",
            "github-flavoured markdown",
            "github markdown",
            "github风格的markdown",
            "github风格markdown",
        }
    ),
)


@hookimpl
def register_lexicon(register: Callable[[Any], None]) -> None:
    register(LEXICON)
