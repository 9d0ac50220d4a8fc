"""Options, limits and the cases where the renderer refuses (Unsupported) instead of guessing."""

from __future__ import annotations

import time

import pytest

from zerolayer.core.errors import LimitExceeded, Unsupported
from zerolayer.plugins.markdown_html.headings import github_slug
from zerolayer.plugins.markdown_html.render import parser, render_markdown


def test_default_keeps_raw_html() -> None:
    assert render_markdown("<script>alert(1)</script>\n") == "<script>alert(1)</script>\n"


def test_safe_escapes_raw_html() -> None:
    out = render_markdown("<script>alert(1)</script>\n\nhi <b>x</b>\n", safe=True)
    assert "<script>" not in out and "<b>" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "hi &lt;b&gt;x&lt;/b&gt;" in out


def test_safe_blocks_javascript_links() -> None:
    out = render_markdown("[x](javascript:alert(1))\n", safe=True)
    assert "href" not in out


def test_gfm_tagfilter_escapes_dangerous_tags_only() -> None:
    out = render_markdown("<script>x</script> <b>y</b>\n", gfm=True)
    assert out == "&lt;script>x&lt;/script> <b>y</b>\n"
    out = render_markdown("a <STYLE>b</style> <i>c</i>\n", gfm=True)
    assert out == "<p>a &lt;STYLE>b&lt;/style> <i>c</i></p>\n"


def test_heading_ids_are_unique_github_slugs() -> None:
    md = "# Hello, World!\n\n## Hello World\n\n### hello world\n\n# `code` 中文 标题\n"
    out = render_markdown(md, heading_ids=True)
    assert '<h1 id="hello-world">Hello, World!</h1>' in out
    assert '<h2 id="hello-world-1">Hello World</h2>' in out
    assert '<h3 id="hello-world-2">hello world</h3>' in out
    assert '<h1 id="code-中文-标题"><code>code</code> 中文 标题</h1>' in out


def test_heading_ids_off_by_default() -> None:
    assert render_markdown("# A\n") == "<h1>A</h1>\n"


@pytest.mark.parametrize(
    ("text", "slug"),
    [("Hello, World!", "hello-world"), ("a_b-c d", "a_b-c-d"), ("  x  ", "--x--"), ("Ünï", "ünï")],
)
def test_github_slug(text: str, slug: str) -> None:
    assert github_slug(text) == slug


def test_full_document_uses_first_heading_as_title() -> None:
    out = render_markdown("intro\n\n## A <b> & *c*\n", full_document=True)
    assert out.startswith('<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n')
    assert "<title>A &amp; c</title>" in out
    assert out.endswith("<body>\n<p>intro</p>\n<h2>A <b> &amp; <em>c</em></h2>\n</body>\n</html>\n")


def test_full_document_title_given_and_escaped() -> None:
    out = render_markdown("# H\n", full_document=True, title='<x> & "y"')
    assert "<title>&lt;x&gt; &amp; &quot;y&quot;</title>" in out


def test_full_document_default_title() -> None:
    assert "<title>Document</title>" in render_markdown("text\n", full_document=True)


def test_input_limit() -> None:
    with pytest.raises(LimitExceeded):
        render_markdown("a" * 101, max_input_bytes=100)
    assert render_markdown("é" * 50, max_input_bytes=100) == "<p>" + "é" * 50 + "</p>\n"
    with pytest.raises(LimitExceeded):
        render_markdown("é" * 51, max_input_bytes=100)


def test_default_input_limit_is_one_mib() -> None:
    with pytest.raises(LimitExceeded):
        render_markdown("a" * ((1 << 20) + 1))


def test_reference_blowup_is_refused() -> None:
    src = "[a]: /" + "x" * 10_000 + "\n\n" + "[a] " * 5_000 + "\n"
    with pytest.raises(LimitExceeded):
        render_markdown(src)


def test_deep_nesting_is_refused_not_truncated() -> None:
    with pytest.raises(Unsupported) as info:
        render_markdown(">" * 60 + " deep\n")
    assert info.value.reason == "markdown_nesting_too_deep"
    assert render_markdown(">" * 10 + " ok\n").count("<blockquote>") == 10


def test_deep_brackets_are_refused_not_misparsed() -> None:
    ok = "[" * 30 + "x" + "]" * 30 + "(u)\n"
    assert render_markdown(ok) == '<p><a href="u">' + "[" * 29 + "x" + "]" * 29 + "</a></p>\n"
    with pytest.raises(Unsupported):
        render_markdown("[" * 60 + "x" + "]" * 60 + "(u)\n")


def test_parsers_are_cached() -> None:
    assert parser(False, False) is parser(False, False)
    assert parser(True, False) is not parser(False, False)


def test_commonmark_has_no_gfm_extensions() -> None:
    src = "| a |\n| - |\n| b |\n\n~~x~~ www.example.com\n"
    out = render_markdown(src)
    assert "<table>" not in out and "<del>" not in out and "<a " not in out


@pytest.mark.parametrize(
    ("src", "html"),
    [
        (
            "- [ ] a\n- [x] b\n",
            '<ul>\n<li><input type="checkbox" disabled="" /> a</li>\n'
            '<li><input type="checkbox" checked="" disabled="" /> b</li>\n</ul>\n',
        ),
        (
            "see www.example.com/a_(b).\n",
            '<p>see <a href="http://www.example.com/a_(b)">www.example.com/a_(b)</a>.</p>\n',
        ),
        (
            "*www.example.com*\n",
            '<p><em><a href="http://www.example.com">www.example.com</a></em></p>\n',
        ),
        (
            "x https://例子.com/é y\n",
            '<p>x <a href="https://%E4%BE%8B%E5%AD%90.com/%C3%A9">https://例子.com/é</a> y</p>\n',
        ),
        ("[www.example.com\n", "<p>[www.example.com</p>\n"),
        (
            "[a](b) www.example.com\n",
            '<p><a href="b">a</a> <a href="http://www.example.com">www.example.com</a></p>\n',
        ),
        ("~a~ ~~b~~ ~~~c~~~\n", "<p><del>a</del> <del>b</del> ~~~c~~~</p>\n"),
    ],
)
def test_gfm_rendering(src: str, html: str) -> None:
    assert render_markdown(src, gfm=True) == html


@pytest.mark.parametrize(
    ("src", "reason"),
    [
        ("www.example.com/`x`\n", "gfm_autolink_ambiguous"),
        ("http://example.com/*x*y\n", "gfm_autolink_ambiguous"),
        ("www.example.com/((x)\n", "gfm_autolink_ambiguous"),
        ("mailto:a@b.com\n", "gfm_autolink_ambiguous"),
        ("> - [ ] a\n", "gfm_tasklist_ambiguous"),
        ("- [ ] a\n\n- [ ] b\n", "gfm_tasklist_ambiguous"),
        ("- [ ] \nfoo\n", "gfm_tasklist_ambiguous"),
        ("~*a*~\n", "gfm_strikethrough_ambiguous"),
        ("head\n:-\n", "gfm_table_ambiguous"),
        ("| a |\n|---|\n|\n", "gfm_table_ambiguous"),
        ("| a |\n|---|\n<b>\n", "gfm_table_ambiguous"),
        ("> a | b\n|---|---|\n", "gfm_table_ambiguous"),
        ("x\n|---|---|\n| a | b |\n|---|---|\n", "gfm_table_ambiguous"),
    ],
)
def test_gfm_refuses_where_cmark_gfm_differs(src: str, reason: str) -> None:
    with pytest.raises(Unsupported) as info:
        render_markdown(src, gfm=True)
    assert info.value.reason == reason


def test_many_overlapping_url_candidates_stay_linear() -> None:
    start = time.perf_counter()
    out = render_markdown("http://!" * 20_000 + "\n", gfm=True)
    assert "<a " not in out
    assert time.perf_counter() - start < 5  # quadratic scanning would take minutes
