"""The instruction grammar: composed once at start-up, then used to parse every instruction.

The base grammar (grammars/base.lark) and every plugin's fragment are joined into one Lark
LALR grammar with a contextual lexer (see docs/architecture.md for why LALR). Each fragment
may only define rules and terminals under its own namespace, so two plugins cannot collide
silently; a grammar that does not compile stops start-up and names the plugin.

Parsing turns an instruction into a list of directives (``Step``/``Option``/``Source``)
through the fragments' transforms. Anything the grammar does not cover raises ``NoMatch``:
the request falls back, because an instruction the engine does not fully understand must
not be answered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from importlib.resources import files
from typing import Any

from lark import Lark, Transformer
from lark.exceptions import GrammarError, LarkError, UnexpectedInput

from zerolayer.core.errors import StartupError, Unsupported
from zerolayer.core.fields import FieldRef
from zerolayer.core.lexer import LEXER_PLUGINS
from zerolayer.core.plan import Directive
from zerolayer.core.registry import GrammarFragment

_DEFINITION = re.compile(r"^\s*[?!]?([A-Za-z_][A-Za-z0-9_]*)(?:\.-?\d+)?\s*:", re.MULTILINE)
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
# Single characters that end a Chinese field name: particles and the copula.
_CJK_PARTICLES = "的和与及把将为是按"


class NoMatch(Unsupported):
    """The instruction is not (entirely) covered by the grammar."""

    def __init__(self, message: str, *, column: int | None = None) -> None:
        super().__init__("parse.no_match", message)
        self.column = column


def base_grammar() -> str:
    return files("zerolayer.grammars").joinpath("base.lark").read_text(encoding="utf-8")


def check_namespace(fragment: GrammarFragment) -> None:
    """Every rule and terminal a fragment defines must carry its namespace."""
    ns = fragment.namespace
    if not re.fullmatch(r"[a-z][a-z0-9]*", ns):
        raise StartupError(
            f"plugin {fragment.plugin!r}: grammar namespace {ns!r} must be lower-case letters "
            "and digits"
        )
    for name in _DEFINITION.findall(fragment.text):
        if not (name.startswith(f"{ns}_") or name.startswith(f"{ns.upper()}_")):
            raise StartupError(
                f"plugin {fragment.plugin!r}: grammar fragment {ns!r} defines {name!r}; "
                f"its rules must start with '{ns}_' and its terminals with '{ns.upper()}_'"
            )


def _cjk_stops(text: str) -> list[str]:
    """CJK keywords of a grammar: a Chinese field name never runs into one of them."""
    words: set[str] = set()
    for line in text.splitlines():
        if re.match(r"^\s*[A-Z_][A-Z0-9_]*(?:\.-?\d+)?\s*:", line) and "CJK_NAME" not in line:
            words.update(_CJK_RUN.findall(line))
    words = {w for w in words if len(w) > 1} | set(_CJK_PARTICLES)
    return sorted(words, key=lambda w: (-len(w), w))


def compose(fragments: Sequence[GrammarFragment]) -> str:
    """The full grammar text: the base followed by every fragment."""
    parts = [base_grammar()]
    for fragment in fragments:
        check_namespace(fragment)
        parts.append(f"// ---- fragment {fragment.namespace} (plugin {fragment.plugin})\n")
        parts.append(fragment.text)
    text = "\n".join(parts)
    stops = "|".join(re.escape(w) for w in _cjk_stops(text)) or "(?!)"
    return text.replace("__CJK_STOP__", stops)


def shift_reduce_conflicts(text: str) -> set[str]:
    """The shift/reduce conflicts Lark resolves (as shift) in a grammar, one line each."""
    import logging

    from lark import logger as lark_logger

    seen: list[str] = []

    class _Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    handler = _Collect(logging.DEBUG)
    level = lark_logger.level
    lark_logger.addHandler(handler)
    lark_logger.setLevel(logging.DEBUG)
    try:
        Lark(text, parser="lalr", lexer="contextual")
    finally:
        lark_logger.removeHandler(handler)
        lark_logger.setLevel(level)
    conflicts, terminal = set(), ""
    for message in seen:
        if message.startswith("Shift/Reduce conflict for terminal"):
            terminal = message.split("terminal ")[1].split(":")[0]
        elif message.startswith(" * ") and terminal:
            conflicts.add(f"{terminal}: {message[3:]}")
    return conflicts


def cross_fragment_conflicts(fragments: Sequence[GrammarFragment]) -> set[str]:
    """Shift/reduce conflicts that appear only when the fragments are composed.

    A fragment may rely on Lark resolving its own conflicts as shift; a conflict that no
    fragment has alone comes from two families competing for the same words, and makes one
    of them silently lose. ``zerolayer plugins --check`` and the test suite report these.
    """
    alone: set[str] = set()
    for fragment in fragments:
        alone |= shift_reduce_conflicts(compose([fragment]))
    return shift_reduce_conflicts(compose(fragments)) - alone


class InstructionParser:
    """Parses normalised instruction text into directives."""

    def __init__(self, fragments: Sequence[GrammarFragment]) -> None:
        self.text = compose(fragments)
        try:
            self._lark = Lark(
                self.text,
                parser="lalr",
                lexer="contextual",
                propagate_positions=False,
                transformer=_build_transformer(fragments, _rule_names(self.text)),
                _plugins=LEXER_PLUGINS,
            )
        except (GrammarError, LarkError) as exc:
            owners = ", ".join(f"{f.namespace} ({f.plugin})" for f in fragments) or "none"
            raise StartupError(
                f"the instruction grammar does not compile: {exc}",
                hint=f"fragments loaded: {owners}; start zerolayer with ZEROLAYER_PLUGINS to "
                "find the plugin whose fragment breaks it",
            ) from exc
        _check_keyword_overlap(self._lark, fragments)
        self._finishers = [f.finish for f in fragments if f.finish is not None]

    def keywords(self) -> set[str]:
        """The plain words the grammar's keywords spell out (lower case): the words it
        knows, for the intent router."""
        found: set[str] = set()
        for terminal in self._lark.terminals:
            pattern = terminal.pattern
            value = str(getattr(pattern, "value", ""))
            samples = [value] if pattern.type == "str" else _samples(value)
            for sample in samples:
                found.update(re.findall(r"[a-z]+", sample.lower()))
        return found

    def parse(self, instruction: str) -> list[Directive]:
        """Directives for ``instruction``; ``NoMatch`` when any part of it is not understood."""
        if not instruction.strip():
            raise NoMatch("there is no instruction")
        try:  # the transforms run as the parser reduces (no parse tree is built)
            directives: list[Directive] = self._lark.parse(instruction)  # type: ignore[assignment]
        except UnexpectedInput as exc:
            col = getattr(exc, "column", None)
            near = _near(instruction, getattr(exc, "pos_in_stream", None))
            raise NoMatch(f"the instruction is not understood near {near!r}", column=col) from None
        for finish in self._finishers:
            directives = finish(directives)
        return directives


_ALTERNATIVE = re.compile(r"^[\w\u3400-\u9fff -]+$")


def _samples(pattern: str) -> list[str]:
    """Literal words a keyword pattern matches: its plain alternatives ("zap|zip")."""
    body = re.sub(r"\(\?[!=<][^)]*\)", "", pattern)  # drop look-arounds
    body = body.removeprefix("(?:").removesuffix(")") if body.startswith("(?:") else body
    return [alt for alt in body.split("|") if _ALTERNATIVE.match(alt)]


def _check_keyword_overlap(lark: Lark, fragments: Sequence[GrammarFragment]) -> None:
    """Two plugins must not claim the same keyword: the lexer would silently pick one."""
    owner = {}
    for fragment in fragments:
        for name in _DEFINITION.findall(fragment.text):
            if name.isupper():
                owner[name] = fragment
    terms = [t for t in lark.terminals if t.name in owner]
    compiled = {t.name: re.compile(t.pattern.to_regexp()) for t in terms}
    for a in terms:
        for word in _samples(a.pattern.value if hasattr(a.pattern, "value") else ""):
            for b in terms:
                if owner[a.name] is owner[b.name] or a.priority != b.priority:
                    continue
                if compiled[b.name].fullmatch(word):
                    fa, fb = owner[a.name], owner[b.name]
                    raise StartupError(
                        f"plugins {fa.plugin!r} and {fb.plugin!r} both claim the keyword "
                        f"{word!r} ({a.name} and {b.name}); one grammar must drop it or give "
                        "its terminal another priority"
                    )


def _near(text: str, pos: int | None) -> str:
    if pos is None:
        return text[:40]
    return text[pos : pos + 30] or text[-30:]


def _rule_names(text: str) -> set[str]:
    """The rules a grammar text defines (lower case; ``_rules`` are inlined by Lark)."""
    return {n for n in _DEFINITION.findall(text) if n.islower() and not n.startswith("_")}


def _keep_or_list(self: Any, children: list[Any]) -> Any:
    """A rule without a transform: its only child, or the list of its children."""
    return children[0] if len(children) == 1 else children


def _build_transformer(
    fragments: Sequence[GrammarFragment], rules: set[str]
) -> Transformer[Any, Any]:
    """The callbacks Lark calls as it reduces each rule (an inline LALR transformer): every
    rule of the grammar has one, so no parse tree is ever built."""
    methods: dict[str, Callable[..., Any]] = dict.fromkeys(rules, _keep_or_list)
    methods.update(
        start=lambda self, children: [d for c in children for d in c],
        clause=lambda self, children: [d for c in children for d in c],
        number=lambda self, children: _to_number(str(children[0])),
        string=lambda self, children: _unquote(str(children[0])),
        name=lambda self, children: FieldRef(_unquote(str(children[0]))),
    )
    for fragment in fragments:
        for rule, func in fragment.transforms.items():
            methods[rule] = (lambda f: lambda self, children: f(children))(func)
    cls = type("InstructionTransformer", (Transformer,), methods)
    return cls()  # type: ignore[no-any-return]


def _to_number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        return text[1:-1]
    return text
