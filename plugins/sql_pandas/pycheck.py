"""The names a compiled Python module binds, read from its bytecode.

``translate_sql`` compiles the code it writes (the answer must be valid Python) and records
what that code binds at module level; the op's check then reads the record instead of parsing
the same text a second time. Bytecode tells the bindings exactly: a module-level assignment
or import stores with ``STORE_NAME``. Code that binds in any other way (``global``
declarations, ``del``, ``from m import *``) gets no record, and the check parses it.
"""

from __future__ import annotations

import dis
from types import CodeType

_STORE_NAME = dis.opmap["STORE_NAME"]
_EXTENDED_ARG = dis.EXTENDED_ARG
# Opcodes that bind or unbind module-level names other than by STORE_NAME. CALL_INTRINSIC_1
# (Python 3.12+) carries ``import *`` among other rare operations: all of them are refused.
_OTHER_BINDINGS = frozenset(
    dis.opmap[name]
    for name in ("STORE_GLOBAL", "DELETE_NAME", "DELETE_GLOBAL", "IMPORT_STAR", "CALL_INTRINSIC_1")
    if name in dis.opmap
)
_NESTED_BINDINGS = frozenset(dis.opmap[name] for name in ("STORE_GLOBAL", "DELETE_GLOBAL"))


def module_bindings(code: CodeType) -> frozenset[str] | None:
    """The names module-level ``code`` binds, or None when it binds names other than by
    plain assignment and import (then only the source tells what it does)."""
    raw = code.co_code
    if any(_at(raw, op) for op in _OTHER_BINDINGS) or _at(raw, _EXTENDED_ARG):
        return None  # (EXTENDED_ARG: over 256 names; not worth a slower scan here)
    names = code.co_names
    found = frozenset(names[raw[i + 1]] for i in _at(raw, _STORE_NAME))
    if any(_binds_globals(c) for c in code.co_consts if isinstance(c, CodeType)):
        return None
    return found


def _at(raw: bytes, op: int) -> list[int]:
    """The offsets of the instructions with opcode ``op`` (even offsets: the odd ones hold
    arguments)."""
    found: list[int] = []
    i = raw.find(op)
    while i >= 0:
        if not i % 2:
            found.append(i)
        i = raw.find(op, i + 1)
    return found


def _binds_globals(code: CodeType) -> bool:
    """Whether nested ``code`` (a lambda, a function) stores or deletes a module name."""
    if any(_at(code.co_code, op) for op in _NESTED_BINDINGS):
        return True
    return any(_binds_globals(c) for c in code.co_consts if isinstance(c, CodeType))


# The bindings of recently compiled answers, by their exact text. Bounded; emptied when full.
# Values are immutable, so a race between threads can only recompute one.
_RECENT: dict[str, frozenset[str] | None] = {}
_RECENT_LIMIT = 256


def remember_bindings(source: str, code: CodeType) -> None:
    """Record what ``code``, compiled from ``source``, binds at module level."""
    if len(_RECENT) >= _RECENT_LIMIT:
        _RECENT.clear()
    _RECENT[source] = module_bindings(code)


def recent_bindings(source: str) -> frozenset[str] | None:
    """The module-level names of ``source`` when it was compiled and recorded recently and
    binds names only by assignment and import, else None."""
    return _RECENT.get(source)
