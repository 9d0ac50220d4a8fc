"""Trigger grammar fragments: a restricted subset of Lark's grammar language, read and checked.

A rule may trigger on a small grammar instead of (or besides) phrases::

    trigger: ("list" | "show") "overdue" "tickets" ["for" team]
    team: TEAM
    TEAM: /[a-z][a-z0-9-]{1,30}/

The fragment is read here by our own parser, never by Lark's grammar loader, so nothing but
what is listed below can reach the instruction grammar:

- rules (lower case) and terminals (upper case) defined as ``name: expansion``; the rule
  ``trigger`` is the entry point; every definition must be used, and no rule may refer to
  itself (repetition is written with ``*`` and ``+``);
- expansions of string literals, ``/patterns/``, references, ``( … )``, ``[ … ]``, ``?``,
  ``*``, ``+`` and ``|``;
- a terminal is literals and patterns joined by ``|``;
- patterns are simple: at most 100 characters, only ``(?:…)`` groups, no anchors,
  look-arounds or back-references, a quantifier over a group only as ``?``, no nested or lazy
  quantifiers, at most four quantifiers and bounds of at most 100; they never match the empty
  text (and in the grammar never start with a space). Every quantifier is made possessive
  (repetition never gives characters back), so matching takes time linear in the text;
- no directives (``%import``, ``%ignore`` …), priorities, aliases, templates, ``~`` ranges or
  rule modifiers.

Literals are split into words and normalised the way instructions are. Every problem is a
``FragmentProblem`` with a line and column inside the fragment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from re import _constants as sre
from re import _parser as sre_parse
from typing import Any

from zerolayer.core.normalise import normalise
from zerolayer.rules_api.rules.limits import DEFAULT_LIMITS, RuleLimits

ENTRY = "trigger"
RULE_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
TERMINAL_NAME = re.compile(r"[A-Z][A-Z0-9_]{0,31}")
MAX_LITERAL_CHARS = 100
MAX_QUANTIFIERS = 4
MAX_BOUND = 100
_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r\f]+)
    |(?P<nl>\n)
    |(?P<comment>//[^\n]*)
    |(?P<name>[A-Za-z_][A-Za-z0-9_]*)
    |(?P<string>"(?:[^"\\\n]|\\.)*"i?)
    |(?P<regexp>/(?:[^/\\\n]|\\.)+/[A-Za-z]*)
    |(?P<op>[:|()\[\]?*+])
    """,
    re.VERBOSE,
)
_HINTS = {
    "%": "directives (%import, %ignore, %declare …) are not allowed in a trigger grammar",
    "-": "aliases (->) are not allowed in a trigger grammar",
    ".": "priorities (name.2) are not allowed in a trigger grammar",
    "~": "repetition ranges (~) are not allowed; use ?, * or +",
    "{": "templates ({…}) are not allowed in a trigger grammar",
    "}": "templates ({…}) are not allowed in a trigger grammar",
    "!": "rule modifiers (!, ?) are not allowed in a trigger grammar",
    "#": "comments start with //",
    "'": 'string literals use double quotes: "word"',
}


@dataclass(frozen=True, slots=True)
class FragmentProblem:
    """One problem: a message and where it is in the fragment (1-based)."""

    message: str
    line: int = 1
    column: int = 1


class FragmentInvalid(ValueError):
    """A fragment that cannot be a trigger grammar; ``problems`` lists every problem."""

    def __init__(self, problems: list[FragmentProblem]) -> None:
        super().__init__(problems[0].message if problems else "invalid trigger grammar")
        self.problems = problems


# ---- the syntax tree ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lit:
    """One literal word (normalised)."""

    text: str


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference to a rule (lower case) or a terminal (upper case) of the fragment."""

    name: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Seq:
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Alt:
    options: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Opt:
    item: Node


@dataclass(frozen=True, slots=True)
class Rep:
    item: Node
    at_least_one: bool


Node = Lit | Ref | Seq | Alt | Opt | Rep


@dataclass(frozen=True, slots=True)
class Pattern:
    """A checked pattern: the text for the grammar (groups made non-capturing), samples."""

    source: str
    emitted: str
    samples: tuple[str, ...]


@dataclass(frozen=True)
class Fragment:
    """A checked fragment: its rules, word terminals (rules of literals) and patterns.

    ``rules`` includes ``trigger``. A terminal made only of literals is kept as a rule of
    words in ``words``; a terminal with a pattern, and every pattern written inside a rule
    (named ``_P1``, ``_P2`` …), is in ``patterns``.
    """

    source: str
    rules: dict[str, Node]
    words: dict[str, Node]
    patterns: dict[str, Pattern] = field(default_factory=dict)

    @property
    def slots(self) -> tuple[str, ...]:
        """The rules whose matched text becomes a slot (every rule but ``trigger``)."""
        return tuple(name for name in self.rules if name != ENTRY)


# ---- reading ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str
    text: str
    line: int
    column: int


def _tokens(source: str) -> list[_Tok]:
    out: list[_Tok] = []
    pos, line, start = 0, 1, 0
    while pos < len(source):
        m = _TOKEN.match(source, pos)
        column = pos - start + 1
        if m is None:
            ch = source[pos]
            hint = _HINTS.get(ch)
            if ch == "-" and not source.startswith("->", pos):
                hint = None
            message = hint or f"unexpected character {ch!r}"
            raise FragmentInvalid([FragmentProblem(message, line, column)])
        kind = m.lastgroup or ""
        if kind == "nl":
            line, start = line + 1, m.end()
        elif kind == "name" and source.startswith(".", m.end()):
            raise FragmentInvalid([FragmentProblem(_HINTS["."], line, m.end() - start + 1)])
        elif kind not in ("ws", "comment"):
            out.append(_Tok(kind, m.group(), line, column))
        pos = m.end()
    return out


class _Reader:
    """Recursive descent over the tokens of a fragment."""

    def __init__(self, tokens: list[_Tok], limits: RuleLimits) -> None:
        self.toks = tokens
        self.i = 0
        self.limits = limits
        self.symbols = 0
        self.patterns: dict[str, Pattern] = {}

    def peek(self, ahead: int = 0) -> _Tok | None:
        j = self.i + ahead
        return self.toks[j] if j < len(self.toks) else None

    def fail(self, message: str, tok: _Tok | None) -> FragmentInvalid:
        if tok is None:
            last = self.toks[-1] if self.toks else None
            line, col = (last.line, last.column) if last else (1, 1)
            return FragmentInvalid([FragmentProblem(message, line, col)])
        return FragmentInvalid([FragmentProblem(message, tok.line, tok.column)])

    def starts_definition(self) -> bool:
        tok, nxt = self.peek(), self.peek(1)
        return bool(tok and nxt and tok.kind == "name" and nxt.text == ":")

    def definitions(self) -> list[tuple[_Tok, Node]]:
        out = []
        while self.peek() is not None:
            tok = self.peek()
            if not self.starts_definition():
                raise self.fail("a definition starts with a name and a colon (name: …)", tok)
            assert tok is not None
            self.i += 2
            body = self.alternatives(depth=0)
            out.append((tok, body))
        return out

    def alternatives(self, depth: int) -> Node:
        options = [self.sequence(depth)]
        while (tok := self.peek()) is not None and tok.text == "|":
            self.i += 1
            option = self.sequence(depth)
            if option in options:
                raise self.fail("the same alternative twice", tok)
            options.append(option)
        return options[0] if len(options) == 1 else Alt(tuple(options))

    def sequence(self, depth: int) -> Node:
        items: list[Node] = []
        start = self.peek()
        while (tok := self.peek()) is not None:
            if tok.text in ("|", ")", "]") or self.starts_definition():
                break
            items.append(self.item(depth))
        if not items:
            raise self.fail("an empty alternative: use [ … ] or ? for an optional part", start)
        return items[0] if len(items) == 1 else Seq(tuple(items))

    def item(self, depth: int) -> Node:
        node = self.atom(depth)
        tok = self.peek()
        if tok is not None and tok.text in ("?", "*", "+"):
            self.i += 1
            node = Opt(node) if tok.text == "?" else Rep(node, tok.text == "+")
            nxt = self.peek()
            if nxt is not None and nxt.text in ("?", "*", "+"):
                raise self.fail("one of ?, * or + per item", nxt)
        return node

    def atom(self, depth: int) -> Node:
        tok = self.peek()
        if tok is None:
            raise self.fail("the fragment ends in the middle of a definition", tok)
        self.symbols += 1
        if self.symbols > self.limits.max_grammar_symbols:
            raise self.fail(
                f"the fragment has more than {self.limits.max_grammar_symbols} symbols", tok
            )
        self.i += 1
        if tok.text in ("(", "["):
            if depth + 1 > self.limits.max_grammar_depth:
                raise self.fail(
                    f"groups are nested more than {self.limits.max_grammar_depth} deep", tok
                )
            inner = self.alternatives(depth + 1)
            close = ")" if tok.text == "(" else "]"
            end = self.peek()
            if end is None or end.text != close:
                raise self.fail(f"{tok.text!r} is not closed: {close!r} expected", end or tok)
            self.i += 1
            return Opt(inner) if tok.text == "[" else inner
        if tok.kind == "string":
            return _literal(tok)
        if tok.kind == "regexp":
            name = f"_P{len(self.patterns) + 1}"
            self.patterns[name] = _pattern(tok, self.limits)
            return Ref(name, tok.line, tok.column)
        if tok.kind == "name":
            _check_name(tok)
            return Ref(tok.text, tok.line, tok.column)
        raise self.fail(f"unexpected {tok.text!r}", tok)


def _check_name(tok: _Tok) -> None:
    name = tok.text
    if name.startswith("_"):
        message = "names that start with _ are not allowed"
    elif RULE_NAME.fullmatch(name) or TERMINAL_NAME.fullmatch(name):
        return
    elif len(name) > 32:
        message = f"{name!r} is too long: at most 32 characters"
    else:
        message = (
            f"{name!r}: rule names are lower case (a-z, 0-9, _), terminal names upper case "
            "(A-Z, 0-9, _)"
        )
    raise FragmentInvalid([FragmentProblem(message, tok.line, tok.column)])


def _literal(tok: _Tok) -> Node:
    body = tok.text[1 : tok.text.rindex('"')]
    problem = None
    if re.search(r"\\[^\"\\]", body):
        problem = 'the only escapes in a literal are \\" and \\\\'
    text = body.replace('\\"', '"').replace("\\\\", "\\")
    if not text.strip():
        problem = "an empty literal"
    elif len(text) > MAX_LITERAL_CHARS:
        problem = f"a literal is at most {MAX_LITERAL_CHARS} characters"
    elif any(ord(ch) < 32 for ch in text):
        problem = "a literal cannot contain control characters"
    if problem is None:
        words = normalise(text).split()
        if not words:
            problem = (
                f"{text!r} is dropped by the engine's normalisation of instructions "
                "(polite filler); leave it out"
            )
        else:
            lits = tuple(Lit(w) for w in words)
            return lits[0] if len(lits) == 1 else Seq(lits)
    raise FragmentInvalid([FragmentProblem(problem, tok.line, tok.column)])


# ---- patterns -----------------------------------------------------------------------------

_SINGLE = {sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN}
_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT}
_CLASS_ITEMS = {sre.LITERAL, sre.RANGE, sre.CATEGORY, sre.NEGATE}
_CANDIDATES = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_-.@#/+ 中"


def _pattern(tok: _Tok, limits: RuleLimits) -> Pattern:
    end = tok.text.rindex("/")
    body, flags = tok.text[1:end], tok.text[end + 1 :]
    where = (tok.line, tok.column)

    def bad(message: str, offset: int = 0) -> FragmentInvalid:
        return FragmentInvalid([FragmentProblem(message, where[0], where[1] + 1 + offset)])

    if set(flags) - {"i"}:
        raise bad("the only pattern flag is i (patterns are case-insensitive anyway)", end)
    if len(body) > limits.max_grammar_pattern_chars:
        raise bad(f"a pattern is at most {limits.max_grammar_pattern_chars} characters")
    plain, groups_at = _non_capturing(body)
    for at in groups_at:
        if not body.startswith("(?:", at):
            raise bad(
                "only (?:…) groups are allowed in a pattern (no look-arounds, names or flags)",
                at,
            )
    try:
        emitted = _possessive(plain)
    except ValueError as exc:
        raise bad(str(exc)) from None
    try:
        written = sre_parse.parse(body, re.IGNORECASE)  # as written: positions, group refs
    except re.error as exc:
        pos = exc.pos if isinstance(exc.pos, int) else 0
        raise bad(f"pattern: {exc.msg}", min(pos, len(body))) from None
    except (RecursionError, OverflowError):
        raise bad("the pattern is too complex") from None
    problem = _unsafe(list(written), inside_repeat=False, count=[0])
    if problem:
        raise bad(problem)
    parsed = sre_parse.parse(plain, re.IGNORECASE)
    compiled = re.compile(emitted, re.IGNORECASE)
    if compiled.fullmatch(""):
        raise bad("a pattern must not match the empty text")
    samples = _pattern_samples(list(parsed), compiled)
    if not samples:
        raise bad(
            "no text this pattern matches could be found; note that repetition never gives "
            "characters back (in \\w+x the \\w+ takes the x too): write [^x]+x, or simplify it"
        )
    return Pattern(body, emitted, samples)


def _non_capturing(body: str) -> tuple[str, list[int]]:
    """The pattern with ``(`` groups made ``(?:``, and where each ``(?`` group starts."""
    out: list[str] = []
    special: list[int] = []
    i, in_class = 0, False
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            out.append(body[i : i + 2])
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
        elif ch == "[":
            in_class = True
            if body.startswith("[]", i) or body.startswith("[^]", i):
                close = body.find("]", i + 2)
                out.append(body[i : close + 1] if close > 0 else body[i:])
                i = close + 1 if close > 0 else len(body)
                in_class = False
                continue
        elif ch == "(":
            if body.startswith("(?", i):
                special.append(i)
            else:
                out.append("(?:")
                i += 1
                continue
        out.append(ch)
        i += 1
    return "".join(out), special


_BRACES = re.compile(r"\{\d*(?:,\d*)?\}")


def _possessive(body: str) -> str:
    """Every quantifier made possessive (``a+`` → ``a++``): matching never backtracks into a
    repetition, so a pattern takes time linear in the text; ValueError on a lazy one."""
    out: list[str] = []
    i, in_class = 0, False
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            out.append(body[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
            out.append(ch)
            i += 1
            continue
        if ch == "[":
            in_class = True
            out.append(ch)
            i += 1
            for literal in ("^", "]"):
                if body.startswith(literal, i):
                    out.append(literal)
                    i += 1
            continue
        if body.startswith("(?", i):
            out.append("(?")
            i += 2
            continue
        braces = _BRACES.match(body, i) if ch == "{" else None
        quantifier = braces.group() if braces else ch if ch in "*+?" else None
        if quantifier is None:
            out.append(ch)
            i += 1
            continue
        out.append(quantifier)
        i += len(quantifier)
        if body.startswith("?", i):
            raise ValueError("lazy quantifiers (*?, +?, ??) are not allowed in a pattern")
        out.append("+")
        if body.startswith("+", i):  # written possessive already
            i += 1
    return "".join(out)


def _unsafe(items: list[Any], *, inside_repeat: bool, count: list[int]) -> str | None:
    """Why a parsed pattern could take more than linear time, or use a refused feature."""
    for op, av in items:
        if op in _REPEATS:
            low, high, sub = av
            count[0] += 1
            if count[0] > MAX_QUANTIFIERS:
                return f"at most {MAX_QUANTIFIERS} quantifiers in a pattern"
            if inside_repeat:
                return "nested quantifiers (like (?:a+)+) are not allowed: they can take very long"
            if low > MAX_BOUND or (high != sre.MAXREPEAT and high > MAX_BOUND):
                return f"repetition bounds are at most {MAX_BOUND}"
            body = list(sub)
            problem = _unsafe(body, inside_repeat=True, count=count)
            if problem:
                return problem
            if high > 1 and not (len(body) == 1 and body[0][0] in _SINGLE):
                return "only ? may follow a group: repeat single characters or classes"
        elif op is sre.SUBPATTERN:
            problem = _unsafe(list(av[3]), inside_repeat=inside_repeat, count=count)
            if problem:
                return problem
        elif op is sre.BRANCH:
            for branch in av[1]:
                problem = _unsafe(list(branch), inside_repeat=inside_repeat, count=count)
                if problem:
                    return problem
        elif op is sre.IN:
            if any(item_op not in _CLASS_ITEMS for item_op, _ in av):
                return "this character class is not allowed in a pattern"
        elif op not in _SINGLE:
            return f"{_feature(op)} is not allowed in a trigger pattern"
    return None


def _feature(op: Any) -> str:
    names = {
        sre.AT: "an anchor (^, $, \\b)",
        sre.GROUPREF: "a back-reference",
        sre.ASSERT: "a look-ahead or look-behind",
        sre.ASSERT_NOT: "a look-ahead or look-behind",
        sre.GROUPREF_EXISTS: "a conditional group",
    }
    return names.get(op, str(op).lower().replace("_", " "))


def _in_class(items: list[Any], ch: str) -> bool:
    negate = False
    hit = False
    for op, av in items:
        if op is sre.NEGATE:
            negate = True
        elif op is sre.LITERAL:
            hit = hit or ch.lower() == chr(av).lower()
        elif op is sre.RANGE:
            lo, hi = av
            hit = hit or lo <= ord(ch) <= hi or lo <= ord(ch.lower()) <= hi
        elif op is sre.CATEGORY:
            hit = hit or _category(av, ch)
    return hit != negate


def _category(cat: Any, ch: str) -> bool:
    word = ch.isalnum() or ch == "_"
    table = {
        sre.CATEGORY_DIGIT: ch.isdigit(),
        sre.CATEGORY_NOT_DIGIT: not ch.isdigit(),
        sre.CATEGORY_SPACE: ch.isspace(),
        sre.CATEGORY_NOT_SPACE: not ch.isspace(),
        sre.CATEGORY_WORD: word,
        sre.CATEGORY_NOT_WORD: not word,
    }
    return bool(table.get(cat, False))


def _sample_of(items: list[Any], widest: bool) -> str:
    out: list[str] = []
    for op, av in items:
        if op is sre.LITERAL:
            out.append(chr(av))
        elif op is sre.NOT_LITERAL:
            out.append("x" if chr(av).lower() != "x" else "y")
        elif op is sre.ANY:
            out.append("x")
        elif op is sre.IN:
            out.append(next((c for c in _CANDIDATES if _in_class(list(av), c)), "x"))
        elif op is sre.BRANCH:
            branches = av[1]
            out.append(_sample_of(list(branches[-1 if widest else 0]), widest))
        elif op is sre.SUBPATTERN:
            out.append(_sample_of(list(av[3]), widest))
        elif op in _REPEATS:
            low, high, sub = av
            times = low if not widest else min(max(low, 1), high)
            out.append(_sample_of(list(sub), widest) * max(times, 0))
    return "".join(out)


def _pattern_samples(items: list[Any], compiled: re.Pattern[str]) -> tuple[str, ...]:
    candidates = [_sample_of(items, True), _sample_of(items, False), "sample", "x", "7"]
    found: list[str] = []
    for text in candidates:
        if text.strip() and compiled.fullmatch(text) and text not in found:
            found.append(text)
    return tuple(found)


# ---- checking -----------------------------------------------------------------------------


def parse_fragment(source: str, limits: RuleLimits = DEFAULT_LIMITS) -> Fragment:
    """Read and check a fragment; ``FragmentInvalid`` with every problem located."""
    if len(source) > limits.max_grammar_chars:
        raise FragmentInvalid(
            [FragmentProblem(f"the grammar is over {limits.max_grammar_chars} characters")]
        )
    reader = _Reader(_tokens(source), limits)
    definitions = reader.definitions()
    problems: list[FragmentProblem] = []
    if len(definitions) > limits.max_grammar_definitions:
        problems.append(FragmentProblem(f"at most {limits.max_grammar_definitions} definitions"))
    rules: dict[str, Node] = {}
    terminals: dict[str, tuple[_Tok, Node]] = {}
    where: dict[str, _Tok] = {}
    for tok, body in definitions:
        _check_name(tok)
        if tok.text in where:
            first = where[tok.text]
            problems.append(
                FragmentProblem(
                    f"{tok.text!r} is defined twice (first on line {first.line})",
                    tok.line,
                    tok.column,
                )
            )
            continue
        where[tok.text] = tok
        if tok.text[0].isupper():
            terminals[tok.text] = (tok, body)
        else:
            rules[tok.text] = body
    if ENTRY not in rules:
        line, col = (where[ENTRY].line, where[ENTRY].column) if ENTRY in where else (1, 1)
        problems.append(FragmentProblem(f"the grammar needs a rule named {ENTRY!r}", line, col))
    words: dict[str, Node] = {}
    named: dict[str, Pattern] = {}
    for name, (tok, body) in terminals.items():
        term = _terminal(name, tok, body, reader.patterns, problems)
        if isinstance(term, Pattern):
            named[name] = term
        elif term is not None:
            words[name] = term
    patterns = {**reader.patterns, **named}  # the patterns written inside rules, then named
    defined = set(rules) | set(words) | set(patterns)
    for body in rules.values():
        for ref in _refs(body):
            if ref.name not in defined and ref.name not in terminals:
                problems.append(
                    FragmentProblem(f"{ref.name!r} is not defined", ref.line, ref.column)
                )
    if problems:
        raise FragmentInvalid(problems)
    _check_reachable_and_acyclic(rules, words, patterns, where, problems)
    if problems:
        raise FragmentInvalid(problems)
    return Fragment(source, rules, words, patterns)


def _terminal(
    name: str,
    tok: _Tok,
    body: Node,
    anonymous: dict[str, Pattern],
    problems: list[FragmentProblem],
) -> Node | Pattern | None:
    """A terminal's words (a node of literals) or its one pattern (literals escaped)."""
    options = body.options if isinstance(body, Alt) else (body,)
    literal_options: list[Node] = []
    parts: list[str] = []
    samples: list[str] = []
    has_pattern = False
    for option in options:
        if isinstance(option, Lit) or (
            isinstance(option, Seq) and all(isinstance(i, Lit) for i in option.items)
        ):
            literal_options.append(option)
            words = [option.text] if isinstance(option, Lit) else [i.text for i in option.items]  # type: ignore[union-attr]
            parts.append(r"\s+".join(re.escape(w) for w in words))
            samples.append(" ".join(words))
        elif isinstance(option, Ref) and option.name in anonymous:
            pattern = anonymous.pop(option.name)
            has_pattern = True
            parts.append(pattern.emitted)
            samples.extend(pattern.samples)
        else:
            problems.append(
                FragmentProblem(
                    f"terminal {name!r} may only be literals and patterns joined by |; "
                    "use a (lower-case) rule for sequences and references",
                    tok.line,
                    tok.column,
                )
            )
            return None
    if not has_pattern:
        return literal_options[0] if len(literal_options) == 1 else Alt(tuple(literal_options))
    joined = "|".join(f"(?:{p})" for p in parts)
    return Pattern(joined, joined, tuple(dict.fromkeys(samples)))


def _refs(node: Node) -> list[Ref]:
    if isinstance(node, Ref):
        return [node]
    if isinstance(node, Seq):
        return [r for i in node.items for r in _refs(i)]
    if isinstance(node, Alt):
        return [r for o in node.options for r in _refs(o)]
    if isinstance(node, Opt | Rep):
        return _refs(node.item)
    return []


def _check_reachable_and_acyclic(
    rules: dict[str, Node],
    words: dict[str, Node],
    patterns: dict[str, Pattern],
    where: dict[str, _Tok],
    problems: list[FragmentProblem],
) -> None:
    reached: set[str] = set()
    state: dict[str, int] = {}  # 1: being visited, 2: done

    def visit(name: str, path: list[str]) -> None:
        reached.add(name)
        if name not in rules:
            return
        if state.get(name) == 2:
            return
        state[name] = 1
        for ref in _refs(rules[name]):
            if state.get(ref.name) == 1:
                cycle = " → ".join([*path[path.index(ref.name) :], ref.name])
                problems.append(
                    FragmentProblem(
                        f"rule {ref.name!r} refers to itself ({cycle}); write repetition "
                        "with * or +",
                        ref.line,
                        ref.column,
                    )
                )
                continue
            visit(ref.name, [*path, ref.name])
        state[name] = 2

    visit(ENTRY, [ENTRY])
    for name in [*rules, *words, *patterns]:
        if name not in reached and not name.startswith("_P"):
            tok = where[name]
            problems.append(
                FragmentProblem(
                    f"{name!r} is defined but {ENTRY!r} never uses it", tok.line, tok.column
                )
            )
