"""Helpers over sqlglot syntax trees used by the planner (pure functions)."""

from __future__ import annotations

from sqlglot import exp

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.sql_pandas.expressions import AGGREGATES


def canon(node: exp.Expression) -> exp.Expression:
    """``node`` without enclosing parentheses."""
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def conjuncts(node: exp.Expression) -> list[exp.Expression]:
    """The operands of a chain of ANDs."""
    node = canon(node)
    if isinstance(node, exp.And):
        return conjuncts(node.this) + conjuncts(node.expression)
    return [node]


def factor_or(node: exp.Expression) -> exp.Expression:
    """``(a AND x) OR (a AND y)`` -> ``a AND (x OR y)`` (exact in SQL's three-valued logic)."""
    inner = canon(node)
    if not isinstance(inner, exp.Or):
        return node
    branches = disjuncts(inner)
    parts = [conjuncts(b) for b in branches]
    common = [c for c in parts[0] if all(any(c == d for d in p) for p in parts[1:])]
    if not common:
        return node
    rests = [[c for c in p if not any(c == k for k in common)] for p in parts]
    if any(not r for r in rests):
        return exp.and_(*[c.copy() for c in common])
    ors = exp.or_(*[exp.and_(*[c.copy() for c in r]) for r in rests])
    return exp.and_(*[c.copy() for c in common], ors)


def disjuncts(node: exp.Expression) -> list[exp.Expression]:
    """The operands of a chain of ORs."""
    node = canon(node)
    if isinstance(node, exp.Or):
        return disjuncts(node.this) + disjuncts(node.expression)
    return [node]


# The base class of sqlglot's nodes (``Expr`` since sqlglot 28, ``Expression`` before).
NODE: type = getattr(exp, "Expr", exp.Expression)
_NESTED = (exp.Query, exp.Subquery)


def children(node: exp.Expression) -> list[exp.Expression]:
    """The child nodes of ``node`` in sqlglot's order (as ``iter_expressions``), without a
    generator per node: the walks below run on parts of a query several times each."""
    out: list[exp.Expression] = []
    for value in node.args.values():
        if isinstance(value, NODE):
            out.append(value)
        elif type(value) is list:
            out += [v for v in value if isinstance(v, NODE)]
    return out


def plain_column(node: exp.Expression) -> bool:
    """Whether ``node`` is a column reference whose parts are all names or ``*`` (the most
    common SELECT item): no aggregate, window or subquery can be in it, and the walks that
    look for them need not run."""
    if type(node) is not exp.Column:
        return False
    for value in node.args.values():
        if isinstance(value, NODE) and type(value) not in _NAME_PARTS:
            return False
        if type(value) is list:
            return False
    return True


_NAME_PARTS = (exp.Identifier, exp.Star)


def walk_all(node: exp.Expression) -> list[exp.Expression]:
    """Every node of ``node``, nested queries included, breadth-first (as ``node.walk()``)."""
    found = [node]
    append, extend = found.append, found.extend
    for cur in found:  # the list grows while it is read: a queue
        for value in cur.args.values():
            if isinstance(value, NODE):
                append(value)
            elif type(value) is list:
                extend([v for v in value if isinstance(v, NODE)])
    return found


def walk_outer(node: exp.Expression) -> list[exp.Expression]:
    """Nodes of ``node`` outside nested queries, depth-first in pre-order."""
    found: list[exp.Expression] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        found.append(cur)
        inner: list[exp.Expression] = []
        for value in cur.args.values():
            if isinstance(value, NODE):
                if not isinstance(value, _NESTED):
                    inner.append(value)
            elif type(value) is list:
                inner += [v for v in value if isinstance(v, NODE) and not isinstance(v, _NESTED)]
        if inner:
            inner.reverse()
            stack += inner
    return found


def columns(node: exp.Expression) -> list[exp.Column]:
    """Column references in ``node`` outside nested queries (``*`` excluded)."""
    return [
        n
        for n in walk_outer(node)
        if isinstance(n, exp.Column) and not isinstance(n.this, exp.Star)
    ]


def aggregates(node: exp.Expression) -> list[exp.Expression]:
    """Aggregate calls in ``node`` outside nested queries and window functions."""
    return [
        n
        for n in walk_outer(node)
        if isinstance(n, AGGREGATES) and not isinstance(n.parent, exp.Window)
    ]


class Walks:
    """:func:`columns` and :func:`aggregates` for one translation, each part of the query
    walked once however often the planner asks (entries hold their node, so that an id is
    not reused while it is a key). The lists are shared: callers do not change them."""

    def __init__(self) -> None:
        self._nodes: dict[int, tuple[exp.Expression, list[exp.Expression]]] = {}
        self._columns: dict[int, list[exp.Column]] = {}
        self._aggregates: dict[int, list[exp.Expression]] = {}

    def _outer(self, node: exp.Expression) -> list[exp.Expression]:
        known = self._nodes.get(id(node))
        if known is not None and known[0] is node:
            return known[1]
        nodes = walk_outer(node)
        self._nodes[id(node)] = (node, nodes)
        self._columns.pop(id(node), None)
        self._aggregates.pop(id(node), None)
        return nodes

    def columns(self, node: exp.Expression) -> list[exp.Column]:
        """As :func:`columns`."""
        nodes = self._outer(node)
        found = self._columns.get(id(node))
        if found is None:
            found = [
                n for n in nodes if isinstance(n, exp.Column) and not isinstance(n.this, exp.Star)
            ]
            self._columns[id(node)] = found
        return found

    def aggregates(self, node: exp.Expression) -> list[exp.Expression]:
        """As :func:`aggregates`."""
        nodes = self._outer(node)
        found = self._aggregates.get(id(node))
        if found is None:
            found = [
                n
                for n in nodes
                if isinstance(n, AGGREGATES) and not isinstance(n.parent, exp.Window)
            ]
            self._aggregates[id(node)] = found
        return found


def has_subquery(node: exp.Expression) -> bool:
    """Whether ``node`` is or contains a subquery."""
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, _NESTED):
            return True
        stack.extend(children(cur))
    return False


def int_literal(node: exp.Expression | None, what: str) -> int | None:
    """The whole number a LIMIT/OFFSET literal holds (None when absent)."""
    if node is None:
        return None
    neg = False
    if isinstance(node, exp.Neg):
        neg, node = True, node.this
    if not (isinstance(node, exp.Literal) and not node.is_string):
        raise Unsupported("sql_limit_expression", f"{what} must be a whole number")
    try:
        value = int(node.this)
    except ValueError:
        raise Unsupported("sql_limit_expression", f"{what} must be a whole number") from None
    return -value if neg else value
