"""Type-directed translation of Python expressions to TypeScript.

Every expression is emitted as ``(code, precedence)`` so parentheses appear only where
TypeScript needs them. Printing (``str``/``repr``), truthiness, comparisons and arithmetic
are chosen from the static types inferred by :class:`Typer`.
"""

from __future__ import annotations

import ast
import json
import re
import string

from zerolayer.plugins.py_ts.prelude import sum_float_helper
from zerolayer.plugins.py_ts.pytypes import (
    INT,
    STR,
    T,
    contains_unknown,
    elem_type,
    is_num,
    ts_type,
)
from zerolayer.plugins.py_ts.scopes import Scope, target_names, unsupported
from zerolayer.plugins.py_ts.typer import Typer, const_int

ATOM, UNARY, POW, MUL, ADD, REL, EQ, AND, OR, COALESCE, COND, LOWEST = (
    20, 15, 14, 13, 12, 10, 9, 5, 4, 4, 3, 0,
)  # fmt: skip

Code = tuple[str, int]

RESERVED = set(
    [
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "new",
        "null",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "as",
        "implements",
        "interface",
        "let",
        "package",
        "private",
        "protected",
        "public",
        "static",
        "yield",
        "any",
        "boolean",
        "constructor",
        "declare",
        "get",
        "module",
        "require",
        "number",
        "set",
        "string",
        "symbol",
        "type",
        "from",
        "of",
        "namespace",
        "async",
        "await",
        "undefined",
        "NaN",
        "Infinity",
        "eval",
        "arguments",
        "Math",
        "Number",
        "String",
        "Array",
        "Map",
        "Object",
        "console",
        "Error",
        "BigInt",
        "JSON",
        "Symbol",
        "Set",
        "Date",
        "RegExp",
        "parseInt",
        "parseFloat",
        "isNaN",
        "isFinite",
        "exports",
        "Iterable",
        "Promise",
        "Function",
        "Boolean",
    ]
)
PRIMITIVE = ("int", "float", "num", "bool", "str", "none")
PERCENT_FIELD = re.compile(r"%([-+ #0]*)(\d+|\*)?(?:\.(\d+|\*))?([diouxXeEfFgGcrsa%])")
FORMAT_SPEC = re.compile(
    r"^(?:(.)?([<>=^]))?([-+ ])?(#)?(0)?([0-9]+)?([,_])?(?:\.([0-9]+))?([bdeEfFgGnosxX%])?$"
)


def ts_name(name: str) -> str:
    """A Python identifier as a TS identifier (reserved words and prelude names renamed)."""
    if name in RESERVED or name.startswith("py") or name.endswith("_"):
        return name + "_"
    return name


def ts_string(s: str) -> str:
    """A TS string literal for ``s``."""
    return (
        json.dumps(s, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    )


def float_literal(v: float) -> str:
    """A TS literal that evaluates to the float ``v``."""
    r = repr(v)
    if r == "inf":
        return "Infinity"
    if r == "-inf":
        return "-Infinity"
    if r == "nan":
        return "NaN"
    return r


def is_simple(e: ast.expr) -> bool:
    """Whether evaluating ``e`` twice is harmless and cheap (names, constants, fields)."""
    if isinstance(e, ast.Name | ast.Constant):
        return True
    if isinstance(e, ast.Attribute):
        return is_simple(e.value)
    if isinstance(e, ast.Subscript) and not isinstance(e.slice, ast.Slice):
        return is_simple(e.value) and is_simple(e.slice)
    if isinstance(e, ast.UnaryOp):
        return is_simple(e.operand)
    return False


class Pieces:
    """Text and code pieces of a string being assembled into a template literal."""

    def __init__(self) -> None:
        self.parts: list[tuple[bool, str]] = []  # (is_code, text)

    def text(self, s: str) -> None:
        """Append literal text."""
        if s:
            self.parts.append((False, s))

    def code(self, c: str) -> None:
        """Append a TS expression of type string."""
        self.parts.append((True, c))

    def render(self) -> str:
        """A TS expression: a string literal, a lone expression or a template literal."""
        if not self.parts:
            return '""'
        if len(self.parts) == 1:
            is_code, s = self.parts[0]
            return s if is_code else ts_string(s)
        if not any(c for c, _ in self.parts):
            return ts_string("".join(s for _, s in self.parts))
        out = "`"
        for is_code, s in self.parts:
            if is_code:
                out += "${" + s + "}"
            else:
                out += _template_text(s)
        return out + "`"


def _template_text(s: str) -> str:
    """Literal text inside a template literal (control characters escaped: a raw CR would
    be read back as LF)."""
    out = s.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${")
    if any(ord(c) < 0x20 and c != "\n" for c in out) or "\u2028" in out or "\u2029" in out:
        out = "".join(
            c
            if c == "\n" or (ord(c) >= 0x20 and c not in "\u2028\u2029")
            else {"\t": "\\t", "\r": "\\r"}.get(c, f"\\u{ord(c):04x}")
            for c in out
        )
    return out


# The largest precision a format spec or round() may ask for: the prelude's pyFixed rounds
# with JS toFixed (at most 100 decimals) at up to precision + 3 ('g' formats).
MAX_PRECISION = 96


class ExprEmitter(Typer):
    """Emits TS expressions; ``self.scope`` is the scope being emitted."""

    def __init__(self, tree: ast.Module) -> None:
        super().__init__(tree)
        self.emitting = True
        self.used: set[str] = set()
        self.scope: Scope = self.module
        self.nonneg_names: set[str] = set()
        self.temp_count = 0
        self.dataclasses: set[str] = set()  # compared field by field in Python
        self.keep_alive: list[ast.AST] = []

    def use(self, helper: str) -> str:
        """Mark a prelude helper as used and return its name."""
        self.used.add(helper)
        return helper

    def temp(self, base: str) -> str:
        """A fresh temporary name."""
        self.temp_count += 1
        return f"{base}${self.temp_count}"  # `$` cannot occur in a Python name

    def t(self, e: ast.expr) -> T:
        """The static type of ``e`` in the current scope."""
        return self.visit(e, self.scope)

    def ex(self, e: ast.expr, min_prec: int = LOWEST, expect: T | None = None) -> str:
        """The TS code of ``e``, parenthesised if its precedence is below ``min_prec``."""
        code, prec = self.expr(e, expect)
        return f"({code})" if prec < min_prec else code

    @staticmethod
    def wrap(code: Code, min_prec: int) -> str:
        """Parenthesise ``code`` when its precedence is below ``min_prec``."""
        return f"({code[0]})" if code[1] < min_prec else code[0]

    # ----- dispatch -----------------------------------------------------------------

    def expr(self, e: ast.expr, expect: T | None = None) -> Code:
        """The TS code and precedence of ``e``."""
        t = self.t(e)
        if isinstance(e, ast.Constant):
            return self.constant(e)
        if isinstance(e, ast.Name):
            return self.name(e), ATOM
        if isinstance(e, ast.BinOp):
            return self.binop(e)
        if isinstance(e, ast.UnaryOp):
            if isinstance(e.op, ast.Not):
                return "!" + self.cond(e.operand, UNARY), UNARY
            inner = self.ex(e.operand, UNARY)
            if isinstance(e.operand, ast.Constant) and e.operand.value == 0 and t.kind == "int":
                return "0", ATOM  # Python has no negative zero int
            if isinstance(e.op, ast.UAdd):
                return inner, self.expr(e.operand)[1]
            return ("-" + inner if not inner.startswith("-") else f"-({inner})"), UNARY
        if isinstance(e, ast.BoolOp):
            return self.boolop(e, t)
        if isinstance(e, ast.Compare):
            return self.compare(e)
        if isinstance(e, ast.IfExp):
            test = self.cond(e.test, OR)
            body = self.ex(e.body, COND + 1, expect or t)
            orelse = self.ex(e.orelse, COND, expect or t)
            return f"{test} ? {body} : {orelse}", COND
        if isinstance(e, ast.Call):
            return self.call(e, expect)
        if isinstance(e, ast.Attribute):
            return self.attribute(e)
        if isinstance(e, ast.Subscript):
            return self.subscript(e)
        if isinstance(e, ast.List):
            return "[" + ", ".join(
                self.ex(
                    x, COND, (expect if expect is not None and expect.kind == "list" else t).args[0]
                )
                for x in e.elts
            ) + "]", ATOM
        if isinstance(e, ast.Tuple):
            want = expect.args[0] if expect is not None and expect.kind == "opt" else expect
            if want is None or want.kind != "tuple" or len(want.args) != len(e.elts):
                want = t
            items = [self.ex(x, COND, want.args[i]) for i, x in enumerate(e.elts)]
            return "[" + ", ".join(items) + "]", ATOM
        if isinstance(e, ast.Dict) and t.kind == "record":
            pairs = [
                f"[{self.ex(k, COND)}, {self.ex(v, COND)}]"  # type: ignore[arg-type]
                for k, v in zip(e.keys, e.values, strict=True)
            ]
            return f"new Map<string, any>([{', '.join(pairs)}])", ATOM
        if isinstance(e, ast.Dict):
            dt = expect if expect is not None and expect.kind == "dict" else t
            pairs = [
                f"[{self.ex(k, COND)}, {self.ex(v, COND, dt.args[1])}]"  # type: ignore[arg-type]
                for k, v in zip(e.keys, e.values, strict=True)
            ]
            inner = "[" + ", ".join(pairs) + "]" if pairs else ""
            return f"new Map<{ts_type(dt.args[0])}, {ts_type(dt.args[1])}>({inner})", ATOM
        if isinstance(e, ast.ListComp | ast.GeneratorExp):
            return self.comprehension(e), ATOM
        if isinstance(e, ast.DictComp):
            return self.dict_comprehension(e, expect), ATOM
        if isinstance(e, ast.Set):
            self.check_set_elem(t, e)
            items = ", ".join(self.ex(x, COND) for x in e.elts)
            return f"new Set<{ts_type(t.args[0])}>([{items}])", ATOM
        if isinstance(e, ast.SetComp):
            self.check_set_elem(t, e)
            fake = ast.ListComp(elt=e.elt, generators=e.generators)
            ast.copy_location(fake, e)
            self.sub_scopes[id(fake)] = self.comp_scope(e, self.scope)
            self.keep_alive.append(fake)  # its id keys a scope: keep the node alive
            return f"new Set<{ts_type(t.args[0])}>({self.comprehension(fake)})", ATOM
        if isinstance(e, ast.JoinedStr):
            return self.fstring(e), ATOM
        raise unsupported("py_expression", f"expression {type(e).__name__}", e)

    def check_set_elem(self, t: T, node: ast.AST) -> None:
        """Sets of ints, floats or strings only: JS compares other values by reference."""
        et = t.args[0]
        if et.kind not in ("int", "float", "num", "str", "unknown"):
            raise unsupported("py_set_element", f"a set of {et}", node)

    def constant(self, e: ast.Constant) -> Code:
        """A literal."""
        v = e.value
        if isinstance(v, bool):
            return ("true" if v else "false"), ATOM
        if v is None:
            return "null", ATOM
        if isinstance(v, int):
            return str(v), ATOM
        if isinstance(v, float):
            lit = float_literal(v)
            return lit, (UNARY if lit.startswith("-") else ATOM)
        if isinstance(v, str):
            return ts_string(v), ATOM
        raise unsupported("py_literal", f"literal {v!r}", e)

    def name(self, e: ast.Name) -> str:
        """A name reference."""
        if self.self_class(e, self.scope) is not None:
            return "this"
        t = self.t(e)
        if t.kind in ("builtin", "classref", "func", "module"):
            raise unsupported("py_function_value", f"{e.id} used as a value", e)
        return ts_name(e.id)

    # ----- printing -----------------------------------------------------------------

    def fmt_fn(self, t: T, as_repr: bool, node: ast.AST) -> str:
        """A TS function that renders a value of type ``t`` as Python's str()/repr()."""
        k = t.kind
        if k == "int":
            return self.use("pyStrInt")
        if k == "float":
            return self.use("pyStrFloat")
        if k == "bool":
            return self.use("pyStrBool")
        if k == "str":
            return self.use("pyReprStr") if as_repr else "((s: string) => s)"
        if k == "none":
            return '((_: null) => "None")'
        if k == "list":
            inner = self.fmt_fn(t.args[0], True, node)
            return f"{self.use('pyFmtList')}<{ts_type(t.args[0])}>({inner})"
        if k == "tuple":
            inner = ", ".join(self.fmt_fn(a, True, node) for a in t.args)
            return f"{self.use('pyFmtTuple')}([{inner}])"
        if k == "dict":
            kf = self.fmt_fn(t.args[0], True, node)
            vf = self.fmt_fn(t.args[1], True, node)
            return (
                f"{self.use('pyFmtDict')}<{ts_type(t.args[0])}, {ts_type(t.args[1])}>({kf}, {vf})"
            )
        if k == "opt":
            inner = self.fmt_fn(t.args[0], as_repr, node)
            return f"{self.use('pyFmtOpt')}<{ts_type(t.args[0])}>({inner})"
        if k == "class":
            has_str = self.find_method(t.name, "__str__") is not None
            method = "__repr__" if as_repr or not has_str else "__str__"
            if self.find_method(t.name, method) is None:
                raise unsupported("py_print_object", f"printing a {t.name} without __repr__", node)
            return f"((o: {t.name}) => o.{method}())"
        if k == "set":
            raise unsupported("py_set_order", "printing a set (Python's hash order)", node)
        if k == "record":
            fs = ", ".join(
                f"[{ts_string(key)}, {self.fmt_fn(v, True, node)}]"
                for key, v in zip(t.bases, t.args, strict=True)
            )
            return f"{self.use('pyFmtRecord')}([{fs}])"
        what = "int-or-float" if k == "num" else str(t)
        raise unsupported("py_print_type", f"printing a value of uncertain type ({what})", node)

    def str_code(self, code: Code, t: T, node: ast.AST, as_repr: bool = False) -> str:
        """TS code for str(value) (or repr) of TS ``code`` whose static type is ``t``."""
        if t.kind == "str" and not as_repr:
            return self.wrap(code, ADD + 1)
        if t.kind == "none":
            return '"None"'
        if t.kind == "class":
            fn = self.fmt_fn(t, as_repr, node)
            method = fn.rsplit("o.", 1)[1].rstrip(")")
            return f"{self.wrap(code, ATOM)}.{method})"
        if t.kind == "int" and _is_len_call(node):
            return f"String({code[0]})"  # a length is always an exact integer
        return f"{self.fmt_fn(t, as_repr, node)}({code[0]})"

    def str_of(self, e: ast.expr, as_repr: bool = False) -> str:
        """TS code for Python's str(e) (or repr(e))."""
        empty = (isinstance(e, ast.List | ast.Tuple) and not e.elts) or (
            isinstance(e, ast.Dict) and not e.keys
        )
        if empty:
            return ts_string({ast.List: "[]", ast.Tuple: "()", ast.Dict: "{}"}[type(e)])
        return self.str_code(self.expr(e), self.t(e), e, as_repr)

    def format_value(self, fv: ast.FormattedValue) -> str:
        """TS code for one ``{value!conv:spec}`` field of an f-string."""
        spec = ""
        if fv.format_spec is not None:
            parts = fv.format_spec.values  # type: ignore[attr-defined]
            if not all(isinstance(p, ast.Constant) for p in parts):
                raise unsupported("py_format_spec", "a computed format spec", fv)
            spec = "".join(str(p.value) for p in parts)  # type: ignore[attr-defined]
        conv = {-1: "", 115: "s", 114: "r", 97: "a"}[fv.conversion]
        return self.format_field(fv.value, conv, spec)

    def format_field(self, value: ast.expr, conv: str, spec: str) -> str:
        """TS code for ``format(value!conv, spec)``: one field of an f-string/str.format."""
        if conv == "a":
            raise unsupported("py_ascii", "!a conversion", value)
        t = self.t(value)
        if conv in ("r", "s"):
            code = self.str_of(value, as_repr=conv == "r")
            if not spec:
                return code
            return self.format_call(code, STR, spec, value)
        if not spec:
            return self.str_of(value)
        return self.format_call(self.ex(value, COND), t, spec, value)

    def str_format(self, e: ast.Call, fmt: str) -> str:
        """``"...{}...".format(args)`` as a template literal."""
        kw = {k.arg: k.value for k in e.keywords}
        pieces = Pieces()
        auto = 0
        used: list[ast.expr] = []
        try:
            parsed = list(string.Formatter().parse(fmt))
        except ValueError as exc:
            raise unsupported("py_str_format", "a malformed format string", e) from exc
        for literal, field, spec, conv in parsed:
            pieces.text(literal)
            if field is None:
                continue
            if "{" in (spec or ""):
                raise unsupported("py_str_format", "nested fields in str.format()", e)
            if field == "":
                index: int | str = auto
                auto += 1
            elif field.isdigit():
                index = int(field)
            elif field.isidentifier():
                index = field
            else:
                raise unsupported("py_str_format", f"field {{{field}}} in str.format()", e)
            if isinstance(index, int):
                if index >= len(e.args):
                    raise unsupported("py_str_format", "missing str.format() argument", e)
                arg = e.args[index]
            else:
                if index not in kw:
                    raise unsupported("py_str_format", "missing str.format() argument", e)
                arg = kw[index]
            if arg in used and not is_simple(arg):
                raise unsupported("py_str_format", "an argument used twice", e)
            used.append(arg)
            pieces.code(self.format_field(arg, conv or "", spec or ""))
        return pieces.render()

    def percent_format(self, e: ast.BinOp, fmt: str) -> str:
        """``"%d items" % n`` / ``"%s=%.2f" % (k, v)`` as a template literal."""
        args = e.right.elts if isinstance(e.right, ast.Tuple) else [e.right]
        if not isinstance(e.right, ast.Tuple) and self.t(e.right).kind in ("tuple", "dict"):
            raise unsupported("py_percent_format", "%-formatting with a tuple or dict value", e)
        pieces = Pieces()
        pos = 0
        i = 0
        for m in PERCENT_FIELD.finditer(fmt):
            pieces.text(fmt[pos : m.start()])
            pos = m.end()
            flags, width, prec, kind = m.group(1), m.group(2), m.group(3), m.group(4)
            if kind == "%":
                pieces.text("%")
                continue
            if kind in "ca" or "*" in (width or "") + (prec or ""):
                raise unsupported("py_percent_format", f"%{kind} or * in %-formatting", e)
            if i >= len(args):
                raise unsupported("py_percent_format", "too few %-format arguments", e)
            arg = args[i]
            i += 1
            t = self.t(arg)
            zero = "0" in flags and "-" not in flags and kind not in "rs"
            spec = ("<" if "-" in flags else "" if zero else ">") if width else ""
            spec += "+" if "+" in flags else " " if " " in flags else ""
            spec += "#" if "#" in flags else ""
            spec += ("0" if zero else "") + (width or "") + (f".{prec}" if prec is not None else "")
            if kind in "rs":
                pieces.code(self.format_call(self.str_of(arg, kind == "r"), STR, spec, e))
                continue
            code = self.ex(arg, COND)
            if kind in "diu":
                if t.kind in ("float", "num"):
                    code, t = f"Math.trunc({code})", INT
                if prec is not None:
                    raise unsupported("py_percent_format", "precision with %d", e)
                kind = "d"
            elif t.kind == "num" and kind in "xXo":
                raise unsupported("py_percent_format", "%x of an int-or-float", e)
            if not is_num(t) and t.kind != "bool":
                raise unsupported("py_percent_format", f"%{kind} of a {t}", e)
            if kind in "eEfFgG" and prec is None:
                spec += ".6"
            if kind in "xXo" and "#" in flags and kind == "o":
                raise unsupported("py_percent_format", "%#o", e)
            pieces.code(self.format_call(code, t, spec + kind, e))
        pieces.text(fmt[pos:])
        if i != len(args) or "%" in PERCENT_FIELD.sub("", fmt):
            raise unsupported("py_percent_format", "a %-format with unmatched arguments", e)
        return pieces.render()

    def format_call(self, code: str, t: T, spec: str, node: ast.AST) -> str:
        """TS code applying a format spec to a str, int, float or bool value."""
        m = FORMAT_SPEC.match(spec)
        if m is None:
            raise unsupported("py_format_spec", f"format spec {spec!r}", node)
        ftype = m.group(9) or ""
        if m.group(8) is not None and int(m.group(8)) > MAX_PRECISION:
            raise unsupported("py_format_spec", f"a precision above {MAX_PRECISION}", node)
        kind = t.kind
        if kind == "bool":
            code, kind = f"({code} ? 1 : 0)", "int"
        if kind == "num":
            if ftype not in ("e", "E", "f", "F", "g", "G", "%"):
                raise unsupported("py_format_spec", "formatting an int-or-float value", node)
            kind = "float"
        if kind not in ("int", "float", "str"):
            raise unsupported("py_format_spec", f"formatting a {t} with a spec", node)
        sample = {"int": 0, "float": 0.5, "str": ""}[kind]
        try:
            format(sample, spec)
        except (ValueError, TypeError) as exc:
            raise unsupported("py_format_spec", f"format spec {spec!r} for {kind}", node) from exc
        if ftype == "c" or (ftype == "n"):
            raise unsupported("py_format_spec", f"format type {ftype!r}", node)
        small = self.small_format(code, kind, m)
        if small is not None:
            return small
        return f"{self.use('pyFormat')}({code}, {ts_string(spec)}, {ts_string(kind)})"

    def small_format(self, code: str, kind: str, m: re.Match[str]) -> str | None:
        """The common specs (padding, ``.2f``, ``.1%``, ``.3e``, ``05d``, ``#x``, ``,``) with
        small helpers instead of the general ``pyFormat``, so that programs stay short; None
        for the others."""
        fill, align, sign, alt, zero, width, group, prec, ftype = m.groups()
        if zero:  # CPython: "0" sets the fill unless given, and "=" unless aligned
            if kind == "str" or group:
                return None
            fill = fill or "0"
            align = align or "="
        sign_ts = ts_string(sign or "-")
        if alt and not (ftype in ("b", "o", "x", "X") and align != "="):
            return None
        if kind == "str":
            if sign or group or prec is not None or ftype not in (None, "s"):
                return None
            body = code
        elif ftype in ("f", "F", "%"):
            scaled = f"({code}) * 100" if ftype == "%" else code
            args = f"{scaled}, {prec or 6}, {sign_ts}, {str(ftype == 'F').lower()}"
            body = f"{self.use('pyFmtFixed')}({args})"
            if group:
                body = f"{self.use('pyGroupLead')}({body}, {ts_string(group)})"
            if ftype == "%":
                body += ' + "%"'
        elif ftype in ("e", "E") and not group:
            args = f"{code}, {6 if prec is None else prec}, {sign_ts}, {str(ftype == 'E').lower()}"
            body = f"{self.use('pyFmtExp')}({args})"
        elif kind == "int" and ftype in ("b", "o", "x", "X") and not group:
            base = {"b": 2, "o": 8, "x": 16, "X": 16}[ftype]
            prefix = ts_string(f"0{ftype}" if alt else "")
            args = f"{code}, {base}, {sign_ts}, {prefix}, {str(ftype == 'X').lower()}"
            body = f"{self.use('pyFmtBase')}({args})"
        elif kind == "int" and ftype in (None, "d") and prec is None:
            if sign or group:
                body = f"{self.use('pyFmtInt')}({code}, {sign_ts}, {ts_string(group or '')})"
            else:
                body = f"{self.use('pyStrInt')}({code})"
        elif kind == "float" and ftype is None and prec is None and not (sign or group):
            body = f"{self.use('pyStrFloat')}({code})"
        else:
            return None
        if not width:
            return body
        default = "<" if kind == "str" else ">"
        align, fill = align or default, fill or " "
        if kind != "str" and align in "<>" and len(fill.encode("utf-16-le")) == 2:
            # a number's text is ASCII and the fill one UTF-16 unit: JS pads code points
            pad = "padEnd" if align == "<" else "padStart"
            fill_arg = "" if fill == " " else f", {ts_string(fill)}"
            receiver = f"({body})" if " + " in body else body
            return f"{receiver}.{pad}({int(width)}{fill_arg})"
        pad_args = f"{int(width)}, {ts_string(align)}, {ts_string(fill)}"
        return f"{self.use('pyPad')}({body}, {pad_args})"

    def fstring(self, e: ast.JoinedStr) -> str:
        """An f-string as a template literal."""
        pieces = Pieces()
        for v in e.values:
            if isinstance(v, ast.Constant):
                pieces.text(str(v.value))
            elif isinstance(v, ast.FormattedValue):
                pieces.code(self.format_value(v))
        return pieces.render()

    # ----- truthiness and booleans --------------------------------------------------

    def cond_code(self, code: Code, t: T, e: ast.expr, min_prec: int) -> str:
        """TS boolean code for the truthiness of ``code`` of type ``t``."""
        k = t.kind
        if isinstance(e, ast.Constant) and k != "bool":
            return "true" if e.value else "false"
        if k == "bool":
            return self.wrap(code, min_prec)
        if k in ("int", "float", "num"):
            out: Code = (f"{self.wrap(code, REL)} !== 0", EQ)
        elif k == "str":
            out = (f'{self.wrap(code, REL)} !== ""', EQ)
        elif k in ("list", "tuple"):
            out = (f"{self.wrap(code, ATOM)}.length > 0", REL)
        elif k in ("dict", "set", "record"):
            out = (f"{self.wrap(code, ATOM)}.size > 0", REL)
        elif k == "none":
            out = ("false", ATOM)
        elif k == "class":
            if self.find_method(t.name, "__len__") is not None:
                out = (f"{self.wrap(code, ATOM)}.__len__() > 0", REL)
            else:
                out = ("true", ATOM)
        elif k == "opt":
            inner = t.args[0]
            if not is_simple(e) and inner.kind != "class":
                raise unsupported("py_truthiness", "truthiness of an optional expression", e)
            not_null = f"{self.wrap(code, REL)} !== null"
            if inner.kind == "class" and self.find_method(inner.name, "__len__") is None:
                out = (not_null, EQ)
            else:
                out = (f"{not_null} && {self.cond_code(code, inner, e, AND + 1)}", AND)
        else:
            raise unsupported("py_truthiness", f"truthiness of a {t}", e)
        return self.wrap(out, min_prec)

    def cond(self, e: ast.expr, min_prec: int = LOWEST) -> str:
        """TS boolean code for Python's truthiness of ``e``."""
        if isinstance(e, ast.BoolOp):
            op, prec = ("&&", AND) if isinstance(e.op, ast.And) else ("||", OR)
            code = f" {op} ".join(self.cond(v, prec + 1) for v in e.values)
            return self.wrap((code, prec), min_prec)
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            return self.wrap(("!" + self.cond(e.operand, UNARY), UNARY), min_prec)
        return self.cond_code(self.expr(e), self.t(e), e, min_prec)

    def boolop(self, e: ast.BoolOp, t: T) -> Code:
        """``and``/``or`` as values: operands that are not booleans pick a value."""
        if t.kind == "bool":
            op, prec = ("&&", AND) if isinstance(e.op, ast.And) else ("||", OR)
            return f" {op} ".join(self.ex(v, prec + 1) for v in e.values), prec
        if any(contains_unknown(self.t(v)) for v in e.values) or t.kind == "any":
            raise unsupported("py_boolop_value", "and/or mixing value types", e)
        # a or b  ->  truthy(a) ? a : b ;  a and b  ->  truthy(a) ? b : a
        values = e.values
        code: Code = self.expr(values[-1], t)
        for v in reversed(values[:-1]):
            if not is_simple(v):
                raise unsupported("py_boolop_value", "and/or value of a complex operand", e)
            test = self.cond(v, OR)
            mine = self.ex(v, COND + 1, t)
            rest = self.wrap(code, COND)
            if isinstance(e.op, ast.Or):
                code = (f"{test} ? {mine} : {rest}", COND)
            else:
                code = (f"{test} ? {self.wrap(code, COND + 1)} : {mine}", COND)
        return code

    def compare(self, e: ast.Compare) -> Code:
        """Comparisons, chained ones joined with ``&&``."""
        parts: list[str] = []
        left = e.left
        for i, (op, right) in enumerate(zip(e.ops, e.comparators, strict=True)):
            if i > 0 and not is_simple(left):
                raise unsupported("py_chained_compare", "chained comparison of an expression", e)
            parts.append(self.compare_one(left, op, right))
            left = right
        return (" && ".join(parts), AND) if len(parts) > 1 else (parts[0], EQ)
        # note: single comparisons are given EQ precedence; REL ops are wrapped by callers

    def compare_one(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> str:
        """One comparison ``left op right``."""
        lt, rt = self.t(left), self.t(right)
        if isinstance(op, ast.Is | ast.IsNot):
            if rt.kind != "none" and lt.kind != "none":
                raise unsupported("py_is", "`is` with something other than None", left)
            sym = "===" if isinstance(op, ast.Is) else "!=="
            return f"{self.ex(left, REL)} {sym} {self.ex(right, REL)}"
        if isinstance(op, ast.In | ast.NotIn):
            code = self.contains(left, right, lt, rt)
            return code if isinstance(op, ast.In) else f"!{code}"
        if isinstance(op, ast.Eq | ast.NotEq):
            sym = "===" if isinstance(op, ast.Eq) else "!=="
            if (
                (lt.kind in PRIMITIVE or lt.kind == "class")
                and (rt.kind in PRIMITIVE or rt.kind == "class")
            ) or "none" in (lt.kind, rt.kind):
                if "bool" in (lt.kind, rt.kind) and lt.kind != rt.kind:
                    raise unsupported("py_compare", "comparing a bool with a non-bool", left)
                if any(t.kind == "class" and t.name in self.dataclasses for t in (lt, rt)):
                    raise unsupported("py_dataclass_eq", "== on dataclass instances", left)
                lcode, rcode = self.ex(left, EQ + 1), self.ex(right, EQ + 1)
                if lt.kind == "bool" and isinstance(right, ast.Constant):
                    lcode = f"({self.ex(left, COND)} as boolean)"  # no literal-type narrowing
                return f"{lcode} {sym} {rcode}"
            if contains_unknown(lt) or contains_unknown(rt):
                raise unsupported("py_compare", "comparing values of uncertain type", left)
            call = f"{self.use('pyEq')}({self.ex(left, COND)}, {self.ex(right, COND)})"
            return call if isinstance(op, ast.Eq) else "!" + call
        sym = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}[type(op)]
        if (is_num(lt) and is_num(rt)) or (lt.kind == rt.kind and lt.kind in ("str", "bool")):
            return f"{self.ex(left, REL + 1)} {sym} {self.ex(right, REL + 1)}"
        if lt.kind in ("list", "tuple") and rt.kind == lt.kind and not contains_unknown(lt):
            return f"{self.use('pyCmp')}({self.ex(left, COND)}, {self.ex(right, COND)}) {sym} 0"
        raise unsupported("py_compare", f"ordering {lt} and {rt}", left)

    def contains(self, left: ast.expr, right: ast.expr, lt: T, rt: T) -> str:
        """``left in right``."""
        if rt.kind == "str":
            return f"{self.ex(right, ATOM)}.includes({self.ex(left, COND)})"
        if rt.kind in ("dict", "set", "record"):
            return f"{self.ex(right, ATOM)}.has({self.ex(left, COND)})"
        if rt.kind in ("list", "tuple", "iter"):
            et = elem_type(rt)
            if (
                isinstance(right, ast.Call)
                and isinstance(right.func, ast.Attribute)
                and right.func.attr == "keys"
                and self.t(right.func.value).kind == "dict"
            ):
                return f"{self.ex(right.func.value, ATOM)}.has({self.ex(left, COND)})"
            arr = self.array_of(right)
            if et.kind in PRIMITIVE and lt.kind in PRIMITIVE:
                return f"{self.wrap(arr, ATOM)}.includes({self.ex(left, COND)})"
            return f"{self.use('pyIn')}({self.ex(left, COND)}, {arr[0]})"
        raise unsupported("py_in", f"`in` on a {rt}", right)

    # ----- arithmetic ---------------------------------------------------------------

    def nonneg(self, e: ast.expr) -> bool:
        """Whether ``e`` is an int known to be >= 0 (so JS indexing and % are exact)."""
        c = const_int(e)
        if c is not None:
            return c >= 0
        if isinstance(e, ast.Name):
            return e.id in self.nonneg_names and self.scope.lookup(e.id) is not None
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "len":
            return True
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add | ast.Mult):
            return self.nonneg(e.left) and self.nonneg(e.right)
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.FloorDiv | ast.Mod):
            c = const_int(e.right)
            return self.nonneg(e.left) and c is not None and c > 0
        return False

    def binop(self, e: ast.BinOp) -> Code:
        """Arithmetic, concatenation and repetition with Python semantics."""
        lt, rt = self.t(e.left), self.t(e.right)
        if isinstance(e.op, ast.Mod) and lt.kind == "str" and isinstance(e.left, ast.Constant):
            return self.percent_format(e, str(e.left.value)), ATOM
        rest = self.t(e)
        op = e.op
        if is_num(lt) and is_num(rt):
            return self.arith(op, e.left, e.right, lt, rt, rest)
        if isinstance(op, ast.Add) and lt.kind == rt.kind == "str":
            return f"{self.ex(e.left, ADD)} + {self.ex(e.right, ADD + 1)}", ADD
        if isinstance(op, ast.Add) and lt.kind == rt.kind and lt.kind in ("list", "tuple"):
            return f"[...{self.ex(e.left, ATOM)}, ...{self.ex(e.right, ATOM)}]", ATOM
        if isinstance(op, ast.Mult) and {lt.kind, rt.kind} in ({"str", "int"}, {"list", "int"}):
            seq, count = (e.left, e.right) if lt.kind in ("str", "list") else (e.right, e.left)
            st = self.t(seq)
            n = self.ex(count, COND) if self.nonneg(count) else f"Math.max(0, {self.ex(count)})"
            if st.kind == "str":
                return f"{self.ex(seq, ATOM)}.repeat({n})", ATOM
            return f"{self.use('pyRepeat')}({self.ex(seq, COND)}, {self.ex(count, COND)})", ATOM
        raise unsupported("py_operands", f"{type(op).__name__} on {lt} and {rt}", e)

    def arith(self, op: ast.operator, a: ast.expr, b: ast.expr, lt: T, rt: T, res: T) -> Code:
        """Numeric binary operators."""
        both_int = lt.kind == rt.kind == "int"
        bc = const_int(b)
        bconst = b.value if isinstance(b, ast.Constant) else None
        nonzero_const = isinstance(bconst, int | float) and bconst != 0
        if isinstance(op, ast.Add | ast.Sub | ast.Mult):
            sym, prec = {ast.Add: ("+", ADD), ast.Sub: ("-", ADD), ast.Mult: ("*", MUL)}[type(op)]
            return f"{self.ex(a, prec)} {sym} {self.ex(b, prec + 1)}", prec
        if isinstance(op, ast.Div):
            if nonzero_const:
                return f"{self.ex(a, MUL)} / {self.ex(b, MUL + 1)}", MUL
            return f"{self.use('pyDiv')}({self.ex(a, COND)}, {self.ex(b, COND)})", ATOM
        if isinstance(op, ast.FloorDiv):
            if both_int and bc is not None and bc > 0:
                return f"Math.floor({self.ex(a, MUL)} / {self.ex(b, MUL + 1)})", ATOM
            helper = "pyFloorDiv" if both_int else "pyFloorDivFloat"
            return f"{self.use(helper)}({self.ex(a, COND)}, {self.ex(b, COND)})", ATOM
        if isinstance(op, ast.Mod):
            if both_int and bc is not None and bc > 0 and self.nonneg(a):
                return f"{self.ex(a, MUL)} % {self.ex(b, MUL + 1)}", MUL
            return f"{self.use('pyMod')}({self.ex(a, COND)}, {self.ex(b, COND)})", ATOM
        if isinstance(op, ast.Pow):
            if both_int and bc is None:
                return f"{self.use('pyIntPow')}({self.ex(a, COND)}, {self.ex(b, COND)})", ATOM
            return f"{self.ex(a, POW + 2)} ** {self.ex(b, POW)}", POW
        raise unsupported("py_operator", f"operator {type(op).__name__}", a)

    # ----- attributes, subscripts ---------------------------------------------------

    def attribute(self, e: ast.Attribute) -> Code:
        """Field reads and math constants."""
        bt = self.t(e.value)
        if bt.kind == "module":
            return {"pi": "Math.PI", "e": "Math.E", "inf": "Infinity"}[e.attr], ATOM
        if bt.kind == "classref":
            self.t(e)
            return f"{ts_name(bt.name)}.{e.attr}", ATOM
        return f"{self.obj(e.value)}.{e.attr}", ATOM

    def obj(self, e: ast.expr) -> str:
        """``e`` used as an object; an optional instance gets a non-null assertion (None
        there fails in Python, and null fails in JS)."""
        code = self.ex(e, ATOM)
        return code + "!" if self.t(e).kind == "opt" else code

    def subscript(self, e: ast.Subscript) -> Code:
        """Indexing and slicing with Python's negative-index and clamping rules."""
        bt = self.t(e.value)
        base = self.ex(e.value, ATOM)
        if isinstance(e.slice, ast.Slice):
            return self.slice(e, bt, base)
        if bt.kind == "dict":
            key = self.ex(e.slice, COND)
            return f"{self.use('pyDictGet')}({self.ex(e.value, COND)}, {key})", ATOM
        if bt.kind == "record":
            vt = self.t(e)
            return f"({base}.get({self.ex(e.slice, COND)}) as {ts_type(vt)})", ATOM
        if bt.kind == "tuple":
            idx = const_int(e.slice)
            assert idx is not None
            return f"{base}[{idx % len(bt.args)}]", ATOM
        idx = const_int(e.slice)
        if self.nonneg(e.slice):
            return f"{base}[{self.ex(e.slice)}]", ATOM
        if idx is not None and idx < 0 and is_simple(e.value):
            return f"{base}[{base}.length - {-idx}]", ATOM
        helper = "pyCharAt" if bt.kind == "str" else "pyIndex"
        return f"{self.use(helper)}({self.ex(e.value, COND)}, {self.ex(e.slice, COND)})", ATOM

    def slice(self, e: ast.Subscript, bt: T, base: str) -> Code:
        """``x[a:b:c]`` for lists and strings."""
        sl = e.slice
        assert isinstance(sl, ast.Slice)
        step = None if sl.step is None else const_int(sl.step)
        if sl.step is not None and step is None:
            raise unsupported("py_slice", "a non-constant slice step", e)
        lower = None if sl.lower is None else self.ex(sl.lower, COND)
        upper = None if sl.upper is None else self.ex(sl.upper, COND)
        if step is None or step == 1:
            args = [lower or "0", upper] if upper is not None else ([lower] if lower else [])
            return f"{base}.slice({', '.join(a for a in args if a is not None)})", ATOM
        if step == -1 and lower is None and upper is None:
            if bt.kind == "str":
                return f'Array.from({self.ex(e.value)}).reverse().join("")', ATOM
            return f"{base}.slice().reverse()", ATOM
        helper = "pyStrSliceStep" if bt.kind == "str" else "pySliceStep"
        args = [self.ex(e.value, COND), lower or "null", upper or "null", str(step)]
        return f"{self.use(helper)}({', '.join(args)})", ATOM

    # ----- iteration ----------------------------------------------------------------

    def iter_code(self, e: ast.expr, unordered: bool = False) -> tuple[Code, bool]:
        """TS code of an iterable yielding Python's iteration of ``e``; flag: is an array.

        Sets iterate in Python's hash order, which is never reproduced: they are accepted only
        by consumers whose result does not depend on the order (``unordered``)."""
        t = self.t(e)
        if t.kind == "set":
            if not unordered:
                raise unsupported("py_set_order", "depending on the iteration order of a set", e)
            return self.expr(e), False
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in (
            "enumerate", "zip", "reversed", "range", "sorted", "map", "filter", "list",
        ):  # fmt: skip
            return self.call(e, None), True
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
            bt = self.t(e.func.value)
            if bt.kind == "dict" and e.func.attr in ("keys", "values", "items") and not e.args:
                method = "entries" if e.func.attr == "items" else e.func.attr
                return (f"{self.ex(e.func.value, ATOM)}.{method}()", ATOM), False
        if isinstance(e, ast.GeneratorExp | ast.ListComp):
            return (self.comprehension(e), ATOM), True
        if t.kind in ("list", "tuple"):
            return self.expr(e), True
        if t.kind == "str":
            return self.expr(e), False
        if t.kind in ("dict", "record"):
            return (f"{self.ex(e, ATOM)}.keys()", ATOM), False
        if t.kind == "iter":
            return self.expr(e), True
        raise unsupported("py_iteration", f"iterating over a {t}", e)

    def array_of_unordered(self, e: ast.expr) -> Code:
        """An array of the items of ``e`` for a consumer that ignores their order."""
        code, is_array = self.iter_code(e, True)
        return code if is_array else (f"Array.from({code[0]})", ATOM)

    def array_of(self, e: ast.expr) -> Code:
        """TS code of an array holding the items of iterating ``e``."""
        code, is_array = self.iter_code(e)
        if is_array:
            return code
        return f"Array.from({code[0]})", ATOM

    def target_param(self, target: ast.expr, t: T, scope: Scope) -> str:
        """An arrow-function parameter binding a comprehension target."""
        if isinstance(target, ast.Name):
            return f"{ts_name(target.id)}: {ts_type(scope.vars[target.id])}"
        names = target_names(target)
        if not isinstance(target, ast.Tuple) or len(names) != len(target.elts):
            raise unsupported("py_comprehension_target", "nested comprehension targets", target)
        return "[" + ", ".join(ts_name(n) for n in names) + f"]: {ts_type(t)}"

    def comprehension(self, e: ast.ListComp | ast.GeneratorExp) -> str:
        """A list comprehension or generator expression as an array expression."""
        outer = self.scope
        cs = self.comp_scope(e, outer)
        elt_t = self.visit(e.elt, cs)
        rt = ts_type(elt_t)
        if contains_unknown(elt_t):
            raise unsupported("py_comprehension", "a comprehension of uncertain type", e)
        if len(e.generators) == 1:
            gen = e.generators[0]
            arr = self.array_of(gen.iter)
            it_t = self.iter_elem(self.visit(gen.iter, outer), gen.iter)
            self.scope = cs
            try:
                param = self.target_param(gen.target, it_t, cs)
                code = self.wrap(arr, ATOM)
                if gen.ifs:
                    test = " && ".join(self.cond(c, AND + 1) for c in gen.ifs)
                    code += f".filter(({param}) => {test})"
                trivial = (
                    isinstance(gen.target, ast.Name)
                    and isinstance(e.elt, ast.Name)
                    and e.elt.id == gen.target.id
                )
                if not trivial:
                    code += f".map(({param}): {rt} => {self.ex(e.elt, COND)})"
                return code
            finally:
                self.scope = outer
        out = self.temp("out")
        lines = [f"const {out}: {rt}[] = [];"]
        close = ""
        self.scope = cs
        try:
            for gen in e.generators:
                self.scope = outer if gen is e.generators[0] else cs
                arr = self.iter_code(gen.iter)[0]
                self.scope = cs
                lines.append(f"for (const {self.for_target(gen.target)} of {arr[0]}) {{")
                close += "}"
                for c in gen.ifs:
                    lines.append(f"if ({self.cond(c)}) {{")
                    close += "}"
            lines.append(f"{out}.push({self.ex(e.elt, COND)});")
        finally:
            self.scope = outer
        return "(() => { " + " ".join(lines) + f" {close} return {out}; }})()"

    def for_target(self, target: ast.expr, renames: dict[str, str] | None = None) -> str:
        """A ``for (const X of ...)`` binding pattern for a loop target."""
        if isinstance(target, ast.Name):
            if renames and target.id in renames:
                return renames[target.id]
            return ts_name(target.id)
        if isinstance(target, ast.Tuple | ast.List):
            return "[" + ", ".join(self.for_target(x, renames) for x in target.elts) + "]"
        raise unsupported("py_loop_target", "loop target", target)

    def dict_comprehension(self, e: ast.DictComp, expect: T | None) -> str:
        """A dict comprehension as ``new Map(...)``."""
        dt = self.t(e)
        if contains_unknown(dt):
            raise unsupported("py_comprehension", "a dict comprehension of uncertain type", e)
        fake = ast.ListComp(
            elt=ast.Tuple(elts=[e.key, e.value], ctx=ast.Load()), generators=e.generators
        )
        ast.copy_location(fake, e)
        self.sub_scopes[id(fake)] = self.comp_scope(e, self.scope)
        self.keep_alive.append(fake)  # its id keys a scope: keep the node alive
        arr = self.comprehension(fake)
        return f"new Map<{ts_type(dt.args[0])}, {ts_type(dt.args[1])}>({arr})"

    # ----- calls --------------------------------------------------------------------

    def lambda_code(self, fn: ast.expr, params: list[T], want_bool: bool = False) -> str:
        """A TS arrow function for a lambda, builtin (str/int/...) or user function."""
        self.lambda_type(fn, params, self.scope)
        if isinstance(fn, ast.Lambda):
            ls = self.sub_scopes[id(fn)]
            outer = self.scope
            self.scope = ls
            try:
                ps = ", ".join(f"{ts_name(a.arg)}: {ts_type(ls.vars[a.arg])}" for a in fn.args.args)
                body = self.cond(fn.body, COND) if want_bool else self.ex(fn.body, COND)
                if body.startswith("{"):
                    body = f"({body})"
                return f"({ps}) => {body}"
            finally:
                self.scope = outer
        p = params[0]
        if isinstance(fn, ast.Name) and fn.id == "str":
            return f"(v: {ts_type(p)}) => {self.str_code(('v', ATOM), p, fn)}"
        if isinstance(fn, ast.Name) and fn.id in ("int", "float"):
            if p.kind == "str":
                return self.use("pyInt" if fn.id == "int" else "pyFloat")
            if p.kind == "float" and fn.id == "int":
                return "Math.trunc"
            if is_num(p):
                return f"(v: {ts_type(p)}) => v"
        if isinstance(fn, ast.Name) and fn.id == "len":
            prop = "size" if p.kind == "dict" else "length"
            return f"(v: {ts_type(p)}) => v.{prop}"
        if isinstance(fn, ast.Name) and fn.id == "abs":
            return "Math.abs"
        if isinstance(fn, ast.Name) and self.resolve_func(fn.id, self.scope) is not None:
            return f"(v: {ts_type(p)}) => {ts_name(fn.id)}(v)"
        raise unsupported("py_function_value", "this function argument", fn)

    def args_for(self, fn_node: ast.FunctionDef, params: list[str], e: ast.Call, skip: int) -> str:
        """Positional TS arguments for a call of a user function (keywords placed)."""
        out: list[str | None] = [None] * len(params)
        info = None
        for f in self.all_funcs():
            if f.node is fn_node:
                info = f
        assert info is not None
        scope_vars = info.scope.vars
        for i, a in enumerate(e.args):
            out[i] = self.ex(a, COND, scope_vars[params[i]])
        for k in e.keywords:
            i = params.index(str(k.arg))
            out[i] = self.ex(k.value, COND, scope_vars[params[i]])
        n_required = len(params) - len(fn_node.args.defaults)
        last = max((i for i, v in enumerate(out) if v is not None), default=-1)
        for i in range(last + 1):
            if out[i] is None:
                if i < n_required:
                    raise unsupported("py_call_arity", "missing argument", e)
                out[i] = "undefined"
        return ", ".join(str(x) for x in out[: last + 1])

    def call(self, e: ast.Call, expect: T | None) -> Code:
        """Calls of builtins, user functions, constructors and methods."""
        f = e.func
        if isinstance(f, ast.Name):
            ft = self.name_type(f, self.scope)
            if ft.kind == "func":
                info = self.resolve_func(f.id, self.scope)
                assert info is not None
                return f"{ts_name(f.id)}({self.args_for(info.node, info.scope.params, e, 0)})", ATOM
            if ft.kind == "classref":
                init = self.find_method(f.id, "__init__")
                args = self.args_for(init.node, init.scope.params, e, 1) if init else ""
                return f"new {ts_name(f.id)}({args})", ATOM
            return self.builtin_call(f.id, e, expect)
        if isinstance(f, ast.Attribute):
            return self.method_call(f, e)
        raise unsupported("py_call", "this call", e)

    def builtin_call(self, name: str, e: ast.Call, expect: T | None) -> Code:
        """Calls of supported builtins."""
        self.t(e)
        args = e.args
        kw = {k.arg: k.value for k in e.keywords}
        a0 = args[0] if args else None
        t0 = self.t(a0) if a0 is not None and not isinstance(a0, ast.Lambda) else None
        if name == "print":
            raise unsupported("py_print_value", "print() used as a value", e)
        if name == "len" and a0 is not None and t0 is not None:
            if t0.kind in ("dict", "set", "record"):
                return f"{self.ex(a0, ATOM)}.size", ATOM
            if t0.kind == "class":
                return f"{self.ex(a0, ATOM)}.__len__()", ATOM
            if t0.kind in ("list", "str", "tuple"):
                return f"{self.ex(a0, ATOM)}.length", ATOM
            return f"{self.wrap(self.array_of(a0), ATOM)}.length", ATOM
        if name in ("str", "repr") and len(args) == 1:
            return self.str_of(args[0], as_repr=name == "repr"), ATOM
        if name == "str" and not args:
            return '""', ATOM
        if name in ("int", "float") and len(args) == 1 and t0 is not None:
            return self.convert_number(name, args[0], t0), ATOM
        if name == "bool" and len(args) == 1:
            return self.cond(args[0]), LOWEST
        if name == "abs" and a0 is not None and t0 is not None and is_num(t0):
            return f"Math.abs({self.ex(a0, COND)})", ATOM
        if name == "round" and a0 is not None and t0 is not None and is_num(t0):
            return self.round_call(e, a0, t0)
        if name == "sum" and a0 is not None and t0 is not None:
            et = self.iter_elem(t0, e)
            start = kw.get("start", args[1] if len(args) > 1 else None)
            st = self.t(start) if start is not None else INT
            if not (is_num(et) or et.kind == "unknown") or not is_num(st):
                raise unsupported("py_sum", f"sum() of {et}", e)
            if et.kind == "float" or st.kind == "float":
                helper = sum_float_helper()
            elif et.kind == "int" or et.kind == "unknown":
                helper = "pySum"
            else:
                raise unsupported("py_sum", "sum() of mixed ints and floats", e)
            extra = "" if start is None else ", " + self.ex(start, COND)
            unordered = et.kind == "int"  # float sums depend on the order of the terms
            code = self.iter_code(a0, unordered)[0][0]
            return f"{self.use(helper)}({code}{extra})", ATOM
        if name in ("min", "max"):
            return self.min_max(name, e, kw)
        if name == "sorted" and a0 is not None and t0 is not None:
            et = self.iter_elem(t0, e)
            extra = self.sort_args(kw, et, e)
            return f"{self.use('pySorted')}({self.iter_code(a0, True)[0][0]}{extra})", ATOM
        if name == "reversed" and a0 is not None and t0 is not None:
            if t0.kind == "list":
                return f"{self.ex(a0, ATOM)}.slice().reverse()", ATOM
            return f"{self.wrap(self.array_of(a0), ATOM)}.reverse()", ATOM
        if name == "range":
            for a in args:
                if self.t(a).kind != "int":
                    raise unsupported("py_range", "range() of non-int values", e)
            parts = [self.ex(a, COND) for a in args]
            if len(parts) == 1:
                parts = ["0", *parts]
            return f"{self.use('pyRange')}({', '.join(parts)})", ATOM
        if name == "enumerate" and a0 is not None and t0 is not None:
            start = args[1] if len(args) > 1 else kw.get("start")
            if start is None and t0.kind == "list":
                return f"Array.from({self.ex(a0, ATOM)}.entries())", ATOM
            extra = "" if start is None else ", " + self.ex(start, COND)
            return f"{self.use('pyEnumerate')}({self.iter_code(a0)[0][0]}{extra})", ATOM
        if name == "zip":
            helper = "pyZip" if len(args) == 2 else "pyZip3"
            inner = ", ".join(self.iter_code(a)[0][0] for a in args)
            return f"{self.use(helper)}({inner})", ATOM
        if name == "list":
            if not args:
                return "[]", ATOM
            if t0 is not None and t0.kind == "list":
                return f"{self.ex(a0, ATOM)}.slice()", ATOM  # type: ignore[arg-type]
            code, fresh = self.iter_code(a0)  # type: ignore[arg-type]
            if fresh and isinstance(a0, ast.Call | ast.GeneratorExp | ast.ListComp):
                return code  # already a new array
            return f"Array.from({code[0]})", ATOM
        if name == "set":
            st = expect if expect is not None and expect.kind == "set" else self.t(e)
            self.check_set_elem(st, e)
            inner = self.iter_code(args[0], True)[0][0] if args else ""
            return f"new Set<{ts_type(st.args[0])}>({inner})", ATOM
        if name == "dict" and len(args) == 1:
            dt = self.t(e)
            inner = self.iter_code(args[0])[0][0]
            return f"new Map<{ts_type(dt.args[0])}, {ts_type(dt.args[1])}>({inner})", ATOM
        if name == "dict" and not args:
            dt = expect if expect is not None and expect.kind == "dict" else self.t(e)
            return f"new Map<{ts_type(dt.args[0])}, {ts_type(dt.args[1])}>()", ATOM
        if name in ("any", "all") and a0 is not None and t0 is not None:
            return self.any_all(name, a0, t0)
        if name in ("map", "filter") and len(args) == 2:
            it_t = self.iter_elem(self.t(args[1]), e)
            arr = self.wrap(self.array_of(args[1]), ATOM)
            if name == "filter":
                if not isinstance(args[0], ast.Lambda):
                    raise unsupported("py_filter", "filter() without a lambda", e)
                return f"{arr}.filter({self.lambda_code(args[0], [it_t], want_bool=True)})", ATOM
            fn = self.lambda_code(args[0], [it_t])
            if not fn.startswith("("):
                fn = f"(v: {ts_type(it_t)}) => {fn}(v)"
            return f"{arr}.map({fn})", ATOM
        if name == "divmod" and len(args) == 2:
            if not all(self.t(a).kind == "int" for a in args) or not all(map(is_simple, args)):
                raise unsupported("py_divmod", "divmod() of non-int or complex operands", e)
            q = self.binop(ast.BinOp(left=args[0], op=ast.FloorDiv(), right=args[1]))[0]
            r = self.binop(ast.BinOp(left=args[0], op=ast.Mod(), right=args[1]))[0]
            return f"[{q}, {r}]", ATOM
        if name == "pow" and len(args) == 2:
            return self.binop(ast.BinOp(left=args[0], op=ast.Pow(), right=args[1]))
        if name == "chr" and a0 is not None:
            return f"String.fromCodePoint({self.ex(a0, COND)})", ATOM
        if name == "ord" and a0 is not None:
            return f"({self.ex(a0, ATOM)}.codePointAt(0) as number)", ATOM
        raise unsupported("py_builtin", f"this use of {name}()", e)

    def convert_number(self, name: str, a: ast.expr, t: T) -> str:
        """int(x) and float(x)."""
        if t.kind == "str":
            return f"{self.use('pyInt' if name == 'int' else 'pyFloat')}({self.ex(a, COND)})"
        if t.kind == "bool":
            return f"({self.ex(a, COND + 1)} ? 1 : 0)"
        if name == "int" and t.kind in ("float", "num"):
            return f"Math.trunc({self.ex(a, COND)})"
        if is_num(t):
            return self.ex(a, ATOM)
        raise unsupported("py_conversion", f"{name}() of a {t}", a)

    def round_call(self, e: ast.Call, a0: ast.expr, t0: T) -> Code:
        """round(x) (ties to even) and round(x, n)."""
        if len(e.args) == 1:
            if t0.kind == "int":
                return self.expr(a0)
            if t0.kind == "float":
                return f"{self.use('pyRound')}({self.ex(a0, COND)})", ATOM
            raise unsupported("py_round", "round() of an int-or-float value", e)
        n = const_int(e.args[1])
        if n is None or n < 0 or len(e.args) != 2:
            raise unsupported("py_round", "round() with a non-constant or negative ndigits", e)
        if n > MAX_PRECISION:
            raise unsupported("py_round", f"round() with ndigits above {MAX_PRECISION}", e)
        if t0.kind == "int":
            return self.expr(a0)
        if t0.kind == "float":
            return f"{self.use('pyRoundTo')}({self.ex(a0, COND)}, {n})", ATOM
        raise unsupported("py_round", "round() of an int-or-float value", e)

    def sort_args(self, kw: dict[str | None, ast.expr], et: T, e: ast.expr) -> str:
        """The optional key/reverse arguments of pySorted/pySortInPlace."""
        key = kw.get("key")
        rev = kw.get("reverse")
        if key is None and not contains_unknown(et):
            self.check_orderable(et, e)
        key_code = "null" if key is None else self.lambda_code(key, [et])
        if rev is None:
            return "" if key is None else f", {key_code}"
        return f", {key_code}, {self.cond(rev, COND)}"

    def check_orderable(self, t: T, e: ast.expr) -> None:
        """Reject ordering values whose JS comparison differs from Python's."""
        if t.kind in ("int", "float", "num", "str", "bool"):
            return
        if t.kind in ("tuple", "list"):
            for a in t.args:
                self.check_orderable(a, e)
            return
        raise unsupported("py_ordering", f"ordering values of type {t}", e)

    def min_max(self, name: str, e: ast.Call, kw: dict[str | None, ast.expr]) -> Code:
        """min()/max() of several values or of one iterable (optional key=)."""
        sign = "1" if name == "min" else "-1"
        if len(e.args) == 1:
            et = self.iter_elem(self.t(e.args[0]), e)
            key = kw.get("key")
            if key is None:
                self.check_orderable(et, e)
            extra = "" if key is None else ", " + self.lambda_code(key, [et])
            code = self.iter_code(e.args[0], key is None)[0][0]  # a key may tie: order matters
            return f"{self.use('pyMinMax')}({code}, {sign}{extra})", ATOM
        types = [self.t(a) for a in e.args]
        if kw:
            raise unsupported("py_min_max", f"{name}() of several values with key=", e)
        if all(is_num(t) for t in types):
            inner = ", ".join(self.ex(a, COND) for a in e.args)
            return f"Math.{name}({inner})", ATOM
        for t in types:
            self.check_orderable(t, e)
        inner = ", ".join(self.ex(a, COND) for a in e.args)
        return f"{self.use('pyMinMax')}([{inner}], {sign})", ATOM

    def any_all(self, name: str, a0: ast.expr, t0: T) -> Code:
        """any()/all() over an iterable or a generator expression."""
        method = "some" if name == "any" else "every"
        if isinstance(a0, ast.GeneratorExp | ast.ListComp) and len(a0.generators) == 1:
            gen = a0.generators[0]
            if not gen.ifs:
                cs = self.comp_scope(a0, self.scope)
                it_t = self.iter_elem(self.t(gen.iter), gen.iter)
                arr = self.wrap(self.array_of(gen.iter), ATOM)
                outer = self.scope
                self.scope = cs
                try:
                    param = self.target_param(gen.target, it_t, cs)
                    return f"{arr}.{method}(({param}) => {self.cond(a0.elt, COND)})", ATOM
                finally:
                    self.scope = outer
        et = self.iter_elem(t0, a0)
        arr = self.wrap(self.array_of(a0), ATOM)
        test = self.cond_code(("v", ATOM), et, a0, COND)
        return f"{arr}.{method}((v: {ts_type(et)}) => {test})", ATOM

    def method_call(self, f: ast.Attribute, e: ast.Call) -> Code:
        """Methods of str, list, dict, math and user classes."""
        self.t(e)
        base_method = self.super_method(f, self.scope)
        if base_method is not None:
            args = self.args_for(base_method.node, base_method.scope.params, e, 1)
            if f.attr == "__init__":
                return f"super({args})", ATOM
            return f"super.{f.attr}({args})", ATOM
        bt = self.object_type(f.value, self.scope)
        attr = f.attr
        args = e.args
        if bt.kind == "module":
            fn = {
                "sqrt": "Math.sqrt",
                "floor": "Math.floor",
                "ceil": "Math.ceil",
                "fabs": "Math.abs",
            }
            return f"{fn[attr]}({self.ex(args[0], COND)})", ATOM
        base = self.ex(f.value, ATOM)
        plain = self.ex(f.value, COND)
        arg = [self.ex(a, COND) for a in args]
        if attr == "__len__" and bt.kind in ("list", "str", "tuple"):
            return f"{base}.length", ATOM
        if attr == "__len__" and bt.kind == "dict":
            return f"{base}.size", ATOM
        if bt.kind == "str":
            return self.str_method(attr, e, base, plain, arg)
        if bt.kind == "list":
            et = bt.args[0]
            if attr == "append":
                return f"{base}.push({self.ex(args[0], COND, et)})", ATOM
            if attr == "extend":
                return f"{base}.push(...{self.wrap(self.iter_code(args[0])[0], ATOM)})", ATOM
            if attr == "insert":
                if self.nonneg(args[0]):
                    return f"{base}.splice({arg[0]}, 0, {self.ex(args[1], COND, et)})", ATOM
                return f"{self.use('pyInsert')}({plain}, {arg[0]}, {arg[1]})", ATOM
            if attr == "pop":
                return f"{self.use('pyPop')}({', '.join([plain, *arg])})", ATOM
            if attr == "index":
                return f"{self.use('pyListIndex')}({plain}, {arg[0]})", ATOM
            if attr == "count":
                return f"{self.use('pyListCount')}({plain}, {arg[0]})", ATOM
            if attr == "remove":
                return f"{self.use('pyRemove')}({plain}, {arg[0]})", ATOM
            if attr == "reverse":
                return f"{base}.reverse()", ATOM
            if attr == "clear":
                return f"{base}.splice(0)", ATOM
            if attr == "copy":
                return f"{base}.slice()", ATOM
            if attr == "sort":
                kw = {k.arg: k.value for k in e.keywords}
                extra = self.sort_args(kw, et, e)
                return f"{self.use('pySortInPlace')}({plain}{extra})", ATOM
        if bt.kind == "set":
            if attr == "add":
                return f"{base}.add({arg[0]})", ATOM
            if attr == "discard":
                return f"{base}.delete({arg[0]})", ATOM
            if attr == "remove":
                return f"{self.use('pySetRemove')}({plain}, {arg[0]})", ATOM
            if attr == "clear":
                return f"{base}.clear()", ATOM
            if attr == "copy":
                return f"new Set({plain})", ATOM
            other = args[0] if args else None
            if attr == "update" and other is not None:
                items = self.iter_code(other, True)[0][0]
                return f"{self.use('pySetUpdate')}({plain}, {items})", ATOM
            if other is not None and attr in (
                "union",
                "intersection",
                "difference",
                "issubset",
                "issuperset",
                "isdisjoint",
            ):
                items = self.wrap(self.array_of_unordered(other), ATOM)
                helper = "pySet" + attr[0].upper() + attr[1:]
                return f"{self.use(helper)}({plain}, {items})", ATOM
        if bt.kind == "record":
            if attr == "get":
                return f"({base}.get({arg[0]}) as {ts_type(self.t(e))})", ATOM
            if attr == "keys":
                return f"Array.from({base}.keys())", ATOM
        if bt.kind == "dict":
            vt = bt.args[1]
            if attr == "get":
                if vt.kind in ("none", "opt", "unknown", "any"):
                    raise unsupported("py_dict_get", "dict.get() on a dict that may hold None", e)
                dflt = "null" if len(args) == 1 else self.ex(args[1], COALESCE + 1)
                return f"({base}.get({arg[0]}) ?? {dflt})", ATOM
            if attr in ("keys", "values", "items"):
                method = "entries" if attr == "items" else attr
                return f"Array.from({base}.{method}())", ATOM
            if attr == "pop":
                return f"{self.use('pyDictPop')}({plain}, {arg[0]})", ATOM
            if attr == "copy":
                return f"new Map({plain})", ATOM
            if attr == "clear":
                return f"{base}.clear()", ATOM
        if bt.kind == "class":
            info = self.find_method(bt.name, attr)
            assert info is not None
            call_args = self.args_for(info.node, info.scope.params, e, 1)
            return f"{self.obj(f.value)}.{attr}({call_args})", ATOM
        raise unsupported("py_method", f".{attr}() on a {bt}", e)

    def str_method(self, attr: str, e: ast.Call, base: str, plain: str, arg: list[str]) -> Code:
        """Methods of str."""
        args = e.args
        if attr == "format":
            recv = e.func.value  # type: ignore[attr-defined]
            if not (isinstance(recv, ast.Constant) and isinstance(recv.value, str)):
                raise unsupported("py_str_format", "str.format() on a computed string", e)
            return self.str_format(e, recv.value), ATOM
        n = len(args)
        simple = {"upper": "toUpperCase", "lower": "toLowerCase"}
        if attr in simple and n == 0:
            return f"{base}.{simple[attr]}()", ATOM
        strip = {"strip": "trim", "lstrip": "trimStart", "rstrip": "trimEnd"}
        if attr in strip and n == 0:
            return f"{base}.{strip[attr]}()", ATOM
        if attr in strip and n == 1 and self.t(args[0]).kind == "str":
            return f"{self.use('pyStrip')}({plain}, {arg[0]}, {ts_string(attr)})", ATOM
        if attr == "split" and n <= 1:
            sep = args[0] if args else None
            if isinstance(sep, ast.Constant) and isinstance(sep.value, str) and sep.value:
                return f"{base}.split({arg[0]})", ATOM
            return f"{self.use('pySplit')}({', '.join([plain, *arg])})", ATOM
        if attr == "join" and n == 1:
            et = self.iter_elem(self.t(args[0]), e)
            if et.kind != "str":
                raise unsupported("py_join", "str.join() of non-strings", e)
            return f"{self.wrap(self.array_of(args[0]), ATOM)}.join({plain})", ATOM
        if attr == "replace" and n == 2:
            old = args[0]
            if not (isinstance(old, ast.Constant) and isinstance(old.value, str) and old.value):
                raise unsupported("py_str_replace", "str.replace() of a non-constant", e)
            return f"{base}.split({arg[0]}).join({arg[1]})", ATOM
        if attr in ("startswith", "endswith") and n == 1 and self.t(args[0]).kind == "str":
            method = "startsWith" if attr == "startswith" else "endsWith"
            return f"{base}.{method}({arg[0]})", ATOM
        if attr in ("find", "rfind") and n == 1:
            method = "indexOf" if attr == "find" else "lastIndexOf"
            return f"{base}.{method}({arg[0]})", ATOM
        if attr == "count" and n == 1:
            return f"{self.use('pyStrCount')}({plain}, {arg[0]})", ATOM
        if attr == "index" and n == 1:
            return f"{self.use('pyStrIndex')}({plain}, {arg[0]})", ATOM
        if attr == "center" and n in (1, 2):
            fill = arg[1] if n == 2 else '" "'
            return f"{self.use('pyCenter')}({plain}, {arg[0]}, {fill})", ATOM
        regex = {
            "isdigit": r"/^\p{Nd}+$/u",
            "isalpha": r"/^\p{L}+$/u",
            "isalnum": r"/^[\p{L}\p{N}]+$/u",
            "isspace": r"/^\s+$/",
        }
        if attr in regex and n == 0:
            return f"{regex[attr]}.test({plain})", ATOM
        if attr == "isupper" and n == 0 and is_simple(e.func.value):  # type: ignore[attr-defined]
            return f"({base}.toUpperCase() === {plain} && {base}.toLowerCase() !== {plain})", ATOM
        if attr == "islower" and n == 0 and is_simple(e.func.value):  # type: ignore[attr-defined]
            return f"({base}.toLowerCase() === {plain} && {base}.toUpperCase() !== {plain})", ATOM
        if attr == "title" and n == 0:
            return f"{self.use('pyTitle')}({plain})", ATOM
        if attr == "capitalize" and n == 0:
            return f"{self.use('pyCapitalize')}({plain})", ATOM
        if attr in ("ljust", "rjust") and n in (1, 2):
            method = "padEnd" if attr == "ljust" else "padStart"
            fill = arg[1] if n == 2 else '" "'
            return f"{base}.{method}({arg[0]}, {fill})", ATOM
        if attr == "zfill" and n == 1:
            return f"{self.use('pyZfill')}({plain}, {arg[0]})", ATOM
        raise unsupported("py_str_method", f"this use of str.{attr}()", e)


def _is_len_call(node: ast.AST) -> bool:
    """Whether ``node`` is a call of the builtin ``len``."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
    )
