"""A small TypeScript tokenizer for checking generated programs.

It knows what the translator emits: identifiers, numbers, punctuation, string literals,
template literals (with nested ``${…}``), regular-expression literals and comments. It is
not a TypeScript parser; it lets the ops check cheap invariants of their output: every
literal and comment is closed, brackets match, and two programs have the same code apart
from their comments.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Token", "TsLexError", "code_tokens", "line_of", "quick_code", "tokenize", "word_start"]

_IDENT = re.compile(r"(?:[^\W\d]|\$)[\w$]*")
_NUMBER = re.compile(r"(?:0[xXbBoO][0-9a-fA-F_]+|(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)n?")
_PUNCT = re.compile(
    r">>>=|\.\.\.|===|!==|\*\*=|<<=|>>=|>>>|\?\?=|&&=|\|\|=|=>|==|!=|<=|>=|&&|\|\||\?\?|\?\."
    r"|\+\+|--|\+=|-=|\*=|/=|%=|&=|\|=|\^=|\*\*|<<|>>|[{}()\[\];,<>+\-*/%&|^!~?:=.@#]"
)
_SPACE = re.compile(r"\s+")
_OWN_READER = frozenset("\"'`/")  # characters that start a token read on its own
# One match for the common tokens (identifiers, numbers, punctuation) and the white space
# before them, where the token cannot start a string, template, comment or regular
# expression (those are read on their own, below): one regular-expression call per token.
# White space followed by such a token matches the last alternative alone.
_COMMON = re.compile(
    rf"\s*(?![{re.escape(''.join(sorted(_OWN_READER)))}])"
    rf"(?:(?P<ident>{_IDENT.pattern})|(?P<number>(?=\d|\.\d){_NUMBER.pattern})"
    rf"|(?P<punct>{_PUNCT.pattern}))|(?P<space>{_SPACE.pattern})"
)
_OPENERS = frozenset("([{")
# where a string or template literal may end or change: the characters the reader stops at
_STRING_STOP = {q: re.compile(rf"[\\{q}\n]") for q in "\"'"}
_TEMPLATE_STOP = re.compile(r"[\\`]|\$\{")
_new_token = tuple.__new__  # Token's own constructor is a Python function: this is C
# after these tokens a `/` starts a regular expression, not a division
_REGEX_AFTER_WORDS = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete"}
_CLOSERS = {")": "(", "]": "[", "}": "{"}


class TsLexError(ValueError):
    """The text is not a well-formed sequence of TypeScript tokens."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class Token(NamedTuple):
    """One token (a named tuple: a long program has tens of thousands, and a tuple is the
    cheapest immutable record to make)."""

    kind: str  # ident, number, punct, string, template, regex, comment
    text: str
    start: int  # offset in the program (its line: line_of)


def line_of(text: str, offset: int) -> int:
    """The 1-based line of ``offset`` in ``text`` (asked only to word an error)."""
    return text.count("\n", 0, offset) + 1


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.tokens: list[Token] = []
        self.brackets: list[tuple[str, int]] = []  # (bracket, offset) of the open ones

    def fail(self, message: str) -> TsLexError:
        return TsLexError(message, line_of(self.text, self.pos))

    def add(self, kind: str, start: int) -> None:
        self.tokens.append(_new_token(Token, (kind, self.text[start : self.pos], start)))

    def run(self, until_brace: bool = False) -> None:
        """Tokens up to the end (or, inside ``${…}``, up to its closing brace)."""
        depth = len(self.brackets)
        text = self.text
        match, append, brackets = _COMMON.match, self.tokens.append, self.brackets
        pos = self.pos  # kept in a local while common tokens are read, self.pos otherwise
        while pos < len(text):
            if text[pos] in _OWN_READER:
                self.pos = pos
                if self.own_token(until_brace, depth):
                    return
                pos = self.pos
                continue
            m = match(text, pos)
            if m is None:
                self.pos = pos
                raise self.fail(f"unexpected character {text[pos]!r}")
            kind = m.lastgroup
            if kind == "space":
                pos = m.end()
                continue
            start, pos = m.span(kind)
            tok = text[start:pos]
            if kind == "punct":
                if until_brace and tok == "}" and len(brackets) == depth:
                    self.pos = start
                    return
                if tok in _OPENERS or tok in _CLOSERS:
                    self.bracket(tok, start)
            append(_new_token(Token, (kind, tok, start)))
        self.pos = pos
        if until_brace:
            raise self.fail("unterminated ${ in a template literal")

    def own_token(self, until_brace: bool, depth: int) -> bool:
        """Read the token at ``self.pos``, which starts with a character that may begin a
        string, template, comment or regular expression; True where the run ends there."""
        text = self.text
        m = _SPACE.match(text, self.pos)
        if m:
            self.pos = m.end()
            return False
        ch = text[self.pos]
        start = self.pos
        if text.startswith("//", self.pos):
            end = text.find("\n", self.pos)
            self.pos = len(text) if end < 0 else end
            self.add("comment", start)
        elif text.startswith("/*", self.pos):
            end = text.find("*/", self.pos + 2)
            if end < 0:
                raise self.fail("unterminated block comment")
            self.pos = end + 2
            self.add("comment", start)
        elif ch in "\"'":
            self.string(ch)
            self.add("string", start)
        elif ch == "`":
            self.template()
        elif ch == "/" and self.regex_allowed():
            self.regex()
            self.add("regex", start)
        elif _IDENT.match(text, self.pos):
            self.pos = _IDENT.match(text, self.pos).end()  # type: ignore[union-attr]
            self.add("ident", start)
        elif ch.isdigit() or (ch == "." and text[self.pos + 1 : self.pos + 2].isdigit()):
            self.pos = _NUMBER.match(text, self.pos).end()  # type: ignore[union-attr]
            self.add("number", start)
        else:
            m = _PUNCT.match(text, self.pos)
            if not m:
                raise self.fail(f"unexpected character {ch!r}")
            if until_brace and ch == "}" and len(self.brackets) == depth:
                return True
            self.pos = m.end()
            self.bracket(m.group(0), start)
            self.add("punct", start)
        return False

    def bracket(self, tok: str, start: int) -> None:
        """Open or close a bracket; ``start`` is the token's offset."""
        if tok in _OPENERS:
            self.brackets.append((tok, start))
        elif tok in _CLOSERS:
            if not self.brackets or self.brackets[-1][0] != _CLOSERS[tok]:
                raise TsLexError(f"unmatched {tok!r}", line_of(self.text, start))
            self.brackets.pop()

    def string(self, quote: str) -> None:
        text, stop = self.text, _STRING_STOP[quote]
        i = self.pos + 1
        while (m := stop.search(text, i)) is not None:
            c = m.group()
            if c == "\\":
                i = m.start() + 2
                continue
            if c == quote:
                self.pos = m.end()
                return
            break  # a line break
        raise self.fail("unterminated string literal")

    def template(self) -> None:
        text = self.text
        start = self.pos
        i = self.pos + 1
        while (m := _TEMPLATE_STOP.search(text, i)) is not None:
            c = m.group()
            if c == "\\":
                i = m.start() + 2
                continue
            if c == "`":
                self.pos = m.end()
                self.add("template", start)
                return
            self.pos = m.start()  # ${
            self.add("template", start)
            self.pos = m.end()
            self.run(until_brace=True)
            # self.pos is at the closing brace of ${…}
            start = self.pos
            i = self.pos + 1
        self.pos = start
        raise self.fail("unterminated template literal")

    def regex_allowed(self) -> bool:
        if not self.tokens:
            return True
        last = self.tokens[-1]
        if last.kind == "comment":
            last = next((t for t in reversed(self.tokens) if t.kind != "comment"), last)
        if last.kind == "ident":
            return last.text in _REGEX_AFTER_WORDS
        if last.kind in ("number", "string", "template", "regex"):
            return False
        return last.text not in (")", "]", "}", "++", "--")

    def regex(self) -> None:
        text = self.text
        i = self.pos + 1
        in_class = False
        while i < len(text):
            c = text[i]
            if c == "\\":
                i += 2
                continue
            if c == "\n":
                break
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                m = re.compile(r"[a-z]*").match(text, i + 1)
                self.pos = m.end() if m else i + 1
                return
            i += 1
        raise self.fail("unterminated regular expression")


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``, comments included; ``TsLexError`` when a literal, comment or
    bracket is not closed, or a character cannot start a token."""
    lexer = _Lexer(text)
    lexer.run()
    if lexer.brackets:
        tok, start = lexer.brackets[-1]
        raise TsLexError(f"{tok!r} is never closed", line_of(text, start))
    return lexer.tokens


def code_tokens(text: str) -> list[tuple[str, str]]:
    """The tokens of ``text`` without comments and positions: the code itself."""
    return [(t.kind, t.text) for t in tokenize(text) if t.kind != "comment"]


# Where the quick check stops: a bracket, a character that may start a literal, comment or
# regular expression, or a character that starts no token (every other character is part
# of an identifier, number, punctuation or white space, which the quick check need not read
# one by one: they tokenize whatever their order).
_QUICK_STOP = re.compile(r"[^\w$\s;,<>+\-*%&|^!~?:=.@#]")


def quick_code(text: str) -> list[str] | None:
    """The code between the literals and comments of ``text`` (template literals' ``${…}``
    included), when ``text`` is certainly well formed: :func:`tokenize` would accept it.
    ``None`` where the quick reading cannot tell (a character that starts no token, an
    unclosed literal or bracket, or a ``/`` whose meaning depends on the token before it):
    the caller then tokenizes the text. Brackets and literals are read as :func:`tokenize`
    reads them, other code only checked for characters that start no token."""
    code: list[str] = []
    opened: list[str] = []  # open brackets, "${" for a template's substitution
    search, pos, n = _QUICK_STOP.search, 0, len(text)
    comment_ends: dict[int, int] = {}  # end -> start of each comment
    while True:
        m = search(text, pos)
        if m is None:
            code.append(text[pos:])
            break
        i = m.start()
        c = text[i]
        code.append(text[pos:i])
        pos = i + 1
        if c in "([{":
            opened.append(c)
        elif c in ")]":
            if not opened or opened.pop() != _CLOSERS[c]:
                return None
        elif c == "}":
            if not opened:
                return None
            top = opened.pop()
            if top == "${":
                pos = _quick_template(text, pos, opened)
                if pos < 0:
                    return None
            elif top != "{":
                return None
        elif c == "`":
            pos = _quick_template(text, pos, opened)
            if pos < 0:
                return None
        elif c in "\"'":
            stop = _STRING_STOP[c]
            while (s := stop.search(text, pos)) is not None and s.group() == "\\":
                pos = s.start() + 2
            if s is None or s.group() != c:
                return None
            pos = s.end()
        elif c == "/":
            if text.startswith("//", i):
                end = text.find("\n", i)
                pos = n if end < 0 else end
                comment_ends[pos] = i
            elif text.startswith("/*", i):
                end = text.find("*/", i + 2)
                if end < 0:
                    return None
                pos = end + 2
                comment_ends[pos] = i
            elif not _quick_division(text, i, comment_ends):
                return None  # a regular expression, or a `/` the quick check cannot place
        else:
            return None  # a character that starts no token
    return None if opened else code


def _quick_template(text: str, pos: int, opened: list[str]) -> int:
    """The offset after a template literal's part that starts at ``pos``: after its closing
    backtick, or after a ``${`` (then pushed on ``opened``); -1 where it is not closed."""
    while (m := _TEMPLATE_STOP.search(text, pos)) is not None:
        if m.group() == "\\":
            pos = m.start() + 2
            continue
        if m.group() == "${":
            opened.append("${")
        return m.end()
    return -1


def _quick_division(text: str, i: int, comment_ends: dict[int, int]) -> bool:
    """Whether the ``/`` at ``i`` is certainly a division (the token before it ends a value,
    as :meth:`_Lexer.regex_allowed` decides); False where it may start a regular expression
    or the token before it cannot be told from its last character."""
    j = i
    while True:
        while j and text[j - 1].isspace():
            j -= 1
        if j not in comment_ends:
            break
        j = comment_ends[j]
    if j == 0:
        return False
    c = text[j - 1]
    if c in ")]}\"'`":
        return True  # a closing bracket, or the end of a string or template literal
    if not (c == "$" or c.isalnum() or c == "_"):
        return False  # punctuation: a regular expression may follow
    k = word_start(text, j)
    run = text[k:j]
    before = text[k - 1] if k else ""
    if before == "/" or before == ".":
        return False  # a regular expression's flags, or a number's digits after its point
    if run.isdigit():
        return True  # a number
    return _IDENT.fullmatch(run) is not None and run not in _REGEX_AFTER_WORDS


def word_start(text: str, end: int) -> int:
    """The start of the run of word characters (``[\\w$]``) that ends at ``end``."""
    k = end
    while k and (text[k - 1].isalnum() or text[k - 1] in "_$"):
        k -= 1
    return k
