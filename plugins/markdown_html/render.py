"""Markdown -> HTML: CommonMark by default (markdown-it-py, ``commonmark`` preset).

``render_markdown`` is a pure function. One MarkdownIt instance is built per (gfm, safe)
combination and cached, since building one costs far more than rendering a small document.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from zerolayer.core.errors import LimitExceeded, Unsupported
from zerolayer.plugins.markdown_html.emphasis import tokenize_emphasis
from zerolayer.plugins.markdown_html.gfm import enable_gfm
from zerolayer.plugins.markdown_html.headings import add_heading_ids, first_heading_text

DEFAULT_MAX_INPUT_BYTES = 1 << 20
DEFAULT_MAX_OUTPUT_CHARS = 32 << 20
# markdown-it silently drops what lies deeper than maxNesting; a document that comes close to
# the limit is refused (Unsupported) rather than rendered incompletely.
MAX_NESTING = 48
_RECURSION_MARGIN = 2
# markdown-it gives up on a link label nested about MAX_NESTING brackets deep, silently.
MAX_BRACKET_DEPTH = MAX_NESTING - 8
_BRACKET = re.compile(r"[\[\]]")
# the most emphasis markers one paragraph may hold (about 1,000 emphasised spans)
MAX_EMPHASIS_MARKERS = 2048
_PARAGRAPHS = re.compile(r"\n[ \t]*\n")


def _blockquote_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """``<blockquote>`` followed by a newline even when the block quote is empty.

    markdown-it writes ``<blockquote></blockquote>`` for an empty block quote; CommonMark
    (spec examples 218, 239, 240) and cmark write ``<blockquote>\\n</blockquote>``.
    """
    out: str = self.renderToken(tokens, idx, options, env)
    if idx + 1 < len(tokens) and tokens[idx + 1].type == "blockquote_close":
        out += "\n"
    return out


def _inline_tag(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """An emphasis tag (``<em>``, ``</strong>``): what ``renderToken`` writes for an inline
    opening or closing tag without attributes, without its steps for block and self-closing
    tags; any other token is left to ``renderToken``."""
    token = tokens[idx]
    if not token.nesting or token.attrs or token.hidden or token.block:
        out: str = self.renderToken(tokens, idx, options, env)
        return out
    return ("</" if token.nesting < 0 else "<") + token.tag + ">"


def _reference_guard(state: StateCore) -> None:
    """Refuse documents whose reference links would blow the output up.

    Every use of a link reference copies its destination and title; ``]`` counts bound the
    number of uses, so this is checked before inline parsing does the copying.
    """
    refs = state.env.get("references")
    if not refs:
        return
    longest = max(len(r.get("href", "")) + len(r.get("title", "") or "") for r in refs.values())
    limit = state.env.get("zl_max_output", DEFAULT_MAX_OUTPUT_CHARS)
    if longest * state.src.count("]") > limit:
        raise LimitExceeded(
            f"the Markdown's link references would expand to more than {limit} characters"
        )


@functools.lru_cache(maxsize=8)
def parser(gfm: bool = False, safe: bool = False) -> MarkdownIt:
    """The cached MarkdownIt instance for one option combination."""
    md = MarkdownIt("commonmark", {"html": not safe, "maxNesting": MAX_NESTING})
    md.add_render_rule("blockquote_open", _blockquote_open)
    for tag in ("em_open", "em_close", "strong_open", "strong_close"):
        md.add_render_rule(tag, _inline_tag)
    md.inline.ruler.at("emphasis", tokenize_emphasis)  # the same scan, cheaper
    md.core.ruler.after("block", "zl_reference_guard", _reference_guard)
    if gfm:
        enable_gfm(md, raw_html=not safe)
    return md


def _check_nesting(tokens: Sequence[Token]) -> None:
    limit = MAX_NESTING - _RECURSION_MARGIN
    for tok in tokens:
        if tok.level >= limit:
            break
        if tok.children and any(c.level >= limit for c in tok.children):
            break
    else:
        return
    raise Unsupported(
        "markdown_nesting_too_deep",
        f"the Markdown nests blocks or inlines {limit} or more levels deep",
    )


def _check_delimiters(text: str) -> None:
    """Fall back on a paragraph with ``MAX_EMPHASIS_MARKERS`` or more emphasis markers (``*``,
    ``_``): markdown-it pairs them in linear time, but with a token and a delimiter per marker
    (about 3.5 µs each in all, close to the engine's budget of 50 ms per 10 KB); no written
    paragraph holds that many."""
    if text.count("*") + text.count("_") < MAX_EMPHASIS_MARKERS:
        return
    for paragraph in _PARAGRAPHS.split(text):
        if paragraph.count("*") + paragraph.count("_") >= MAX_EMPHASIS_MARKERS:
            raise Unsupported(
                "markdown_too_many_markers",
                f"a paragraph of the Markdown holds {MAX_EMPHASIS_MARKERS} or more emphasis "
                "markers (* or _)",
            )


def _check_brackets(text: str) -> None:
    if text.count("[") < MAX_BRACKET_DEPTH:
        return
    depth = 0
    for m in _BRACKET.finditer(text):
        if m.group() == "[":
            depth += 1
            if depth >= MAX_BRACKET_DEPTH:
                raise Unsupported(
                    "markdown_nesting_too_deep",
                    f"the Markdown nests brackets {MAX_BRACKET_DEPTH} or more deep",
                )
        elif depth:
            depth -= 1


def _document(body: str, title: str) -> str:
    return (
        '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escapeHtml(title)}</title>\n</head>\n<body>\n{body}</body>\n</html>\n"
    )


def render_markdown(
    text: str,
    *,
    gfm: bool = False,
    safe: bool = False,
    heading_ids: bool = False,
    full_document: bool = False,
    title: str | None = None,
    max_input_bytes: int = DEFAULT_MAX_INPUT_BYTES,
    max_output_chars: int = DEFAULT_MAX_OUTPUT_CHARS,
) -> str:
    """Render Markdown to HTML.

    CommonMark 0.31.2 by default, raw HTML passed through. ``gfm`` adds GitHub's extensions
    (tables, strikethrough, extended autolinks, task lists, tag filter); ``safe`` escapes raw
    HTML instead; ``heading_ids`` gives headings GitHub-style unique ``id`` slugs;
    ``full_document`` wraps the body in an HTML page titled ``title``, else the first
    heading's text, else "Document".

    Raises LimitExceeded for input over ``max_input_bytes`` (UTF-8) or output over
    ``max_output_chars``; Unsupported where the result would not be exact.
    """
    if len(text) > max_input_bytes // 4 and len(text.encode("utf-8")) > max_input_bytes:
        raise LimitExceeded(
            f"the Markdown is larger than the {max_input_bytes}-byte limit of the renderer"
        )
    _check_brackets(text)
    _check_delimiters(text)
    md = parser(gfm, safe)
    env: dict[str, Any] = {}
    if max_output_chars != DEFAULT_MAX_OUTPUT_CHARS:
        env["zl_max_output"] = max_output_chars
    try:
        tokens = md.parse(text, env)
    except RecursionError as exc:  # pragma: no cover - guarded by MAX_NESTING
        raise Unsupported("markdown_nesting_too_deep", "the Markdown nests too deeply") from exc
    _check_nesting(tokens)
    if heading_ids:
        add_heading_ids(tokens)
    html = md.renderer.render(tokens, md.options, env)
    if len(html) > max_output_chars:
        raise LimitExceeded(f"the HTML would be longer than {max_output_chars} characters")
    if full_document:
        if title is None:
            title = " ".join((first_heading_text(tokens) or "").split()) or "Document"
        html = _document(html, title)
    return html
