"""Small building blocks for the Python source the SQL translator writes.

A :class:`Code` is one Python expression with what the translator knows about it: its
operator precedence (to add parentheses only where Python needs them), whether it is a
column Series, a scalar variable or a literal, and the SQL type it is known to have.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass

# Python operator precedence, higher binds tighter.
OR, AND, NOT, CMP, BOR, BXOR, BAND, ADD, MUL, UNARY, ATOM = 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 13

SERIES, SCALAR, LITERAL = "series", "scalar", "literal"
INT, REAL, TEXT, UNKNOWN = "int", "real", "text", "unknown"


@dataclass(slots=True)
class Code:
    """A Python expression plus what is known about its value. Never changed once made
    (not frozen only because a frozen dataclass is slower to make, and the translator makes
    many)."""

    text: str
    prec: int = ATOM
    kind: str = SERIES
    sqltype: str = UNKNOWN
    column: str | None = None  # the frame column when the code is a plain column access
    value: object = None  # the Python value of a literal

    def with_text(self, text: str, prec: int) -> Code:
        """The same value description with new text and precedence."""
        return Code(text, prec, self.kind, self.sqltype, None, self.value)


def wrap(code: Code, min_prec: int) -> str:
    """The code's text, parenthesised when it binds looser than ``min_prec``."""
    return f"({code.text})" if code.prec < min_prec else code.text


def py_str(value: str) -> str:
    """A Python string literal for ``value``, in double quotes where that is simple."""
    if '"' not in value and "\\" not in value and value.isprintable():
        return f'"{value}"'
    return repr(value)


def py_literal(value: object) -> str:
    """Python source for a literal value (str, int, float, bool, None)."""
    if isinstance(value, str):
        return py_str(value)
    return repr(value)


def is_identifier(name: str) -> bool:
    """Whether ``name`` can be a Python variable name."""
    return name.isidentifier() and not keyword.iskeyword(name) and name.isascii()


def col_access(frame: str, column: str) -> str:
    """``frame["column"]``."""
    return f"{frame}[{py_str(column)}]"


def str_list(names: list[str]) -> str:
    """``["a", "b"]``."""
    return "[" + ", ".join(py_str(n) for n in names) + "]"


def one_or_list(names: list[str]) -> str:
    """``"a"`` for one name, ``["a", "b"]`` for several."""
    return py_str(names[0]) if len(names) == 1 else str_list(names)


def kwargs(pairs: list[tuple[str, str]]) -> str:
    """Keyword arguments ``a=1, b=2``, or ``**{"a b": 1}`` for names that are not identifiers."""
    if all(is_identifier(k) for k, _ in pairs):
        return ", ".join(f"{k}={v}" for k, v in pairs)
    return "**{" + ", ".join(f"{py_str(k)}: {v}" for k, v in pairs) + "}"
