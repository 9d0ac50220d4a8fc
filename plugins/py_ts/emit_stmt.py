"""Translation of Python statements, functions, classes and whole modules to TypeScript.

Locals are declared where Python first binds them when that is a plain statement of the
function (or module) body; otherwise they are hoisted to the top of the body as
``let x!: T;``. A ``for`` loop variable used only inside its loop becomes the loop's own
``const``/``let``.
"""

from __future__ import annotations

import ast

from zerolayer.plugins.py_ts.desugar import desugar_dataclasses
from zerolayer.plugins.py_ts.emit_expr import (
    ADD,
    ATOM,
    COND,
    LOWEST,
    ExprEmitter,
    Pieces,
    is_simple,
    ts_name,
    ts_string,
)
from zerolayer.plugins.py_ts.prelude import render_prelude
from zerolayer.plugins.py_ts.pytypes import T, is_num, ts_type
from zerolayer.plugins.py_ts.scopes import (
    Bindings,
    ClassInfo,
    FuncInfo,
    Scope,
    body_without_docstring,
    collect_bindings,
    docstring_of,
    global_names,
    target_names,
    unsupported,
    walk,
)
from zerolayer.plugins.py_ts.typer import const_int, is_main_guard

INDENT = "  "
PRELUDE_START = "// ---- Python runtime helpers (generated) ----"
PRELUDE_END = "// ---- end of helpers ----"
DOC_MARK = "// "  # a docstring line kept above its function or class


class DeclPlan:
    """Where each local of one scope body is declared."""

    def __init__(
        self,
        body: list[ast.stmt],
        params: list[str],
        mutable: set[str] | None = None,
        bindings: Bindings | None = None,
    ) -> None:
        """``bindings``: those of ``body`` (names declared ``global`` skipped), when known."""
        b = collect_bindings(body, global_names(body)) if bindings is None else bindings
        self.inline: dict[int, list[str]] = {}  # id(stmt) -> names declared there
        self.loop_local: dict[int, list[str]] = {}  # id(for stmt) -> names bound by the loop
        self.hoisted: list[str] = []
        self.single: set[str] = set()  # bound exactly once: const
        blocks: dict[int, list[ast.stmt]] = {}
        where: dict[int, dict[int, int]] = {}  # both filled when a local is first placed
        in_defs: set[str] | None = None  # names read inside nested defs, found once
        mutable = mutable or set()
        for name, sites in b.sites.items():
            if name in params:
                continue
            first = sites[0]
            loads = b.loads.get(name, [])
            if name in mutable:
                in_defs = _loads_in_defs(body) if in_defs is None else in_defs
                if name in in_defs:  # read inside a function: must live at the top of the module
                    self.hoisted.append(name)
                    continue
            if (
                isinstance(first, ast.For)
                and all(isinstance(s, ast.For) for s in sites)
                and _loop_local(name, sites, loads)
            ):
                for s in sites:
                    self.loop_local.setdefault(id(s), []).append(name)
                continue
            if isinstance(first, ast.Assign | ast.AnnAssign) and not blocks:
                _index_blocks(body, blocks, where)
            if isinstance(first, ast.Assign | ast.AnnAssign) and _block_local(
                first, sites, loads, blocks, where
            ):
                self.inline.setdefault(id(first), []).append(name)
                if len(sites) == 1 and name not in mutable:
                    self.single.add(name)
                continue
            self.hoisted.append(name)


def _loads_in_defs(body: list[ast.stmt]) -> set[str]:
    """Names read inside function or class definitions of ``body``."""
    out: set[str] = set()
    for s in body:
        if isinstance(s, ast.FunctionDef | ast.ClassDef):
            out |= {n.id for n in walk(s) if isinstance(n, ast.Name)}
    return out


def _loop_local(name: str, loops: list[ast.stmt], loads: list[ast.Name]) -> bool:
    """Whether ``name`` is bound only as the target of these for loops, none nested in
    another, and read only inside them."""
    inside: set[int] = set()
    for loop in loops:
        assert isinstance(loop, ast.For)
        parts: list[ast.AST] = [loop.target, loop.iter, *loop.body]
        nodes = {id(n) for p in parts for n in walk(p) if isinstance(n, ast.expr | ast.stmt)}
        if nodes & inside:
            return False
        inside |= nodes
        if name not in target_names(loop.target):
            return False
    return all(id(n) in inside for n in loads)


def _index_blocks(
    stmts: list[ast.stmt], blocks: dict[int, list[ast.stmt]], where: dict[int, dict[int, int]]
) -> None:
    """Map each statement (outside nested defs) to the statement list holding it, and for
    each such list every node inside it to the index of its statement there (``where``:
    id(list) -> id(node) -> index), so that "inside the rest of the block" is a lookup."""
    at = where.setdefault(id(stmts), {})
    for i, s in enumerate(stmts):
        blocks[id(s)] = stmts
        at.update(dict.fromkeys(map(id, walk(s)), i))
        if isinstance(s, ast.If | ast.For | ast.While):
            _index_blocks(s.body, blocks, where)
            _index_blocks(s.orelse, blocks, where)


def _block_local(
    first: ast.stmt,
    sites: list[ast.stmt],
    loads: list[ast.Name],
    blocks: dict[int, list[ast.stmt]],
    where: dict[int, dict[int, int]],
) -> bool:
    """Whether a name first bound by ``first`` can be declared right there: every other
    binding and every read lies in the rest of ``first``'s block, reads after ``first``."""
    at = where[id(blocks[id(first)])]
    start = at[id(first)]
    end = (first.end_lineno or 0, first.end_col_offset or 0)
    if not all(at.get(id(s), -1) >= start for s in sites):
        return False
    return all(at.get(id(n), -1) >= start and (n.lineno, n.col_offset) >= end for n in loads)


class Translator(ExprEmitter):
    """Translates a parsed module into a TypeScript program."""

    def __init__(self, tree: ast.Module) -> None:
        super().__init__(tree)
        self.lines: list[str] = []
        self.depth = 0
        self.plan: DeclPlan = DeclPlan([], [])
        self.func: FuncInfo | None = None
        self.loop_flags: list[str | None] = []
        self.buffered = self.uses_print_end()

    # ----- output helpers -----------------------------------------------------------

    def emit(self, line: str) -> None:
        """Append one line at the current indentation."""
        self.lines.append(INDENT * self.depth + line if line else "")

    def uses_print_end(self) -> bool:
        """Whether some print() passes end= other than a newline (needs buffered output)."""
        for node in self.gathered:  # every call of the module, among others
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                for k in node.keywords if node.func.id == "print" else []:
                    if k.arg == "end" and not (
                        isinstance(k.value, ast.Constant) and k.value.value == "\n"
                    ):
                        return True
        return False

    def doc_comment(self, node: ast.AST) -> None:
        """Keep a docstring as marked line comments above its declaration."""
        doc = docstring_of(node)
        if doc:
            for line in doc.splitlines():
                self.emit((DOC_MARK + line).rstrip())

    # ----- program ------------------------------------------------------------------

    def program(self) -> str:
        """The whole TS program: prelude helpers, then the translated module."""
        self.scope = self.module
        body = body_without_docstring(self.tree.body)
        self.doc_comment(self.tree)
        if docstring_of(self.tree):
            self.emit("")
        self.block_body(body, [], self.module)
        if self.buffered:
            self.emit("pyFlush();")
        out = []
        if self.buffered:
            self.used.add("pyWrite")
        if self.used:
            out += [PRELUDE_START, render_prelude(self.used), PRELUDE_END, ""]
        body: list[str] = []
        for line in self.lines:
            if line or (body and body[-1]):
                body.append(line)
        out += body
        out += ["", "export {};"]
        return "\n".join(out).rstrip() + "\n"

    def block_body(self, body: list[ast.stmt], params: list[str], scope: Scope) -> None:
        """A function or module body: hoisted declarations, then the statements."""
        saved = self.plan
        escaping = set(scope.vars) if scope is self.module else set()
        self.plan = DeclPlan(body, params, self.global_decls | escaping, scope.bindings)
        for name in self.plan.hoisted:
            t = scope.vars.get(name)
            if t is None:
                continue
            self.emit(f"let {ts_name(name)}!: {ts_type(t)};")
        for stmt in body:
            self.stmt(stmt)
        self.plan = saved

    def block(self, body: list[ast.stmt]) -> None:
        """An indented block of statements."""
        self.depth += 1
        for stmt in body:
            self.stmt(stmt)
        self.depth -= 1

    # ----- statements ---------------------------------------------------------------

    def stmt(self, s: ast.stmt) -> None:
        """One statement."""
        if isinstance(s, ast.FunctionDef):
            fn = self.scope.funcs.get(s.name) or self.funcs[s.name]
            self.function(fn)
        elif isinstance(s, ast.ClassDef):
            self.class_def(self.classes[s.name])
        elif isinstance(s, ast.Assign):
            self.assign(s)
        elif isinstance(s, ast.AnnAssign):
            if s.value is None:
                raise unsupported("py_annotation_only", "annotation without a value", s)
            self.assign(ast.Assign(targets=[s.target], value=s.value, lineno=s.lineno), s)
        elif isinstance(s, ast.AugAssign):
            self.aug_assign(s)
        elif isinstance(s, ast.Expr):
            self.expr_stmt(s)
        elif isinstance(s, ast.If):
            self.if_stmt(s)
        elif isinstance(s, ast.For):
            self.for_stmt(s)
        elif isinstance(s, ast.While):
            self.while_stmt(s)
        elif isinstance(s, ast.Break):
            flag = self.loop_flags[-1] if self.loop_flags else None
            if flag:
                self.emit(f"{flag} = true;")
            self.emit("break;")
        elif isinstance(s, ast.Continue):
            self.emit("continue;")
        elif isinstance(s, ast.Pass):
            pass
        elif isinstance(s, ast.Return):
            self.return_stmt(s)
        elif isinstance(s, ast.Import | ast.ImportFrom | ast.Global):
            pass
        elif isinstance(s, ast.Raise):
            self.raise_stmt(s)
        elif isinstance(s, ast.Assert):
            msg = '"AssertionError"'
            if s.msg is not None:
                msg = '"AssertionError: " + ' + self.ex(s.msg, ADD + 1)
            self.emit(f"if (!({self.cond(s.test)})) throw new Error({msg});")
        elif isinstance(s, ast.Delete):
            self.delete(s)
        else:
            raise unsupported("py_statement", f"statement {type(s).__name__}", s)

    def expr_stmt(self, s: ast.Expr) -> None:
        """An expression statement: print(), method calls, stray literals."""
        v = s.value
        if isinstance(v, ast.Constant):
            return  # a bare string (docstring-like) has no effect
        if (
            isinstance(v, ast.Call)
            and isinstance(v.func, ast.Name)
            and v.func.id == "print"
            and self.scope.lookup("print") is None
        ):
            self.print_call(v)
            return
        if not isinstance(v, ast.Call):
            self.t(v)
            raise unsupported("py_expression_statement", "an expression statement", s)
        self.emit(self.ex(v) + ";")

    def print_call(self, e: ast.Call) -> None:
        """print(*values, sep=' ', end='\\n')."""
        kw = {k.arg: k.value for k in e.keywords}
        for k in ("sep", "end"):
            v = kw.get(k)
            if v is not None and self.t(v).kind not in ("str", "none"):
                raise unsupported("py_print", f"print({k}=...) of a non-string", e)
        pieces = Pieces()
        sep = kw.get("sep")
        for i, a in enumerate(e.args):
            if i > 0:
                if sep is None or (isinstance(sep, ast.Constant) and sep.value is None):
                    pieces.text(" ")
                elif isinstance(sep, ast.Constant):
                    pieces.text(str(sep.value))
                else:
                    pieces.code(self.ex(sep, COND))
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                pieces.text(a.value)
            elif isinstance(a, ast.JoinedStr):
                for v in a.values:
                    if isinstance(v, ast.Constant):
                        pieces.text(str(v.value))
                    else:
                        pieces.code(self.format_value(v))  # type: ignore[arg-type]
            else:
                pieces.code(self.str_of(a))
        end = kw.get("end")
        if self.buffered:
            if end is None or (isinstance(end, ast.Constant) and end.value is None):
                pieces.text("\n")
            elif isinstance(end, ast.Constant):
                pieces.text(str(end.value))
            else:
                pieces.code(self.ex(end, COND))
            self.emit(f"{self.use('pyWrite')}({pieces.render()});")
        else:
            self.emit(f"console.log({pieces.render()});")

    def declared_type(self, name: str) -> T:
        """The type of a local of the current scope."""
        owner = self.scope.lookup(name)
        assert owner is not None
        return owner.vars[name]

    def assign(self, s: ast.Assign, orig: ast.stmt | None = None) -> None:
        """Assignment, with declarations where a local is first bound."""
        key = id(orig or s)
        new_names = self.plan.inline.get(key, [])
        if len(s.targets) > 1:
            if not is_simple(s.value):
                raise unsupported("py_chained_assign", "chained assignment of an expression", s)
            for target in s.targets:
                self.assign(ast.Assign(targets=[target], value=s.value, lineno=s.lineno), orig or s)
            return
        target = s.targets[0]
        if self.t(s.value).kind == "none" and isinstance(s.value, ast.Call):
            raise unsupported("py_none_value", "storing the None result of a call", s)
        if self.t(s.value).kind == "iter" and not (
            isinstance(s.value, ast.Call)
            and isinstance(s.value.func, ast.Name)
            and s.value.func.id == "range"
        ):
            # map/zip/enumerate/reversed objects are one-shot iterators and dict views are live
            raise unsupported("py_iterator_value", "storing an iterator or a dict view", s)
        if isinstance(target, ast.Name):
            t = self.declared_type(target.id)
            self.check_storable(t, target.id, s)
            value = self.ex(s.value, COND, t)
            name = ts_name(target.id)
            if target.id in new_names:
                kw = "const" if target.id in self.plan.single else "let"
                self.emit(f"{kw} {name}: {ts_type(t)} = {value};")
                new_names.remove(target.id)
            else:
                self.emit(f"{name} = {value};")
            return
        if isinstance(target, ast.Tuple | ast.List):
            self.assign_tuple(target, s.value, new_names)
            return
        self.emit(self.store(target, s.value) + ";")

    def check_storable(self, t: T, name: str, node: ast.AST) -> None:
        """Reject locals whose type could not be inferred exactly."""
        if t.kind in ("any",):
            raise unsupported("py_untyped", f"{name} holds values of different types", node)

    def assign_tuple(
        self, target: ast.Tuple | ast.List, value: ast.expr, new_names: list[str]
    ) -> None:
        """``a, b = ...`` (swaps included) as a destructuring assignment."""
        names = target_names(target)
        flat = all(isinstance(x, ast.Name) for x in target.elts)
        vt = self.t(value)
        if vt.kind not in ("tuple", "list"):
            raise unsupported("py_unpack", f"unpacking a {vt}", value)
        if vt.kind == "tuple" and len(vt.args) != len(target.elts):
            raise unsupported("py_unpack", "unpacking with a different number of items", value)
        if flat and names and all(n in new_names for n in names) and len(set(names)) == len(names):
            types = ", ".join(ts_type(self.declared_type(n)) for n in names)
            kw = "const" if all(n in self.plan.single for n in names) else "let"
            pattern = ", ".join(ts_name(n) for n in names)
            tt = f"[{types}]" if vt.kind == "tuple" else f"{ts_type(vt)}"
            self.emit(f"{kw} [{pattern}]: {tt} = {self.ex(value, COND)};")
            for n in names:
                new_names.remove(n)
            return
        for n in names:
            if n in new_names:
                self.emit(f"let {ts_name(n)}: {ts_type(self.declared_type(n))};")
                new_names.remove(n)
        if all(isinstance(x, ast.Name) for x in target.elts):
            pattern = ", ".join(ts_name(x.id) for x in target.elts)  # type: ignore[attr-defined]
            self.emit(f"[{pattern}] = {self.ex(value, COND)};")
            return
        tmp = self.temp("tmp")
        self.emit(f"const {tmp}: {ts_type(vt)} = {self.ex(value, COND)};")
        for i, elt in enumerate(target.elts):
            if isinstance(elt, ast.Name):
                self.emit(f"{ts_name(elt.id)} = {tmp}[{i}];")
            else:
                fake = ast.Name(id=tmp, ctx=ast.Load())
                self.emit(self.store_code(elt, f"{tmp}[{i}]") + ";")
                del fake

    def store(self, target: ast.expr, value: ast.expr) -> str:
        """Code storing ``value`` into a subscript or attribute target."""
        expect = self.t(target) if not isinstance(target, ast.Subscript) else None
        if isinstance(target, ast.Subscript):
            bt = self.t(target.value)
            if bt.kind == "dict":
                expect = bt.args[1]
            elif bt.kind == "list":
                expect = bt.args[0]
        return self.store_code(target, self.ex(value, COND, expect))

    def store_code(self, target: ast.expr, code: str) -> str:
        """Code storing TS ``code`` into a subscript or attribute target."""
        if isinstance(target, ast.Attribute):
            self.t(target)
            return f"{self.obj(target.value)}.{target.attr} = {code}"
        if isinstance(target, ast.Subscript):
            bt = self.t(target.value)
            base = self.ex(target.value, ATOM)
            if bt.kind in ("dict", "record"):
                return f"{base}.set({self.ex(target.slice, COND)}, {code})"
            if bt.kind == "list":
                idx = const_int(target.slice)
                if self.nonneg(target.slice):
                    return f"{base}[{self.ex(target.slice)}] = {code}"
                if idx is not None and idx < 0 and is_simple(target.value):
                    return f"{base}[{base}.length - {-idx}] = {code}"
                args = f"{self.ex(target.value, COND)}, {self.ex(target.slice, COND)}"
                index = f"{self.use('pyIndexOf')}({args})"
                return f"{base}[{index}] = {code}"
            raise unsupported("py_item_assign", f"item assignment on a {bt}", target)
        raise unsupported("py_assign_target", "this assignment target", target)

    def aug_assign(self, s: ast.AugAssign) -> None:
        """``x op= v``."""
        target = s.target
        tt, vt = self.t(target), self.t(s.value)
        if isinstance(target, ast.Name | ast.Attribute):
            lhs = self.ex(target)
            if tt.kind == "list" and isinstance(s.op, ast.Add):
                self.emit(f"{lhs}.push(...{self.wrap(self.iter_code(s.value)[0], ATOM)});")
                return
            simple = isinstance(s.op, ast.Add | ast.Sub | ast.Mult)
            same = (is_num(tt) and is_num(vt)) or (tt.kind == vt.kind == "str")
            if simple and same and (isinstance(s.op, ast.Add) or is_num(tt)):
                sym = {ast.Add: "+=", ast.Sub: "-=", ast.Mult: "*="}[type(s.op)]
                self.emit(f"{lhs} {sym} {self.ex(s.value, COND)};")
                return
            if isinstance(target, ast.Attribute) and not is_simple(target.value):
                raise unsupported("py_aug_assign", "augmented assignment of a complex target", s)
            binop = ast.BinOp(left=target, op=s.op, right=s.value)
            ast.copy_location(binop, s)
            self.emit(f"{lhs} = {self.ex(binop, COND)};")
            return
        if (
            isinstance(target, ast.Subscript)
            and is_simple(target.value)
            and is_simple(target.slice)
        ):
            read = ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load())
            binop = ast.BinOp(left=read, op=s.op, right=s.value)
            ast.copy_location(read, s)
            ast.copy_location(binop, s)
            self.emit(self.store_code(target, self.ex(binop, COND)) + ";")
            return
        raise unsupported("py_aug_assign", "augmented assignment of this target", s)

    def if_stmt(self, s: ast.If) -> None:
        """if / elif / else (and ``if __name__ == "__main__":``)."""
        if self.is_main_guard(s.test):
            for stmt in s.body:
                self.stmt(stmt)
            return
        self.emit(f"if ({self.cond(s.test)}) {{")
        self.narrowed_block(s.test, True, s.body)
        orelse = s.orelse
        if len(orelse) == 1 and isinstance(orelse[0], ast.If):
            inner = orelse[0]
            if self.is_main_guard(inner.test):
                raise unsupported("py_main_guard", "elif __name__ == ...", inner)
            start = len(self.lines)
            self.run_narrowed(s.test, False, orelse, self.scope, self.if_stmt)  # type: ignore[arg-type]
            self.lines[start] = INDENT * self.depth + "} else " + self.lines[start].lstrip()
            return
        if orelse:
            self.emit("} else {")
            self.narrowed_block(s.test, False, orelse)
        self.emit("}")

    def narrowed_block(self, test: ast.expr, branch: bool, body: list[ast.stmt]) -> None:
        """An indented block in which ``test`` is known to be ``branch``."""
        self.depth += 1
        self.run_narrowed(test, branch, body, self.scope, self.stmt)
        self.depth -= 1

    def is_main_guard(self, test: ast.expr) -> bool:
        """``__name__ == "__main__"`` at module level."""
        return self.scope is self.module and is_main_guard(test)

    def loop_with_else(self, orelse: list[ast.stmt]) -> str | None:
        """Set up a break flag for a loop with an ``else`` clause."""
        if not orelse:
            self.loop_flags.append(None)
            return None
        flag = self.temp("broke")
        self.emit(f"let {flag} = false;")
        self.loop_flags.append(flag)
        return flag

    def end_loop(self, flag: str | None, orelse: list[ast.stmt]) -> None:
        """Close a loop and emit its ``else`` clause."""
        self.loop_flags.pop()
        if flag is not None:
            self.emit(f"if (!{flag}) {{")
            self.block(orelse)
            self.emit("}")

    def for_stmt(self, s: ast.For) -> None:
        """for loops over ranges, sequences, dicts, enumerate/zip/... ."""
        local = self.plan.loop_local.get(id(s), [])
        names = target_names(s.target)
        self.t(s.iter)
        flag = self.loop_with_else(s.orelse)
        it = s.iter
        is_range = (
            isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name)
            and it.func.id == "range"
            and self.scope.lookup("range") is None
            and 1 <= len(it.args) <= 3
            and not it.keywords
            and (len(it.args) < 3 or const_int(it.args[2]) not in (None, 0))
        )
        added_nonneg: list[str] = []
        if is_range and isinstance(s.target, ast.Name):
            assert isinstance(it, ast.Call)
            args = it.args
            for a in args:
                if self.t(a).kind != "int":
                    raise unsupported("py_range", "range() of non-int values", a)
            start = args[0] if len(args) >= 2 else ast.Constant(value=0)
            stop = args[1] if len(args) >= 2 else args[0]
            step = const_int(args[2]) if len(args) == 3 else 1
            if step is None or step == 0:
                raise unsupported("py_range", "range() with a non-constant or zero step", it)
            var = ts_name(s.target.id)
            loop_var = var if s.target.id in local else self.temp(s.target.id)
            rebound = {n for st in s.body for n in target_names_in(st)}
            stop_code = self.ex(stop, COND)
            init = f"let {loop_var} = {self.ex(start, COND)}"
            stable = isinstance(stop, ast.Constant) or (
                isinstance(stop, ast.Name) and stop.id not in rebound
            )
            if not stable:
                end = self.temp("end")
                init += f", {end} = {stop_code}"
                stop_code = end
            cmp = "<" if step > 0 else ">"
            inc = {1: "++", -1: "--"}.get(step, f" += {step}" if step > 0 else f" -= {-step}")
            self.emit(f"for ({init}; {loop_var} {cmp} {stop_code}; {loop_var}{inc}) {{")
            if s.target.id in local and step > 0 and self.nonneg(start):
                self.nonneg_names.add(s.target.id)
                added_nonneg.append(s.target.id)
            self.depth += 1
            if loop_var != var:
                self.emit(f"{var} = {loop_var};")
            self.depth -= 1
        else:
            code = self.iter_code(it)[0][0]
            if not names or not isinstance(s.target, ast.Name | ast.Tuple | ast.List):
                raise unsupported("py_loop_target", "this loop target", s)
            if all(n in local for n in names):
                self.emit(f"for (const {self.for_target(s.target)} of {code}) {{")
            elif all(n not in local for n in names):
                self.emit(f"for ({self.for_target(s.target)} of {code}) {{")
            else:
                renames = {n: self.temp(n) for n in names if n not in local}
                pattern = self.for_target(s.target, renames)
                self.emit(f"for (const {pattern} of {code}) {{")
                for n, tmp in renames.items():
                    self.emit(f"{INDENT}{ts_name(n)} = {tmp};")
        self.block(s.body)
        self.emit("}")
        for n in added_nonneg:
            self.nonneg_names.discard(n)
        self.end_loop(flag, s.orelse)

    def while_stmt(self, s: ast.While) -> None:
        """while loops (with optional else)."""
        flag = self.loop_with_else(s.orelse)
        self.emit(f"while ({self.cond(s.test)}) {{")
        self.narrowed_block(s.test, True, s.body)
        self.emit("}")
        self.end_loop(flag, s.orelse)

    def return_stmt(self, s: ast.Return) -> None:
        """return [value]."""
        assert self.func is not None
        rt = self.func.returns
        if s.value is None or (isinstance(s.value, ast.Constant) and s.value.value is None):
            self.emit("return;" if rt.kind in ("none", "unknown") else "return null;")
            return
        self.emit(f"return {self.ex(s.value, LOWEST, rt)};")

    def raise_stmt(self, s: ast.Raise) -> None:
        """raise E("message") as throw new Error(...)."""
        exc = s.exc
        if exc is None:
            raise unsupported("py_raise", "bare raise", s)
        if isinstance(exc, ast.Call) and isinstance(exc.func, ast.Name):
            kind = exc.func.id
            if len(exc.args) == 1 and self.t(exc.args[0]).kind == "str":
                msg = f"{ts_string(kind + ': ')} + {self.ex(exc.args[0], ADD + 1)}"
            else:
                msg = ts_string(kind)
        elif isinstance(exc, ast.Name):
            msg = ts_string(exc.id)
        else:
            raise unsupported("py_raise", "this raise", s)
        self.emit(f"throw new Error({msg});")

    def delete(self, s: ast.Delete) -> None:
        """del d[k] / del xs[i]."""
        for target in s.targets:
            if not isinstance(target, ast.Subscript) or isinstance(target.slice, ast.Slice):
                raise unsupported("py_del", "del of this target", s)
            bt = self.t(target.value)
            if bt.kind == "dict":
                key = self.ex(target.slice, COND)
                self.emit(f"{self.use('pyDictPop')}({self.ex(target.value, COND)}, {key});")
            elif bt.kind == "list":
                idx = self.ex(target.slice, COND)
                self.emit(f"{self.use('pyPop')}({self.ex(target.value, COND)}, {idx});")
            else:
                raise unsupported("py_del", f"del on a {bt}", s)

    # ----- functions and classes ----------------------------------------------------

    def params_code(self, f: FuncInfo) -> str:
        """The TS parameter list of a function or method."""
        node = f.node
        args = node.args.args[1:] if f.cls else node.args.args
        defaults = node.args.defaults
        first_default = len(args) - len(defaults)
        out = []
        for i, a in enumerate(args):
            t = f.scope.vars[a.arg]
            self.check_storable(t, a.arg, node)
            decl = f"{ts_name(a.arg)}: {ts_type(t)}"
            if i >= first_default:
                outer = self.scope
                self.scope = self.module
                decl += f" = {self.ex(defaults[i - first_default], COND, t)}"
                self.scope = outer
            out.append(decl)
        return ", ".join(out)

    def return_type(self, f: FuncInfo) -> str:
        """The TS return type of a function."""
        if f.returns.kind in ("none", "unknown"):
            return "void"
        self.check_storable(f.returns, f"{f.name}()", f.node)
        return ts_type(f.returns)

    def function_body(self, f: FuncInfo) -> None:
        """The statements of a function, with a trailing ``return null`` where needed."""
        saved_scope, saved_func = self.scope, self.func
        self.scope, self.func = f.scope, f
        self.depth += 1
        if getattr(self, "pending_super", False):
            self.emit("super();")
            self.pending_super = False
        body = body_without_docstring(f.node.body)
        self.block_body(body, f.scope.params, f.scope)
        if f.returns.kind == "opt" and self.falls_off(body):
            self.emit("return null;")
        self.depth -= 1
        self.scope, self.func = saved_scope, saved_func

    def function(self, f: FuncInfo) -> None:
        """A top-level function declaration."""
        self.emit("")
        self.doc_comment(f.node)
        sig = f"function {ts_name(f.name)}({self.params_code(f)}): {self.return_type(f)} {{"
        self.emit(sig)
        self.function_body(f)
        self.emit("}")
        self.emit("")

    def check_super_init(self, c: ClassInfo, init: FuncInfo) -> None:
        """A subclass constructor must start with ``super().__init__(...)`` (TS needs
        ``super()`` before ``this``), unless no ancestor defines ``__init__``."""
        body = body_without_docstring(init.node.body)
        first = body[0] if body else None
        calls_super = (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Call)
            and isinstance(first.value.func, ast.Attribute)
            and first.value.func.attr == "__init__"
            and self.super_method(first.value.func, init.scope) is not None
        )
        base_init = self.find_method(str(c.base), "__init__")
        if base_init is not None and not calls_super:
            what = f"{c.name}.__init__ not starting with super().__init__()"
            raise unsupported("py_super_init", what, init.node)
        if base_init is None and not calls_super:
            self.pending_super = True

    def class_def(self, c: ClassInfo) -> None:
        """A class with fields, constructor and methods."""
        self.emit("")
        self.doc_comment(c.node)
        extends = f" extends {ts_name(c.base)}" if c.base else ""
        self.emit(f"class {ts_name(c.name)}{extends} {{")
        self.depth += 1
        init = c.methods.get("__init__")
        if c.base and init is not None:
            self.check_super_init(c, init)
        direct: set[str] = set()
        if init is not None:
            self_name = init.node.args.args[0].arg
            for st in init.node.body:
                if isinstance(st, ast.Assign | ast.AnnAssign):
                    targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                    for t in targets:
                        if (
                            isinstance(t, ast.Attribute)
                            and isinstance(t.value, ast.Name)
                            and t.value.id == self_name
                        ):
                            direct.add(t.attr)
        for name, (value, t) in c.consts.items():
            # static for Class.NAME, a getter for self.NAME (dispatches like Python's lookup)
            self.check_storable(t, f"{c.name}.{name}", c.node)
            saved, self.scope = self.scope, self.module
            code = self.ex(value, COND, t)
            self.scope = saved
            self.emit(f"static {name}: {ts_type(t)} = {code};")
            self.emit(f"get {name}(): {ts_type(t)} {{")
            self.emit(f"{INDENT}return {ts_name(c.name)}.{name};")
            self.emit("}")
        for name in c.field_order:
            t = c.fields[name]
            self.check_storable(t, f"{c.name}.{name}", c.node)
            bang = "" if name in direct else "!"
            self.emit(f"{name}{bang}: {ts_type(t)};")
        for i, (name, m) in enumerate(c.methods.items()):
            if i or c.field_order or c.consts:
                self.emit("")
            self.doc_comment(m.node)
            if name == "__init__":
                self.emit(f"constructor({self.params_code(m)}) {{")
            else:
                self.emit(f"{name}({self.params_code(m)}): {self.return_type(m)} {{")
            self.function_body(m)
            self.emit("}")
        self.depth -= 1
        self.emit("}")
        self.emit("")


def target_names_in(stmt: ast.stmt) -> list[str]:
    """Names (re)bound anywhere inside ``stmt``."""
    out: list[str] = []
    for node in walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.append(node.id)
    return out


def translate_module(tree: ast.Module) -> str:
    """Translate a parsed module (see :func:`zerolayer.plugins.py_ts.translate`)."""
    tree, dataclass_names = desugar_dataclasses(tree)
    translator = Translator(tree)
    translator.dataclasses = dataclass_names
    return translator.program()


__all__ = ["DOC_MARK", "PRELUDE_END", "PRELUDE_START", "translate_module"]
