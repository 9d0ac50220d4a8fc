"""The op of the Markdown family."""

from __future__ import annotations

from typing import Any

from zerolayer.core.ops import OpSpec
from zerolayer.core.types import HTML_TEXT, TEXT
from zerolayer.plugins.markdown_html.render import render_markdown


def render(text: str, **options: Any) -> str:
    return render_markdown(text, **options)


OPS = (
    OpSpec(
        "markdown.render",
        TEXT,
        HTML_TEXT,
        render,
        params={
            "type": "object",
            "properties": {
                "gfm": {"type": "boolean"},
                "safe": {"type": "boolean"},
                "heading_ids": {"type": "boolean"},
                "full_document": {"type": "boolean"},
                "title": {"type": "string"},
            },
        },
        description="Render Markdown as HTML: CommonMark, or GitHub-flavoured with gfm=true.",
    ),
)
