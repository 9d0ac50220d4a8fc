"""Turning what the model writes for one slot into one safe line of Markdown, as it streams.

The model may write anything: nothing, a heading first, a list, a code fence, ten
paragraphs. ``SlotText`` keeps exactly one paragraph and makes it a single line that cannot
change the structure around it:

1. leading lines that are blank, headings (``# …``), fences (`````…``) or rules (``---``)
   are dropped, and so is a short first paragraph that ends with a colon ("Sure, here is the
   question:"), twice at most;
2. the first paragraph is kept (it ends at a blank line, or at a line that starts a list
   item, a heading, a quote, a fence or a rule); its lines are joined and every run of white
   space becomes one space;
3. list, heading and quote markers at its start are removed (``1.``, ``-``, ``##``, ``>``,
   ``Question 2:``, ``一、``), at most three of them;
4. a first character that would still open a block (``<``, a fence, ``[label]:``, a rule, a
   list marker) is escaped with ``\\``;
5. the text is cut at ``cap`` characters and ends with ``…`` when cut (also when the model
   stopped at its token limit mid-paragraph);
6. an empty result becomes ``—``.

The same code cleans a whole answer and a stream (a whole answer is one ``feed``), and it
works character by character, so the result never depends on how the text was chunked.
Steps 3 and 4 need the first ``HEAD`` characters, which are held back until then.
"""

from __future__ import annotations

import re

PLACEHOLDER = "—"
ELLIPSIS = "…"
HEAD = 96  # characters held back to decide steps 1 (a colon) , 3 and 4 (three markers ≤ 15)

_SKIP_LINE = re.compile(r"#{1,6}(?:\s.*)?|`{1,2}|~{1,2}|`{3,}.*|~{3,}.*|[-=*_][-=*_\s]*", re.S)
_MARKER = re.compile(
    r"#{1,6}(?: |$)|>{1,3} ?|[-*+•·▪◦‣](?: |$)|\d{1,9}(?:[.)](?: |$)|、 ?)|[(（]\d{1,2}[)）] ?"
    r"|[一二三四五六七八九十]{1,3}[、.] ?"
    r"|(?i:(?:question|option|step|point|item|idea|reason|pro|con|answer|bullet|tip)s?"
    r" ?\d{0,2} ?[:：.)-] ?)"
    r"|(?:问题|选项|方案|步骤|要点|答案|回答|第\d{1,2}[步点条]) ?\d{0,2} ?[:：] ?"
)
_BLOCK_START = re.compile(
    r"(?:[-*+•·▪]|[0-9]{1,9}[.)]|#{1,6})\s|[0-9]{1,9}、|[一二三四五六七八九十]{1,3}、|>|`{3}|~{3}"
)
_RULE_LINE = re.compile(r"([-=*_])(?:\s*\1){2,}\s*")
_MAYBE_BLOCK = re.compile(
    r"[-*+•·▪]|[一二三四五六七八九十]{1,3}|\d{1,9}[.)、]?|#{1,6}|`{1,2}|~{1,2}|[-=*_][-=*_\s]*"
)
_STILL_BLOCK = re.compile(r"#{1,6}(?: |$)|>|[-*+](?: |$)|[0-9]{1,9}[.)](?: |$)")
_RULE_LIKE = re.compile(r"[-*_][-*_ ]*")
_FENCE = re.compile(r"`{3}|~{3}")
_LINK_OK = re.compile(r"\[[^\]]*\][^:]")


def _line_start(prefix: str, complete: bool) -> bool | None:
    """Whether a line after the first starts a new block (True), continues the paragraph
    (False), or cannot tell yet (None; only when not ``complete``)."""
    text = prefix.lstrip()
    if complete:
        return bool(_BLOCK_START.match(text + " ") or _RULE_LINE.fullmatch(text))
    if _BLOCK_START.match(text):
        return True
    if not text or _MAYBE_BLOCK.fullmatch(text):
        return None
    return False


def _head(text: str) -> str:
    """Steps 3 and 4 on the first characters of the collapsed paragraph."""
    for _ in range(3):
        m = _MARKER.match(text)
        if m is None or not m.end():
            break
        text = text[m.end() :]
    if not text:
        return text
    if _RULE_LIKE.fullmatch(text) or _FENCE.match(text) or text[0] == "<":
        return "\\" + text
    if text[0] == "[" and not _LINK_OK.match(text):
        return "\\" + text
    m = _STILL_BLOCK.match(text)
    if m:
        if text[0].isdigit():
            digits = len(text) - len(text.lstrip("0123456789"))
            return text[:digits] + "\\" + text[digits:]
        return "\\" + text
    return text


class SlotText:
    """The cleaner of one slot (see the module docstring). ``feed`` returns the text that is
    final so far; ``close`` the rest; ``done`` turns true once more input cannot change the
    result (the paragraph ended, or the cap was passed), so the caller may stop the model."""

    def __init__(self, cap: int) -> None:
        if cap <= HEAD:
            raise ValueError(f"cap must be more than {HEAD} characters")
        self.cap = cap
        self.done = False
        self._in_body = False
        self._line: list[str] = []
        self._after_cr = False
        self._space = False  # white space since the last character kept
        self._next: list[str] | None = None  # the start of a line after a line break
        self._started = False
        self._head: list[str] | None = []  # the first characters, until steps 3 and 4
        self._held = 0
        self._dropped = 0  # preambles dropped
        self._emitted = 0
        self._overflow = False
        self._ended = False  # the paragraph ended (a blank line, or a line starting a block)
        self._out: list[str] = []

    def feed(self, text: str) -> str:
        for ch in text:
            if self.done:
                break
            self._char(ch)
        return self._take()

    def close(self, *, cut: bool = False) -> str:
        """The rest of the slot's text; ``cut``: the model stopped at its token limit."""
        if self._next is not None and not self.done:
            held, self._next = self._next, None
            if _line_start("".join(held), True) is False:
                for c in held:
                    self._kept(c)
            elif not self._preamble(held, False):
                self._ended = True
        if self._head is not None:
            self._flush_head()
        if self._emitted and (self._overflow or (cut and not self._ended)):
            self._out.append(ELLIPSIS)
        elif not self._emitted:
            self._out.append(PLACEHOLDER)
        self.done = True
        return self._take()

    # ---- internals ----------------------------------------------------------------------

    def _take(self) -> str:
        out = "".join(self._out)
        self._out.clear()
        return out

    def _char(self, ch: str) -> None:
        if ch == "\n" and self._after_cr:
            self._after_cr = False
            return
        self._after_cr = ch == "\r"
        newline = ch in "\r\n"
        self._route(ch, newline)

    def _route(self, ch: str, newline: bool) -> None:
        if self._in_body:
            self._body(ch, newline)
        else:
            self._first_line(ch, newline)

    def _first_line(self, ch: str, newline: bool) -> None:
        if newline:
            self._line.clear()  # a blank, heading, fence or rule line: dropped
            return
        self._line.append(ch)
        line = "".join(self._line).lstrip()
        if not _SKIP_LINE.fullmatch(line):
            self._in_body = True
            for held in self._line:
                self._body(held, False)

    def _preamble(self, held: list[str], newline: bool) -> bool:
        """Drop a short first paragraph ending with a colon and start again with ``held``,
        the line that followed it; False when the paragraph is the content."""
        text = "".join(self._head or ()).rstrip()
        if self._head is None or self._dropped >= 2 or not text.endswith((":", "：")):
            return False
        self._dropped += 1
        self._head, self._held, self._started, self._space = [], 0, False, False
        self._in_body, self._line = False, []
        for ch in held:
            self._route(ch, False)
        if newline:
            self._route("\n", True)
        return True

    def _body(self, ch: str, newline: bool) -> None:
        if self._next is not None:  # a line after a line break: does it start a block?
            if not newline:
                self._next.append(ch)
            starts = _line_start("".join(self._next), newline)
            if newline and not "".join(self._next).strip():
                starts = True  # a blank line
            if starts is None:
                return
            held, self._next = self._next, None
            if starts:
                if not self._preamble(held, newline):
                    self._ended = self.done = True
                return
            for c in held:
                self._kept(c)
            if newline:
                self._next = []
                self._space = True
            return
        if newline:
            self._next = []
            self._space = True
            return
        self._kept(ch)

    def _kept(self, ch: str) -> None:
        if self._overflow:
            return
        if ch.isspace():
            self._space = True
            return
        piece = " " + ch if self._space and self._started else ch
        self._space = False
        self._started = True
        if self._head is not None:
            self._head.append(piece)
            self._held += len(piece)
            if self._held >= HEAD:
                self._flush_head()
            return
        self._emit(piece)

    def _flush_head(self) -> None:
        held = "".join(self._head or ())
        self._head = None
        if held:
            self._emit(_head(held))

    def _emit(self, piece: str) -> None:
        room = self.cap - self._emitted
        if len(piece) > room:
            piece = piece[:room].rstrip()
            self._overflow = self.done = True
        if piece:
            self._out.append(piece)
            self._emitted += len(piece)


def clean_slot_text(raw: str, cap: int, *, cut: bool = False) -> str:
    """The cleaned text of a whole slot answer (what ``SlotText`` streams, in one go)."""
    cleaner = SlotText(cap)
    return cleaner.feed(raw) + cleaner.close(cut=cut)
