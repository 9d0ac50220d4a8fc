"""A contextual lexer that tries, at each position, only the terminals that can start there.

Lark's contextual lexer matches the text at a position against one regular expression per
parser state: the alternation of every terminal the state accepts, in Lark's order, where
the first alternative that matches wins. With a few hundred keyword terminals, most of the
time of an instruction parse went into trying alternatives that cannot match because they
cannot start with the character at hand.

This lexer keeps Lark's semantics exactly and narrows each alternation by the next
character: for every terminal it computes a superset of the characters its pattern can
start with (from the pattern's parsed form; anything it does not understand counts as
"any character"), and for a character ``c`` it tries only the terminals whose set contains
``c``, in the same order. The first terminal in Lark's order that matches is therefore the
same terminal as before. For ASCII and CJK characters the sets are exact supersets (a
character outside ASCII that a pattern ignoring case names counts with the ASCII characters
that fold to it: ſ with s and S); for any other character of the text every pattern that
ignores case is tried as well (case folding outside ASCII has special cases this module does
not model).

Where the next two characters are both ASCII or CJK, the choice is narrowed once more by the
pair: each terminal's pattern also gives a superset of the first two characters of its
matches (``PairStarts``: the characters a one-character match can be, and for each first
character the characters that can follow it), so "to" tries the few terminals that can
start with "to", not every one that can start with "t", and a space before "the" tries the
ignored whitespace alone rather than every pattern that allows a space before its word.

A state's choice for a character starts by matching its terminals one after another, each
pattern compiled once for the whole grammar, so a first-time instruction compiles nothing
big; a choice used a few times gets its own compiled alternation. Lark's full alternation of
a state is never compiled.

Installed through Lark's ``_plugins`` option (``Lark(..., _plugins=LEXER_PLUGINS)``).
"""

from __future__ import annotations

import re
from functools import cache
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from lark.lexer import BasicLexer, CallChain, ContextualLexer, Scanner, _create_unless

__all__ = ["LEXER_PLUGINS", "first_chars"]

_C = sre_parse  # opcode names live on the parser module
_CJK = (0x3400, 0x9FFF)
_IGNORECASE = re.IGNORECASE


def _dispatched(c: str) -> bool:
    o = ord(c)
    return o < 0x80 or _CJK[0] <= o <= _CJK[1]


class FirstChars:
    """A superset of the characters a pattern can start with, for dispatched characters."""

    __slots__ = ("any", "chars", "classes", "folded", "ranges")

    def __init__(self) -> None:
        self.any = False
        self.folded = False  # some character is matched ignoring case
        self.chars: set[str] = set()
        self.ranges: list[tuple[int, int, bool]] = []  # (lo, hi, ignorecase)
        self.classes: list[re.Pattern[str]] = []

    def update(self, other: FirstChars) -> None:
        self.any = self.any or other.any
        self.folded = self.folded or other.folded
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
    out.chars.add(ch)
    if flags & _IGNORECASE:
        out.folded = True
        out.chars.update(_ascii_forms(ch))


@cache
def _ascii_forms(ch: str) -> frozenset[str]:
    """The ASCII characters a pattern of ``ch`` alone matches ignoring case: its ASCII case
    forms, and for a character outside ASCII those that fold to it (ſ matches s and S, the
    Kelvin sign k and K); no CJK character has a case form."""
    one = re.compile(re.escape(ch), re.IGNORECASE)
    return frozenset(chr(a) for a in range(0x80) if one.fullmatch(chr(a)))


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
                out.folded = out.folded or bool(flags & _IGNORECASE)
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


# The first two characters: a prefix is a tuple of up to two character sets; a tuple shorter
# than two is a whole match (the empty tuple: the pattern can match the empty string).
_Prefix = tuple[FirstChars, ...]
_MAX_PREFIXES = 4096  # more than this for one pattern: its pairs count as any pair


class _TooMany(Exception):
    pass


def _anything() -> FirstChars:
    out = FirstChars()
    out.any = True
    return out


_ANY = _anything()


@cache
def _literal_set(code: int, flags: int) -> FirstChars:
    out = FirstChars()  # shared between patterns: never updated after this
    _literal(code, flags, out)
    return out


def _concat(left: list[_Prefix], right: list[_Prefix]) -> list[_Prefix]:
    out = dict.fromkeys(p for p in left if len(p) == 2)
    for p in left:
        if len(p) < 2:
            for q in right:
                out[(p + q)[:2]] = None
    if len(out) > _MAX_PREFIXES:
        raise _TooMany
    return list(out)


def _prefixes(items: Any, flags: int) -> list[_Prefix]:
    out: list[_Prefix] = [()]
    for op, arg in items:
        if all(len(p) == 2 for p in out):
            break
        out = _concat(out, _item_prefixes(op, arg, flags))
    return out


def _item_prefixes(op: Any, arg: Any, flags: int) -> list[_Prefix]:
    if op is _C.LITERAL:
        return [(_literal_set(arg, flags & _IGNORECASE),)]
    if op is _C.IN:
        chars = FirstChars()
        _charset(arg, flags, chars)
        return [(chars,)]
    if op is _C.SUBPATTERN:
        _group, add_flags, del_flags, sub = arg
        return _prefixes(sub, (flags | add_flags) & ~del_flags)
    if op is _C.ATOMIC_GROUP:
        return _prefixes(arg, flags)
    if op is _C.BRANCH:
        out: dict[_Prefix, None] = {}
        for alternative in arg[1]:
            out.update(dict.fromkeys(_prefixes(alternative, flags)))
        return list(out)
    if op in (_C.MAX_REPEAT, _C.MIN_REPEAT, _C.POSSESSIVE_REPEAT):
        # a repeat's first two characters come from at most two of its repetitions
        low, high, sub = arg
        once = _prefixes(sub, flags)
        found: dict[_Prefix, None] = {}
        for times in range(min(low, 2), min(high, 2) + 1):
            repeated: list[_Prefix] = [()]
            for _ in range(times):
                repeated = _concat(repeated, once)
            found.update(dict.fromkeys(repeated))
        return list(found)
    if op in (_C.ASSERT, _C.ASSERT_NOT, _C.AT):
        return [()]  # zero width: narrows what follows, adds no character
    if op in (_C.ANY, _C.NOT_LITERAL):
        return [(_ANY,)]
    return [(), (_ANY,), (_ANY, _ANY)]  # group references and the like: anything


class PairStarts:
    """A superset of the first two characters of a pattern's matches, for dispatched
    characters: ``may_start(c1, c2)`` is False only where no match starts with ``c1``
    followed by ``c2`` (``c2`` empty: the text ends after ``c1``)."""

    __slots__ = ("always", "by_first", "one", "rest")

    def __init__(self, prefixes: list[_Prefix]) -> None:
        self.always = any(len(p) == 0 for p in prefixes)  # Lark refuses such terminals
        self.one = FirstChars()  # a whole match of one character
        self.by_first: dict[str, FirstChars] = {}  # first character -> second characters
        self.rest: list[tuple[FirstChars, FirstChars]] = []  # pairs of wider first sets
        for prefix in prefixes:
            if len(prefix) == 1:
                self.one.update(prefix[0])
            elif len(prefix) == 2:
                first, second = prefix
                if first.any or first.ranges or first.classes:
                    self.rest.append((first, second))
                    continue
                for c in first.chars:
                    self.by_first.setdefault(c, FirstChars()).update(second)

    def may_start(self, c1: str, c2: str) -> bool:
        if self.always or c1 in self.one:
            return True
        if not c2:
            return False
        second = self.by_first.get(c1)
        if second is not None and c2 in second:
            return True
        return any(c1 in first and c2 in second for first, second in self.rest)


def pair_starts(pattern: str, flags: int = 0) -> PairStarts:
    """The first two characters of ``pattern``'s matches (a superset)."""
    try:
        return PairStarts(_prefixes(sre_parse.parse(pattern, flags), flags))
    except _TooMany:
        return PairStarts([()])


@cache
def _pair_starts(pattern: str, flags: int) -> PairStarts:
    return pair_starts(pattern, flags)


class _Choice:
    """The terminals that can start with one character, in Lark's order.

    Matched one terminal after another (each terminal's pattern is compiled once for the
    whole grammar) until the choice has been used ``HOT`` times; then their alternation is
    compiled, as Lark would compile it, and used from there on. The first terminal that
    matches wins either way.
    """

    __slots__ = ("candidates", "scanner", "terminals", "uses")

    HOT = 4

    def __init__(self, terminals: list[Any], flags: int, re_: Any) -> None:
        self.terminals = terminals
        self.candidates = [
            (_compiled(t.pattern.to_regexp(), flags, re_), t.name) for t in terminals
        ]
        self.scanner: Scanner | None = None
        self.uses = 0

    def match(self, text: Any, pos: int, flags: int, re_: Any) -> tuple[str, str] | None:
        if self.scanner is not None:
            return self.scanner.match(text, pos)  # type: ignore[no-any-return]
        self.uses += 1
        if self.uses >= self.HOT and len(self.candidates) > 2:
            self.scanner = Scanner(self.terminals, flags, re_, False)
            return self.scanner.match(text, pos)  # type: ignore[no-any-return]
        source, end = text.text, text.end
        for pattern, name in self.candidates:
            m = pattern.match(source, pos, end)
            if m:
                return m.group(0), name
        return None


_PATTERNS: dict[tuple[str, int], Any] = {}


def _compiled(pattern: str, flags: int, re_: Any) -> Any:
    found = _PATTERNS.get((pattern, flags))
    if found is None:
        found = _PATTERNS[(pattern, flags)] = re_.compile(pattern, flags)
    return found


_MAX_PAIRS = 2048  # pairs of characters remembered per parser state


class DispatchScanner:
    """Lark's scanner for one set of terminals, matching at each position only the
    terminals that can start there (same first match as the full alternation)."""

    def __init__(self, terminals: list[Any], g_regex_flags: int, re_: Any) -> None:
        self.terminals = terminals
        self.allowed_types = {t.name for t in terminals}
        self.flags = g_regex_flags
        self.re = re_
        self._first = [_first_chars(t.pattern.to_regexp(), g_regex_flags) for t in terminals]
        self._by_char: dict[str, _Choice] = {}
        self._by_pair: dict[str, _Choice] = {}

    def _choose(self, c: str) -> _Choice:
        if _dispatched(c):
            picked = [t for t, first in zip(self.terminals, self._first, strict=True) if c in first]
        else:  # case folding outside ASCII is not modelled: any folded pattern may match
            picked = [
                t
                for t, first in zip(self.terminals, self._first, strict=True)
                if first.folded or c in first
            ]
        choice = self._by_char[c] = _Choice(picked, self.flags, self.re)
        return choice

    def _choose_pair(self, key: str) -> _Choice:
        """The terminals of the first character's choice whose matches can start with
        ``key`` (the first two characters; one where the text ends after it)."""
        c = key[0]
        base = self._by_char.get(c) or self._choose(c)
        second = key[1:]
        if len(base.terminals) < 2 or not all(_dispatched(k) for k in key):
            choice = base
        else:
            picked = [
                t
                for t in base.terminals
                if _pair_starts(t.pattern.to_regexp(), self.flags).may_start(c, second)
            ]
            narrowed = len(picked) < len(base.terminals)
            choice = _Choice(picked, self.flags, self.re) if narrowed else base
        if len(self._by_pair) < _MAX_PAIRS:
            self._by_pair[key] = choice
        return choice

    def match(self, text: Any, pos: int) -> tuple[str, str] | None:
        source = text.text
        key = source[pos : pos + 2] if pos + 1 < text.end else source[pos]
        choice = self._by_pair.get(key) or self._choose_pair(key)
        return choice.match(text, pos, self.flags, self.re)


class DispatchBasicLexer(BasicLexer):
    """A basic lexer whose scanner is a :class:`DispatchScanner` (Lark's own build of its
    terminal list and callbacks, without compiling the full alternation)."""

    def _build_scanner(self) -> Any:
        if self.use_bytes:
            return super()._build_scanner()
        terminals, self.callback = _create_unless(
            self.terminals, self.g_regex_flags, self.re, self.use_bytes
        )
        for type_, f in self.user_callbacks.items():
            if type_ in self.callback:  # an UnlessCallback already: chain the two
                self.callback[type_] = CallChain(
                    self.callback[type_], f, lambda t, type_=type_: t.type == type_
                )
            else:
                self.callback[type_] = f
        return DispatchScanner(terminals, self.g_regex_flags, self.re)


class DispatchContextualLexer(ContextualLexer):
    BasicLexer = DispatchBasicLexer


LEXER_PLUGINS: dict[str, Any] = {"ContextualLexer": DispatchContextualLexer}
