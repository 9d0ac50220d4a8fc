"""The plugin's emphasis rule gives markdown-it's own tokens, on seeded random inputs.

``plugins/markdown_html/emphasis.py`` replaces markdown-it's ``*``/``_`` rule by the same scan
done more cheaply; every input here, made of delimiter runs beside white space, ASCII and
Unicode punctuation, symbols and letters, must parse to the same tokens and render the same
HTML with either rule, in CommonMark and in GFM mode.
"""

from __future__ import annotations

import random

import pytest
from markdown_it import MarkdownIt

from tests.markdown_html.emphasis_parsers import stock_and_ours, token_shape
from zerolayer.core.errors import Unsupported
from zerolayer.plugins.markdown_html.emphasis import char_class

PIECES = [
    "*", "**", "***", "_", "__", "___", "a", "b", "foo", " ", "  ", "\n", "\t", "\u00a0",
    "\u3000", ".", ",", "!", "(", ")", "[", "]", "\\", "\\*", "`", "~~", "<b>", "é", "ß",
    "中文", "，", "。", "€", "£", "+", "-", "'", '"', "\u2014", "[x](y)", "1", "_a_", "*a*",
]  # fmt: skip


def _inputs(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 16))) for _ in range(count)]


def _render(md: MarkdownIt, src: str) -> tuple[list[tuple], str] | str:
    """The tokens and HTML of ``src``, or the reason the parser refuses it (GFM refuses
    what cmark-gfm reads differently)."""
    try:
        tokens = md.parse(src)
    except Unsupported as err:
        return f"{err.reason}: {err}"
    return token_shape(tokens), md.renderer.render(tokens, md.options, {})


@pytest.mark.parametrize("gfm", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_same_tokens_as_markdown_it(seed: int, gfm: bool) -> None:
    stock, ours = stock_and_ours(gfm)
    for src in _inputs(seed, 700):
        assert _render(ours, src) == _render(stock, src), src


def test_character_classes() -> None:
    assert char_class(" ") == (True, False)
    assert char_class("\u00a0") == (True, False)
    assert char_class("*") == (False, True)
    assert char_class("€") == (False, True)  # a symbol counts as punctuation
    assert char_class("，") == (False, True)
    assert char_class("a") == (False, False)
    assert char_class("中") == (False, False)


def test_a_paragraph_of_thousands_of_emphasis_markers_falls_back() -> None:
    from zerolayer.core.errors import Unsupported
    from zerolayer.plugins.markdown_html.render import MAX_EMPHASIS_MARKERS, render_markdown

    with pytest.raises(Unsupported, match="emphasis markers"):
        render_markdown("*a" * MAX_EMPHASIS_MARKERS)
    # the same markers spread over paragraphs are rendered
    spread = "\n\n".join(["*a*"] * MAX_EMPHASIS_MARKERS)
    assert render_markdown(spread).count("<em>a</em>") == MAX_EMPHASIS_MARKERS
