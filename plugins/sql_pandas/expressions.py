"""SQL expressions to pandas expressions, with SQL's NULL semantics.

Two compilers share one scope:

* :meth:`ExprCompiler.value` turns a value expression into a pandas Series expression (or a
  scalar / literal);
* :meth:`ExprCompiler.mask` turns a predicate into a boolean mask that is True exactly where
  the predicate is TRUE (``positive``) or exactly where it is FALSE (``positive=False``).
  SQL's third value, NULL, is neither, so ``NOT p`` is the FALSE mask of ``p``, and ``a <> b``
  needs both sides non-null. With ``query=True`` the mask is written as a
  ``DataFrame.query`` string instead.

Anything without an exact pandas counterpart raises :class:`Unsupported`.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlglot import exp

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.sql_pandas.dialects import Semantics
from zerolayer.plugins.sql_pandas.pycode import (
    ADD,
    AND,
    ATOM,
    BAND,
    BOR,
    CMP,
    INT,
    LITERAL,
    MUL,
    NOT,
    OR,
    REAL,
    SCALAR,
    SERIES,
    TEXT,
    UNARY,
    UNKNOWN,
    Code,
    col_access,
    is_identifier,
    py_literal,
    py_str,
    wrap,
)

_CMP_OPS: dict[type[exp.Expression], str] = {
    exp.EQ: "==",
    exp.NEQ: "!=",
    exp.GT: ">",
    exp.GTE: ">=",
    exp.LT: "<",
    exp.LTE: "<=",
}
_NEGATED = {"==": "!=", "!=": "==", ">": "<=", ">=": "<", "<": ">=", "<=": ">"}
AGGREGATES = (exp.Count, exp.Sum, exp.Avg, exp.Min, exp.Max)


def agg_name(node: exp.Expression) -> str:
    """The SQL name of an aggregate node (COUNT, SUM, ...)."""
    return type(node).__name__.upper()


@dataclass
class Scope:
    """How SQL names map to pandas code where an expression is compiled.

    ``frame`` is the Python name of the frame the columns live in; ``resolve`` maps a SQL
    column reference to a column of that frame; ``aggregates`` maps an aggregate call to the
    column holding its value (after GROUP BY), or is None where aggregates are not allowed;
    ``subquery`` compiles an uncorrelated subquery and returns the Python name of its value.
    """

    frame: str
    resolve: Callable[[exp.Column], str]
    aggregates: Callable[[exp.Expression], str] | None = None
    subquery: Callable[[exp.Expression, str], str] | None = None
    names: dict[str, str] = field(default_factory=dict)
    exists: Callable[[exp.Exists], tuple[exp.Expression, str]] | None = None


class ExprCompiler:
    """Compiles SQL expressions in one :class:`Scope`."""

    def __init__(self, scope: Scope, sem: Semantics) -> None:
        self.scope = scope
        self.sem = sem

    # ------------------------------------------------------------------ values

    def value(self, node: exp.Expression) -> Code:
        """A pandas expression with the value of ``node`` for every row."""
        if isinstance(node, exp.Paren):
            return self.value(node.this)
        if isinstance(node, exp.Column):
            if isinstance(node.this, exp.Star):
                raise Unsupported("sql_star_expression", "`*` is only supported as a whole item")
            col = self.scope.resolve(node)
            return Code(col_access(self.scope.frame, col), column=col)
        if isinstance(node, exp.Literal):
            return self._literal(node)
        if isinstance(node, exp.Null):
            raise Unsupported("sql_null_literal", "NULL is only supported in IS [NOT] NULL")
        if isinstance(node, exp.Boolean):
            raise Unsupported("sql_boolean_literal", "TRUE/FALSE literals are not supported")
        if isinstance(node, exp.Neg):
            inner = self.value(node.this)
            if inner.kind == LITERAL and isinstance(inner.value, int | float):
                v = -inner.value
                return Code(py_literal(v), kind=LITERAL, sqltype=inner.sqltype, value=v)
            self._numeric(inner, "unary minus")
            return inner.with_text(f"-{wrap(inner, UNARY)}", UNARY)
        if isinstance(node, exp.Add | exp.Sub | exp.Mul):
            return self._arith(node)
        if isinstance(node, exp.Div):
            return self._div(node)
        if isinstance(node, exp.Mod):
            raise Unsupported("sql_modulo", "`%` truncates like C in SQL, unlike Python's `%`")
        if isinstance(node, exp.DPipe):
            return self._concat(node)
        if isinstance(node, exp.Case):
            return self._case(node)
        if isinstance(node, exp.Coalesce):
            return self._coalesce(node)
        if isinstance(node, exp.Abs):
            inner = self.value(node.this)
            self._numeric(inner, "ABS")
            if inner.kind != SERIES:
                raise Unsupported("sql_constant_expression", "ABS of a constant")
            return inner.with_text(f"{wrap(inner, ATOM)}.abs()", ATOM)
        if isinstance(node, AGGREGATES):
            if self.scope.aggregates is None:
                raise Unsupported("sql_aggregate_context", f"{agg_name(node)} is not allowed here")
            col = self.scope.aggregates(node)
            sqltype = UNKNOWN
            if isinstance(node, exp.Avg | exp.Count):
                sqltype = REAL if isinstance(node, exp.Avg) else INT
            return Code(col_access(self.scope.frame, col), column=col, sqltype=sqltype)
        if isinstance(node, exp.Subquery):
            if self.scope.subquery is None:
                raise Unsupported("sql_subquery_context", "a subquery is not allowed here")
            name = self.scope.subquery(node, "scalar")
            return Code(name, kind=SCALAR)
        if isinstance(node, exp.Window):
            return self._window(node)
        if isinstance(node, exp.Cast):
            return self._cast(node)
        if isinstance(node, exp.Date) and not any(v for k, v in node.args.items() if k != "this"):
            return self._strftime(node.this, "%Y-%m-%d", "DATE")
        if isinstance(node, exp.TimeToStr) and isinstance(node.this, exp.TsOrDsToTimestamp):
            fmt = node.args.get("format")
            if not (isinstance(fmt, exp.Literal) and fmt.is_string):
                raise Unsupported("sql_function_strftime", "STRFTIME needs a constant format")
            return self._strftime(node.this.this, fmt.this, "STRFTIME")
        if (
            isinstance(node, exp.Anonymous)
            and str(node.this).upper() == "DATETIME"
            and len(node.expressions) == 1
        ):
            return self._strftime(node.expressions[0], "%Y-%m-%d %H:%M:%S", "DATETIME")
        if isinstance(node, exp.Upper | exp.Lower):
            return self._case_map(node)
        if isinstance(node, exp.Length):
            inner = self._text_series(node.this, "LENGTH")
            return Code(f"{wrap(inner, ATOM)}.str.len()", sqltype=INT)
        if isinstance(node, exp.Trim):
            return self._trim(node)
        if isinstance(node, exp.Substring):
            return self._substring(node)
        if isinstance(node, exp.Nullif):
            first = self.value(node.this)
            if first.kind != SERIES:
                raise Unsupported("sql_nullif", "NULLIF must start with a column expression")
            other = self.value(node.expression)
            cond = f"{wrap(first, CMP + 1)} == {wrap(other, CMP + 1)}"
            return first.with_text(f"{wrap(first, ATOM)}.mask({cond})", ATOM)
        if isinstance(node, exp.Func):
            name = node.name if isinstance(node, exp.Anonymous) else node.sql_name()
            name = name.lower() or "function"
            raise Unsupported(
                f"sql_function_{re.sub(r'[^a-z0-9]+', '_', name)}",
                f"the SQL function {name.upper()} is not supported",
            )
        if isinstance(node, exp.Predicate | exp.Connector | exp.Not):
            raise Unsupported(
                "sql_predicate_as_value", "a condition used as a value is not supported"
            )
        raise Unsupported("sql_expression", f"the SQL expression {node.sql()!r} is not supported")

    def _window(self, node: exp.Window) -> Code:
        """Aggregates over a partition (no frame, no ORDER BY) and RANK/DENSE_RANK."""
        if self.scope.aggregates is not None:
            raise Unsupported("sql_window_function", "window functions with GROUP BY")
        for key, val in node.args.items():
            if val and key not in ("this", "partition_by", "order", "over"):
                raise Unsupported("sql_window_function", f"window {key} is not supported")
        frame = self.scope.frame
        parts = [self.value(p) for p in node.args.get("partition_by") or []]
        if any(p.column is None for p in parts):
            raise Unsupported("sql_window_function", "PARTITION BY an expression")
        keys = [p.column for p in parts if p.column is not None]
        by = py_str(keys[0]) if len(keys) == 1 else "[" + ", ".join(py_str(k) for k in keys) + "]"
        grouped = f"{frame}.groupby({by}, dropna=False)" if keys else ""
        func = node.this
        order = node.args.get("order")
        if isinstance(func, exp.Rank | exp.DenseRank):
            if order is None or len(order.expressions) != 1 or func.expressions:
                raise Unsupported("sql_window_function", "RANK needs exactly one ORDER BY key")
            ordered = order.expressions[0]
            key = self.value(ordered.this)
            if key.column is None:
                raise Unsupported("sql_window_function", "RANK over an expression")
            asc = not ordered.args.get("desc")
            top = bool(ordered.args.get("nulls_first"))
            method = "min" if isinstance(func, exp.Rank) else "dense"
            args = f'method="{method}"' + ("" if asc else ", ascending=False")
            args += f', na_option="{"top" if top else "bottom"}"'
            target = f"{grouped}[{py_str(key.column)}]" if keys else wrap(key, ATOM)
            return Code(f"{target}.rank({args})", sqltype=INT)
        if order is not None:
            raise Unsupported("sql_window_function", "running aggregates (OVER ... ORDER BY)")
        if not isinstance(func, AGGREGATES) or isinstance(func.this, exp.Distinct):
            raise Unsupported("sql_window_function", f"{func.key.upper()} as a window function")
        if isinstance(func, exp.Count) and isinstance(func.this, exp.Star):
            if not keys:
                return Code(f"len({frame})", kind=SCALAR, sqltype=INT)
            return Code(f'{grouped}[{py_str(keys[0])}].transform("size")', sqltype=INT)
        arg = self.value(func.this)
        if arg.column is None:
            raise Unsupported("sql_window_function", "window aggregates of expressions")
        how = {"COUNT": '"count"', "SUM": "lambda s: s.sum(min_count=1)", "AVG": '"mean"',
               "MIN": '"min"', "MAX": '"max"'}[agg_name(func)]  # fmt: skip
        if not keys:
            call = {"COUNT": "count()", "SUM": "sum(min_count=1)", "AVG": "mean()",
                    "MIN": "min()", "MAX": "max()"}[agg_name(func)]  # fmt: skip
            return Code(f"{wrap(arg, ATOM)}.{call}", kind=SCALAR)
        sqltype = REAL if isinstance(func, exp.Avg) else UNKNOWN
        return Code(f"{grouped}[{py_str(arg.column)}].transform({how})", sqltype=sqltype)

    def _text_series(self, node: exp.Expression, what: str) -> Code:
        code = self.value(node)
        if code.kind != SERIES:
            raise Unsupported("sql_constant_expression", f"{what} of a constant")
        if code.sqltype not in (TEXT, UNKNOWN):
            raise Unsupported("sql_text_function_on_number", f"{what} of a number")
        return code

    def _strftime(self, arg: exp.Expression, fmt: str, what: str) -> Code:
        """SQLite's date functions over ISO-8601 text (UTC offsets are applied like SQLite)."""
        if self.sem.name != "sqlite":
            raise Unsupported(f"sql_function_{what.lower()}", f"{what} outside SQLite")
        if re.search(r"%[^YmdHMSjw%]", fmt) or (fmt.endswith("%") and not fmt.endswith("%%")):
            raise Unsupported(f"sql_function_{what.lower()}", f"the format {fmt!r}")
        if isinstance(arg, exp.Literal) and arg.is_string:
            try:
                value = datetime.datetime.fromisoformat(arg.this)
            except ValueError:
                raise Unsupported(f"sql_function_{what.lower()}", "a non-ISO date") from None
            if value.tzinfo is not None or not re.fullmatch(
                r"\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?", arg.this
            ):
                raise Unsupported(f"sql_function_{what.lower()}", "a non-ISO date")
            text = value.strftime(fmt)
            return Code(py_str(text), kind=LITERAL, sqltype=TEXT, value=text)
        inner = self._text_series(arg, what)
        parsed = f'pd.to_datetime({inner.text}, format="ISO8601", utc=True, errors="coerce")'
        return Code(f"{parsed}.dt.strftime({py_str(fmt)})", sqltype=TEXT)

    def _cast(self, node: exp.Cast) -> Code:
        to = node.args.get("to")
        if isinstance(to, exp.DataType) and to.this in (
            exp.DataType.Type.INT,
            exp.DataType.Type.BIGINT,
        ):
            return self._cast_date_part(node.this)
        if not (isinstance(to, exp.DataType) and to.this == exp.DataType.Type.DOUBLE):
            raise Unsupported("sql_cast", f"CAST to {to.sql() if to else '?'} is not supported")
        inner = self.value(node.this)
        if inner.kind != SERIES:
            raise Unsupported("sql_cast", "CAST of a constant")
        if inner.sqltype == TEXT:
            raise Unsupported("sql_cast", "CAST of text to a number")
        return Code(f"{wrap(inner, ATOM)}.astype(float)", sqltype=REAL)

    def _cast_date_part(self, node: exp.Expression) -> Code:
        """CAST(STRFTIME('%Y', x) AS INTEGER): digits only, so the number is exact."""
        fmt = node.args.get("format") if isinstance(node, exp.TimeToStr) else None
        if not (isinstance(fmt, exp.Literal) and re.fullmatch(r"%[YmdHMSjw]", fmt.this or "")):
            raise Unsupported("sql_cast", "CAST to INTEGER is only supported for date parts")
        inner = self.value(node)
        if inner.kind == LITERAL:
            value = int(str(inner.value))
            return Code(repr(value), kind=LITERAL, sqltype=INT, value=value)
        return Code(f"pd.to_numeric({inner.text})", sqltype=INT)

    def _case_map(self, node: exp.Expression) -> Code:
        upper = isinstance(node, exp.Upper)
        if self.sem.name != "sqlite":
            raise Unsupported(
                f"sql_function_{'upper' if upper else 'lower'}",
                "UPPER/LOWER follow locale rules in this dialect",
            )
        inner = self._text_series(node.this, "UPPER" if upper else "LOWER")
        # SQLite changes the case of ASCII letters only; str.upper() would change all.
        table = "TO_UPPER" if upper else "TO_LOWER"
        lower, upper_s = '"abcdefghijklmnopqrstuvwxyz"', '"ABCDEFGHIJKLMNOPQRSTUVWXYZ"'
        pair = f"{lower}, {upper_s}" if upper else f"{upper_s}, {lower}"
        self.scope.names[table] = f"{table} = str.maketrans({pair})"
        return Code(f"{wrap(inner, ATOM)}.str.translate({table})", sqltype=TEXT)

    def _trim(self, node: exp.Trim) -> Code:
        inner = self._text_series(node.this, "TRIM")
        chars = node.args.get("expression")
        if chars is None:
            arg = '" "'  # SQLite trims spaces only, not all whitespace
        elif isinstance(chars, exp.Literal) and chars.is_string:
            arg = py_str(chars.this)
        else:
            raise Unsupported("sql_trim", "TRIM with non-constant characters")
        if node.args.get("collation"):
            raise Unsupported("sql_trim", "TRIM with a collation")
        position = (node.args.get("position") or "BOTH").upper()
        method = {"BOTH": "strip", "LEADING": "lstrip", "TRAILING": "rstrip"}.get(position)
        if method is None:
            raise Unsupported("sql_trim", f"TRIM {position}")
        return Code(f"{wrap(inner, ATOM)}.str.{method}({arg})", sqltype=TEXT)

    def _substring(self, node: exp.Substring) -> Code:
        inner = self._text_series(node.this, "SUBSTR")
        start = _positive_int(node.args.get("start"))
        length = node.args.get("length")
        if start is None or start < 1:
            raise Unsupported("sql_substring", "SUBSTR needs a constant start of 1 or more")
        if length is None:
            return Code(f"{wrap(inner, ATOM)}.str.slice({start - 1})", sqltype=TEXT)
        count = _positive_int(length)
        if count is None:
            raise Unsupported("sql_substring", "SUBSTR needs a constant, non-negative length")
        return Code(
            f"{wrap(inner, ATOM)}.str.slice({start - 1}, {start - 1 + count})", sqltype=TEXT
        )

    def _literal(self, node: exp.Literal) -> Code:
        if node.is_string:
            return Code(py_str(node.this), kind=LITERAL, sqltype=TEXT, value=node.this)
        text = node.this
        try:
            v: int | float = int(text)
            sqltype = INT
        except ValueError:
            try:
                v = float(text)
            except ValueError:
                raise Unsupported("sql_literal", f"the literal {text!r} is not supported") from None
            sqltype = REAL
        return Code(py_literal(v), kind=LITERAL, sqltype=sqltype, value=v)

    @staticmethod
    def _numeric(code: Code, what: str) -> None:
        if code.sqltype == TEXT:
            raise Unsupported("sql_text_arithmetic", f"{what} on text converts it to a number")

    def _arith(self, node: exp.Expression) -> Code:
        left, right = self.value(node.this), self.value(node.expression)
        op = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*"}[type(node)]
        for side in (left, right):
            self._numeric(side, op)
        sqltype = _num_type(left, right)
        if left.kind == LITERAL and right.kind == LITERAL:
            v = eval(f"{left.text} {op} {right.text}")  # two numeric literals
            return Code(py_literal(v), kind=LITERAL, sqltype=sqltype, value=v)
        prec = ADD if op in "+-" else MUL
        text = f"{wrap(left, prec)} {op} {wrap(right, prec + 1)}"
        kind = SERIES if SERIES in (left.kind, right.kind) else SCALAR
        return Code(text, prec=prec, kind=kind, sqltype=sqltype)

    def _div(self, node: exp.Div) -> Code:
        left, right = self.value(node.this), self.value(node.expression)
        for side in (left, right):
            self._numeric(side, "/")
        real = REAL in (left.sqltype, right.sqltype) or self.sem.float_division
        if not real:
            raise Unsupported(
                "sql_integer_division",
                "`/` divides integers with truncation in this dialect and the operand types "
                "are not known; write one operand as a decimal (e.g. 1.0 * x)",
            )
        if right.kind == LITERAL:
            if right.value == 0:
                raise Unsupported("sql_division_by_zero", "division by the constant 0")
            divisor = wrap(right, MUL + 1)
        elif right.kind == SERIES:
            divisor = f"{wrap(right, ATOM)}.where({wrap(right, CMP + 1)} != 0)"
        else:
            raise Unsupported("sql_division_by_scalar", "division by a subquery value")
        if left.kind == LITERAL and right.kind == LITERAL:
            raise Unsupported("sql_constant_expression", "division of two constants")
        kind = SERIES if SERIES in (left.kind, right.kind) else SCALAR
        return Code(f"{wrap(left, MUL)} / {divisor}", prec=MUL, kind=kind, sqltype=REAL)

    def _concat(self, node: exp.DPipe) -> Code:
        parts = [self.value(node.this), self.value(node.expression)]
        for p in parts:
            if p.kind == LITERAL and p.sqltype != TEXT:
                raise Unsupported("sql_concat_number", "`||` with a number converts it to text")
            if p.kind == SCALAR:
                raise Unsupported("sql_concat_scalar", "`||` with a subquery value")
        text = f"{wrap(parts[0], ADD)} + {wrap(parts[1], ADD + 1)}"
        return Code(text, prec=ADD, kind=SERIES, sqltype=TEXT)

    def _case(self, node: exp.Case) -> Code:
        subject = node.this
        branches: list[str] = []
        values: list[Code] = []
        for when in node.args.get("ifs") or []:
            cond = when.this
            if subject is not None:
                cond = exp.EQ(this=subject.copy(), expression=cond.copy())
            mask = self.mask(cond)
            val = (
                self.value(when.args["true"])
                if not isinstance(when.args["true"], exp.Null)
                else Code("None", kind=LITERAL, value=None)
            )
            values.append(val)
            branches.append(f"({mask.text}, {val.text})")
        default_node = node.args.get("default")
        if default_node is None or isinstance(default_node, exp.Null):
            default = "None"
            dtype = ', dtype="object"'
        else:
            d = self.value(default_node)
            values.append(d)
            default = d.text
            dtype = ""
        if not branches:
            raise Unsupported("sql_case", "CASE without WHEN")
        frame = self.scope.frame
        base = f"pd.Series({default}, index={frame}.index{dtype})"
        types = {v.sqltype for v in values if v.text != "None"}
        sqltype = types.pop() if len(types) == 1 else UNKNOWN
        return Code(f"{base}.case_when([{', '.join(branches)}])", sqltype=sqltype)

    def _coalesce(self, node: exp.Coalesce) -> Code:
        args = [node.this, *node.expressions]
        first = self.value(args[0])
        if first.kind != SERIES:
            raise Unsupported("sql_coalesce", "COALESCE must start with a column expression")
        text = wrap(first, ATOM)
        types = {first.sqltype}
        for arg in args[1:]:
            if isinstance(arg, exp.Null):
                continue
            c = self.value(arg)
            if c.kind == SCALAR:
                raise Unsupported("sql_coalesce", "COALESCE with a subquery value")
            types.add(c.sqltype)
            text = f"{text}.fillna({c.text})"
        sqltype = types.pop() if len(types) == 1 else UNKNOWN
        return Code(text, sqltype=sqltype)

    # ----------------------------------------------------------------- masks

    def mask(self, node: exp.Expression, positive: bool = True) -> Code:
        """A boolean Series, True exactly where ``node`` is TRUE (FALSE if not ``positive``)."""
        if isinstance(node, exp.Paren):
            return self.mask(node.this, positive)
        if isinstance(node, exp.Not):
            return self.mask(node.this, not positive)
        if isinstance(node, exp.And | exp.Or):
            is_and = isinstance(node, exp.And) == positive
            left, right = self.mask(node.this, positive), self.mask(node.expression, positive)
            prec = BAND if is_and else BOR
            op = "&" if is_and else "|"
            need = prec if is_and else BAND + 1  # parenthesise `&` inside `|` for readers
            return Code(f"{wrap(left, need)} {op} {wrap(right, need)}", prec=prec)
        if type(node) in _CMP_OPS:
            return self._compare(node, positive)
        if isinstance(node, exp.Is):
            if not isinstance(node.expression, exp.Null):
                raise Unsupported("sql_is", "IS is only supported with NULL")
            operand = self._series(node.this, "IS NULL")
            method = "isna" if positive else "notna"
            return Code(f"{wrap(operand, ATOM)}.{method}()")
        if isinstance(node, exp.In):
            return self._in(node, positive)
        if isinstance(node, exp.Between):
            return self._between(node, positive)
        if isinstance(node, exp.Like):
            return self._like(node, positive)
        if isinstance(node, exp.Escape):
            raise Unsupported("sql_like_escape", "LIKE ... ESCAPE is not supported")
        if isinstance(node, exp.ILike):
            raise Unsupported("sql_ilike", "ILIKE is not supported")
        if isinstance(node, exp.Exists):
            if self.scope.exists is None:
                raise Unsupported("sql_exists_subquery", "EXISTS is not supported here")
            # EXISTS (... WHERE inner = outer AND local) is outer IN (inner values), where
            # NULL never matches; EXISTS is never NULL, so NOT EXISTS is its plain negation.
            outer, values = self.scope.exists(node)
            operand = self._series(outer, "EXISTS")
            isin = f"{wrap(operand, ATOM)}.isin({values}.dropna())"
            return Code(isin if positive else f"~{isin}", prec=ATOM if positive else UNARY)
        raise Unsupported(
            "sql_non_boolean_predicate", f"{node.sql()!r} is not a supported condition"
        )

    def _series(self, node: exp.Expression, what: str) -> Code:
        code = self.value(node)
        if code.kind != SERIES:
            raise Unsupported("sql_constant_predicate", f"{what} on a constant")
        return code

    @staticmethod
    def _notna(code: Code) -> str | None:
        if code.kind == SERIES:
            return f"{wrap(code, ATOM)}.notna()"
        if code.kind == SCALAR:
            return f"pd.notna({code.text})"
        return None

    def _compare(self, node: exp.Expression, positive: bool) -> Code:
        for side in (node.this, node.expression):
            if isinstance(side, exp.Null):
                raise Unsupported("sql_null_comparison", "comparison with NULL is never true")
        left, right = self.value(node.this), self.value(node.expression)
        if SERIES not in (left.kind, right.kind):
            raise Unsupported("sql_constant_predicate", "a condition without a column")
        if {left.sqltype, right.sqltype} == {TEXT, INT} or {left.sqltype, right.sqltype} == {
            TEXT,
            REAL,
        }:
            raise Unsupported("sql_mixed_type_comparison", "text compared with a number")
        self._check_text_collation(left, right)
        op = _CMP_OPS[type(node)]
        if not positive:
            op = _NEGATED[op]
        text = f"{wrap(left, CMP + 1)} {op} {wrap(right, CMP + 1)}"
        code = Code(text, prec=CMP)
        if op != "!=":
            return code
        guards = [g for g in (self._notna(left), self._notna(right)) if g]
        return Code(" & ".join([f"({text})", *guards]), prec=BAND)

    def _check_text_collation(self, *codes: Code) -> None:
        """MySQL compares text under a (usually case-insensitive) collation: refuse."""
        if not self.sem.like_supported and any(c.sqltype == TEXT for c in codes):
            raise Unsupported(
                "sql_text_collation", "text comparisons depend on the column collation here"
            )

    def _in(self, node: exp.In, positive: bool) -> Code:
        operand = self._series(node.this, "IN")
        subquery = node.args.get("query")
        if subquery is not None:
            if self.scope.subquery is None:
                raise Unsupported("sql_subquery_context", "a subquery is not allowed here")
            values = self.scope.subquery(subquery, "values")
            isin = f"{wrap(operand, ATOM)}.isin({values})"
            if positive:
                return Code(isin)
            notna = self._notna(operand)
            return Code(f"(~{isin} & {notna} & {values}.notna().all()) | {values}.empty", prec=BOR)
        items: list[object] = []
        for item in node.expressions:
            if isinstance(item, exp.Null):
                raise Unsupported("sql_null_in_list", "NULL inside an IN list")
            code = self.value(item)
            if code.kind != LITERAL:
                raise Unsupported("sql_in_expression", "IN lists must hold constants")
            self._check_text_collation(code)
            items.append(code.value)
        listed = "[" + ", ".join(py_literal(v) for v in items) + "]"
        isin = f"{wrap(operand, ATOM)}.isin({listed})"
        if positive:
            return Code(isin)
        return Code(f"~{isin} & {self._notna(operand)}", prec=BAND)

    def _between(self, node: exp.Between, positive: bool) -> Code:
        if node.args.get("symmetric"):
            raise Unsupported("sql_between_symmetric", "BETWEEN SYMMETRIC")
        operand = self._series(node.this, "BETWEEN")
        low, high = self.value(node.args["low"]), self.value(node.args["high"])
        self._check_text_collation(low, high)
        if positive:
            return Code(f"{wrap(operand, ATOM)}.between({low.text}, {high.text})")
        lt = f"{wrap(operand, CMP + 1)} < {wrap(low, CMP + 1)}"
        gt = f"{wrap(operand, CMP + 1)} > {wrap(high, CMP + 1)}"
        code = Code(f"({lt}) | ({gt})", prec=BOR)
        for bound in (low, high):
            if bound.kind != LITERAL:  # a NULL bound makes the comparison NULL, not FALSE
                code = Code(f"{wrap(code, BAND)} & {self._notna(bound)}", prec=BAND)
        return code

    def _like(self, node: exp.Like, positive: bool) -> Code:
        if node.args.get("negate"):
            positive = not positive
        if node.args.get("escape") is not None:
            raise Unsupported("sql_like_escape", "LIKE ... ESCAPE is not supported")
        pattern = node.expression
        if not (isinstance(pattern, exp.Literal) and pattern.is_string):
            raise Unsupported("sql_like_pattern", "LIKE needs a string literal pattern")
        operand = self._series(node.this, "LIKE")
        pat: str = pattern.this
        has_letters = any(ch.isalpha() for ch in pat)
        if not self.sem.like_supported and has_letters:
            raise Unsupported(
                "sql_like_collation", "LIKE with letters depends on the column collation here"
            )
        # SQLite folds the case of ASCII letters only; (?a) makes (?i) do the same in Python.
        ci = self.sem.like_ascii_ci and any(ch.isascii() and ch.isalpha() for ch in pat)
        s = f"{wrap(operand, ATOM)}.str"
        na = "False" if positive else "True"
        neg = "" if positive else "~"
        core = pat.strip("%")
        simple = "_" not in pat and "%" not in core and not ci and core
        if simple and pat == core:
            op = "==" if positive else "!="
            text = f"{wrap(operand, CMP + 1)} {op} {py_str(core)}"
            if positive:
                return Code(text, prec=CMP)
            return Code(f"({text}) & {self._notna(operand)}", prec=BAND)
        if simple and pat == core + "%" and not pat.startswith("%"):
            return Code(f"{neg}{s}.startswith({py_str(core)}, na={na})", prec=UNARY)
        if simple and pat == "%" + core and not pat.endswith("%"):
            return Code(f"{neg}{s}.endswith({py_str(core)}, na={na})", prec=UNARY)
        if simple and pat == "%" + core + "%":
            return Code(f"{neg}{s}.contains({py_str(core)}, regex=False, na={na})", prec=UNARY)
        regex = "".join(".*" if ch == "%" else "." if ch == "_" else re.escape(ch) for ch in pat)
        flags = "(?ais)" if ci else "(?s)"
        return Code(f'{neg}{s}.fullmatch(r"{flags}{regex}", na={na})', prec=UNARY)


def _positive_int(node: exp.Expression | None) -> int | None:
    if isinstance(node, exp.Literal) and not node.is_string and node.this.isdigit():
        return int(node.this)
    return None


def _num_type(left: Code, right: Code) -> str:
    types = {left.sqltype, right.sqltype}
    if REAL in types:
        return REAL
    if types == {INT}:
        return INT
    return UNKNOWN


def query_name(column: str) -> str:
    """A column name as ``DataFrame.query`` reads it (backticks when not an identifier)."""
    return column if is_identifier(column) else f"`{column}`"


class QueryCompiler:
    """Writes a predicate as a ``DataFrame.query`` string (same NULL rules as masks)."""

    def __init__(self, masks: ExprCompiler) -> None:
        self.masks = masks

    def query(self, node: exp.Expression, positive: bool = True) -> tuple[str, int]:
        """The query text and its precedence, True exactly where ``node`` is TRUE."""
        if isinstance(node, exp.Paren):
            return self.query(node.this, positive)
        if isinstance(node, exp.Not):
            return self.query(node.this, not positive)
        if isinstance(node, exp.And | exp.Or):
            is_and = isinstance(node, exp.And) == positive
            prec = AND if is_and else OR
            lt, lp = self.query(node.this, positive)
            rt, rp = self.query(node.expression, positive)
            op = "and" if is_and else "or"
            need = prec if is_and else AND + 1  # parenthesise `and` inside `or` for readers
            return f"{_par(lt, lp, need)} {op} {_par(rt, rp, need)}", prec
        if type(node) in _CMP_OPS:
            left, right = self.operand(node.this), self.operand(node.expression)
            if left[1] is None and right[1] is None:
                raise Unsupported("sql_constant_predicate", "a condition without a column")
            op = _CMP_OPS[type(node)]
            if not positive:
                op = _NEGATED[op]
            self.masks._compare(node, True)  # the same checks as the mask form
            text = f"{left[0]} {op} {right[0]}"
            if op != "!=":
                return text, CMP
            guards = [f"{g}.notna()" for g in (left[1], right[1]) if g]
            return " and ".join([text, *guards]), AND
        if isinstance(node, exp.Is) and isinstance(node.expression, exp.Null):
            name = self.column(node.this)
            return f"{name}.{'isna' if positive else 'notna'}()", ATOM
        if isinstance(node, exp.In) and node.args.get("query") is None:
            name = self.column(node.this)
            self.masks._in(node, True)  # validates the list
            items = ", ".join(_query_literal(i) for i in node.expressions)
            if positive:
                return f"{name} in [{items}]", CMP
            return f"{name} not in [{items}] and {name}.notna()", AND
        if isinstance(node, exp.Between) and not node.args.get("symmetric"):
            name = self.column(node.this)
            low, high = self.operand(node.args["low"]), self.operand(node.args["high"])
            if low[1] or high[1]:
                raise _NotQueryable
            if positive:
                return f"{low[0]} <= {name} <= {high[0]}", CMP
            return f"{name} < {low[0]} or {name} > {high[0]}", OR
        if isinstance(node, exp.Like):
            self.column(node.this)
            code = self.masks._like(node, positive)
            frame = re.escape(self.masks.scope.frame)
            text = re.sub(
                frame + r'\["((?:[^"\\]|\\.)*)"\]', lambda m: query_name(m.group(1)), code.text
            )
            if "[" in text.split(".str")[0]:
                raise _NotQueryable
            text = text.replace(" & ", " and ").replace("~", "not ")
            return text, AND if " and " in text else NOT if text.startswith("not ") else ATOM
        raise _NotQueryable

    def column(self, node: exp.Expression) -> str:
        """A plain column operand as the query names it."""
        while isinstance(node, exp.Paren):
            node = node.this
        if not isinstance(node, exp.Column):
            raise _NotQueryable
        return query_name(self.masks.scope.resolve(node))

    def operand(self, node: exp.Expression) -> tuple[str, str | None]:
        """A comparison operand: (query text, column name or None for a constant)."""
        while isinstance(node, exp.Paren):
            node = node.this
        if isinstance(node, exp.Column):
            name = self.column(node)
            return name, name
        if isinstance(node, exp.Literal | exp.Neg) and not isinstance(node, exp.Null):
            code = self.masks.value(node)
            if code.kind == LITERAL:
                return _query_literal_value(code.value), None
        raise _NotQueryable


class _NotQueryable(Exception):
    """A predicate that a query string cannot express; the caller writes a mask instead."""


def _par(text: str, prec: int, min_prec: int) -> str:
    return f"({text})" if prec < min_prec else text


def _query_literal(node: exp.Expression) -> str:
    if isinstance(node, exp.Literal):
        if node.is_string:
            return _query_literal_value(node.this)
        return node.this
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal):
        return "-" + node.this.this
    raise _NotQueryable


def _query_literal_value(value: object) -> str:
    if isinstance(value, str):
        if "'" in value or "\\" in value or "`" in value:
            raise _NotQueryable
        return f"'{value}'"
    return repr(value)


NotQueryable = _NotQueryable
