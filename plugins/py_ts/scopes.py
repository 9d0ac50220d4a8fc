"""Scopes of a Python module: module, functions, methods, lambdas and comprehensions.

The translator supports top-level functions, classes with methods, lambdas and
comprehensions. This module collects them, checks the constructs it cannot translate and
records where each local name is bound, so the emitter can decide where to declare it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.py_ts.pytypes import UNKNOWN, T

SUPPORTED_DUNDERS = {"__init__", "__str__", "__repr__", "__len__"}
HARMLESS_IMPORTS = {"math", "__future__", "typing", "dataclasses"}


def unsupported(reason: str, what: str, node: ast.AST | None = None) -> Unsupported:
    """An Unsupported error naming the construct and, when known, its line."""
    line = getattr(node, "lineno", None)
    where = f" (line {line})" if line is not None else ""
    return Unsupported(reason, f"Python -> TypeScript: {what} is not supported{where}")


@dataclass(eq=False)
class Scope:
    """A Python scope: its variables and their static types."""

    kind: str  # module, function, lambda, comp
    node: ast.AST
    parent: Scope | None
    vars: dict[str, T] = field(default_factory=dict)
    params: list[str] = field(default_factory=list)
    funcs: dict[str, FuncInfo] = field(default_factory=dict)  # nested function definitions
    # where the names of its body are bound and read (module and function scopes), collected
    # once by the typer for the emitter's declaration plan
    bindings: Bindings | None = None

    def lookup(self, name: str) -> Scope | None:
        """The innermost scope (this or an enclosing one) that binds ``name``."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.vars:
                return scope
            scope = scope.parent
        return None


@dataclass(eq=False)
class FuncInfo:
    """A user function or method."""

    name: str
    node: ast.FunctionDef
    scope: Scope
    returns: T = UNKNOWN
    annotated_return: bool = False
    cls: str | None = None


@dataclass(eq=False)
class ClassInfo:
    """A user class: fields (from ``self.x = ...``) and methods."""

    name: str
    node: ast.ClassDef
    fields: dict[str, T] = field(default_factory=dict)
    field_order: list[str] = field(default_factory=list)
    methods: dict[str, FuncInfo] = field(default_factory=dict)
    base: str | None = None
    consts: dict[str, tuple[ast.expr, T]] = field(default_factory=dict)  # class attributes


def docstring_of(node: ast.AST) -> str | None:
    """The docstring of a function, class or module node, cleaned like ``inspect``."""
    if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.Module):
        return ast.get_docstring(node, clean=True)
    return None


def body_without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` without a leading docstring expression."""
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        return body[1:]
    return body


def target_names(target: ast.expr) -> list[str]:
    """Names bound by an assignment or loop target (Name, Tuple/List of Names)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        out: list[str] = []
        for elt in target.elts:
            out.extend(target_names(elt))
        return out
    return []


def check_function_signature(node: ast.FunctionDef) -> None:
    """Reject signatures outside the subset (decorators, *args, keyword-only, ...)."""
    if node.decorator_list:
        raise unsupported("py_decorator", f"decorator on {node.name}()", node)
    args = node.args
    if args.vararg or args.kwarg:
        raise unsupported("py_varargs", f"*args/**kwargs in {node.name}()", node)
    if args.kwonlyargs or args.posonlyargs:
        raise unsupported("py_keyword_only", f"keyword-only parameters in {node.name}()", node)
    if any(isinstance(n, ast.Yield | ast.YieldFrom) for n in walk_own(node)):
        raise unsupported("py_generator", f"generator function {node.name}() (yield)", node)


def children(node: ast.AST) -> list[ast.AST]:
    """The direct child nodes of ``node``, as :func:`ast.iter_child_nodes` gives them (a
    list, without the generator and :func:`ast.iter_fields` per node)."""
    out: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            out.extend(item for item in value if isinstance(item, ast.AST))
    return out


def walk(root: ast.AST) -> list[ast.AST]:
    """Every node under ``root`` (itself included) in :func:`ast.walk`'s order, as a list.

    About twice as fast as :func:`ast.walk`, which makes a generator per node and reads
    every field through :func:`ast.iter_fields`; the translator walks whole modules several
    times, so this is much of its cost on a long program."""
    out = [root]
    append = out.append
    for node in out:  # the list grows while it is read: breadth first, as ast.walk
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                append(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        append(item)
    return out


def walk_own(node: ast.AST) -> list[ast.AST]:
    """All nodes inside ``node`` that belong to its own scope body (not nested defs)."""
    out: list[ast.AST] = []
    stack = list(children(node))
    while stack:
        cur = stack.pop()
        out.append(cur)
        if isinstance(cur, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        stack.extend(children(cur))
    return out


@dataclass(eq=False)
class Bindings:
    """Where each name of one scope is bound and referenced."""

    sites: dict[str, list[ast.stmt]] = field(default_factory=dict)
    direct: dict[str, bool] = field(default_factory=dict)  # first site is a direct body stmt
    loads: dict[str, list[ast.Name]] = field(default_factory=dict)


def global_names(body: list[ast.stmt]) -> set[str]:
    """Names a function body declares ``global``."""
    out: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        n = stack.pop()
        kind = type(n)
        if kind is ast.Global:
            out.update(n.names)  # type: ignore[attr-defined]
        elif kind not in _OWN_SCOPES:
            # a statement is only ever inside a statement (an except clause, a match case),
            # never inside an expression: the expressions are not walked
            for name in statement_fields(kind):
                stack.extend(getattr(n, name))
    return out


_OWN_SCOPES = (ast.FunctionDef, ast.ClassDef, ast.Lambda)
# the fields that hold statements, except clauses or match cases in the grammar
_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_statement_fields_of: dict[type, tuple[str, ...]] = {}


def statement_fields(kind: type) -> tuple[str, ...]:
    """The fields of a statement, except clause or match case type that hold statements,
    except clauses or match cases (none for a simple statement)."""
    fields = _statement_fields_of.get(kind)
    if fields is None:
        names = getattr(kind, "_fields", ())
        fields = _statement_fields_of[kind] = tuple(f for f in _STATEMENT_FIELDS if f in names)
    return fields


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_NOTHING: frozenset[str] = frozenset()
# expression nodes without names in them: constants and the context of a name, list or tuple
_LEAVES = frozenset({ast.Constant, ast.Load, ast.Store, ast.Del})


def collect_bindings(body: list[ast.stmt], skip: set[str] | None = None) -> Bindings:
    """Binding statements and Name loads of a scope body (comprehension targets excluded;
    names in ``skip``, declared ``global``, belong to the module)."""
    b = Bindings()
    direct_ids = {id(s) for s in body}

    def bind(name: str, stmt: ast.stmt) -> None:
        if skip and name in skip:
            return
        if name not in b.sites:
            b.direct[name] = id(stmt) in direct_ids
        b.sites.setdefault(name, []).append(stmt)

    def visit_expr(e: ast.AST, shadowed: frozenset[str]) -> None:
        kind = type(e)
        if kind is ast.Name:
            if isinstance(e.ctx, ast.Load) and e.id not in shadowed:  # type: ignore[attr-defined]
                b.loads.setdefault(e.id, []).append(e)  # type: ignore[attr-defined, arg-type]
            return
        if kind in _LEAVES:
            return
        if kind in _COMPREHENSIONS:
            inner = set(shadowed)
            for gen in e.generators:
                visit_expr(gen.iter, frozenset(inner))
                inner.update(target_names(gen.target))
                for cond in gen.ifs:
                    visit_expr(cond, frozenset(inner))
            for child in [e.key, e.value] if isinstance(e, ast.DictComp) else [e.elt]:
                visit_expr(child, frozenset(inner))
            return
        if isinstance(e, ast.Lambda):
            params = {a.arg for a in e.args.args}
            visit_expr(e.body, shadowed | params)
            return
        for child in children(e):
            visit_expr(child, shadowed)

    def visit_stmt(s: ast.stmt) -> None:
        if isinstance(s, ast.FunctionDef | ast.ClassDef):
            return
        if isinstance(s, ast.Assign):
            for t in s.targets:
                for n in target_names(t):
                    bind(n, s)
        elif isinstance(s, ast.AugAssign | ast.AnnAssign | ast.For):
            for n in target_names(s.target):
                bind(n, s)
        for child in children(s):
            if isinstance(child, ast.stmt):
                visit_stmt(child)
            else:
                visit_expr(child, _NOTHING)

    for s in body:
        visit_stmt(s)
    return b
