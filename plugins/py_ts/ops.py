"""The ops of the Python → TypeScript family.

``python.parse`` (implicit) reads the payload as a Python module (a syntax error is a
``PayloadError`` with line and column); ``python.to_typescript`` translates it with
:func:`python_to_typescript` (constructs outside the supported subset raise ``Unsupported``
with the translator's reason); ``typescript.add_jsdoc`` puts JSDoc blocks, drawn from the
docstrings and the TS signatures, above functions, methods and documented classes.

Both emitting ops verify their output cheaply: the TypeScript must tokenize with every
literal, comment and bracket closed, end as a module (``export {};``) and hold no Python
keyword as a name; ``typescript.add_jsdoc`` must change comments only.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from zerolayer.core.errors import Unsupported
from zerolayer.core.ops import OpSpec
from zerolayer.core.types import PYTHON_AST, TEXT, TYPESCRIPT_SOURCE
from zerolayer.plugins.py_ts.jsdoc import add_jsdoc
from zerolayer.plugins.py_ts.translate import parse_python, python_to_typescript
from zerolayer.plugins.py_ts.tslex import (
    Token,
    TsLexError,
    code_tokens,
    line_of,
    quick_code,
    tokenize,
    word_start,
)

# Python keywords that are never names in Python and never emitted as TS names: one in the
# output means a piece of Python leaked through untranslated.
_PYTHON_ONLY_WORDS = frozenset(
    {"True", "False", "None", "elif", "def", "lambda", "nonlocal", "pass", "except", "raise",
     "del", "assert", "and", "or", "not", "is"}
)  # fmt: skip
_MODULE_END = "export {};"
# a Python-only word where a run of word characters ends
_PYTHON_WORD_END = re.compile(
    "(?:" + "|".join(sorted(_PYTHON_ONLY_WORDS, key=len, reverse=True)) + r")(?![\w$])"
)


def read_python(text: str) -> ast.Module:
    """The payload parsed as a Python module."""
    return parse_python(text)


def to_typescript(
    tree: ast.Module, *, code_only: bool = True, typescript_code_only: bool = True
) -> str:
    """A TypeScript program that prints exactly what the Python program prints.

    ``code_only`` ("only the code", 只给代码) and ``typescript_code_only`` ("Respond with the
    TypeScript code only") restate what the answer always is.
    """
    return python_to_typescript(tree)


def jsdoc(ts_source: str) -> str:
    """The program with JSDoc blocks above its functions, methods and documented classes."""
    return add_jsdoc(ts_source)


def check_typescript(ts_source: str, *, op: str) -> list[tuple[str, str]]:
    """Raise ``Unsupported`` unless ``ts_source`` looks like a whole translated program;
    return its code tokens."""
    return [(kind, text) for kind, text, _ in _checked_tokens(ts_source, op) if kind != "comment"]


def _checked_tokens(ts_source: str, op: str) -> list[Token]:
    """The tokens of ``ts_source``, comments included, once :func:`check_typescript`'s checks
    pass."""
    try:
        tokens = tokenize(ts_source)
    except TsLexError as err:
        raise Unsupported("py_ts_output_malformed", f"{op}: the TypeScript is cut: {err}") from err
    word = _python_word(tokens)
    if word is not None:
        raise Unsupported(
            "py_ts_output_malformed",
            f"{op}: Python's {word.text!r} is left in the TypeScript "
            f"(line {line_of(ts_source, word.start)})",
        )
    if ts_source.rstrip().rsplit("\n", 1)[-1].strip() != _MODULE_END:
        raise Unsupported(
            "py_ts_output_malformed", f"{op}: the TypeScript does not end as a module"
        )
    return tokens


def _python_word(tokens: list[Token]) -> Token | None:
    """The first Python-only word written as a name (not as a member, after ``.``)."""
    if _PYTHON_ONLY_WORDS.isdisjoint([text for kind, text, _ in tokens if kind == "ident"]):
        return None  # the common case, found without looking token by token
    previous = ""
    for tok in tokens:
        if tok.kind == "comment":
            continue
        if tok.kind == "ident" and tok.text in _PYTHON_ONLY_WORDS and previous != ".":
            return tok
        previous = tok.text
    return None


def verify_typescript(tree: ast.Module, ts_source: str, **_params: Any) -> None:
    code = quick_code(ts_source)
    if (
        code is not None
        and not _maybe_python_word(" ".join(code))
        and ts_source.rstrip().rsplit("\n", 1)[-1].strip() == _MODULE_END
    ):
        return  # the checks of _checked_tokens pass: no need to read token by token
    _checked_tokens(ts_source, "python.to_typescript")


def _maybe_python_word(code: str) -> bool:
    """Whether ``code`` (the text between literals and comments) may hold a Python-only word
    as a name token: False only where none of its occurrences can be one (each is part of a
    longer identifier, or a member after ``.``)."""
    for m in _PYTHON_WORD_END.finditer(code):
        start = m.start()
        k = word_start(code, start)
        before = code[k - 1] if k else ""
        if k < start:
            # the end of a longer run: one identifier when the run starts as one (not with
            # a digit, and not after a number's point)
            if before != "." and (code[k] == "$" or not code[k].isdecimal()):
                continue
            return True
        # the run is the word itself: allowed as a member, after a "." that is neither part
        # of "..." or "?." nor a number's point
        prev = code[k - 2] if k >= 2 else ""
        if before == "." and (prev in ")]}$" or prev.isalpha()):
            continue
        return True
    return False


def verify_jsdoc(before: str, after: str, **_params: Any) -> None:
    """The JSDoc op may add and rewrite comments, nothing else."""
    code = check_typescript(after, op="typescript.add_jsdoc")
    try:
        same = code == code_tokens(before)
    except TsLexError:
        same = False
    if not same:
        raise Unsupported(
            "py_ts_jsdoc_changed_code", "typescript.add_jsdoc changed the code, not only comments"
        )


OPS = (
    OpSpec(
        "python.parse",
        TEXT,
        PYTHON_AST,
        read_python,
        description="Parse the payload as Python source (its syntax tree).",
        implicit=True,
        formats=("python",),
    ),
    OpSpec(
        "python.to_typescript",
        PYTHON_AST,
        TYPESCRIPT_SOURCE,
        to_typescript,
        description=(
            "Translate a Python program into a TypeScript program that prints exactly the same "
            "output; constructs outside the supported subset fall back with a named reason."
        ),
        params={
            "type": "object",
            "properties": {
                "code_only": {"const": True},
                "typescript_code_only": {"const": True},
            },
        },
        verify=verify_typescript,
    ),
    OpSpec(
        "typescript.add_jsdoc",
        TYPESCRIPT_SOURCE,
        TYPESCRIPT_SOURCE,
        jsdoc,
        description=(
            "Add JSDoc blocks (description, @param, @returns, @throws) drawn from the docstrings "
            "and the type signatures to functions, methods and documented classes."
        ),
        verify=verify_jsdoc,
    ),
)
