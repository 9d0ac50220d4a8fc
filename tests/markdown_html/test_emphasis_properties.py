"""The plugin's emphasis rule pairs exactly as markdown-it's own, on generated inputs.

``plugins/markdown_html/emphasis.py`` replaces markdown-it's ``*``/``_`` rule and reads the runs
and words after a run in the same call. Hypothesis generates texts of emphasis markers, letters,
white space, punctuation and the characters and pieces other inline rules start at (links,
escapes, code spans, strikethrough, raw HTML); each must give, with either rule, the same tokens and delimiters after
the inline tokenizer, the same pairing after ``balance_pairs``, and the same HTML, in CommonMark
and in GFM mode.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.balance_pairs import link_pairs
from markdown_it.rules_inline.text import text as text_rule

from tests.markdown_html.emphasis_parsers import stock_and_ours, token_shape
from zerolayer.core.errors import Unsupported
from zerolayer.plugins.markdown_html.render import parser

# single characters, and the pieces of links, code spans and escapes the rule must stop before
PIECES = [*"*_*_*_ab  \n.,!?()[]\\`~<>'\"-\u00a0é中，€", "](x)", "]()", "\\*", "**", "__", "<b>"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=32).map("".join)
PROPERTY = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


PARSERS = {False: stock_and_ours(False), True: stock_and_ours(True)}


def _inline_state(md: MarkdownIt, src: str) -> StateInline:
    state = StateInline(src, md, {}, [])
    md.inline.tokenize(state)
    return state


def _delimiters(state: StateInline) -> list[tuple]:
    lists = [state.delimiters] + [m["delimiters"] for m in state.tokens_meta if m]
    return [
        [(d.marker, d.length, d.token, d.end, d.open, d.close) for d in delimiters]
        for delimiters in lists
    ]


def _render(md: MarkdownIt, src: str) -> tuple[list[tuple], str] | str:
    try:
        tokens = md.parse(src)
    except Unsupported as err:  # GFM refuses what cmark-gfm reads differently
        return f"{err.reason}: {err}"
    return token_shape(tokens), md.renderer.render(tokens, md.options, {})


@pytest.mark.parametrize("gfm", [False, True])
@PROPERTY
@given(src=TEXTS)
def test_same_tokens_delimiters_and_pairs(gfm: bool, src: str) -> None:
    stock, ours = PARSERS[gfm]
    expected, got = _inline_state(stock, src), _inline_state(ours, src)
    assert token_shape(got.tokens) == token_shape(expected.tokens)
    assert got.pending == expected.pending
    assert [m is None for m in got.tokens_meta] == [m is None for m in expected.tokens_meta]
    assert _delimiters(got) == _delimiters(expected)
    link_pairs(expected)
    link_pairs(got)
    assert _delimiters(got) == _delimiters(expected)


@pytest.mark.parametrize("gfm", [False, True])
@PROPERTY
@given(src=TEXTS)
def test_same_html(gfm: bool, src: str) -> None:
    stock, ours = PARSERS[gfm]
    assert _render(ours, src) == _render(stock, src)


@pytest.mark.parametrize("gfm", [False, True])
def test_the_renderer_reads_words_between_runs_in_the_rule(gfm: bool) -> None:
    """The renderer's inline chain starts with markdown-it's text rule, which the emphasis rule
    calls between runs; elsewhere the rule reads only runs (correct, but slower)."""
    assert parser(gfm, False).inline.ruler.getRules("")[0] is text_rule


def _shout(state: StateInline, silent: bool) -> bool:
    """A rule placed before text: ``a`` becomes ``<A>``."""
    if state.src[state.pos] != "a":
        return False
    if not silent:
        state.push("html_inline", "", 0).content = "<A>"
    state.pos += 1
    return True


@PROPERTY
@given(src=TEXTS)
def test_a_rule_before_text_is_left_its_turn(src: str) -> None:
    """Where the inline chain does not start with the text rule, the emphasis rule reads only
    runs and leaves the rest to the chain."""
    stock, ours = stock_and_ours(gfm=False)
    stock.inline.ruler.before("text", "shout", _shout)
    ours.inline.ruler.before("text", "shout", _shout)
    assert _render(ours, src) == _render(stock, src)


@pytest.mark.parametrize("gfm", [False, True])
@PROPERTY
@given(src=TEXTS)
def test_the_renderer_writes_emphasis_tags_as_markdown_it_does(gfm: bool, src: str) -> None:
    """The renderer's own rules for emphasis tags write what markdown-it's ``renderToken``
    writes."""
    md = parser(gfm, False)
    stock = MarkdownIt("commonmark").renderer
    try:
        tokens = md.parse(src)
    except Unsupported:
        return
    for children in (token.children for token in tokens if token.children):
        for idx, token in enumerate(children):
            if token.type in ("em_open", "em_close", "strong_open", "strong_close"):
                ours = md.renderer.rules[token.type](children, idx, md.options, {})
                assert ours == stock.renderToken(children, idx, md.options, {})
