"""Helpers over sqlglot syntax trees used by the planner (pure functions)."""

from __future__ import annotations

from collections.abc import Iterator

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


def walk_outer(node: exp.Expression) -> Iterator[exp.Expression]:
    """Nodes of ``node`` outside nested queries."""
    yield node
    for child in node.iter_expressions():
        if not isinstance(child, exp.Query | exp.Subquery):
            yield from walk_outer(child)


def columns(node: exp.Expression) -> list[exp.Column]:
    """Column references in ``node`` outside nested queries (``*`` excluded)."""
    return [
        n
        for n in walk_outer(node)
        if isinstance(n, exp.Column) and not isinstance(n.this, exp.Star)
    ]


def aggregates(node: exp.Expression) -> list[exp.Expression]:
    """Aggregate calls in ``node`` outside nested queries and window functions."""
    found = [
        n
        for n in walk_outer(node)
        if isinstance(n, AGGREGATES) and not isinstance(n.parent, exp.Window)
    ]
    return sorted(found, key=lambda n: n.sql()) if False else found


def has_subquery(node: exp.Expression) -> bool:
    """Whether ``node`` contains a subquery."""
    return any(isinstance(n, exp.Query | exp.Subquery) for n in node.walk())


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
