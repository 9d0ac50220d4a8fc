"""Rewrite ``@dataclass`` classes into plain classes before translation.

A dataclass with annotated fields becomes a class with the ``__init__`` and ``__repr__``
that the decorator would generate (``Point(x=1, y=2)``), so the rest of the translator needs
no special case. Anything whose generated behaviour is not reproduced (``field(...)``,
``order=True``, ``__post_init__``, class variables, an explicit ``__init__``) raises
Unsupported. Equality of dataclass instances (field-wise in Python) is rejected by the
emitter, which gets the names of the rewritten classes.
"""

from __future__ import annotations

import ast
import copy

from zerolayer.plugins.py_ts.scopes import unsupported, walk

ALLOWED_OPTIONS = {"frozen", "repr", "eq"}


def _is_dataclass_decorator(d: ast.expr) -> bool:
    target = d.func if isinstance(d, ast.Call) else d
    if isinstance(target, ast.Name):
        return target.id == "dataclass"
    return (
        isinstance(target, ast.Attribute)
        and target.attr == "dataclass"
        and isinstance(target.value, ast.Name)
        and target.value.id == "dataclasses"
    )


def desugar_dataclasses(tree: ast.Module) -> tuple[ast.Module, set[str]]:
    """A copy of ``tree`` with dataclasses rewritten, and the names of those classes."""
    if not any(
        isinstance(n, ast.ClassDef) and any(_is_dataclass_decorator(d) for d in n.decorator_list)
        for n in tree.body
    ):
        return tree, set()
    tree = copy.deepcopy(tree)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.decorator_list:
            if len(node.decorator_list) != 1 or not _is_dataclass_decorator(node.decorator_list[0]):
                continue  # the typer rejects other decorators
            _rewrite(node)
            names.add(node.name)
    return tree, names


def _rewrite(node: ast.ClassDef) -> None:
    deco = node.decorator_list[0]
    want_repr = True
    if isinstance(deco, ast.Call):
        if deco.args:
            raise unsupported("py_dataclass", "positional dataclass() arguments", deco)
        for k in deco.keywords:
            if k.arg not in ALLOWED_OPTIONS or not isinstance(k.value, ast.Constant):
                raise unsupported("py_dataclass", f"dataclass({k.arg}=...)", deco)
            if k.arg == "repr":
                want_repr = bool(k.value.value)
            if k.arg == "eq" and not k.value.value:
                raise unsupported("py_dataclass", "dataclass(eq=False)", deco)
    fields: list[ast.AnnAssign] = []
    body: list[ast.stmt] = []
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign):
            if not isinstance(stmt.target, ast.Name):
                raise unsupported("py_dataclass", "a dataclass field that is not a name", stmt)
            ann = ast.unparse(stmt.annotation)
            if "ClassVar" in ann or "InitVar" in ann:
                raise unsupported("py_dataclass", "ClassVar/InitVar fields", stmt)
            if stmt.value is not None and not _plain_default(stmt.value):
                raise unsupported("py_dataclass", "a dataclass default other than a literal", stmt)
            fields.append(stmt)
        elif isinstance(stmt, ast.FunctionDef) and stmt.name in ("__init__", "__post_init__"):
            raise unsupported("py_dataclass", f"{stmt.name} in a dataclass", stmt)
        else:
            body.append(stmt)
    seen_default = False
    for f in fields:
        if f.value is None and seen_default:
            raise unsupported("py_dataclass", "a field without default after one with", f)
        seen_default = seen_default or f.value is not None
    methods = {s.name for s in body if isinstance(s, ast.FunctionDef)}
    generated: list[ast.stmt] = [_init(node, fields)]
    if want_repr and "__repr__" not in methods:
        generated.append(_repr(node, fields))
    doc = (
        body[:1]
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
        else []
    )
    node.body = [*doc, *generated, *body[len(doc) :]]
    node.decorator_list = []


def _plain_default(e: ast.expr) -> bool:
    if isinstance(e, ast.Constant):
        return not isinstance(e.value, bytes | complex)
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        return _plain_default(e.operand)
    if isinstance(e, ast.Tuple):
        return all(_plain_default(x) for x in e.elts)
    return False


def _init(node: ast.ClassDef, fields: list[ast.AnnAssign]) -> ast.FunctionDef:
    args = [ast.arg(arg="self")]
    defaults: list[ast.expr] = []
    body: list[ast.stmt] = []
    for f in fields:
        name = f.target.id  # type: ignore[union-attr]
        args.append(ast.arg(arg=name, annotation=f.annotation))
        if f.value is not None:
            defaults.append(f.value)
        target = ast.Attribute(
            value=ast.Name(id="self", ctx=ast.Load()), attr=name, ctx=ast.Store()
        )
        body.append(ast.Assign(targets=[target], value=ast.Name(id=name, ctx=ast.Load())))
    fn = ast.FunctionDef(
        name="__init__",
        args=ast.arguments(
            posonlyargs=[], args=args, kwonlyargs=[], kw_defaults=[], defaults=defaults
        ),
        body=body or [ast.Pass()],
        decorator_list=[],
        returns=None,
        type_params=[],
    )
    return _located(fn, node)


def _repr(node: ast.ClassDef, fields: list[ast.AnnAssign]) -> ast.FunctionDef:
    values: list[ast.expr] = [ast.Constant(value=f"{node.name}(")]
    for i, f in enumerate(fields):
        name = f.target.id  # type: ignore[union-attr]
        values.append(ast.Constant(value=(", " if i else "") + f"{name}="))
        attr = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=name, ctx=ast.Load())
        values.append(ast.FormattedValue(value=attr, conversion=114, format_spec=None))
    values.append(ast.Constant(value=")"))
    fn = ast.FunctionDef(
        name="__repr__",
        args=ast.arguments(
            posonlyargs=[], args=[ast.arg(arg="self")], kwonlyargs=[], kw_defaults=[], defaults=[]
        ),
        body=[ast.Return(value=ast.JoinedStr(values=values))],
        decorator_list=[],
        returns=None,
        type_params=[],
    )
    return _located(fn, node)


def _located(fn: ast.FunctionDef, node: ast.ClassDef) -> ast.FunctionDef:
    for n in walk(fn):
        if "lineno" in n._attributes:
            n.lineno = node.lineno  # type: ignore[attr-defined]
            n.col_offset = node.col_offset  # type: ignore[attr-defined]
            n.end_lineno = node.lineno  # type: ignore[attr-defined]
            n.end_col_offset = node.col_offset  # type: ignore[attr-defined]
    return fn
