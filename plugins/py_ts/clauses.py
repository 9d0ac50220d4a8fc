"""Transforms for the Python → TypeScript grammar fragment.

A conversion is ``Step("python.to_typescript")``, with ``Source("python")`` when the
instruction names Python (then a payload that is not Python is an error, not a guess). A
JSDoc clause is ``Step("typescript.add_jsdoc")``; ``finish`` places it after the conversion
whatever order the instruction names them in ("Add JSDoc comments and convert this Python to
TypeScript") and keeps one of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerolayer.core.plan import Directive, Option, Source, Step

Children = list[Any]

CONVERT = "python.to_typescript"
JSDOC = "typescript.add_jsdoc"


def _directives(children: Children) -> list[Directive]:
    return [d for c in children if isinstance(c, list) for d in c]


def convert(children: Children) -> list[Directive]:
    return [*_directives(children), Step(CONVERT)]


def finish(directives: list[Directive]) -> list[Directive]:
    """Run the JSDoc step once, right after the conversion, when the instruction has both."""
    jsdoc = [d for d in directives if isinstance(d, Step) and d.op == JSDOC]
    converts = [i for i, d in enumerate(directives) if isinstance(d, Step) and d.op == CONVERT]
    if not jsdoc or len(converts) != 1:
        return directives
    out = [d for d in directives if not (isinstance(d, Step) and d.op == JSDOC)]
    at = out.index(directives[converts[0]]) + 1
    out.insert(at, jsdoc[0])
    return out


def _const(value: list[Directive]) -> Callable[[Children], list[Directive]]:
    return lambda _children: list(value)


TRANSFORMS: dict[str, Callable[[Children], Any]] = {
    "pyts_src": _const([Source("python")]),
    "pyts_src_short": _const([Source("python")]),
    "pyts_src_after": _const([Source("python")]),
    "pyts_ts": _const([]),
    "pyts_ts_any": _const([]),
    "pyts_convert": convert,
    "pyts_jsdoc": _const([Step(JSDOC)]),
    "pyts_option": _const([]),
    "pyts_code_only": _const([Option("typescript_code_only", True)]),
}
