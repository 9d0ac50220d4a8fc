"""A contextual lexer that tries, at each position, only the terminals that can start there.

Lark's contextual lexer matches the text at a position against one regular expression per
parser state: the alternation of every terminal the state accepts, in Lark's order, where
the first alternative that matches wins. With a few hundred keyword terminals, most of the
time of an instruction parse went into trying alternatives that cannot match because they
cannot start with the character at hand.

This lexer keeps Lark's semantics exactly and narrows each alternation by the next
character: for every terminal it computes a superset of the characters its pattern can
start with (from the pattern's parsed form; anything it does not understand counts as
"any character"), and for a character ``c`` it matches against the alternation of only the
terminals whose set contains ``c``, in the same order. The first terminal in Lark's order
that matches is therefore the same terminal as before. Only ASCII and CJK characters are
dispatched; any other character uses Lark's full alternation (case folding outside ASCII
has special cases this module does not model). Narrowed alternations are compiled on first
use and shared between states that select the same terminals.

Installed through Lark's ``_plugins`` option (``Lark(..., _plugins=LEXER_PLUGINS)``).
"""

from __future__ import annotations

import re
from functools import cache
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from lark.lexer import BasicLexer, ContextualLexer, Scanner

__all__ = ["LEXER_PLUGINS", "first_chars"]

_C = sre_parse  # opcode names live on the parser module
_CJK = (0x3400, 0x9FFF)
_IGNORECASE = re.IGNORECASE


def _dispatched(c: str) -> bool:
    o = ord(c)
    return o < 0x80 or _CJK[0] <= o <= _CJK[1]


class FirstChars:
    """A superset of the characters a pattern can start with, for dispatched characters."""

    __slots__ = ("any", "chars", "classes", "ranges")

    def __init__(self) -> None:
        self.any = False
        self.chars: set[str] = set()
        self.ranges: list[tuple[int, int, bool]] = []  # (lo, hi, ignorecase)
        self.classes: list[re.Pattern[str]] = []

    def update(self, other: FirstChars) -> None:
        self.any = self.any or other.any
        self.chars |= other.chars
        self.ranges += other.ranges
        self.classes += other.classes

    def __contains__(self, c: str) -> bool:
        if self.any or c in self.chars:
            return True
        forms = (c, c.lower(), c.upper())
        for lo, hi, folded in self.ranges:
            for form in forms if folded else (c,):
                if lo <= ord(form) <= hi:
                    return True
        return any(cls.match(c) for cls in self.classes)


def _literal(code: int, flags: int, out: FirstChars) -> None:
    ch = chr(code)
    if flags & _IGNORECASE and not _dispatched(ch):
        out.any = True  # non-ASCII case folding (ſ, K, İ …) is not modelled
        return
    out.chars.add(ch)
    if flags & _IGNORECASE:
        out.chars.update((ch.lower(), ch.upper()))


def _charset(items: Any, flags: int, out: FirstChars) -> None:
    for op, arg in items:
        if op is _C.LITERAL:
            _literal(arg, flags, out)
        elif op is _C.RANGE:
            lo, hi = arg
            ascii_or_cjk = hi < 0x80 or (_CJK[0] <= lo and hi <= _CJK[1])
            if flags & _IGNORECASE and not ascii_or_cjk:
                out.any = True
            else:
                out.ranges.append((lo, hi, bool(flags & _IGNORECASE)))
        elif op is _C.CATEGORY:
            pattern = {
                _C.CATEGORY_DIGIT: r"\d",
                _C.CATEGORY_NOT_DIGIT: r"\D",
                _C.CATEGORY_SPACE: r"\s",
                _C.CATEGORY_NOT_SPACE: r"\S",
                _C.CATEGORY_WORD: r"\w",
                _C.CATEGORY_NOT_WORD: r"\W",
            }.get(arg)
            if pattern is None:
                out.any = True
            else:
                out.classes.append(re.compile(pattern))
        else:  # NEGATE, anything unusual: assume any character
            out.any = True


def _first(items: Any, flags: int) -> tuple[FirstChars, bool]:
    """(first characters, whether the sequence can match the empty string)."""
    out = FirstChars()
    for op, arg in items:
        first, nullable = _first_item(op, arg, flags)
        out.update(first)
        if not nullable:
            return out, False
    return out, True


def _first_item(op: Any, arg: Any, flags: int) -> tuple[FirstChars, bool]:
    out = FirstChars()
    if op is _C.LITERAL:
        _literal(arg, flags, out)
        return out, False
    if op is _C.IN:
        _charset(arg, flags, out)
        return out, False
    if op is _C.SUBPATTERN:
        _group, add_flags, del_flags, sub = arg
        return _first(sub, (flags | add_flags) & ~del_flags)
    if op is _C.ATOMIC_GROUP:
        return _first(arg, flags)
    if op is _C.BRANCH:
        nullable = False
        for alternative in arg[1]:
            first, empty = _first(alternative, flags)
            out.update(first)
            nullable = nullable or empty
        return out, nullable
    if op in (_C.MAX_REPEAT, _C.MIN_REPEAT, _C.POSSESSIVE_REPEAT):
        low, _high, sub = arg
        first, empty = _first(sub, flags)
        return first, empty or low == 0
    if op in (_C.ASSERT, _C.ASSERT_NOT, _C.AT):
        return out, True  # zero width: narrows what follows, adds no character
    out.any = True  # NOT_LITERAL, ANY, group references …
    return out, False


@cache
def _first_chars(pattern: str, flags: int) -> FirstChars:
    return first_chars(pattern, flags)


def first_chars(pattern: str, flags: int = 0) -> FirstChars:
    """A superset of the dispatched characters a match of ``pattern`` can start with."""
    first, nullable = _first(sre_parse.parse(pattern, flags), flags)
    if nullable:
        first.any = True
    return first


class DispatchScanner:
    """Lark's scanner for one set of terminals, matching at each position only the
    terminals that can start there (same first match as the full alternation)."""

    def __init__(self, base: Scanner) -> None:
        self.base = base
        self.terminals = base.terminals
        self.allowed_types = base.allowed_types
        self._first = [
            _first_chars(t.pattern.to_regexp(), base.g_regex_flags) for t in base.terminals
        ]
        self._by_char: dict[str, list[Any]] = {}
        self._by_selection: dict[tuple[int, ...], list[Any]] = {}

    def _narrowed(self, c: str) -> list[Any]:
        if not _dispatched(c) or self.base.use_bytes:
            mres: list[Any] = self.base._mres
        else:
            chosen = tuple(i for i, first in enumerate(self._first) if c in first)
            found = self._by_selection.get(chosen)
            if found is None:
                picked = [self.terminals[i] for i in chosen]
                found = self.base._build_mres(picked, len(picked)) if picked else []
                self._by_selection[chosen] = found
            mres = found
        self._by_char[c] = mres
        return mres

    def match(self, text: Any, pos: int) -> tuple[str, str] | None:
        source = text.text
        c = source[pos]
        mres = self._by_char.get(c)
        if mres is None:
            mres = self._narrowed(c)
        for mre in mres:
            m = mre.match(source, pos, text.end)
            if m:
                return m.group(0), m.lastgroup  # type: ignore[return-value]
        return None

    def fullmatch(self, text: str) -> str | None:
        return self.base.fullmatch(text)  # type: ignore[no-any-return]


class DispatchBasicLexer(BasicLexer):
    """A basic lexer whose scanner is a :class:`DispatchScanner`."""

    def _build_scanner(self) -> Any:
        return DispatchScanner(super()._build_scanner())  # Lark's build also sets callbacks


class DispatchContextualLexer(ContextualLexer):
    BasicLexer = DispatchBasicLexer


LEXER_PLUGINS: dict[str, Any] = {"ContextualLexer": DispatchContextualLexer}
