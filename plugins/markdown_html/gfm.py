"""GitHub-flavoured Markdown on top of markdown-it's CommonMark parser.

Adds the GFM spec extensions (0.29-gfm) with cmark-gfm's HTML: tables (``align="…"`` on cells),
strikethrough with one or two tildes (``<del>``), extended autolinks (see ``autolink.py``),
task list items (mdit-py-plugins ``tasklists``, markup rewritten to cmark-gfm's
``<input type="checkbox" disabled="" />``) and the disallowed-raw-HTML tag filter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.state_inline import Delimiter
from markdown_it.token import Token
from mdit_py_plugins.tasklists import tasklists_plugin

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.markdown_html import autolink

# GFM 6.11 "Disallowed Raw HTML": the leading '<' of these tags becomes '&lt;'.
_TAGFILTER = re.compile(
    r"<(?=/?(?:title|textarea|style|xmp|iframe|noembed|noframes|script|plaintext)"
    r"(?:[ \t\n\v\f\r>]|/>))",
    re.IGNORECASE,
)
_ALIGN = re.compile(r"text-align:(left|center|right)")
_CHECKBOX_PREFIX = '<input class="task-list-item-checkbox"'


def tagfilter(html: str) -> str:
    """Apply GFM's tag filter: escape the ``<`` of title, textarea, style, script, … tags."""
    return _TAGFILTER.sub("&lt;", html) if "<" in html else html


def _render_s_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return "<del>"


def _render_s_close(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return "</del>"


def _cell_renderer(tag: str):  # type: ignore[no-untyped-def]
    def render(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        style = tokens[idx].attrs.get("style")
        if style:
            m = _ALIGN.fullmatch(str(style))
            if m:
                return f'<{tag} align="{m.group(1)}">'
        return f"<{tag}>"

    return render


def _render_html_block(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return tagfilter(tokens[idx].content)


def _render_html_inline(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    return tagfilter(tokens[idx].content)


_BARE_MARKER = re.compile(r"\[[ xX]\][ \t]*(?:\n|$)")
_EMPTY_REST = re.compile(r"[ \t]*(?:\n|$)")
_CHECKED_LOOKALIKE = re.compile(r"\[[xX]\]")


def _ambiguous_task(reason: str) -> Unsupported:
    return Unsupported("gfm_tasklist_ambiguous", f"task list item: {reason}")


def _tasklist_markup(state: StateCore) -> None:
    """Rewrite the tasklists plugin's markup to cmark-gfm's (no classes, bare checkbox).

    Raises Unsupported where cmark-gfm decides otherwise or unpredictably: task items inside a
    block quote (cmark-gfm leaves them as text), an item that is only a marker (cmark-gfm
    decides on trailing whitespace that markdown-it drops), an unchecked item whose text holds
    ``[x]`` (cmark-gfm then ticks the box), or a marker markdown-it parsed as a link.
    """
    quote_depth = 0
    item_lines: list[int] = []
    tokens = state.tokens
    for i, tok in enumerate(tokens):
        if tok.type == "blockquote_open":
            quote_depth += 1
        elif tok.type == "blockquote_close":
            quote_depth -= 1
        elif tok.type == "list_item_close":
            item_lines.pop()
        elif tok.type in ("bullet_list_open", "ordered_list_open", "list_item_open"):
            if tok.type == "list_item_open":
                item_lines.append(tok.map[0] if tok.map else -1)
            cls = tok.attrs.get("class")
            if cls in ("contains-task-list", "task-list-item"):
                del tok.attrs["class"]
        elif tok.type == "inline" and tok.children:
            in_item = i >= 2 and tokens[i - 2].type == "list_item_open"
            first = tok.children[0]
            if first.type == "html_inline" and first.content.startswith(_CHECKBOX_PREFIX):
                if quote_depth:
                    raise _ambiguous_task("inside a block quote")
                if len(item_lines) > 1 and item_lines[-1] in item_lines[:-1]:
                    raise _ambiguous_task("a list item opened on its parent item's line")
                if not tokens[i - 1].hidden:
                    raise _ambiguous_task("in a loose list (cmark-gfm puts the box before <p>)")
                if _EMPTY_REST.match(tok.content):
                    raise _ambiguous_task("a marker with nothing after it on its line")
                if len(tok.children) < 2 or tok.children[1].type != "text":
                    raise _ambiguous_task("a marker that markdown-it parsed as inline markup")
                checked = 'checked="checked"' in first.content
                if not checked and _CHECKED_LOOKALIKE.search(tok.content):
                    raise _ambiguous_task("an unchecked item whose text contains [x]")
                first.type = "gfm_checkbox"
                first.content = (
                    '<input type="checkbox" checked="" disabled="" />'
                    if checked
                    else '<input type="checkbox" disabled="" />'
                )
            if in_item and _BARE_MARKER.match(tok.content):
                raise _ambiguous_task("a marker with nothing after it on its line")


# cmark-gfm parses `~` next to `*`/`_` differently from CommonMark 0.31.2 emphasis rules.
_TILDE_EMPHASIS = re.compile(r"~[*_]|[*_]~")
# A table delimiter row: cmark-gfm accepts one under a header line without '|', markdown-it not.
_DELIMITER_ROW = re.compile(r"^[ ]{0,3}[|:][|:\- \t]*$|^[ ]{0,3}-[\- \t]*[|:][|:\- \t]*$", re.M)


def _pipeless_table_header(src: str) -> bool:
    """Whether a delimiter row (with '|' or ':') follows a non-blank line without '|'."""
    for m in _DELIMITER_ROW.finditer(src):
        if "-" not in m.group(0) or m.start() == 0:
            continue
        prev_start = src.rfind("\n", 0, m.start() - 1) + 1
        prev = src[prev_start : m.start() - 1]
        if prev.strip() and "|" not in prev:
            return True
    return False


def _source_guard(state: StateCore) -> None:
    """Refuse sources where cmark-gfm and this renderer are known to part ways."""
    src = state.src
    if "~" in src and _TILDE_EMPHASIS.search(src):
        raise Unsupported(
            "gfm_strikethrough_ambiguous",
            "'~' next to '*' or '_': cmark-gfm's emphasis parsing differs here",
        )
    if "-" in src and _pipeless_table_header(src):
        raise Unsupported(
            "gfm_table_ambiguous", "a table delimiter row under a header line without '|'"
        )


_CONTAINER_PREFIX = re.compile(r"^[ \t>]*")
_LIST_MARKER = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|$)")
_ROW_LIKE_DELIMITER = re.compile(r"[ \t]*[|:\-][|:\- \t]*")


def _table_guard(state: StateCore) -> None:
    """Refuse tables that cmark-gfm builds differently from markdown-it.

    cmark-gfm ends a table at a body line that is only ``|`` or that could start another
    block (raw HTML, a list item), while markdown-it goes on with the table; it lets a block
    quote or list item start on the header line, where markdown-it's table rule wins; and it
    does not start a table inside a paragraph that already holds a delimiter-like line.
    """
    raw: list[str] | None = None
    lines: list[str] = []
    for tok in state.tokens:
        if tok.type != "table_open" or not tok.map:
            continue
        if raw is None:
            raw = state.src.split("\n")
            lines = [_CONTAINER_PREFIX.sub("", line) for line in raw]
        start, end = tok.map
        header = lines[start]
        if _LIST_MARKER.match(header) or (tok.level == 0 and raw[start].lstrip().startswith(">")):
            raise Unsupported("gfm_table_ambiguous", "a table header line that starts a block")
        for line in lines[start + 2 : end]:
            if line.strip() == "|" or line.startswith("<") or _LIST_MARKER.match(line):
                raise Unsupported(
                    "gfm_table_ambiguous", "a table row that cmark-gfm reads as another block"
                )
        i = start - 1
        while i >= 0 and lines[i].strip():
            if "-" in lines[i] and _ROW_LIKE_DELIMITER.fullmatch(lines[i]):
                raise Unsupported(
                    "gfm_table_ambiguous",
                    "a table that interrupts a paragraph holding a delimiter-like line",
                )
            i -= 1


def _strikethrough(state: StateInline, silent: bool) -> bool:
    """GFM strikethrough delimiters: runs of one or two ``~`` (longer runs are text).

    Unlike markdown-it's rule, the run length is kept on the delimiter so that the
    CommonMark "rule of 3" applies to ``~`` as it does in cmark-gfm.
    """
    if silent or state.src[state.pos] != "~":
        return False
    scanned = state.scanDelims(state.pos, True)
    length = scanned.length
    token = state.push("text", "", 0)
    token.content = "~" * length
    if length <= 2:
        state.delimiters.append(
            Delimiter(
                marker=ord("~"),
                length=length,
                token=len(state.tokens) - 1,
                end=-1,
                open=scanned.can_open,
                close=scanned.can_close,
            )
        )
    state.pos += length
    return True


def _render_checkbox(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return tokens[idx].content


def enable_gfm(md: MarkdownIt, *, raw_html: bool) -> None:
    """Turn a ``commonmark`` MarkdownIt into a GFM one (in place)."""
    md.options["strikethrough_single_tilde"] = True
    md.enable(["table", "strikethrough"])
    md.inline.ruler.at("strikethrough", _strikethrough)
    md.core.ruler.before("block", "gfm_source_guard", _source_guard)
    md.core.ruler.after("block", "gfm_table_guard", _table_guard)
    md.use(tasklists_plugin)
    md.core.ruler.after("github-tasklists", "gfm_tasklist_markup", _tasklist_markup)
    md.core.ruler.after("gfm_tasklist_markup", "gfm_autolink_www_url", autolink.www_url_rule)
    md.core.ruler.after("text_join", "gfm_autolink_email", autolink.email_rule)
    md.add_render_rule("s_open", _render_s_open)
    md.add_render_rule("s_close", _render_s_close)
    md.add_render_rule("th_open", _cell_renderer("th"))
    md.add_render_rule("td_open", _cell_renderer("td"))
    md.add_render_rule("gfm_checkbox", _render_checkbox)
    md.add_render_rule("gfm_autolink_open", autolink.render_autolink_open)
    md.add_render_rule("gfm_autolink_close", autolink.render_autolink_close)
    if raw_html:
        md.add_render_rule("html_block", _render_html_block)
        md.add_render_rule("html_inline", _render_html_inline)
