"""Static type inference for the supported Python subset.

Types come from hints where present and otherwise from a fixed point over the program:
assignments, ``append``/``d[k] = v`` refinements, call-site argument types (for untyped
parameters), defaults and return statements all widen the types of names until nothing
changes. Widening int with float gives ``num``: computable but not printable.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from zerolayer.plugins.py_ts.pytypes import (
    ANY,
    BOOL,
    FLOAT,
    INT,
    NONE,
    NUM,
    STR,
    UNKNOWN,
    T,
    class_t,
    dict_of,
    elem_type,
    func_t,
    is_num,
    iter_of,
    join,
    list_of,
    optional,
    record_of,
    set_of,
    tuple_of,
)
from zerolayer.plugins.py_ts.scopes import (
    HARMLESS_IMPORTS,
    SUPPORTED_DUNDERS,
    ClassInfo,
    FuncInfo,
    Scope,
    body_without_docstring,
    check_function_signature,
    children,
    collect_bindings,
    global_names,
    target_names,
    unsupported,
    walk,
)

# Node types outside the subset: reason and description.
REJECTED: dict[type, tuple[str, str]] = {
    ast.AsyncFunctionDef: ("py_async", "async def"),
    ast.AsyncFor: ("py_async", "async for"),
    ast.AsyncWith: ("py_async", "async with"),
    ast.Await: ("py_async", "await"),
    ast.Nonlocal: ("py_nonlocal", "nonlocal"),
    ast.NamedExpr: ("py_walrus", "the walrus operator :="),
    ast.Match: ("py_match", "match statement"),
    ast.Try: ("py_try", "try/except"),
    ast.With: ("py_with", "with statement"),
    ast.Starred: ("py_starred", "starred expression"),
    ast.Yield: ("py_generator", "yield"),
    ast.YieldFrom: ("py_generator", "yield from"),
}
if hasattr(ast, "TryStar"):
    REJECTED[ast.TryStar] = ("py_try", "try/except*")  # type: ignore[attr-defined]

BUILTIN_NAMES = {
    "print", "len", "str", "repr", "int", "float", "bool", "abs", "round", "sum", "min", "max",
    "sorted", "reversed", "range", "enumerate", "zip", "list", "dict", "any", "all", "map",
    "filter", "chr", "ord", "set", "divmod", "pow",
}  # fmt: skip

STR_METHODS: dict[str, T] = {
    "upper": STR, "lower": STR, "strip": STR, "lstrip": STR, "rstrip": STR, "title": STR,
    "capitalize": STR, "replace": STR, "split": list_of(STR), "join": STR, "startswith": BOOL,
    "endswith": BOOL, "isdigit": BOOL, "isalpha": BOOL, "isalnum": BOOL, "isspace": BOOL,
    "isupper": BOOL, "islower": BOOL, "find": INT, "rfind": INT, "count": INT, "ljust": STR,
    "rjust": STR, "zfill": STR, "format": STR, "index": INT, "center": STR,
}  # fmt: skip

MATH_FUNCS: dict[str, T] = {"sqrt": FLOAT, "floor": INT, "ceil": INT, "fabs": FLOAT}
MATH_CONSTS: dict[str, T] = {"pi": FLOAT, "e": FLOAT, "inf": FLOAT}


def annotation_type(ann: ast.expr | None, classes: dict[str, tuple[str, ...]]) -> T:
    """The static type of a type hint (UNKNOWN for none); Unsupported for exotic hints."""
    if ann is None:
        return UNKNOWN
    if isinstance(ann, ast.Constant) and ann.value is None:
        return NONE
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            inner = ast.parse(ann.value, mode="eval").body
        except SyntaxError as exc:
            raise unsupported("py_type_hint", f"type hint {ann.value!r}", ann) from exc
        return annotation_type(inner, classes)
    if isinstance(ann, ast.Name):
        simple = {"int": INT, "float": FLOAT, "str": STR, "bool": BOOL, "None": NONE}
        if ann.id in simple:
            return simple[ann.id]
        if ann.id in classes:
            return class_t(ann.id, classes[ann.id])
        if ann.id in ("list", "List"):
            return list_of(UNKNOWN)
        if ann.id in ("dict", "Dict"):
            return dict_of(UNKNOWN, UNKNOWN)
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        return join(annotation_type(ann.left, classes), annotation_type(ann.right, classes))
    if isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name):
        base = ann.value.id
        args = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        types = [annotation_type(a, classes) for a in args]
        if base in ("list", "List") and len(types) == 1:
            return list_of(types[0])
        if base in ("dict", "Dict") and len(types) == 2:
            return dict_of(types[0], types[1])
        if base in ("tuple", "Tuple") and not any(
            isinstance(a, ast.Constant) and a.value is Ellipsis for a in args
        ):
            return tuple_of(*types)
        if base == "Optional" and len(types) == 1:
            return optional(types[0])
    raise unsupported("py_type_hint", f"type hint {ast.unparse(ann)}", ann)


def _check_import(typer: Typer, node: ast.Import | ast.ImportFrom) -> None:
    mods = [a.name for a in node.names] if isinstance(node, ast.Import) else []
    if isinstance(node, ast.ImportFrom):
        mods = [node.module or ""]
        if node.module == "math":
            raise unsupported("py_import", "from math import ...", node)
    for m in mods:
        if m not in HARMLESS_IMPORTS:
            raise unsupported("py_import", f"import {m}", node)
        if m == "math":
            if isinstance(node, ast.Import) and any(a.asname for a in node.names):
                raise unsupported("py_import", "import math as ...", node)
            typer.math = True


def _check_call(typer: Typer, node: ast.Call) -> None:
    if any(k.arg is None for k in node.keywords):
        raise unsupported("py_kwargs", "**kwargs in a call", node)


def _check_binop(typer: Typer, node: ast.BinOp) -> None:
    if isinstance(
        node.op, ast.BitAnd | ast.BitOr | ast.BitXor | ast.LShift | ast.RShift | ast.MatMult
    ):
        raise unsupported("py_bitwise", "bitwise operators", node)
    if (
        isinstance(node.op, ast.Pow | ast.Mult | ast.LShift)
        and const_int(node.left) is not None
        and const_int(node.right) is not None
    ):
        a, b = const_int(node.left) or 0, const_int(node.right) or 0
        if isinstance(node.op, ast.Pow):
            big = abs(a) >= 2 and b > 0 and (b > 53 or abs(a) ** b > 2**53)
        else:
            big = abs(a * b) > 2**53
        if big:
            raise unsupported("py_big_int", "integers beyond 2**53", node)


def _check_unaryop(typer: Typer, node: ast.UnaryOp) -> None:
    if isinstance(node.op, ast.Invert):
        raise unsupported("py_bitwise", "the ~ operator", node)


def _check_constant(typer: Typer, node: ast.Constant) -> None:
    value = node.value
    if isinstance(value, complex | bytes):
        raise unsupported("py_literal", "complex or bytes literals", node)
    if isinstance(value, str) and any(ord(c) > 0xFFFF for c in value):
        raise unsupported("py_astral_chars", "characters outside the BMP", node)
    if type(value) is int and abs(value) > 2**53:
        raise unsupported("py_big_int", "integers beyond 2**53", node)


def _check_lambda(typer: Typer, node: ast.Lambda) -> None:
    if node.args.vararg or node.args.kwarg or node.args.defaults or node.args.kwonlyargs:
        raise unsupported("py_lambda", "lambda with defaults or *args", node)


# The checks of reject_constructs, by node type (each node is of exactly one), and the field
# of the nodes that hold a type hint.
_NODE_CHECKS: dict[type, Callable[[Typer, Any], None]] = {
    ast.Import: _check_import,
    ast.ImportFrom: _check_import,
    ast.Call: _check_call,
    ast.BinOp: _check_binop,
    ast.UnaryOp: _check_unaryop,
    ast.Constant: _check_constant,
    ast.Lambda: _check_lambda,
}
# the node types Typer.gathered keeps: declarations for collect, calls for the emitter
GATHERED = frozenset({ast.Global, ast.FunctionDef, ast.ClassDef, ast.Call})
_HINT_FIELD: dict[type, str] = {
    ast.arg: "annotation",
    ast.FunctionDef: "returns",
    ast.AnnAssign: "annotation",
}


class Typer:
    """Collects the program's functions and classes and infers the types of every name."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.module = Scope("module", tree, None)
        self.funcs: dict[str, FuncInfo] = {}
        self.classes: dict[str, ClassInfo] = {}
        self.sub_scopes: dict[int, Scope] = {}
        self.changed = False
        self.emitting = False
        self.math = False
        self.narrowed: dict[tuple[int, str], bool] = {}
        self.chains = class_chains(tree)
        self.nested: list[FuncInfo] = []
        self.global_decls: set[str] = set()
        # every node of the module, walked once for the checks of reject_constructs and
        # collect (nothing changes the tree before inference)
        self.all_nodes = walk(tree)
        # the nodes later passes look for, in the walk's order (kept: the walk is not)
        self.gathered: list[ast.AST] = []
        self.reject_constructs()
        self.collect()
        del self.all_nodes
        self.infer()

    # ----- collection -------------------------------------------------------------------

    def reject_constructs(self) -> None:
        """Raise Unsupported for the first construct outside the subset (type hints are
        read by :func:`annotation_type` instead)."""
        in_hints: set[int] = set()
        gather = self.gathered.append
        for node in self.all_nodes:  # breadth first: a hint comes after the node holding it
            kind = type(node)
            if kind in GATHERED:
                gather(node)
            if id(node) in in_hints:
                continue
            hint = _HINT_FIELD.get(kind)
            if hint is not None and (h := getattr(node, hint)) is not None:
                in_hints.update(id(n) for n in walk(h))
            hit = REJECTED.get(kind)
            if hit is not None:
                raise unsupported(hit[0], hit[1], node)
            check = _NODE_CHECKS.get(kind)
            if check is not None:
                check(self, node)

    def new_func(self, node: ast.FunctionDef, parent: Scope, cls: str | None) -> FuncInfo:
        """A FuncInfo with a fresh scope holding its parameters and locals."""
        check_function_signature(node)
        scope = Scope("function", node, parent)
        classes = self.chains
        args = list(node.args.args)
        if cls is not None:
            if not args:
                raise unsupported("py_static_method", f"method {node.name}() without self", node)
            scope.self_name = args[0].arg  # type: ignore[attr-defined]
            scope.self_class = cls  # type: ignore[attr-defined]
            args = args[1:]
        for a in args:
            t = annotation_type(a.annotation, classes)
            scope.vars[a.arg] = t
            scope.params.append(a.arg)
        info = FuncInfo(node.name, node, scope, cls=cls)
        if node.returns is not None:
            info.returns = annotation_type(node.returns, classes)
            info.annotated_return = True
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef):  # a helper defined at the top of the body
                if stmt.name in scope.funcs:
                    raise unsupported("py_rebinding", f"a second definition of {stmt.name}", stmt)
                scope.funcs[stmt.name] = self.new_func(stmt, scope, None)
                self.nested.append(scope.funcs[stmt.name])
        registered = {id(f.node) for f in scope.funcs.values()}
        for stmt in walk(node):
            if stmt is node or id(stmt) in registered:
                continue
            if isinstance(stmt, ast.FunctionDef | ast.ClassDef) and not any(
                stmt in walk(f.node) for f in scope.funcs.values()
            ):
                raise unsupported("py_nested_def", f"nested def/class in {node.name}()", stmt)
        globals_ = global_names(node.body)
        scope.bindings = collect_bindings(node.body, globals_)
        for name in scope.bindings.sites:
            if name in scope.funcs:
                raise unsupported("py_rebinding", f"rebinding the function name {name}", node)
            scope.vars.setdefault(name, UNKNOWN)
        for name in globals_:
            if name in scope.vars:
                raise unsupported("py_global", f"global {name} that is also a parameter", node)
        self.global_decls |= globals_
        return info

    def collect(self) -> None:
        """Find top-level functions and classes, and the module's own names."""
        for stmt in self.tree.body:
            if isinstance(stmt, ast.FunctionDef | ast.ClassDef) and (
                stmt.name in self.funcs or stmt.name in self.classes
            ):
                raise unsupported("py_rebinding", f"a second definition of {stmt.name}", stmt)
            if isinstance(stmt, ast.FunctionDef):
                self.funcs[stmt.name] = self.new_func(stmt, self.module, None)
            elif isinstance(stmt, ast.ClassDef):
                self.collect_class(stmt)
        module_globals = global_names(self.tree.body)  # `global` at module level: a no-op
        self.module.bindings = collect_bindings(self.tree.body, module_globals)
        sites = self.module.bindings.sites
        if module_globals:
            sites = collect_bindings(self.tree.body).sites
        for name in sites:
            self.module.vars.setdefault(name, UNKNOWN)
        for node in self.gathered:
            if isinstance(node, ast.Global):
                for name in node.names:
                    if name not in self.module.vars:
                        what = f"global {name} not assigned at module level"
                        raise unsupported("py_global", what, node)
        for name in self.module.vars:
            if name in self.funcs or name in self.classes:
                what = f"rebinding the function/class name {name}"
                raise unsupported("py_rebinding", what, sites[name][0])
        # defined at the top, in a class at the top, or a registered nested helper
        allowed = {id(f.node) for f in self.nested} | {id(s) for s in self.tree.body}
        for c in self.tree.body:
            if isinstance(c, ast.ClassDef):
                allowed.update(id(s) for s in c.body)
        for stmt in self.gathered:
            if isinstance(stmt, ast.FunctionDef | ast.ClassDef) and id(stmt) not in allowed:
                raise unsupported("py_nested_def", f"nested definition {stmt.name}", stmt)

    def collect_class(self, node: ast.ClassDef) -> None:
        """A class with plain methods and ``self.x`` fields (no bases, no class attributes)."""
        if node.decorator_list:
            raise unsupported("py_decorator", f"decorator on class {node.name}", node)
        bases = [b for b in node.bases if not (isinstance(b, ast.Name) and b.id == "object")]
        if node.keywords or len(bases) > 1:
            raise unsupported("py_inheritance", f"base classes of {node.name}", node)
        if bases and not (isinstance(bases[0], ast.Name) and bases[0].id in self.classes):
            raise unsupported("py_inheritance", f"base class of {node.name}", node)
        info = ClassInfo(node.name, node)
        info.base = bases[0].id if bases else None  # type: ignore[union-attr]
        self.classes[node.name] = info
        for stmt in body_without_docstring(node.body):
            if isinstance(stmt, ast.Pass):
                continue
            if (
                isinstance(stmt, ast.Assign | ast.AnnAssign)
                and len(getattr(stmt, "targets", [None])) == 1
                and stmt.value is not None
                and is_immutable_literal(stmt.value)
            ):
                target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
                if isinstance(target, ast.Name):
                    info.consts[target.id] = (stmt.value, self.visit(stmt.value, self.module))
                    continue
            if not isinstance(stmt, ast.FunctionDef):
                raise unsupported(
                    "py_class_attribute", f"class-level statement in {node.name}", stmt
                )
            if stmt.name.startswith("__") and stmt.name not in SUPPORTED_DUNDERS:
                raise unsupported("py_dunder", f"special method {stmt.name}", stmt)
            if stmt.name in info.methods or stmt.name in info.consts:
                raise unsupported("py_rebinding", f"a second definition of {stmt.name}", stmt)
            info.methods[stmt.name] = self.new_func(stmt, self.module, node.name)

    # ----- fixed point ------------------------------------------------------------------

    def all_funcs(self) -> list[FuncInfo]:
        """Every function and method, in source order."""
        out = list(self.funcs.values())
        for c in self.classes.values():
            out.extend(c.methods.values())
        return out + self.nested

    def resolve_func(self, name: str, scope: Scope) -> FuncInfo | None:
        """The function ``name`` refers to in ``scope`` (nested helpers first)."""
        s: Scope | None = scope
        while s is not None:
            if name in s.vars:
                return None
            if name in s.funcs:
                return s.funcs[name]
            s = s.parent
        return self.funcs.get(name)

    def infer(self) -> None:
        """Widen every type until a fixed point is reached."""
        for _ in range(40):
            self.changed = False
            for f in self.all_funcs():
                for a, d in zip(
                    reversed(f.node.args.args), reversed(f.node.args.defaults), strict=False
                ):
                    self.set_var(f.scope, a.arg, self.visit(d, self.module))
            self.infer_body(self.tree.body, self.module, None)
            for f in self.all_funcs():
                self.infer_body(f.node.body, f.scope, f)
                if self.falls_off(f.node.body):
                    self.set_return(f, NONE)
            self.unify_overrides()
            if not self.changed:
                return
        raise unsupported("py_type_inference", "a program whose types do not settle")

    def falls_off(self, body: list[ast.stmt]) -> bool:
        """Whether control can reach the end of ``body``."""
        if not body:
            return True
        last = body[-1]
        if isinstance(last, ast.Return | ast.Raise):
            return False
        if isinstance(last, ast.If):
            return self.falls_off(last.body) or self.falls_off(last.orelse)
        if isinstance(last, ast.While):
            is_true = isinstance(last.test, ast.Constant) and last.test.value is True
            has_break = any(isinstance(n, ast.Break) for n in walk(last))
            return not is_true or has_break
        return True

    def set_var(self, scope: Scope, name: str, t: T) -> None:
        """Widen the type of ``name`` in ``scope``."""
        old = scope.vars.get(name, UNKNOWN)
        new = join(old, t)
        if new != old:
            scope.vars[name] = new
            self.changed = True

    def class_type(self, name: str) -> T:
        """The static type of an instance of class ``name``."""
        return class_t(name, self.chains.get(name, ()))

    def find_method(self, cls: str, name: str) -> FuncInfo | None:
        """Method ``name`` of ``cls`` or of its nearest ancestor that defines it."""
        for c in (cls, *self.chains.get(cls, ())):
            if name in self.classes[c].methods:
                return self.classes[c].methods[name]
        return None

    def find_const(self, cls: str, name: str) -> T | None:
        """The type of class attribute ``name`` of ``cls`` or an ancestor."""
        for c in (cls, *self.chains.get(cls, ())):
            if name in self.classes[c].consts:
                return self.classes[c].consts[name][1]
        return None

    def field_owner(self, cls: str, name: str) -> str | None:
        """The class (``cls`` or an ancestor) that declares field ``name``."""
        for c in (cls, *self.chains.get(cls, ())):
            if name in self.classes[c].fields:
                return c
        return None

    def overrides(self, cls: str, name: str) -> list[FuncInfo]:
        """The methods ``name`` of subclasses of ``cls`` (the targets of dynamic dispatch)."""
        return [
            c.methods[name]
            for c in self.classes.values()
            if cls in self.chains.get(c.name, ()) and name in c.methods
        ]

    def unify_overrides(self) -> None:
        """Give an overriding method and the one it overrides the same signature types."""
        for c in self.classes.values():
            for name, m in c.methods.items():
                if name == "__init__":
                    continue
                for anc in self.chains.get(c.name, ()):
                    base = self.classes[anc].methods.get(name)
                    if base is None:
                        continue
                    if len(base.scope.params) != len(m.scope.params):
                        raise unsupported("py_override", f"override of {name} with other arity")
                    for pa, pb in zip(m.scope.params, base.scope.params, strict=True):
                        t = join(m.scope.vars[pa], base.scope.vars[pb])
                        self.set_var(m.scope, pa, t)
                        self.set_var(base.scope, pb, t)
                    self.set_return(m, base.returns)
                    self.set_return(base, m.returns)
                    break

    def set_field(self, cls: str, name: str, t: T, node: ast.AST | None = None) -> None:
        """Widen the type of field ``name`` of class ``cls``."""
        if self.find_const(cls, name) is not None or any(
            name in c.consts for c in self.classes.values() if cls in self.chains.get(c.name, ())
        ):
            raise unsupported("py_class_attribute", f"assigning the class attribute {name}", node)
        cls = self.field_owner(cls, name) or cls
        info = self.classes[cls]
        if self.find_method(cls, name) is not None:
            raise unsupported("py_field_shadows_method", f"field {name} shadowing a method")
        if name not in info.fields:
            info.field_order.append(name)
        old = info.fields.get(name, UNKNOWN)
        new = join(old, t)
        if new != old or name not in info.fields:
            info.fields[name] = new
            self.changed = True

    def set_return(self, f: FuncInfo, t: T) -> None:
        """Widen the return type of ``f`` (a hint is only a starting point: Python does not
        convert an int returned from a ``-> float`` function)."""
        new = join(f.returns, t)
        if new != f.returns:
            f.returns = new
            self.changed = True

    def infer_body(self, body: list[ast.stmt], scope: Scope, func: FuncInfo | None) -> None:
        """Visit each statement of ``body``."""
        for stmt in body:
            self.infer_stmt(stmt, scope, func)

    def infer_stmt(self, s: ast.stmt, scope: Scope, func: FuncInfo | None) -> None:
        """Widen types from one statement."""
        if isinstance(s, ast.Assign):
            vt = self.visit(s.value, scope)
            for t in s.targets:
                self.assign_target(t, vt, scope)
                if vt.kind in ("list", "dict", "set") and isinstance(t, ast.Name | ast.Attribute):
                    # aliasing: both names refer to one container, so share one type
                    self.refine(s.value, self.visit(t, scope), scope)
        elif isinstance(s, ast.AnnAssign):
            hint = annotation_type(s.annotation, self.chains)
            vt = self.visit(s.value, scope) if s.value is not None else UNKNOWN
            if not isinstance(s.target, ast.Name | ast.Attribute):
                raise unsupported("py_annotated_target", "annotated subscript target", s)
            self.assign_target(s.target, join(hint, vt), scope)
        elif isinstance(s, ast.AugAssign):
            vt = self.visit(s.value, scope)
            cur = self.visit(s.target, scope)
            self.assign_target(s.target, self.binop_type(s.op, cur, vt, s), scope)
        elif isinstance(s, ast.For):
            it = self.visit(s.iter, scope)
            self.assign_target(s.target, self.iter_elem(it, s.iter), scope)
            if it.kind == "list" and isinstance(s.target, ast.Name):
                lt = self.visit(s.target, scope)
                if lt.kind in ("list", "dict"):
                    self.refine(s.iter, list_of(lt), scope)
            self.infer_body(s.body, scope, func)
            self.infer_body(s.orelse, scope, func)
        elif isinstance(s, ast.If) and scope is self.module and is_main_guard(s.test):
            self.infer_body(s.body, scope, func)
            if s.orelse:
                raise unsupported("py_main_guard", "else of if __name__ == '__main__'", s)
        elif isinstance(s, ast.If | ast.While):
            self.visit(s.test, scope)

            def run(st: ast.stmt) -> None:
                self.infer_stmt(st, scope, func)

            self.run_narrowed(s.test, True, s.body, scope, run)
            if isinstance(s, ast.If):
                self.run_narrowed(s.test, False, s.orelse, scope, run)
            else:
                self.infer_body(s.orelse, scope, func)
        elif isinstance(s, ast.Return):
            if func is None:
                raise unsupported("py_return", "return outside a function", s)
            rt = NONE if s.value is None else self.visit(s.value, scope)
            self.set_return(func, rt)
        elif isinstance(s, ast.Expr | ast.Raise | ast.Assert | ast.Delete):
            for child in children(s):
                if isinstance(child, ast.expr):
                    self.visit(child, scope)

    def run_narrowed(
        self,
        test: ast.expr,
        branch: bool,
        body: list[ast.stmt],
        scope: Scope,
        run: Callable[[ast.stmt], None],
    ) -> None:
        """Run ``run`` over ``body`` where ``test`` being ``branch`` proves a name is not None
        (``if x is not None:``, ``while x is not None:``, the else of ``if x is None:``);
        the proof holds until a statement rebinds the name."""
        name = none_test(test, branch)
        owner = scope.lookup(name) if name else None
        key = (id(owner), name or "")
        active = owner is not None
        for st in body:
            rebinds = name in {
                n.id for n in walk(st) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            }
            plain = isinstance(st, ast.Assign) and all(isinstance(t, ast.Name) for t in st.targets)
            if active and (not rebinds or plain):
                self.narrowed[key] = True
            else:
                self.narrowed.pop(key, None)
            try:
                run(st)
            finally:
                self.narrowed.pop(key, None)
            if rebinds:
                active = False

    def iter_elem(self, it: T, node: ast.AST) -> T:
        """The element type of iterating a value of type ``it``."""
        if it.kind in ("list", "iter", "str", "dict", "unknown", "set", "record"):
            return elem_type(it)
        if self.emitting:
            raise unsupported("py_iteration", f"iterating over a {it}", node)
        return ANY

    def assign_target(self, target: ast.expr, t: T, scope: Scope) -> None:
        """Widen the types bound by assigning a value of type ``t`` to ``target``."""
        if t.kind in ("func", "builtin", "classref", "module"):
            raise unsupported("py_function_value", "storing a function or class in a name", target)
        if isinstance(target, ast.Name):
            owner = scope.lookup(target.id) or scope
            self.set_var(owner, target.id, t)
        elif isinstance(target, ast.Tuple | ast.List):
            n = len(target.elts)
            for i, elt in enumerate(target.elts):
                if t.kind == "tuple" and len(t.args) == n:
                    self.assign_target(elt, t.args[i], scope)
                elif t.kind in ("list", "iter", "unknown"):
                    self.assign_target(elt, elem_type(t), scope)
                else:
                    self.assign_target(elt, ANY, scope)
        elif isinstance(target, ast.Subscript):
            bt = self.visit(target.value, scope)
            if isinstance(target.slice, ast.Slice):
                raise unsupported("py_slice_assign", "assignment to a slice", target)
            kt = self.visit(target.slice, scope)
            if bt.kind == "record":
                i = record_index(bt, target.slice)
                values = list(bt.args)
                values[i] = join(values[i], t)
                self.refine(target.value, record_of(bt.bases, tuple(values)), scope)
            if bt.kind == "dict":
                self.refine(target.value, dict_of(join(bt.args[0], kt), join(bt.args[1], t)), scope)
            elif bt.kind == "list":
                self.refine(target.value, list_of(join(bt.args[0], t)), scope)
        elif isinstance(target, ast.Attribute):
            cls = self.self_class(target.value, scope)
            if cls is None:
                bt = self.object_type(target.value, scope)
                if bt.kind != "class":
                    if self.emitting or bt.kind not in ("unknown",):
                        raise unsupported("py_attribute_assign", "attribute assignment", target)
                    return
                cls = bt.name
            self.set_field(cls, target.attr, t, target)

    def object_type(self, e: ast.expr, scope: Scope) -> T:
        """The type of ``e`` where it is used as an object (``e.attr``): an optional instance
        counts as the instance, since using None there fails in Python and in JS alike."""
        t = self.visit(e, scope)
        if t.kind == "opt" and t.args[0].kind == "class":
            return t.args[0]
        return t

    def self_class(self, e: ast.expr, scope: Scope) -> str | None:
        """The class name when ``e`` is the ``self`` parameter of a method."""
        s: Scope | None = scope
        while s is not None and s.kind != "function":
            s = s.parent
        if s is not None and isinstance(e, ast.Name) and getattr(s, "self_name", None) == e.id:
            return str(s.self_class)  # type: ignore[attr-defined]
        return None

    def refine(self, e: ast.expr, t: T, scope: Scope) -> None:
        """Widen the type of the container expression ``e`` (a name or ``self.field``)."""
        if isinstance(e, ast.Name):
            owner = scope.lookup(e.id)
            if owner is not None:
                self.set_var(owner, e.id, t)
        elif isinstance(e, ast.Attribute):
            cls = self.self_class(e.value, scope)
            if cls is None:
                bt = self.object_type(e.value, scope)
                cls = bt.name if bt.kind == "class" else None
            if cls is not None and self.field_owner(cls, e.attr) is not None:
                self.set_field(cls, e.attr, t)
        elif isinstance(e, ast.Subscript) and not isinstance(e.slice, ast.Slice):
            bt = self.visit(e.value, scope)
            if bt.kind == "dict":
                self.refine(e.value, dict_of(bt.args[0], join(bt.args[1], t)), scope)
            elif bt.kind == "list":
                self.refine(e.value, list_of(join(bt.args[0], t)), scope)

    # ----- expressions ------------------------------------------------------------------

    def sub_scope(self, node: ast.AST, parent: Scope, kind: str) -> Scope:
        """The (cached) scope of a comprehension or lambda."""
        key = id(node)
        if key not in self.sub_scopes:
            self.sub_scopes[key] = Scope(kind, node, parent)
        return self.sub_scopes[key]

    def comp_scope(self, node: ast.expr, scope: Scope) -> Scope:
        """Bind the targets of a comprehension's generators in its own scope."""
        cs = self.sub_scope(node, scope, "comp")
        gens: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        for gen in gens:
            if gen.is_async:
                raise unsupported("py_async", "async comprehension", node)
            it = self.visit(gen.iter, cs)
            for name in target_names(gen.target):
                cs.vars.setdefault(name, UNKNOWN)
            if not target_names(gen.target) or not isinstance(gen.target, ast.Name | ast.Tuple):
                raise unsupported("py_comprehension_target", "comprehension target", node)
            self.assign_target(gen.target, self.iter_elem(it, gen.iter), cs)
            for cond in gen.ifs:
                self.visit(cond, cs)
        return cs

    def lambda_type(self, lam: ast.expr, params: list[T], scope: Scope) -> T:
        """The return type of a lambda (or of ``str``/``int``/a user function) applied to
        arguments of types ``params``."""
        if isinstance(lam, ast.Lambda):
            ls = self.sub_scope(lam, scope, "lambda")
            if len(lam.args.args) != len(params):
                raise unsupported("py_lambda", "lambda arity", lam)
            for a, t in zip(lam.args.args, params, strict=True):
                ls.vars.setdefault(a.arg, UNKNOWN)
                ls.params = [x.arg for x in lam.args.args]
                self.set_var(ls, a.arg, t)
            return self.visit(lam.body, ls)
        if isinstance(lam, ast.Name) and lam.id in ("str", "int", "float", "len", "abs"):
            if lam.id == "abs":
                return params[0] if params else UNKNOWN
            return {"str": STR, "int": INT, "float": FLOAT, "len": INT}[lam.id]
        if isinstance(lam, ast.Name) and self.resolve_func(lam.id, scope) is not None:
            f = self.resolve_func(lam.id, scope)
            assert f is not None
            for name, t in zip(f.scope.params, params, strict=False):
                self.set_var(f.scope, name, t)
            return f.returns
        raise unsupported("py_function_value", "this function argument", lam)

    def visit(self, e: ast.expr, scope: Scope) -> T:
        """The static type of ``e`` (widening types it constrains along the way)."""
        if isinstance(e, ast.Constant):
            v = e.value
            if isinstance(v, bool):
                return BOOL
            if isinstance(v, int):
                return INT
            if isinstance(v, float):
                return FLOAT
            if isinstance(v, str):
                return STR
            if v is None:
                return NONE
            raise unsupported("py_literal", f"literal {v!r}", e)
        if isinstance(e, ast.Name):
            return self.name_type(e, scope)
        if isinstance(e, ast.BinOp):
            return self.binop_type(e.op, self.visit(e.left, scope), self.visit(e.right, scope), e)
        if isinstance(e, ast.UnaryOp):
            t = self.visit(e.operand, scope)
            if isinstance(e.op, ast.Not):
                return BOOL
            if t.kind == "bool" or (self.emitting and not is_num(t)):
                raise unsupported("py_unary", f"unary minus/plus on {t}", e)
            return t
        if isinstance(e, ast.BoolOp):
            types = [self.visit(v, scope) for v in e.values]
            if all(t.kind == "bool" for t in types):
                return BOOL
            out = UNKNOWN
            for t in types:
                out = join(out, t)
            return out
        if isinstance(e, ast.Compare):
            self.visit(e.left, scope)
            for c in e.comparators:
                self.visit(c, scope)
            return BOOL
        if isinstance(e, ast.IfExp):
            self.visit(e.test, scope)
            return join(self.visit(e.body, scope), self.visit(e.orelse, scope))
        if isinstance(e, ast.Call):
            return self.call_type(e, scope)
        if isinstance(e, ast.Attribute):
            return self.attr_type(e, scope)
        if isinstance(e, ast.Subscript):
            return self.subscript_type(e, scope)
        if isinstance(e, ast.List):
            out = UNKNOWN
            for x in e.elts:
                out = join(out, self.visit(x, scope))
            return list_of(out)
        if isinstance(e, ast.Tuple):
            return tuple_of(*(self.visit(x, scope) for x in e.elts))
        if isinstance(e, ast.Dict):
            kt, vt = UNKNOWN, UNKNOWN
            values: list[T] = []
            for k, v in zip(e.keys, e.values, strict=True):
                if k is None:
                    raise unsupported("py_dict_unpack", "** in a dict literal", e)
                kt = join(kt, self.visit(k, scope))
                values.append(self.visit(v, scope))
                vt = join(vt, values[-1])
            keys = [k.value for k in e.keys if isinstance(k, ast.Constant)]
            all_str = all(isinstance(k, str) for k in keys)
            if vt.kind == "any" and all_str and len(keys) == len(e.keys) == len(set(keys)):
                return record_of(tuple(keys), tuple(values))  # type: ignore[arg-type]
            return dict_of(kt, vt)
        if isinstance(e, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            cs = self.comp_scope(e, scope)
            t = self.visit(e.elt, cs)
            if isinstance(e, ast.SetComp):
                return set_of(t)
            return list_of(t) if isinstance(e, ast.ListComp) else iter_of(t)
        if isinstance(e, ast.Set):
            out = UNKNOWN
            for x in e.elts:
                out = join(out, self.visit(x, scope))
            return set_of(out)
        if isinstance(e, ast.DictComp):
            cs = self.comp_scope(e, scope)
            return dict_of(self.visit(e.key, cs), self.visit(e.value, cs))
        if isinstance(e, ast.JoinedStr):
            for v in e.values:
                if isinstance(v, ast.FormattedValue):
                    self.visit(v.value, scope)
            return STR
        if isinstance(e, ast.Lambda):
            raise unsupported("py_lambda", "lambda outside key=, map() or filter()", e)
        raise unsupported("py_expression", f"expression {type(e).__name__}", e)

    def name_type(self, e: ast.Name, scope: Scope) -> T:
        """The type a name refers to."""
        cls = self.self_class(e, scope)
        if cls is not None:
            return self.class_type(cls)
        if self.resolve_func(e.id, scope) is not None and e.id not in self.funcs:
            return func_t(e.id)
        owner = scope.lookup(e.id)
        if owner is not None:
            t = owner.vars[e.id]
            if t.kind == "func":
                raise unsupported("py_function_value", f"the function value {e.id}", e)
            if t.kind == "opt" and (id(owner), e.id) in self.narrowed:
                return t.args[0]
            return t
        if e.id in self.funcs:
            return func_t(e.id)
        if e.id in self.classes:
            return T("classref", name=e.id)
        if e.id in BUILTIN_NAMES:
            return T("builtin", name=e.id)
        if e.id == "math" and self.math:
            return T("module", name="math")
        raise unsupported("py_name", f"the name {e.id!r}", e)

    def binop_type(self, op: ast.operator, a: T, b: T, node: ast.AST) -> T:
        """The result type of ``a <op> b``."""
        if a.kind == "unknown" or b.kind == "unknown":
            return UNKNOWN
        if a.kind == "bool" or b.kind == "bool":
            raise unsupported("py_bool_arithmetic", "arithmetic on booleans", node)
        if is_num(a) and is_num(b):
            if isinstance(op, ast.Div):
                return FLOAT
            if a.kind == "float" or b.kind == "float":
                return FLOAT
            if a.kind == "int" and b.kind == "int":
                if isinstance(op, ast.Pow) and isinstance(node, ast.BinOp):
                    c = const_int(node.right)
                    if c is not None and c < 0:
                        return FLOAT
                return INT
            return NUM
        if isinstance(op, ast.Add) and a.kind == b.kind and a.kind in ("str", "list"):
            return join(a, b)
        if isinstance(op, ast.Add) and a.kind == b.kind == "tuple":
            return tuple_of(*a.args, *b.args)
        if isinstance(op, ast.Mult):
            if a.kind in ("str", "list") and b.kind == "int":
                return a
            if b.kind in ("str", "list") and a.kind == "int":
                return b
        if isinstance(op, ast.Mod) and a.kind == "str":
            if isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant):
                return STR  # checked field by field when emitted
            raise unsupported("py_percent_format", "%-formatting of a computed string", node)
        if not self.emitting and "any" in (a.kind, b.kind):
            return ANY
        raise unsupported("py_operands", f"{type(op).__name__} on {a} and {b}", node)

    def attr_type(self, e: ast.Attribute, scope: Scope) -> T:
        """The type of ``obj.attr`` read as a value (not a method call)."""
        bt = self.object_type(e.value, scope)
        if bt.kind == "module":
            if e.attr in MATH_CONSTS:
                return MATH_CONSTS[e.attr]
            raise unsupported("py_math", f"math.{e.attr}", e)
        if bt.kind == "classref":
            ct = self.find_const(bt.name, e.attr)
            if ct is None:
                raise unsupported("py_attribute", f"attribute {e.attr} of class {bt.name}", e)
            return ct
        if bt.kind == "class":
            owner = self.field_owner(bt.name, e.attr)
            if owner is not None:
                return self.classes[owner].fields[e.attr]
            ct = self.find_const(bt.name, e.attr)
            if ct is not None:
                return ct
            if self.find_method(bt.name, e.attr) is not None:
                raise unsupported("py_bound_method", "a method used as a value", e)
            if self.emitting:
                raise unsupported("py_attribute", f"unknown attribute {e.attr}", e)
            return UNKNOWN
        if bt.kind == "unknown" and not self.emitting:
            return UNKNOWN
        raise unsupported("py_attribute", f"attribute {e.attr} of {bt}", e)

    def subscript_type(self, e: ast.Subscript, scope: Scope) -> T:
        """The type of ``obj[index]`` or ``obj[a:b:c]``."""
        bt = self.visit(e.value, scope)
        if isinstance(e.slice, ast.Slice):
            for part in (e.slice.lower, e.slice.upper, e.slice.step):
                if part is not None and self.visit(part, scope).kind not in ("int", "unknown"):
                    raise unsupported("py_slice", "slice bounds that are not ints", e)
            if bt.kind in ("list", "str", "unknown"):
                return bt
            raise unsupported("py_slice", f"slicing a {bt}", e)
        kt = self.visit(e.slice, scope)
        if bt.kind == "dict":
            return bt.args[1]
        if bt.kind == "record":
            return bt.args[record_index(bt, e.slice)]
        if bt.kind in ("list", "str"):
            if kt.kind not in ("int", "unknown"):
                raise unsupported("py_index", f"index of type {kt}", e)
            return elem_type(bt)
        if bt.kind == "tuple":
            idx = const_int(e.slice)
            if idx is None or not -len(bt.args) <= idx < len(bt.args):
                raise unsupported("py_tuple_index", "non-constant tuple index", e)
            return bt.args[idx]
        if bt.kind == "unknown" and not self.emitting:
            return UNKNOWN
        raise unsupported("py_subscript", f"subscript of {bt}", e)

    def call_type(self, e: ast.Call, scope: Scope) -> T:
        """The type of a call (widening parameter types of user functions)."""
        f = e.func
        args = [self.visit(a, scope) for a in e.args if not isinstance(a, ast.Lambda)]
        kw = {k.arg: k.value for k in e.keywords}
        if isinstance(f, ast.Name):
            ft = self.name_type(f, scope)
            if ft.kind == "func":
                fn = self.resolve_func(f.id, scope)
                if fn is None:
                    raise unsupported("py_call", f"calling {f.id}", e)
                return self.user_call(fn, e, scope)
            if ft.kind == "classref":
                init = self.find_method(f.id, "__init__")
                if init is not None:
                    self.user_call(init, e, scope)
                elif e.args or e.keywords:
                    raise unsupported("py_call", f"arguments to {f.id}() without __init__", e)
                return self.class_type(f.id)
            if ft.kind == "builtin":
                return self.builtin_type(f.id, e, args, kw, scope)
            raise unsupported("py_call", f"calling a value of type {ft}", e)
        if isinstance(f, ast.Attribute):
            base_method = self.super_method(f, scope)
            if base_method is not None:
                return self.user_call(base_method, e, scope)
            bt = self.object_type(f.value, scope)
            return self.method_type(bt, f.attr, e, args, kw, scope)
        raise unsupported("py_call", "this call", e)

    def super_method(self, f: ast.Attribute, scope: Scope) -> FuncInfo | None:
        """For ``super().name``: the base-class method it calls (None if not super())."""
        v = f.value
        if not (
            isinstance(v, ast.Call)
            and isinstance(v.func, ast.Name)
            and v.func.id == "super"
            and scope.lookup("super") is None
        ):
            return None
        s: Scope | None = scope
        while s is not None and s.kind != "function":
            s = s.parent
        cls = getattr(s, "self_class", None)
        if v.args or v.keywords or cls is None or self.classes[cls].base is None:
            raise unsupported("py_super", "super() outside a method of a subclass", f)
        m = self.find_method(str(self.classes[cls].base), f.attr)
        if m is None:
            raise unsupported("py_super", f"super().{f.attr} without a base method", f)
        return m

    def user_call(self, fn: FuncInfo, e: ast.Call, scope: Scope) -> T:
        """Widen parameter types of ``fn`` from a call and return its return type."""
        params = fn.scope.params
        if len(e.args) > len(params):
            raise unsupported("py_call_arity", f"too many arguments to {fn.name}()", e)
        pairs = list(zip(params, e.args, strict=False))
        for k in e.keywords:
            if k.arg not in params:
                raise unsupported("py_call_keyword", f"keyword {k.arg} of {fn.name}()", e)
            pairs.append((str(k.arg), k.value))
        for name, a in pairs:
            at = self.visit(a, scope)
            self.set_var(fn.scope, name, at)
            if at.kind in ("list", "dict", "set"):
                self.refine(a, fn.scope.vars[name], scope)  # the callee may fill it
        return fn.returns

    def builtin_type(
        self, name: str, e: ast.Call, args: list[T], kw: dict[str | None, ast.expr], scope: Scope
    ) -> T:
        """The result type of a call to a supported builtin."""
        allowed_kw = {"print": {"sep", "end"}, "sorted": {"key", "reverse"}, "enumerate": {"start"}}
        allowed_kw.update({"min": {"key"}, "max": {"key"}, "sum": {"start"}})
        if set(kw) - allowed_kw.get(name, set()):
            raise unsupported("py_call_keyword", f"keyword arguments of {name}()", e)
        if any(isinstance(a, ast.Lambda) for a in e.args) and name not in ("map", "filter"):
            raise unsupported("py_lambda", f"a lambda passed to {name}()", e)
        first = args[0] if args else UNKNOWN
        if name == "print":
            for v in kw.values():
                self.visit(v, scope)
            return NONE
        if name in ("len", "ord"):
            return INT
        if name in ("str", "repr", "chr"):
            return STR
        if name == "int":
            return INT
        if name == "float":
            return FLOAT
        if name in ("bool", "any", "all"):
            return BOOL
        if name == "abs":
            return first
        if name == "round":
            if len(args) == 1:
                return INT if first.kind in ("int", "float", "unknown") else NUM
            return first
        if name == "sum":
            et = self.iter_elem(first, e)
            if "start" in kw:
                et = join(et, self.visit(kw["start"], scope))
            if len(args) > 1:
                et = join(et, args[1])
            return et
        if name in ("min", "max"):
            if len(args) == 1:
                et = self.iter_elem(first, e)
                if "key" in kw:
                    self.lambda_type(kw["key"], [et], scope)
                return et
            out = UNKNOWN
            for t in args:
                out = join(out, t)
            return out
        if name == "sorted":
            et = self.iter_elem(first, e)
            if "key" in kw:
                self.lambda_type(kw["key"], [et], scope)
            if "reverse" in kw:
                self.visit(kw["reverse"], scope)
            return list_of(et)
        if name == "reversed":
            return iter_of(self.iter_elem(first, e))
        if name == "range":
            return iter_of(INT)
        if name == "enumerate":
            return iter_of(tuple_of(INT, self.iter_elem(first, e)))
        if name == "zip":
            if len(args) not in (2, 3):
                raise unsupported("py_zip", "zip() of other than 2 or 3 iterables", e)
            return iter_of(tuple_of(*(self.iter_elem(a, e) for a in args)))
        if name == "list":
            return list_of(self.iter_elem(first, e)) if args else list_of(UNKNOWN)
        if name == "divmod" and len(args) == 2:
            return tuple_of(*([self.binop_type(ast.FloorDiv(), args[0], args[1], e)] * 2))
        if name == "pow" and len(args) == 2:
            as_binop = ast.BinOp(left=e.args[0], op=ast.Pow(), right=e.args[1])
            return self.binop_type(ast.Pow(), args[0], args[1], as_binop)
        if name == "set":
            return set_of(self.iter_elem(first, e) if args else UNKNOWN)
        if name == "dict":
            if len(args) == 1:
                et = self.iter_elem(first, e)
                if et.kind == "tuple" and len(et.args) == 2:
                    return dict_of(et.args[0], et.args[1])
                if et.kind != "unknown" or self.emitting:
                    raise unsupported("py_dict_call", "dict() of something other than pairs", e)
            if args:
                return dict_of(UNKNOWN, UNKNOWN)
            return dict_of(UNKNOWN, UNKNOWN)
        if name in ("map", "filter"):
            if len(e.args) != 2:
                raise unsupported("py_map", f"{name}() with other than 2 arguments", e)
            it = self.visit(e.args[1], scope)
            et = self.iter_elem(it, e)
            rt = self.lambda_type(e.args[0], [et], scope)
            return iter_of(rt if name == "map" else et)
        raise unsupported("py_builtin", f"builtin {name}()", e)

    def method_type(
        self, bt: T, attr: str, e: ast.Call, args: list[T], kw: dict[str | None, ast.expr], s: Scope
    ) -> T:
        """The result type of ``obj.attr(...)`` (refining the container's type)."""
        base = e.func.value  # type: ignore[attr-defined]
        if bt.kind == "unknown" and not self.emitting:
            return UNKNOWN
        if attr == "__len__" and not e.args and bt.kind in ("list", "str", "dict", "tuple"):
            return INT
        if any(isinstance(a, ast.Lambda) for a in e.args):
            raise unsupported("py_lambda", f"a lambda passed to .{attr}()", e)
        if bt.kind == "module":
            if attr in MATH_FUNCS and len(args) == 1 and not kw:
                return MATH_FUNCS[attr]
            raise unsupported("py_math", f"math.{attr}()", e)
        if bt.kind == "str" and attr == "format":
            for v in kw.values():
                if v is not None:
                    self.visit(v, s)
            return STR
        if kw and not (bt.kind == "list" and attr == "sort") and bt.kind != "class":
            raise unsupported("py_call_keyword", f"keyword arguments of .{attr}()", e)
        if bt.kind == "str":
            if attr in STR_METHODS:
                return STR_METHODS[attr]
            raise unsupported("py_str_method", f"str.{attr}()", e)
        if bt.kind == "list":
            et = bt.args[0]
            if attr == "append" and len(args) == 1:
                self.refine(base, list_of(join(et, args[0])), s)
                return NONE
            if attr == "insert" and len(args) == 2:
                self.refine(base, list_of(join(et, args[1])), s)
                return NONE
            if attr == "extend" and len(args) == 1:
                self.refine(base, list_of(join(et, self.iter_elem(args[0], e))), s)
                return NONE
            if attr == "pop" and len(args) <= 1:
                return et
            if attr in ("index", "count") and len(args) == 1:
                return INT
            if attr in ("remove",) and len(args) == 1:
                return NONE
            if attr in ("reverse", "clear") and not args:
                return NONE
            if attr == "copy" and not args:
                return bt
            if attr == "sort" and not args and set(kw) <= {"key", "reverse"}:
                if "key" in kw:
                    self.lambda_type(kw["key"], [et], s)
                return NONE
            raise unsupported("py_list_method", f"list.{attr}()", e)
        if bt.kind == "set":
            et = bt.args[0]
            if attr == "add" and len(args) == 1:
                self.refine(base, set_of(join(et, args[0])), s)
                return NONE
            if attr == "update" and len(args) == 1:
                self.refine(base, set_of(join(et, self.iter_elem(args[0], e))), s)
                return NONE
            if attr in ("remove", "discard") and len(args) == 1:
                return NONE
            if attr == "clear" and not args:
                return NONE
            if attr == "copy" and not args:
                return bt
            if attr in ("union", "intersection", "difference") and len(args) == 1:
                return set_of(join(et, self.iter_elem(args[0], e)))
            if attr in ("issubset", "issuperset", "isdisjoint") and len(args) == 1:
                return BOOL
            raise unsupported("py_set_method", f"set.{attr}()", e)
        if bt.kind == "record":
            if attr == "get" and len(e.args) in (1, 2):
                return bt.args[record_index(bt, e.args[0])]
            if attr == "keys" and not args:
                return iter_of(STR)
            raise unsupported("py_record_method", f".{attr}() on a dict of mixed values", e)
        if bt.kind == "dict":
            kt, vt = bt.args
            if attr == "get" and len(args) == 2:
                return join(vt, args[1])
            if attr == "get" and len(args) == 1:
                return optional(vt)
            if attr == "keys" and not args:
                return iter_of(kt)
            if attr == "values" and not args:
                return iter_of(vt)
            if attr == "items" and not args:
                return iter_of(tuple_of(kt, vt))
            if attr == "pop" and len(args) == 1:
                return vt
            if attr == "copy" and not args:
                return bt
            if attr == "clear" and not args:
                return NONE
            raise unsupported("py_dict_method", f"dict.{attr}()", e)
        if bt.kind == "class":
            m = self.find_method(bt.name, attr)
            if m is not None and attr != "__init__":
                out = self.user_call(m, e, s)
                for o in self.overrides(bt.name, attr):
                    out = join(out, self.user_call(o, e, s))
                return out
            raise unsupported("py_method", f"method {attr} of {bt.name}", e)
        raise unsupported("py_method", f".{attr}() on {bt}", e)


def const_int(e: ast.expr) -> int | None:
    """The value of an int literal (with an optional minus sign), else None."""
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        inner = const_int(e.operand)
        return None if inner is None else -inner
    return None


def is_immutable_literal(e: ast.expr) -> bool:
    """A literal of an immutable value (number, string, bool, None, tuple of those)."""
    if isinstance(e, ast.Constant):
        return not isinstance(e.value, bytes | complex)
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        return isinstance(e.operand, ast.Constant) and type(e.operand.value) in (int, float)
    if isinstance(e, ast.Tuple):
        return all(is_immutable_literal(x) for x in e.elts)
    return False


def record_index(t: T, key: ast.expr) -> int:
    """The position of a constant key of a record type (Unsupported for other keys)."""
    if isinstance(key, ast.Constant) and key.value in t.bases:
        return t.bases.index(key.value)
    raise unsupported("py_record_key", "a key of a dict of mixed values that is not fixed", key)


def class_chains(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """Each module-level class's ancestors (nearest first), from simple ``class C(B):``."""
    chains: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = [b for b in node.bases if not (isinstance(b, ast.Name) and b.id == "object")]
            if len(bases) == 1 and isinstance(bases[0], ast.Name) and bases[0].id in chains:
                chains[node.name] = (bases[0].id, *chains[bases[0].id])
            else:
                chains[node.name] = ()
    return chains


def none_test(test: ast.expr, branch: bool) -> str | None:
    """The name that is known not to be None in the ``branch`` of ``if test:``."""
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and len(test.ops) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        op = test.ops[0]
        if isinstance(op, ast.IsNot | ast.NotEq) and branch:
            return test.left.id
        if isinstance(op, ast.Is | ast.Eq) and not branch:
            return test.left.id
    return None


def is_main_guard(test: ast.expr) -> bool:
    """``__name__ == "__main__"``."""
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )
