"""GFM extended autolinks (www., http(s)://, ftp://, bare e-mail) as markdown-it core rules.

The rules follow the GFM spec 0.29-gfm "Autolinks (extension)" section as cmark-gfm (the
reference implementation behind github.com) applies it:

* an extended www autolink is ``www.`` at the start of the inline text, after whitespace or
  after one of ``*_~(``, followed by a valid domain; the href gets ``http://``;
* an extended URL autolink is ``http://``, ``https://`` or ``ftp://`` followed by a host
  character; the link runs to the next whitespace or ``<``;
* an extended e-mail autolink is ``local@domain`` found in a text node; the href gets
  ``mailto:``;
* trailing ``?!.,:*_~'"`` are dropped, an unbalanced trailing ``)`` is dropped, and a
  trailing entity-like ``&name;`` is dropped (extended autolink path validation);
* nothing is linked inside a link or an image, nor while an unclosed ``[`` is open.

markdown-it parses inline markup before these rules run, while cmark-gfm matches www/URL
links during inline parsing. Wherever the two could disagree (a link candidate that runs into
emphasis, code, an escape, a hard break, or a behaviour that changed between cmark-gfm
releases), the rules raise :class:`Unsupported` instead of guessing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from zerolayer.core.errors import Unsupported

_SPACE = frozenset(" \t\n\v\f\r")
_WWW_PREFIX_OK = frozenset("*_~(")
_TRAILING_PUNCT = frozenset("?!.,:*_~'\"")
_SCHEMES = ("http://", "https://", "ftp://")
_UNICODE_SPACES = frozenset(
    "\t\n\f\r \u00a0\u1680\u202f\u205f\u3000" + "".join(chr(c) for c in range(0x2000, 0x200B))
)
_HREF_SAFE = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+!*(),%#@?=;:/$~"
)
# Work allowed for the www/URL scan of one text token: linear in its length.
_WORK_PER_CHAR = 8
_WORK_BASE = 4096
# Raw source that closing/opening inline delimiters stand for (their markup).
_DELIM_TOKENS = frozenset(
    {"em_open", "em_close", "strong_open", "strong_close", "s_open", "s_close"}
)


def _isalnum(c: str) -> bool:
    return c.isascii() and c.isalnum()


def _isalpha(c: str) -> bool:
    return c.isascii() and c.isalpha()


def _is_punct(c: str) -> bool:
    if c.isascii():
        return 33 <= ord(c) <= 126 and not c.isalnum()
    return unicodedata.category(c).startswith("P")


def _is_hostchar(c: str) -> bool:
    return c not in _UNICODE_SPACES and not _is_punct(c)


def escape_href(url: str) -> str:
    """Escape a URL for an ``href`` attribute exactly as cmark's ``houdini_escape_href`` does."""
    out: list[str] = []
    for ch in url:
        if ch in _HREF_SAFE:
            out.append(ch)
        elif ch == "&":
            out.append("&amp;")
        elif ch == "'":
            out.append("&#x27;")
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
    return "".join(out)


def _domain_ok(s: str, start: int, end: int, need_period: bool) -> tuple[bool, int]:
    """cmark-gfm's ``check_domain`` on ``s[start:end]`` (``end`` = end of the inline text).

    Only whether the domain is accepted matters here (with the number of characters looked
    at): the link is extended to the next whitespace afterwards anyway. A non-ASCII
    character ends the scan after itself (cmark walks bytes and stops on the continuation
    byte).
    """
    size = end - start
    periods = under_last = under_prev = 0
    i = 1
    if size > 0 and not s[start].isascii():
        i = size  # the scan stops on the first continuation byte: nothing counted
    while i < size - 1:
        c = s[start + i]
        if c == "\\" and i < size - 2:
            i += 1
            c = s[start + i]
        if c == "_":
            under_last += 1
        elif c == ".":
            under_prev, under_last = under_last, 0
            periods += 1
        elif not c.isascii():
            break  # valid or not, the next byte is a continuation byte
        elif not _is_hostchar(c) and c != "-":
            break
        i += 1
    if (under_prev or under_last) and periods <= 10:
        return False, i
    return periods > 0 or not need_period, i


def _trim(s: str, start: int, end: int) -> int:
    """Extended autolink path validation: the end of the link ``s[start:end]``.

    Raises Unsupported where cmark-gfm releases disagree (trailing ``]``/``}``, or a trailing
    ``)`` with more ``(`` than ``)`` in the link).
    """
    opening = s.count("(", start, end)
    closing = s.count(")", start, end)
    while end > start:
        c = s[end - 1]
        if c == ")":
            if closing == opening:
                return end
            if closing < opening:
                raise Unsupported(
                    "gfm_autolink_ambiguous",
                    "a bare URL ending in ')' with unbalanced '(' is rendered differently by "
                    "cmark-gfm versions",
                )
            closing -= 1
            end -= 1
        elif c in _TRAILING_PUNCT:
            end -= 1
        elif c == ";":
            j = end - 2
            while j > start and _isalpha(s[j]):
                j -= 1
            end = j if j < end - 2 and s[j] == "&" else end - 1
        elif c in "]}" and s.count("[{"[c == "}"], start, end) != s.count(c, start, end):
            raise Unsupported(
                "gfm_autolink_ambiguous",
                f"a bare URL ending in {c!r} is rendered differently by cmark-gfm versions",
            )
        else:
            return end
    return end


def _raw_tail(token: Token) -> tuple[str, bool]:
    """Source text a following inline token stands for, and whether it is known exactly.

    Only as much as the autolink scan can need: it stops at whitespace and ``<``.
    """
    if token.type == "text":
        return token.content, True
    if token.type == "text_special":
        return token.markup, True
    if token.type == "softbreak":
        return "\n", True
    if token.type == "html_inline":
        return "<", True
    if token.type == "link_open" and token.markup == "autolink":
        return "<", True
    if token.type in _DELIM_TOKENS:
        return token.markup, True
    return "", False


def _prev_char(children: list[Token], idx: int) -> str | None:
    """The source character before child ``idx`` ("" at the start; None when unknown)."""
    if idx == 0:
        return ""
    prev = children[idx - 1]
    if prev.type in ("softbreak", "hardbreak"):
        return "\n"
    if prev.type == "text" and prev.content:
        return prev.content[-1]
    if prev.type == "text_special" or prev.type in _DELIM_TOKENS:
        return prev.markup[-1] if prev.markup else None
    if prev.type in ("code_inline", "html_inline", "image", "link_close"):
        return "\x00"  # ends with '`', '>', ')' or ']': never a www prefix, never alphabetic
    return None


class _Scanner:
    """The text of one text token, extended on demand with the source of the tokens after it."""

    def __init__(self, children: list[Token], idx: int) -> None:
        self.children = children
        self.idx = idx
        self.own = children[idx].content
        self.text = self.own
        self.complete = idx + 1 == len(children)  # self.text reaches the end of the inline
        self._extended = False
        self._run = (-1, -1)  # (start, end) of the last run measured: ends are shared
        self.budget = _WORK_PER_CHAR * len(self.own) + _WORK_BASE

    def spend(self, work: int) -> None:
        """Count scanning work; refuse inputs that would make the scan quadratic."""
        self.budget -= work
        if self.budget < 0:
            raise Unsupported(
                "gfm_autolink_too_complex",
                "too many overlapping bare-URL candidates to check them exactly",
            )

    def _extend(self) -> None:
        """Append the source of the following tokens, up to a whitespace or ``<``."""
        self._extended = True
        parts = [self.own]
        j = self.idx + 1
        while j < len(self.children):
            raw, known = _raw_tail(self.children[j])
            if not known:
                break
            parts.append(raw)
            if any(ch in _SPACE or ch == "<" for ch in raw):
                break
            j += 1
        else:
            self.complete = True
        self.text = "".join(parts)

    def run_end(self, i: int) -> int:
        """End of the run of non-space, non-``<`` characters that starts at ``i``."""
        if self._run[0] <= i < self._run[1]:
            return self._run[1]
        while True:
            s = self.text
            j = i
            while j < len(s) and s[j] not in _SPACE and s[j] != "<":
                j += 1
            self.spend(j - i)
            if j < len(s) or self.complete:
                self._run = (i, j)
                return j
            if self._extended:
                raise Unsupported(
                    "gfm_autolink_ambiguous",
                    "a bare URL runs into other inline markup; cmark-gfm and markdown-it differ",
                )
            self._extend()


def _find_links(
    children: list[Token], idx: int, brackets: int
) -> tuple[list[tuple[int, int, str]], int]:
    """www/URL autolinks in text child ``idx``: ``[(start, end, href)]`` and bracket depth."""
    sc = _Scanner(children, idx)
    s = sc.own
    n = len(s)
    links: list[tuple[int, int, str]] = []
    i = 0
    while i < n:
        c = s[i]
        if c == "[":
            brackets += 1
        elif c == "]":
            brackets = max(0, brackets - 1)
        elif c == "w" and brackets == 0 and s.startswith("www.", i):
            stop = _match_www(sc, i)
            if stop:
                links.append((i, stop, "http://" + s[i:stop]))
                i = stop
                continue
        elif c == ":" and brackets == 0 and s.startswith("//", i + 1):
            found = _match_url(sc, i)
            if found:
                links.append(found)
                i = found[1]
                continue
        i += 1
    return links, brackets


def _match_www(sc: _Scanner, i: int) -> int:
    """End of the www autolink starting at ``i`` of the token, or 0."""
    prev = sc.own[i - 1] if i > 0 else _prev_char(sc.children, sc.idx)
    if prev is None:
        raise Unsupported("gfm_autolink_ambiguous", "cannot tell what precedes a www. link")
    if prev and prev not in _WWW_PREFIX_OK and prev not in _SPACE:
        return 0
    end = sc.run_end(i)
    ok, work = _domain_ok(sc.text, i, len(sc.text), True)
    sc.spend(work)
    if not ok:
        return 0
    stop = _trim(sc.text, i, end)
    return _own_end(sc, stop) if stop > i else 0


def _match_url(sc: _Scanner, colon: int) -> tuple[int, int, str] | None:
    """The URL autolink around the ``://`` at ``colon``, or None."""
    s = sc.own
    start = colon
    while start > 0 and _isalpha(s[start - 1]):
        start -= 1
    if start == 0:
        before = _prev_char(sc.children, sc.idx)
        if before is None or (before and _isalpha(before)):
            raise Unsupported("gfm_autolink_ambiguous", "cannot tell where a URL scheme starts")
    head = s[start : colon + 3].lower()
    scheme = next((x for x in _SCHEMES if head == x), None)
    if scheme is None:
        return None
    host = colon + 3
    if host < len(s) and not _is_hostchar(s[host]):
        return None
    end = sc.run_end(host)
    text = sc.text
    if host >= len(text) or not _is_hostchar(text[host]):
        return None
    ok, work = _domain_ok(text, host, len(text), False)
    sc.spend(work)
    if not ok:
        return None
    stop = _own_end(sc, _trim(text, colon, end))
    return (start, stop, s[start:stop])


def _own_end(sc: _Scanner, stop: int) -> int:
    """``stop`` if the link lies inside the token's own text; else Unsupported."""
    if stop > len(sc.own):
        raise Unsupported(
            "gfm_autolink_ambiguous",
            "a bare URL runs into other inline markup; cmark-gfm and markdown-it differ",
        )
    return stop


def _link_tokens(text: str, href: str, level: int) -> list[Token]:
    open_ = Token("gfm_autolink_open", "a", 1, attrs={"href": href}, markup="linkify")
    open_.level = level
    body = Token("text", "", 0, content=text)
    body.level = level + 1
    close = Token("gfm_autolink_close", "a", -1, markup="linkify")
    close.level = level
    return [open_, body, close]


def _split(token: Token, spans: list[tuple[int, int, str]]) -> list[Token]:
    out: list[Token] = []
    pos = 0
    s = token.content
    for start, end, href in spans:
        if start > pos:
            out.append(Token("text", "", 0, content=s[pos:start], level=token.level))
        out.extend(_link_tokens(s[start:end], href, token.level))
        pos = end
    if pos < len(s):
        out.append(Token("text", "", 0, content=s[pos:], level=token.level))
    return out


def _walk_inline(state: StateCore, per_children: Callable[[list[Token]], list[Token]]) -> None:
    for tok in state.tokens:
        if tok.type == "inline" and tok.children:
            tok.children = per_children(tok.children)


def _may_link(s: str) -> bool:
    return "www." in s or "://" in s or "[" in s or "]" in s


def _www_url_children(children: list[Token]) -> list[Token]:
    out: list[Token] = []
    brackets = 0
    link_depth = 0
    for idx, tok in enumerate(children):
        if tok.type in ("link_open", "gfm_autolink_open"):
            link_depth += 1
        elif tok.type in ("link_close", "gfm_autolink_close"):
            link_depth -= 1
        elif tok.type == "text" and link_depth == 0 and _may_link(tok.content):
            spans, brackets = _find_links(children, idx, brackets)
            if spans:
                out.extend(_split(tok, spans))
                continue
        out.append(tok)
    return out


def www_url_rule(state: StateCore) -> None:
    """Core rule (before ``text_join``): extended www and URL autolinks."""
    _walk_inline(state, _www_url_children)


def _find_emails(s: str) -> list[tuple[int, int, str]]:
    """cmark-gfm's e-mail postprocess on one (consolidated) text: ``[(start, end, href)]``."""
    spans: list[tuple[int, int, str]] = []
    n = len(s)
    p = 0
    while p < n:
        at = s.find("@", p)
        if at < 0:
            break
        periods = 0
        while True:  # `found_at` in cmark-gfm: a later '@' restarts with the counts kept
            rewind = 0
            while rewind < at - p:
                c = s[at - rewind - 1]
                if _isalnum(c) or c in ".+-_":
                    rewind += 1
                    continue
                if c == ":" and _protocol_before(s, at - rewind - 1, p):
                    raise Unsupported(
                        "gfm_autolink_ambiguous",
                        "mailto:/xmpp: bare links are rendered differently by cmark-gfm versions",
                    )
                break
            if rewind == 0:
                p = at + 1
                break
            le = 1
            restart = False
            while le < n - at:
                c = s[at + le]
                if _isalnum(c):
                    le += 1
                    continue
                if c == "@":
                    p = at + 1
                    at = at + le
                    restart = True
                    break
                if c == "." and le < n - at - 1 and _isalnum(s[at + le + 1]):
                    periods += 1
                elif c not in "-_":
                    break
                le += 1
            if restart:
                continue
            last = s[at + le - 1]
            if le < 2 or periods == 0 or (not _isalpha(last) and last != "."):
                p = at + le
                break
            end = _trim(s, at, at + le)
            if end == at:
                p = at + 1
                break
            start = at - rewind
            spans.append((start, end, "mailto:" + s[start:end]))
            p = end
            break
    return spans


def _protocol_before(s: str, colon: int, floor: int) -> bool:
    """Whether ``mailto`` or ``xmpp`` ends at ``colon`` (as cmark-gfm's validate_protocol)."""
    for name in ("mailto", "xmpp"):
        start = colon - len(name)
        if (
            start >= floor
            and s[start:colon] == name
            and (start == floor or not _isalnum(s[start - 1]))
        ):
            return True
    return False


def _email_children(children: list[Token]) -> list[Token]:
    out: list[Token] = []
    link_depth = 0
    for tok in children:
        if tok.type in ("link_open", "gfm_autolink_open"):
            link_depth += 1
        elif tok.type in ("link_close", "gfm_autolink_close"):
            link_depth -= 1
        elif tok.type == "text" and link_depth == 0 and "@" in tok.content:
            spans = _find_emails(tok.content)
            if spans:
                out.extend(_split(tok, spans))
                continue
        out.append(tok)
    return out


def email_rule(state: StateCore) -> None:
    """Core rule (after ``text_join``): extended e-mail autolinks."""
    _walk_inline(state, _email_children)


def render_autolink_open(self, tokens, idx, options, env) -> str:  # type: ignore[no-untyped-def]
    """Renderer rule: ``<a href="…">`` with the href escaped as cmark-gfm does."""
    return f'<a href="{escape_href(tokens[idx].attrs["href"])}">'


def render_autolink_close(self, tokens, idx, options, env) -> str:  # type: ignore[no-untyped-def]
    """Renderer rule: ``</a>``."""
    return "</a>"
