"""Result column names as SQLite gives them.

SQLite names a result column by its alias; a column reference by the column's declared name;
any other expression by its exact source text (``count( * )``, ``price*2``). The source text
is recovered from sqlglot's tokens: each SELECT list is split at its top-level commas.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp
from sqlglot.tokens import Token, TokenType

_LIST_END = {
    TokenType.FROM,
    TokenType.WHERE,
    TokenType.GROUP_BY,
    TokenType.HAVING,
    TokenType.ORDER_BY,
    TokenType.LIMIT,
    TokenType.OFFSET,
    TokenType.WINDOW,
    TokenType.UNION,
    TokenType.INTERSECT,
    TokenType.EXCEPT,
    TokenType.SEMICOLON,
}
_OPEN = {TokenType.L_PAREN, TokenType.L_BRACKET}
_CLOSE = {TokenType.R_PAREN, TokenType.R_BRACKET}


@dataclass(frozen=True)
class SelectList:
    """The character spans ``(start, end)`` (end exclusive) of the items of one SELECT list."""

    items: list[tuple[int, int]]


def select_lists(tokens: list[Token]) -> list[SelectList]:
    """Every SELECT list in the token stream, with the span of each item."""
    found: list[SelectList] = []
    for i, tok in enumerate(tokens):
        if tok.token_type != TokenType.SELECT:
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].token_type in (TokenType.DISTINCT, TokenType.ALL):
            j += 1
        items: list[tuple[int, int]] = []
        depth, first, last = 0, None, None
        while j < len(tokens):
            t = tokens[j]
            if depth == 0 and (t.token_type in _LIST_END or t.token_type in _CLOSE):
                break
            if t.token_type in _OPEN:
                depth += 1
            elif t.token_type in _CLOSE:
                depth -= 1
            if depth == 0 and t.token_type == TokenType.COMMA:
                if first is not None and last is not None:
                    items.append((first, last))
                first = last = None
            else:
                first = t.start if first is None else first
                last = t.end + 1
            j += 1
        if first is not None and last is not None:
            items.append((first, last))
        found.append(SelectList(items))
    return found


def _leaf_starts(node: exp.Expression) -> list[int]:
    """Start offsets of the tokens inside ``node`` that sqlglot recorded, subqueries excluded."""
    starts: list[int] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur is not node and isinstance(cur, exp.Query):
            continue
        start = cur.meta.get("start") if cur.meta else None
        if isinstance(start, int):
            starts.append(start)
        stack.extend(cur.iter_expressions())
    return starts


def item_spans(select: exp.Select, lists: list[SelectList], sql: str) -> list[str] | None:
    """The source text of each item of ``select``'s list, or None when it cannot be found."""
    starts = [s for p in select.expressions for s in _leaf_starts(p)]
    if not starts:
        return None
    anchor = min(starts)
    best: SelectList | None = None
    for sl in lists:
        if sl.items and sl.items[0][0] <= anchor < sl.items[-1][1]:
            width = sl.items[-1][1] - sl.items[0][0]
            if best is None or width < best.items[-1][1] - best.items[0][0]:
                best = sl
    if best is None or len(best.items) != len(select.expressions):
        return None
    return [sql[a:b] for a, b in best.items]
