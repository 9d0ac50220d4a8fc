"""Transforms for the Markdown grammar fragment."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerolayer.core.errors import Unsupported
from zerolayer.core.plan import Directive, Option, Step

Children = list[Any]


def _const(value: list[Directive]) -> Callable[[Children], list[Directive]]:
    return lambda _children: list(value)


def full_document(children: Children) -> list[Directive]:
    out: list[Directive] = [Option("full_document", True)]
    titles = [c for c in children if isinstance(c, str) and c.startswith("title:")]
    if titles:
        out.append(Option("title", titles[0].removeprefix("title:")))
    return out


def title(children: Children) -> str:
    quoted = str(children[-1])
    return "title:" + quoted[1:-1]


# "output only the HTML": a marker the finisher drops when the instruction converts to HTML
HTML_ONLY = "md.html_only"


def finish(directives: list[Directive]) -> list[Directive]:
    """Drop "only the HTML" where the instruction renders Markdown; elsewhere ("convert this
    JSON to YAML, only the HTML") it contradicts the instruction, which falls back."""
    markers = [d for d in directives if isinstance(d, Step) and d.op == HTML_ONLY]
    if not markers:
        return directives
    if not any(isinstance(d, Step) and d.op == "markdown.render" for d in directives):
        raise Unsupported("markdown.html_only", "the answer is asked for as HTML, but nothing "
                          "in the instruction renders HTML")  # fmt: skip
    return [d for d in directives if not (isinstance(d, Step) and d.op == HTML_ONLY)]


def _flatten(children: Children) -> list[Directive]:
    return [d for c in children if isinstance(c, list) for d in c]


TRANSFORMS: dict[str, Callable[[Children], Any]] = {
    "md_convert": _const([Step("markdown.render")]),
    "md_gfm": _const([Option("gfm", True)]),
    "md_convert_gfm": _const([Step("markdown.render"), Option("gfm", True)]),
    "md_commonmark": _const([Option("gfm", False)]),
    "md_safe": _const([Option("safe", True)]),
    "md_raw_html": _const([Option("safe", False)]),
    "md_heading_ids": _const([Option("heading_ids", True)]),
    "md_full_document": full_document,
    "md_convert_full": lambda children: [Step("markdown.render"), *full_document(children)],
    "md_title": title,
    "md_noop": _const([]),
    "md_html_only": _const([Step(HTML_ONLY)]),
    "md_option": _flatten,
}
