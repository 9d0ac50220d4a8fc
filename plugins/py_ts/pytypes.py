"""Static Python types tracked by the translator, their join and their TypeScript spelling.

JS has one number type, so the translator tracks ``int`` versus ``float`` statically to print
values the way Python does. ``num`` is "int or float, not known which": such a value can be
computed with but not printed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class T:
    """A static type: ``kind`` plus type arguments (element types, field types)."""

    kind: str
    args: tuple[T, ...] = ()
    name: str = ""
    bases: tuple[str, ...] = ()  # for classes: the ancestors, nearest first

    def __str__(self) -> str:
        if self.kind in ("list", "iter", "opt", "set"):
            return f"{self.kind}[{self.args[0]}]"
        if self.kind in ("tuple", "dict"):
            return f"{self.kind}[{', '.join(str(a) for a in self.args)}]"
        if self.kind in ("class", "func"):
            return f"{self.kind} {self.name}"
        if self.kind == "record":
            fields = zip(self.bases, self.args, strict=True)
            return "record{" + ", ".join(f"{k}: {v}" for k, v in fields) + "}"
        return self.kind


INT = T("int")
FLOAT = T("float")
NUM = T("num")
BOOL = T("bool")
STR = T("str")
NONE = T("none")
UNKNOWN = T("unknown")
ANY = T("any")

NUMERIC = ("int", "float", "num")


def list_of(elem: T) -> T:
    """``list[elem]``."""
    return T("list", (elem,))


def iter_of(elem: T) -> T:
    """An iterator or view (range, map, zip, dict.keys()): iterable, not printable."""
    return T("iter", (elem,))


def tuple_of(*elems: T) -> T:
    """``tuple[elems...]``."""
    return T("tuple", tuple(elems))


def set_of(elem: T) -> T:
    """``set[elem]`` (iteration order is Python's hash order: never reproduced)."""
    return T("set", (elem,))


def record_of(keys: tuple[str, ...], values: tuple[T, ...]) -> T:
    """A dict literal with constant string keys and values of different types (a record
    such as ``{"name": "Ann", "grade": 88}``); its keys never change."""
    return T("record", values, bases=keys)


def dict_of(key: T, value: T) -> T:
    """``dict[key, value]``."""
    return T("dict", (key, value))


def optional(inner: T) -> T:
    """``inner | None``."""
    if inner.kind in ("opt", "none", "unknown", "any"):
        return inner if inner.kind != "unknown" else NONE
    return T("opt", (inner,))


def class_t(name: str, bases: tuple[str, ...] = ()) -> T:
    """An instance of the user class ``name`` (``bases``: its ancestors, nearest first)."""
    return T("class", name=name, bases=bases)


def func_t(name: str) -> T:
    """A user function or lambda named ``name``."""
    return T("func", name=name)


def is_num(t: T) -> bool:
    """True for int, float and num."""
    return t.kind in NUMERIC


def join(a: T, b: T) -> T:
    """The least type holding both ``a`` and ``b`` (``any`` when there is none)."""
    if a == b:
        return a
    if a.kind == "unknown":
        return b
    if b.kind == "unknown":
        return a
    if a.kind == "any" or b.kind == "any":
        return ANY
    if is_num(a) and is_num(b):
        return NUM
    if a.kind == "none":
        return optional(b)
    if b.kind == "none":
        return optional(a)
    if a.kind == "opt" or b.kind == "opt":
        inner_a = a.args[0] if a.kind == "opt" else a
        inner_b = b.args[0] if b.kind == "opt" else b
        return optional(join(inner_a, inner_b))
    if a.kind == b.kind and a.kind in ("list", "iter", "dict", "set"):
        return T(a.kind, tuple(join(x, y) for x, y in zip(a.args, b.args, strict=True)))
    if a.kind == b.kind == "record":
        if a.bases != b.bases:
            return ANY
        return record_of(a.bases, tuple(join(x, y) for x, y in zip(a.args, b.args, strict=True)))
    if a.kind == b.kind == "class":
        chain_a, chain_b = (a.name, *a.bases), (b.name, *b.bases)
        for i, name in enumerate(chain_a):
            if name in chain_b:
                return class_t(name, chain_a[i + 1 :])
        return ANY
    if a.kind == b.kind == "tuple" and len(a.args) == len(b.args):
        return T("tuple", tuple(join(x, y) for x, y in zip(a.args, b.args, strict=True)))
    return ANY


def elem_type(t: T) -> T:
    """The type of the items an iteration over ``t`` yields (``any`` if unknown)."""
    if t.kind in ("list", "iter", "set"):
        return t.args[0]
    if t.kind in ("str", "record"):
        return STR
    if t.kind == "dict":
        return t.args[0]
    if t.kind == "tuple" and t.args:
        out = t.args[0]
        for a in t.args[1:]:
            out = join(out, a)
        return out
    if t.kind == "unknown":
        return UNKNOWN
    return ANY


def contains_unknown(t: T) -> bool:
    """True if ``t`` or one of its arguments is still unknown or any."""
    return t.kind in ("unknown", "any") or any(contains_unknown(a) for a in t.args)


def ts_type(t: T) -> str:
    """The TypeScript spelling of ``t``."""
    k = t.kind
    if k in NUMERIC:
        return "number"
    if k == "bool":
        return "boolean"
    if k == "str":
        return "string"
    if k == "none":
        return "null"
    if k in ("unknown", "any", "func"):
        return "any"
    if k in ("list", "iter"):
        inner = ts_type(t.args[0])
        return f"({inner})[]" if " | " in inner else f"{inner}[]"
    if k == "tuple":
        return "[" + ", ".join(ts_type(a) for a in t.args) + "]"
    if k == "set":
        return f"Set<{ts_type(t.args[0])}>"
    if k == "dict":
        return f"Map<{ts_type(t.args[0])}, {ts_type(t.args[1])}>"
    if k == "record":
        return "Map<string, any>"
    if k == "opt":
        return f"{ts_type(t.args[0])} | null"
    if k == "class":
        return t.name
    return "any"
