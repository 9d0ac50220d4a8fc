"""markdown-it's own parser beside one with the plugin's emphasis rule, and the shape of the
tokens they make, for the tests that compare the two."""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token

from zerolayer.plugins.markdown_html.emphasis import tokenize_emphasis
from zerolayer.plugins.markdown_html.gfm import enable_gfm


def stock_and_ours(gfm: bool) -> tuple[MarkdownIt, MarkdownIt]:
    """(markdown-it as shipped, markdown-it with the plugin's emphasis rule), CommonMark or
    GitHub-flavoured."""
    stock, ours = MarkdownIt("commonmark"), MarkdownIt("commonmark")
    ours.inline.ruler.at("emphasis", tokenize_emphasis)
    if gfm:
        enable_gfm(stock, raw_html=True)
        enable_gfm(ours, raw_html=True)
    return stock, ours


def token_shape(tokens: list[Token]) -> list[tuple]:
    """Each token's type, tag, nesting, level, content and markup, children after their
    parent."""
    out: list[tuple] = []
    for tok in tokens:
        out.append((tok.type, tok.tag, tok.nesting, tok.level, tok.content, tok.markup))
        if tok.children:
            out.extend(token_shape(tok.children))
    return out
