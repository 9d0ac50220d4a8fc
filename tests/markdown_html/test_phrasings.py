"""Markdown → HTML instructions: how they are phrased and the plan each one becomes."""

from __future__ import annotations

import pytest

from zerolayer.core.engine import Engine
from zerolayer.core.messages import Route

PAYLOAD = "# Notes\n\nSome *text*.\n"

PHRASINGS = [
    ("Convert this Markdown to HTML", "markdown.render"),
    ("Render the following Markdown as HTML (CommonMark).", "markdown.render(gfm=false)"),
    ("Turn this Markdown into HTML, GitHub-flavoured", "markdown.render(gfm=true)"),
    # the dialect in the source's place names the source and asks for its extensions
    ("Render this GitHub flavoured Markdown as HTML", "markdown.render(gfm=true)"),
    ("Convert the GFM below into HTML", "markdown.render(gfm=true)"),
    ("把这段GitHub风格的Markdown转为HTML", "markdown.render(gfm=true)"),
    ("Markdown转HTML", "markdown.render"),
    ("Convert this Markdown to HTML in safe mode", "markdown.render(safe=true)"),
    ("Markdown转HTML，安全模式", "markdown.render(safe=true)"),
    ("Give me the HTML version of this Markdown", "markdown.render"),
    (
        'Convert this Markdown to HTML as a full document titled "Notes"',
        'markdown.render(full_document=true, title="Notes")',
    ),
    (
        'Convert this Markdown to a full HTML document titled "Release notes"',
        'markdown.render(full_document=true, title="Release notes")',
    ),
    ("Convert this Markdown to a complete HTML page.", "markdown.render(full_document=true)"),
    (
        "Convert this Markdown to a full HTML document with heading ids",
        "markdown.render(heading_ids=true, full_document=true)",
    ),
    ('Markdown转完整的HTML文档，标题为"笔记"', 'markdown.render(full_document=true, title="笔记")'),
    ("Render this Markdown as HTML, output only the HTML:", "markdown.render"),
    ("Convert this Markdown to HTML and return the HTML only.", "markdown.render"),
    ("Markdown to HTML, just the resulting HTML code", "markdown.render"),
    ("把下面的Markdown转成HTML，只输出HTML代码。", "markdown.render"),
]


@pytest.mark.parametrize(("instruction", "plan"), PHRASINGS)
def test_phrasing_plans(engine: Engine, instruction: str, plan: str) -> None:
    result = engine.run(instruction, PAYLOAD)
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
    assert result.plan == plan


def test_full_html_document_is_written_with_its_title(engine: Engine) -> None:
    result = engine.run('Convert this Markdown to a full HTML document titled "A & B"', PAYLOAD)
    assert result.output is not None
    assert result.output.startswith("<!DOCTYPE html>\n<html>\n<head>")
    assert "<title>A &amp; B</title>" in result.output
    assert "<h1>Notes</h1>\n<p>Some <em>text</em>.</p>" in result.output


@pytest.mark.parametrize(
    "instruction",
    [
        "Convert this Markdown to a full document",  # no HTML named: which format?
        "Convert this Markdown to HTML and make it look nice.",
        "Convert this HTML to Markdown",
        "Output only the HTML.",  # nothing says to convert
    ],
)
def test_phrasings_that_fall_back(engine: Engine, instruction: str) -> None:
    assert engine.run(instruction, PAYLOAD).route is Route.FALLBACK


def test_only_the_html_in_another_conversion_falls_back(engine: Engine) -> None:
    result = engine.run("Convert this JSON to YAML. Output only the HTML.", '{"a": 1}')
    assert result.route is Route.FALLBACK
    assert result.reason == "markdown.html_only"
