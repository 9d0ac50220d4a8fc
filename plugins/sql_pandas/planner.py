"""Compiles a parsed SELECT statement into a sequence of pandas statements.

One :class:`Translator` handles one query. Each SELECT becomes a few statements on one
variable (``result`` for the outermost query, the CTE's name for a CTE), in SQL's logical
order: FROM/JOIN, WHERE, GROUP BY/aggregates, HAVING, SELECT list, DISTINCT, ORDER BY,
LIMIT/OFFSET. Every step keeps SQL's semantics exactly or raises :class:`Unsupported`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import exp
from sqlglot.tokens import Token

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.sql_pandas.dialects import Semantics
from zerolayer.plugins.sql_pandas.expressions import (
    ExprCompiler,
    NotQueryable,
    QueryCompiler,
    Scope,
    agg_name,
)
from zerolayer.plugins.sql_pandas.naming import SelectList, item_spans, select_lists
from zerolayer.plugins.sql_pandas.pycode import (
    ATOM,
    SERIES,
    Code,
    col_access,
    is_identifier,
    kwargs,
    one_or_list,
    py_str,
    str_list,
    wrap,
)
from zerolayer.plugins.sql_pandas.sqltree import (
    Walks,
    aggregates,
    canon,
    conjuncts,
    factor_or,
    has_subquery,
    int_literal,
    plain_column,
    walk_all,
)

_ALLOWED_CLAUSES = {
    "expressions",
    "from_",
    "joins",
    "where",
    "group",
    "having",
    "order",
    "limit",
    "offset",
    "distinct",
    "with_",
    "kind",
}
RESERVED_NAMES = {"pd", "np", "result", "re"}


@dataclass
class Relation:
    """A frame the generated code has built: its variable and its SQL column names."""

    var: str
    columns: list[str] | None  # None: a base table whose columns are not known


@dataclass
class Source:
    """One FROM/JOIN item of a SELECT."""

    alias: str  # lower-case qualifier
    rel: Relation
    nullable: bool = False  # the NULL-extended side of an outer join
    pandas: dict[str, str] = field(default_factory=dict)  # SQL column -> working column

    def lookup(self, name: str) -> str | None:
        """The declared SQL column name matching ``name`` (case-insensitive), if known."""
        if self.rel.columns is None:
            return None
        low = name.lower()
        for col in self.rel.columns:
            if col.lower() == low:
                return col
        return None


@dataclass
class Item:
    """One output column of a SELECT: its SQL expression and its result name."""

    name: str
    node: exp.Expression
    alias: bool  # the name came from AS


class Translator:
    """Turns one parsed query into pandas statements (see module docstring)."""

    def __init__(
        self,
        sql: str,
        sem: Semantics,
        schema: dict[str, list[str]],
        table_vars: dict[str, str],
        tokens: list[Token],
        use_query: bool,
    ) -> None:
        self.sql = sql
        self.sem = sem
        self.schema = {k.lower(): v for k, v in schema.items()}
        self.table_vars = table_vars
        self.tokens = tokens  # the query's tokens: the source text of unaliased items
        self._lists: list[SelectList] | None = None
        self.walks = Walks()
        self._resolved: dict[tuple[int, int], tuple[exp.Column, list[Source], Source, str]] = {}
        self.use_query = use_query
        self.lines: list[str] = []
        self.used: set[str] = set(RESERVED_NAMES) | set(table_vars.values())
        self.ctes: dict[str, Relation] = {}
        self.frame_cols: list[str] | None = None  # columns of the working frame, when known
        self.last_filter: tuple[int, str, str, str] | None = None
        self.group_keys: list[str] = []  # GROUP BY columns of the current SELECT
        self.preamble: dict[str, str] = {}  # helper definitions the code needs, by name
        self._drop_after_projection: list[str] = []  # ORDER BY helper columns
        self.scope_frame = ""
        self.outer: list[list[Source]] = []

    # ---------------------------------------------------------------- helpers

    def emit(self, line: str) -> None:
        """Append one statement."""
        self.lines.append(line)

    def emit_call(self, target: str, head: str, args: list[str], tail: str = "") -> None:
        """``target = head(args)tail``, one argument a line when it is too long."""
        line = f"{target} = {head}({', '.join(args)}){tail}"
        if len(line) <= 99 or not args:
            self.emit(line)
            return
        inner = "".join(f"    {a},\n" for a in args)
        self.emit(f"{target} = {head}(\n{inner}){tail}")

    def select_lists(self) -> list[SelectList]:
        """The query's SELECT lists, read from its tokens when first needed."""
        if self._lists is None:
            self._lists = select_lists(self.tokens)
        return self._lists

    def fresh(self, base: str) -> str:
        """A variable name not used yet, derived from ``base``."""
        base = base if is_identifier(base) else "frame"
        name, n = base, 1
        while name in self.used:
            n += 1
            name = f"{base}_{n}"
        self.used.add(name)
        return name

    # ----------------------------------------------------------------- queries

    def query(self, node: exp.Expression, target: str) -> Relation:
        """Compile a query expression into ``target``."""
        if isinstance(node, exp.Subquery):
            return self.query(node.this, target)
        if isinstance(node, exp.Union):
            return self.union(node, target)
        if isinstance(node, exp.SetOperation):
            raise Unsupported(
                "sql_set_operation", f"{node.key.upper()} of queries is not supported"
            )
        if not isinstance(node, exp.Select):
            raise Unsupported("sql_not_a_query", f"{node.key.upper()} is not a SELECT query")
        return self.select(node, target)

    def union(self, node: exp.Union, target: str) -> Relation:
        """UNION [ALL]: ``pd.concat`` of both sides (named by the left), deduplicated for
        UNION; a trailing ORDER BY / LIMIT applies to the whole result."""
        for key, val in node.args.items():
            if val and key not in ("this", "expression", "distinct", "order", "limit", "offset"):
                raise Unsupported(f"sql_clause_{key.strip('_')}", f"{key} is not supported")
        parts: list[Relation] = []
        for side in (node.this, node.expression):
            side = side.this if isinstance(side, exp.Subquery) and not side.alias else side
            if isinstance(side, exp.Union) and not side.args.get("order"):
                parts.append(self.union(side, self.fresh("combined")))
            elif isinstance(side, exp.Select):
                parts.append(self.select(side, self.fresh("part")))
            else:
                raise Unsupported("sql_set_operation", f"{side.key.upper()} inside UNION")
        left, right = parts
        if left.columns is None or right.columns is None:
            raise Unsupported("sql_star_needs_schema", "`*` in a UNION needs the column list")
        if len(left.columns) != len(right.columns):
            raise Unsupported("sql_union_columns", "UNION sides with different column counts")
        other = right.var
        if right.columns != left.columns:
            other = f"{right.var}.set_axis({left.var}.columns, axis=1)"
        self.emit(f"{target} = pd.concat([{left.var}, {other}], ignore_index=True)")
        if node.args.get("distinct"):
            self.emit(f"{target} = {target}.drop_duplicates(ignore_index=True)")
        cur = target
        order = node.args.get("order")
        if order is not None:
            keys: list[tuple[str, bool, bool]] = []
            for ordered in order.expressions:
                term = ordered.this
                if isinstance(term, exp.Literal) and not term.is_string:
                    pos = int(term.this)
                    if not 1 <= pos <= len(left.columns):
                        raise Unsupported("sql_order_by_position", f"ORDER BY {pos}")
                    name = left.columns[pos - 1]
                elif isinstance(term, exp.Column) and not term.table:
                    hits = [c for c in left.columns if c.lower() == term.name.lower()]
                    if len(hits) != 1:
                        raise Unsupported("sql_union_order_by", "ORDER BY a non-result column")
                    name = hits[0]
                else:
                    raise Unsupported("sql_union_order_by", "ORDER BY expressions after UNION")
                asc = not ordered.args.get("desc")
                keys.append((name, asc, bool(ordered.args.get("nulls_first"))))
            self.group_keys = []
            cur = self._sort(cur, keys, target)
        cur = self._limit(node, cur, target, order is not None, [], grouped=order is None)
        if cur != target:
            self.emit(f"{target} = {cur}")
        return Relation(target, list(left.columns))

    def select(self, node: exp.Select, target: str) -> Relation:
        """Compile one SELECT into statements that bind ``target``."""
        for key, val in node.args.items():
            if val and key not in _ALLOWED_CLAUSES:
                raise Unsupported(f"sql_clause_{key.strip('_')}", f"{key} is not supported")
        if node.args.get("kind"):
            raise Unsupported("sql_select_kind", "SELECT AS STRUCT/VALUE is not supported")
        with_ = node.args.get("with_")
        if with_ is not None:
            self._ctes(with_)
        self.group_keys = []
        distinct = node.args.get("distinct")
        if distinct is not None and distinct.args.get("on") is not None:
            raise Unsupported("sql_distinct_on", "DISTINCT ON is not supported")
        sources = self._sources(node)
        items = self._items(node, sources)
        names = [i.name.lower() for i in items]
        if len(set(names)) != len(names):
            raise Unsupported(
                "sql_duplicate_output_names", "the result would have two columns of one name"
            )
        cur, sources, residual = self._from(node, sources, items)
        self.frame_cols = sources[0].rel.columns if len(sources) == 1 else None
        scope = self._scope(cur, sources)
        compiler = ExprCompiler(scope, self.sem)
        conds = residual
        if conds:
            cur = self._filter(cur, conds, compiler, target)
            scope.frame = cur
        grouped = bool(node.args.get("group")) or self._has_aggregates(node, items)
        order = node.args.get("order")
        if grouped:
            cur, compiler = self._aggregate(node, items, sources, cur, target)
            having = node.args.get("having")
            if having is not None:
                cur = self._filter(cur, [having.this], compiler, target, allow_query=False)
                compiler.scope.frame = cur
        elif node.args.get("having") is not None:
            raise Unsupported("sql_having_without_group", "HAVING without GROUP BY")
        if order is None and not grouped and distinct is None:
            order = _window_order(items)
        post_sort = grouped or distinct is not None
        if order is not None and not post_sort:
            cur = self._sort_source(order, items, compiler, cur, target)
            compiler.scope.frame = cur
        hidden: list[tuple[str, Code]] = []
        keys: list[tuple[str, bool, bool]] = []
        outputs = [
            (
                i.name,
                Code("*")
                if isinstance(i.node, exp.Star | exp.Column) and i.name == "*"
                else compiler.value(i.node),
            )
            for i in items
        ]
        if order is not None and post_sort:
            keys, hidden = self._post_sort_keys(order, items, outputs, compiler, distinct)
        cur = self._project(cur, outputs + hidden, target, sources)
        if distinct is not None:
            self.emit(f"{target} = {cur}.drop_duplicates()")
            cur = target
        if keys:
            cur = self._sort(cur, keys, target)
            if hidden:
                self.emit(f"{target} = {cur}.drop(columns={str_list([h for h, _ in hidden])})")
        cur = self._limit(
            node, cur, target, ordered=order is not None, sources=sources, grouped=grouped
        )
        if cur != target:
            self.emit(f"{target} = {cur}")
        if len(items) == 1 and items[0].name == "*":
            return Relation(target, None)
        return Relation(target, [i.name for i in items])

    # ------------------------------------------------------------------- FROM

    def _ctes(self, with_: exp.With) -> None:
        if with_.args.get("recursive"):
            raise Unsupported("sql_recursive_cte", "recursive CTEs are not supported")
        for cte in with_.expressions:
            alias = cte.args.get("alias")
            if alias is not None and alias.args.get("columns"):
                raise Unsupported("sql_cte_column_list", "CTE column lists are not supported")
            name = cte.alias_or_name
            low = name.lower()
            if not is_identifier(low) or low in self.used:
                raise Unsupported("sql_cte_name", f"the CTE name {name!r} is not usable")
            self.used.add(low)
            self.ctes[low] = self.query(cte.this, low)

    def _source(self, node: exp.Expression, nullable: bool = False) -> Source:
        if isinstance(node, exp.Table):
            if node.args.get("db") or node.args.get("catalog"):
                raise Unsupported("sql_qualified_table", "schema-qualified tables")
            if not isinstance(node.this, exp.Identifier):
                raise Unsupported("sql_table_function", "table functions are not supported")
            name = node.name
            low = name.lower()
            alias = (node.alias or name).lower()
            if node.args.get("alias") is not None and node.args["alias"].args.get("columns"):
                raise Unsupported("sql_alias_columns", "column lists on table aliases")
            if low in self.ctes:
                return Source(alias, self.ctes[low], nullable)
            var = self.table_vars[low]
            cols = self.schema.get(low)
            return Source(alias, Relation(var, list(cols) if cols else None), nullable)
        if isinstance(node, exp.Subquery):
            alias = node.alias
            if not alias:
                raise Unsupported("sql_subquery_alias", "a FROM subquery needs an alias")
            if node.args["alias"].args.get("columns"):
                raise Unsupported("sql_alias_columns", "column lists on subquery aliases")
            var = self.fresh(alias.lower())
            self.outer.append([])
            try:
                rel = self.query(node.this, var)
            finally:
                self.outer.pop()
            return Source(alias.lower(), rel, nullable)
        raise Unsupported("sql_from_item", f"{node.key.upper()} in FROM is not supported")

    def _sources(self, node: exp.Select) -> list[Source]:
        from_ = node.args.get("from_")
        if from_ is None:
            raise Unsupported("sql_select_without_from", "SELECT without FROM")
        sources = [self._source(from_.this)]
        for join in node.args.get("joins") or []:
            side = (join.args.get("side") or "").upper()
            sources.append(self._source(join.this, nullable=side == "LEFT"))
        aliases = [s.alias for s in sources]
        if len(set(aliases)) != len(aliases):
            raise Unsupported("sql_duplicate_alias", "two FROM items with one name")
        return sources

    def _items(self, node: exp.Select, sources: list[Source]) -> list[Item]:
        items: list[Item] = []
        spans: list[str] | None = None
        for pos, proj in enumerate(node.expressions):
            if isinstance(proj, exp.Star) or (
                isinstance(proj, exp.Column) and isinstance(proj.this, exp.Star)
            ):
                qual = proj.table.lower() if isinstance(proj, exp.Column) else ""
                chosen = [s for s in sources if not qual or s.alias == qual]
                if not chosen:
                    raise Unsupported("sql_unknown_table", f"no FROM item named {qual!r}")
                for src in chosen:
                    if src.rel.columns is None:
                        if len(sources) == 1 and len(node.expressions) == 1:
                            items.append(Item("*", proj, False))
                            continue
                        raise Unsupported(
                            "sql_star_needs_schema",
                            "`*` with other items or joins needs the table's column list",
                        )
                    for col in src.rel.columns:
                        column = exp.column(col, table=src.alias, quoted=True)
                        items.append(Item(col, column, False))
                continue
            if isinstance(proj, exp.Alias):
                items.append(Item(proj.alias, proj.this, True))
                continue
            inner = proj
            while isinstance(inner, exp.Paren):
                inner = inner.this
            if isinstance(inner, exp.Column):
                src, col = self._resolve_source(inner, sources)
                items.append(Item(col, proj, False))
                continue
            if spans is None:
                spans = item_spans(node, self.select_lists(), self.sql)
            if spans is None:
                raise Unsupported("sql_column_name", "cannot name an unaliased result column")
            items.append(Item(spans[pos], proj, False))
        return items

    # -------------------------------------------------------------- resolution

    def _resolve_source(self, col: exp.Column, sources: list[Source]) -> tuple[Source, str]:
        """The FROM item a column reference belongs to and its declared SQL name.

        The planner asks for most references several times (filters, join keys, the columns
        each side brings): answers are kept, by the reference and the list of sources
        (both held by the entry, so that neither id can be reused meanwhile).
        """
        key = (id(col), id(sources))
        known = self._resolved.get(key)
        if known is not None and known[0] is col and known[1] is sources:
            return known[2], known[3]
        src, name = self._find_source(col, sources)
        self._resolved[key] = (col, sources, src, name)
        return src, name

    def _find_source(self, col: exp.Column, sources: list[Source]) -> tuple[Source, str]:
        if col.args.get("db") or col.args.get("catalog"):
            raise Unsupported("sql_qualified_column", "schema-qualified column names")
        name = col.name
        qual = col.table.lower()
        if qual:
            for src in sources:
                if src.alias == qual:
                    if src.rel.columns is None:
                        return src, name
                    hit = src.lookup(name)
                    if hit is None:
                        raise Unsupported("sql_unknown_column", f"{qual}.{name} is not known")
                    return src, hit
            if any(s.alias == qual for outer in self.outer for s in outer):
                raise Unsupported(
                    "sql_correlated_subquery", "subqueries that refer to the outer query"
                )
            raise Unsupported("sql_unknown_table", f"no FROM item named {qual!r}")
        hits = [(s, hit) for s in sources if (hit := s.lookup(name)) is not None]
        unknown = [s for s in sources if s.rel.columns is None]
        if len(hits) == 1 and not unknown:
            src, hit = hits[0]
            return src, hit or name
        if len(hits) > 1:
            raise Unsupported("sql_ambiguous_column", f"the column {name!r} is ambiguous")
        if not hits and len(sources) == 1 and unknown:
            return sources[0], name
        if not hits and not unknown:
            if any(s.lookup(name) for outer in self.outer for s in outer):
                raise Unsupported(
                    "sql_correlated_subquery", "subqueries that refer to the outer query"
                )
            raise Unsupported("sql_unknown_column", f"the column {name!r} is not known")
        raise Unsupported(
            "sql_unqualified_column_needs_schema",
            f"cannot tell which table {name!r} belongs to without the table schemas",
        )

    def _scope(self, frame: str, sources: list[Source]) -> Scope:
        def resolve(col: exp.Column) -> str:
            src, name = self._resolve_source(col, sources)
            return src.pandas.get(name, name)

        scope = Scope(frame, resolve, names=self.preamble)
        scope.subquery = lambda node, mode: self._subquery(node, mode, sources)
        scope.exists = lambda node: self._exists(node, sources)
        return scope

    # ------------------------------------------------------------------ joins

    def _from(
        self, node: exp.Select, sources: list[Source], items: list[Item]
    ) -> tuple[str, list[Source], list[exp.Expression]]:
        """Emit the joins; return the working frame, the sources and leftover conditions.

        Inner joins commute, so when every join is inner their ON and WHERE conditions form
        one pool: conditions on one table filter that table before the merge, ``a = b``
        between tables become merge keys (tables are merged in an order where each one is
        keyed to the ones before), and the rest filter the merged frame. With a LEFT JOIN the
        written order is kept and ON conditions keep their outer-join meaning.
        """
        joins = node.args.get("joins") or []
        where = node.args.get("where")
        if not joins:
            return sources[0].rel.var, sources, [where.this] if where is not None else []
        ons: list[list[exp.Expression]] = []
        for join in joins:
            side = (join.args.get("side") or "").upper()
            kind = (join.args.get("kind") or "").upper()
            if side in ("RIGHT", "FULL"):
                raise Unsupported(f"sql_{side.lower()}_join", f"{side} JOIN is not supported")
            if kind not in ("", "INNER", "CROSS", "OUTER"):
                raise Unsupported("sql_join_kind", f"{kind} JOIN is not supported")
            if join.args.get("using"):
                raise Unsupported("sql_join_using", "JOIN ... USING is not supported")
            if join.args.get("method"):
                raise Unsupported("sql_natural_join", "NATURAL joins are not supported")
            on = join.args.get("on")
            ons.append(conjuncts(on) if on is not None else [])
        where_conds = conjuncts(factor_or(where.this)) if where is not None else []
        pushed: dict[str, list[exp.Expression]] = {s.alias: [] for s in sources}
        residual: list[exp.Expression] = []
        all_inner = not any(s.nullable for s in sources)
        pool = where_conds + [c for conds in ons for c in conds] if all_inner else where_conds
        for cond in pool:
            refs = self._cond_sources(cond, sources)
            if len(refs) == 1 and not refs[0].nullable and not has_subquery(cond):
                pushed[refs[0].alias].append(cond)
            else:
                residual.append(cond)
        steps: list[tuple[Source, list[tuple[exp.Column, exp.Column]]]] = []
        if all_inner:
            done, todo = [sources[0]], list(sources[1:])
            while todo:
                pick, keys = todo[0], []
                for cand in todo:
                    keys = [
                        p
                        for c in residual
                        if (p := self._key_pair(c, done, cand, sources)) is not None
                    ]
                    if keys:
                        pick = cand
                        break
                residual = [c for c in residual if self._key_pair(c, done, pick, sources) is None]
                steps.append((pick, keys))
                done.append(pick)
                todo.remove(pick)
        else:
            for i, join_conds in enumerate(ons):
                right = sources[i + 1]
                keys = []
                for cond in join_conds:
                    pair = self._key_pair(cond, sources[: i + 1], right, sources)
                    if pair is not None:
                        keys.append(pair)
                        continue
                    refs = self._cond_sources(cond, sources)
                    if refs == [right]:
                        pushed[right.alias].append(cond)
                    elif right not in refs and not right.nullable:
                        residual.append(cond)
                    else:
                        raise Unsupported("sql_non_equi_join", "join conditions other than a = b")
                steps.append((right, keys))
        # Columns every source must bring (referenced anywhere outside pushed filters).
        key_conds = [exp.EQ(this=a, expression=b) for _, keys in steps for a, b in keys]
        touched = self._column_sources(node, sources, items, residual + key_conds)
        needed: dict[str, list[str]] = {s.alias: [] for s in sources}
        for src, name in touched:
            if name not in needed[src.alias]:
                needed[src.alias].append(name)
        counts: dict[str, int] = {}
        for cols in needed.values():
            for c in cols:
                counts[c.lower()] = counts.get(c.lower(), 0) + 1
        taken: set[str] = set()
        for src in sources:
            for c in needed[src.alias]:
                name = c if counts[c.lower()] == 1 else f"{src.alias}_{c}"
                while name.lower() in taken:
                    name += "_"
                taken.add(name.lower())
                src.pandas[c] = name
        parts = {s.alias: self._join_part(s, needed[s.alias], pushed[s.alias]) for s in sources}
        cur = parts[sources[0].alias]
        target = self.fresh("merged")
        for right, keys in steps:
            part = parts[right.alias]
            if not keys:
                if right.nullable:
                    raise Unsupported("sql_outer_join_without_keys", "LEFT JOIN without keys")
                self.emit_call(target, f"{cur}.merge", [part, 'how="cross"'])
            else:
                lefts, rights = [], []
                for lcol, rcol in keys:
                    lsrc, lname = self._resolve_source(lcol, sources)
                    rsrc, rname = self._resolve_source(rcol, sources)
                    lefts.append(lsrc.pandas[lname])
                    rights.append(rsrc.pandas[rname])
                args = [f"{part}.dropna(subset={str_list(rights)})"]
                if right.nullable:
                    args.append('how="left"')
                args += [f"left_on={one_or_list(lefts)}", f"right_on={one_or_list(rights)}"]
                self.emit_call(target, f"{cur}.merge", args)
            cur = target
        return cur, sources, residual

    def _join_part(self, src: Source, needed: list[str], filters: list[exp.Expression]) -> str:
        """The expression for one source's frame: filtered, cut to its columns, renamed."""
        frame = src.rel.var
        if filters:
            scope = self._scope(frame, [Source(src.alias, src.rel)])
            compiler = ExprCompiler(scope, self.sem)
            query = self._query_text(filters, compiler) if self.use_query else None
            if query is not None:
                frame_expr = f"{frame}.query({py_str(query)})[{str_list(needed)}]"
            else:
                mask = _and_all([compiler.mask(c) for c in filters])
                frame_expr = f"{frame}.loc[{mask.text}, {str_list(needed)}]"
        else:
            frame_expr = f"{frame}[{str_list(needed)}]"
        renames = {c: p for c, p in src.pandas.items() if c != p}
        if renames:
            pairs = ", ".join(f"{py_str(a)}: {py_str(b)}" for a, b in renames.items())
            frame_expr += f".rename(columns={{{pairs}}})"
        return frame_expr

    def _key_pair(
        self, cond: exp.Expression, lefts: list[Source], right: Source, sources: list[Source]
    ) -> tuple[exp.Column, exp.Column] | None:
        """``(left column, right column)`` when ``cond`` is ``a = b`` joining right to lefts."""
        if not isinstance(cond, exp.EQ):
            return None
        a, b = canon(cond.this), canon(cond.expression)
        if not (isinstance(a, exp.Column) and isinstance(b, exp.Column)):
            return None
        sa = self._resolve_source(a, sources)[0]
        sb = self._resolve_source(b, sources)[0]
        if sa is right and sb in lefts:
            return b, a
        if sb is right and sa in lefts:
            return a, b
        return None

    def _cond_sources(self, cond: exp.Expression, sources: list[Source]) -> list[Source]:
        found: list[Source] = []
        for col in self.walks.columns(cond):
            src = self._resolve_source(col, sources)[0]
            if src not in found:
                found.append(src)
        return found

    def _column_sources(
        self,
        node: exp.Select,
        sources: list[Source],
        items: list[Item],
        conds: list[exp.Expression],
    ) -> list[tuple[Source, str]]:
        aliases = {i.name.lower() for i in items if i.alias}
        out: list[tuple[Source, str]] = []
        parts: list[exp.Expression] = [i.node for i in items] + conds
        for key in ("group", "having", "order"):
            if node.args.get(key) is not None:
                parts.append(node.args[key])
        for part in parts:
            for col in self.walks.columns(part):
                if (
                    not col.table
                    and col.name.lower() in aliases
                    and part is not None
                    and (part.key in ("order", "group", "having"))
                ):
                    try:
                        out.append(self._resolve_source(col, sources))
                    except Unsupported:
                        continue
                    continue
                out.append(self._resolve_source(col, sources))
        return out

    # ------------------------------------------------------------------ WHERE

    def _filter(
        self,
        cur: str,
        conds: list[exp.Expression],
        compiler: ExprCompiler,
        target: str,
        allow_query: bool = True,
    ) -> str:
        compiler.scope.frame = cur
        query = self._query_text(conds, compiler) if self.use_query and allow_query else None
        if query is not None:
            self.emit(f"{target} = {cur}.query({py_str(query)})")
            return target
        mask = _and_all([compiler.mask(c) for c in conds])
        self.emit(f"{target} = {cur}[{mask.text}]")
        self.last_filter = (len(self.lines), cur, mask.text, target)
        return target

    @staticmethod
    def _query_text(conds: list[exp.Expression], compiler: ExprCompiler) -> str | None:
        """The ``DataFrame.query`` string that says all of ``conds``, or None where one can't."""
        from zerolayer.plugins.sql_pandas.pycode import AND as PAND

        qc = QueryCompiler(compiler)
        try:
            texts = [qc.query(c) for c in conds]
        except NotQueryable:
            return None
        if len(texts) == 1:
            return texts[0][0]
        return " and ".join(t if p >= PAND else f"({t})" for t, p in texts)

    # --------------------------------------------------------------- GROUP BY

    def _has_aggregates(self, node: exp.Select, items: list[Item]) -> bool:
        parts: list[exp.Expression] = [i.node for i in items]
        if node.args.get("having") is not None:
            parts.append(node.args["having"])
        if node.args.get("order") is not None:
            parts.append(node.args["order"])
        return any(self.walks.aggregates(p) for p in parts if not plain_column(p))

    def _aggregate(
        self,
        node: exp.Select,
        items: list[Item],
        sources: list[Source],
        cur: str,
        target: str,
    ) -> tuple[str, ExprCompiler]:
        pre = ExprCompiler(self._scope(cur, sources), self.sem)
        # GROUP BY keys: columns, or select items named by alias / position.
        key_cols: list[str] = []
        key_nodes: dict[exp.Expression, str] = {}
        assigns: list[tuple[str, str]] = []
        group = node.args.get("group")
        for g in group.expressions if group is not None else []:
            expr = self._group_term(g, items, sources)
            code = pre.value(expr)
            if code.kind != SERIES:
                raise Unsupported("sql_group_by_constant", "GROUP BY a constant")
            if code.column is not None:
                col = code.column
            else:
                col = self.fresh_col(_item_name(expr, items), assigns, key_cols)
                assigns.append((col, code.text))
            if col not in key_cols:
                key_cols.append(col)
            key_nodes[canon(expr)] = col
        # Aggregate calls used anywhere after grouping.
        parts: list[exp.Expression] = [i.node for i in items]
        for key in ("having", "order"):
            if node.args.get(key) is not None:
                parts.append(node.args[key])
        aggs: dict[str, str] = {}
        specs: list[tuple[str, str, str]] = []  # (output column, input column/code, func)
        scalar_specs: list[tuple[str, str]] = []
        item_alias = {canon(i.node): i.name for i in items}
        for part in parts:
            for agg in self.walks.aggregates(part):
                key = self._agg_key(agg, pre)
                if key in aggs:
                    continue
                want = item_alias.get(canon(agg), f"_{agg_name(agg).lower()}")
                out = self.fresh_col(want, assigns, key_cols + list(aggs.values()))
                aggs[key] = out
                if group is None:
                    scalar_specs.append((out, self._scalar_agg(agg, pre)))
                else:
                    in_col, func = self._group_agg(agg, pre, key_cols, assigns, out)
                    specs.append((out, in_col, func))
        if assigns:
            self.emit(f"{target} = {cur}.assign({kwargs(assigns)})")
            cur = target
        if group is None:
            entries = [f"{py_str(o)}: [{c}]" for o, c in scalar_specs]
            line = f"{target} = pd.DataFrame({{{', '.join(entries)}}})"
            if len(line) > 99:
                body = "".join(f"    {e},\n" for e in entries)
                line = f"{target} = pd.DataFrame({{\n{body}}})"
            self.emit(line)
            cols = [o for o, _ in scalar_specs]
        elif not specs:
            self.emit(f"{target} = {cur}[{str_list(key_cols)}].drop_duplicates()")
            cols = list(key_cols)
        else:
            pairs = [(o, f"({py_str(c)}, {f})") for o, c, f in specs]
            head = f"{cur}.groupby({one_or_list(key_cols)}, as_index=False, dropna=False).agg"
            if all(is_identifier(o) for o, _ in pairs):
                self.emit_call(target, head, [kwargs([p]) for p in pairs])
            else:
                self.emit(f"{target} = {head}({kwargs(pairs)})")
            cols = key_cols + [o for o, _, _ in specs]
        post_scope = Scope(
            target, self._grouped_resolver(sources, key_cols, pre), names=self.preamble
        )
        post_scope.subquery = lambda n, mode: self._subquery(n, mode, sources)
        post_scope.aggregates = lambda a: _lookup_agg(aggs, self._agg_key(a, pre))
        self.frame_cols = cols
        self.group_keys = list(key_cols) if group is not None else []
        self.scope_frame = target
        grouped = _GroupedCompiler(post_scope, self.sem, key_nodes)
        # HAVING may name a result alias when no column has that name (SQLite).
        if all(s.rel.columns is not None for s in sources):
            grouped.aliases = {
                i.name.lower(): i.node
                for i in items
                if i.alias and not any(s.lookup(i.name) for s in sources)
            }
        return target, grouped

    def fresh_col(self, want: str, assigns: list[tuple[str, str]], taken: list[str]) -> str:
        """A new column name for a helper column (not clashing with ``taken``)."""
        used = {t.lower() for t in taken} | {a.lower() for a, _ in assigns}
        name, n = want, 1
        while name.lower() in used:
            n += 1
            name = f"{want}_{n}"
        return name

    def _group_term(
        self, g: exp.Expression, items: list[Item], sources: list[Source]
    ) -> exp.Expression:
        if isinstance(g, exp.Literal) and not g.is_string:
            pos = int(g.this)
            if not 1 <= pos <= len(items):
                raise Unsupported("sql_group_by_position", f"GROUP BY {pos} is out of range")
            return items[pos - 1].node
        if isinstance(g, exp.Column) and not g.table:
            try:
                self._resolve_source(g, sources)
                known = any(s.lookup(g.name) for s in sources) or all(
                    s.rel.columns is None for s in sources
                )
            except Unsupported:
                known = False
            aliased = [i for i in items if i.alias and i.name.lower() == g.name.lower()]
            if aliased and (not known or all(s.rel.columns is None for s in sources)):
                return aliased[0].node
        return g

    def _agg_key(self, agg: exp.Expression, pre: ExprCompiler) -> str:
        distinct = isinstance(agg.this, exp.Distinct)
        arg = agg.this.expressions[0] if distinct else agg.this
        if isinstance(agg, exp.Count) and (arg is None or isinstance(arg, exp.Star)):
            return "COUNT(*)"
        if distinct and len(agg.this.expressions) != 1:
            raise Unsupported("sql_aggregate_arguments", "DISTINCT over several columns")
        if arg is None:
            raise Unsupported("sql_aggregate_arguments", f"{agg_name(agg)} without argument")
        if self.walks.aggregates(arg):
            raise Unsupported("sql_nested_aggregate", "aggregates inside aggregates")
        code = pre.value(arg)
        return f"{agg_name(agg)}|{distinct}|{code.text}"

    def _agg_parts(self, agg: exp.Expression, pre: ExprCompiler) -> tuple[bool, Code | None]:
        distinct = isinstance(agg.this, exp.Distinct)
        arg = agg.this.expressions[0] if distinct else agg.this
        if isinstance(agg, exp.Count) and (arg is None or isinstance(arg, exp.Star)):
            if distinct:
                raise Unsupported("sql_aggregate_arguments", "COUNT(DISTINCT *)")
            return False, None
        code = pre.value(arg)
        if code.kind != SERIES:
            raise Unsupported("sql_aggregate_constant", f"{agg_name(agg)} of a constant")
        return distinct, code

    def _scalar_agg(self, agg: exp.Expression, pre: ExprCompiler) -> str:
        distinct, code = self._agg_parts(agg, pre)
        if code is None:
            return f"len({pre.scope.frame})"
        s = wrap(code, ATOM)
        if distinct and not isinstance(agg, exp.Min | exp.Max):
            s = f"{s}.drop_duplicates()" if not isinstance(agg, exp.Count) else s
        if isinstance(agg, exp.Count):
            return f"{s}.nunique()" if distinct else f"{s}.count()"
        if isinstance(agg, exp.Sum):
            return f"{s}.sum(min_count=1)"
        if isinstance(agg, exp.Avg):
            return f"{s}.mean()"
        return f"{s}.{agg_name(agg).lower()}()"

    def _group_agg(
        self,
        agg: exp.Expression,
        pre: ExprCompiler,
        key_cols: list[str],
        assigns: list[tuple[str, str]],
        out: str,
    ) -> tuple[str, str]:
        distinct, code = self._agg_parts(agg, pre)
        if code is None:
            return key_cols[0], '"size"'
        if code.column is not None:
            col = code.column
        else:
            col = self.fresh_col(out, assigns, key_cols)
            assigns.append((col, code.text))
        if isinstance(agg, exp.Count):
            return col, '"nunique"' if distinct else '"count"'
        if isinstance(agg, exp.Sum):
            if distinct:
                return col, "lambda s: s.drop_duplicates().sum(min_count=1)"
            return col, "lambda s: s.sum(min_count=1)"
        if isinstance(agg, exp.Avg):
            return col, "lambda s: s.drop_duplicates().mean()" if distinct else '"mean"'
        return col, f'"{agg_name(agg).lower()}"'

    def _grouped_resolver(self, sources: list[Source], key_cols: list[str], pre: ExprCompiler):
        def resolve(col: exp.Column) -> str:
            name = pre.scope.resolve(col)
            if name not in key_cols:
                raise Unsupported(
                    "sql_bare_column",
                    f"{col.sql()} is neither grouped nor aggregated",
                )
            return name

        return resolve

    # ---------------------------------------------------------------- ORDER BY

    def _order_term(self, ordered: exp.Ordered, items: list[Item]) -> tuple[exp.Expression, int]:
        """The expression an ORDER BY key means and the index of the item it names (or -1)."""
        term = ordered.this
        if isinstance(term, exp.Literal) and not term.is_string:
            pos = int(term.this)
            if not 1 <= pos <= len(items):
                raise Unsupported("sql_order_by_position", f"ORDER BY {pos} is out of range")
            return items[pos - 1].node, pos - 1
        if isinstance(term, exp.Literal):
            raise Unsupported("sql_order_by_constant", "ORDER BY a constant")
        if isinstance(term, exp.Column) and not term.table:
            for idx, item in enumerate(items):
                if item.alias and item.name.lower() == term.name.lower():
                    return item.node, idx
        for idx, item in enumerate(items):
            if canon(item.node) == canon(term):
                return item.node, idx
        return term, -1

    def _sort_source(
        self, order: exp.Order, items: list[Item], compiler: ExprCompiler, cur: str, target: str
    ) -> str:
        compiler.scope.frame = cur
        keys: list[tuple[str, bool, bool]] = []
        assigns: list[tuple[str, str]] = []
        for ordered in order.expressions:
            expr, _ = self._order_term(ordered, items)
            code = compiler.value(expr)
            if code.kind != SERIES:
                raise Unsupported("sql_order_by_constant", "ORDER BY a constant")
            if code.column is not None:
                col = code.column
            else:
                col = self.fresh_col(f"_order_{len(assigns) + 1}", assigns, [])
                assigns.append((col, code.text))
            keys.append((col, not ordered.args.get("desc"), bool(ordered.args.get("nulls_first"))))
        if assigns:
            self.emit(f"{target} = {cur}.assign({kwargs(assigns)})")
            cur = target
            self.frame_cols = None
        cur = self._sort(cur, keys, target)
        self._drop_after_projection = [a for a, _ in assigns]
        return cur

    def _post_sort_keys(
        self,
        order: exp.Order,
        items: list[Item],
        outputs: list[tuple[str, Code]],
        compiler: ExprCompiler,
        distinct: exp.Expression | None,
    ) -> tuple[list[tuple[str, bool, bool]], list[tuple[str, Code]]]:
        keys: list[tuple[str, bool, bool]] = []
        hidden: list[tuple[str, Code]] = []
        for ordered in order.expressions:
            expr, idx = self._order_term(ordered, items)
            asc = not ordered.args.get("desc")
            nf = bool(ordered.args.get("nulls_first"))
            if idx >= 0:
                keys.append((items[idx].name, asc, nf))
                continue
            if distinct is not None:
                raise Unsupported(
                    "sql_distinct_order_by", "ORDER BY a column that DISTINCT dropped"
                )
            code = compiler.value(expr)
            if code.kind != SERIES:
                raise Unsupported("sql_order_by_constant", "ORDER BY a constant")
            name = f"_order_{len(hidden) + 1}"
            hidden.append((name, code))
            keys.append((name, asc, nf))
        self._tie_break(order, outputs, keys, hidden)
        return keys, hidden

    def _tie_break(
        self,
        order: exp.Order,
        outputs: list[tuple[str, Code]],
        keys: list[tuple[str, bool, bool]],
        hidden: list[tuple[str, Code]],
    ) -> None:
        """Order ties among groups the way SQLite returns them.

        SQLite emits groups in key order (NULL first) and its sorter keeps that order for
        ties, except with one GROUP BY key and one ORDER BY key that is DESC, where ties come
        in descending key order. The group keys are added as the last sort keys to match.
        """
        group_keys = self.group_keys
        self.group_keys = []
        if not group_keys:
            return
        reverse = (
            len(group_keys) == 1
            and len(order.expressions) == 1
            and bool(order.expressions[0].args.get("desc"))
        )
        by_column = {c.column: n for n, c in outputs if c.column is not None}
        sorted_cols = {k for k, _, _ in keys}
        for key in group_keys:
            name = by_column.get(key)
            if name is None:
                name = f"_group_{len(hidden) + 1}"
                hidden.append((name, Code(col_access(self.scope_frame, key), column=key)))
            if name in sorted_cols:
                continue
            keys.append((name, not reverse, not reverse))

    def _sort(self, cur: str, keys: list[tuple[str, bool, bool]], target: str) -> str:
        cols = [k for k, _, _ in keys]
        ascs = [a for _, a, _ in keys]
        nulls = {nf for _, _, nf in keys}
        if len(nulls) > 1:
            # Keys whose NULLs go to different ends: sort on explicit is-null flags too.
            flags: list[tuple[str, str]] = []
            by: list[str] = []
            asc_all: list[bool] = []
            for col, asc, nf in keys:
                flag = self.fresh_col(f"_{col}_isnull", flags, cols)
                flags.append((flag, f"{col_access(cur, col)}.isna()"))
                by += [flag, col]
                asc_all += [not nf, asc]
            self.emit(
                f"{target} = {cur}.assign({kwargs(flags)}).sort_values("
                f'{str_list(by)}, ascending={asc_all!r}, kind="stable")'
                f".drop(columns={str_list([f for f, _ in flags])})"
            )
            return target
        args = [one_or_list(cols)]
        if not any(ascs):
            args.append("ascending=False")
        elif not all(ascs):
            args.append(f"ascending={ascs!r}")
        if nulls.pop():
            args.append('na_position="first"')
        args.append('kind="stable"')
        self.emit(f"{target} = {cur}.sort_values({', '.join(args)})")
        return target

    # ----------------------------------------------------------- SELECT list

    def _project(
        self, cur: str, outputs: list[tuple[str, Code]], target: str, sources: list[Source]
    ) -> str:
        drop = self._drop_after_projection
        self._drop_after_projection = []
        if len(outputs) == 1 and outputs[0][0] == "*":
            if drop:
                self.emit(f"{target} = {cur}.drop(columns={str_list(drop)})")
                return target
            return cur
        plain = all(
            c.column is not None and c.text == col_access(cur, c.column) for _, c in outputs
        )
        cols = [c.column for _, c in outputs]
        if plain and len(set(cols)) == len(cols):
            names = [n for n, _ in outputs]
            renames = {c: n for n, c in zip(names, cols, strict=True) if c != n}
            if cols == self.frame_cols and not renames and not drop:
                return cur
            line = f"{target} = {cur}[{str_list([c for c in cols if c])}]"
            last = self.last_filter
            if last is not None and last[0] == len(self.lines) and last[3] == cur:
                self.lines.pop()
                line = f"{target} = {last[1]}.loc[{last[2]}, {str_list([c for c in cols if c])}]"
            if renames:
                pairs = ", ".join(f"{py_str(a)}: {py_str(b)}" for a, b in renames.items() if a)
                line += f".rename(columns={{{pairs}}})"
            self.emit(line)
            return target
        entries = [f"{py_str(n)}: {c.text}" for n, c in outputs]
        index = "" if any(c.kind == SERIES for _, c in outputs) else f", index={cur}.index"
        line = f"{target} = pd.DataFrame({{{', '.join(entries)}}}{index})"
        if len(line) > 99:
            body = "".join(f"    {e},\n" for e in entries)
            line = f"{target} = pd.DataFrame({{\n{body}}}{index})"
        self.emit(line)
        return target

    def _limit(
        self,
        node: exp.Query,
        cur: str,
        target: str,
        ordered: bool,
        sources: list[Source],
        grouped: bool,
    ) -> str:
        limit, offset = node.args.get("limit"), node.args.get("offset")
        if limit is None and offset is None:
            return cur
        if not ordered and (len(sources) > 1 or grouped):
            raise Unsupported(
                "sql_limit_without_order",
                "LIMIT without ORDER BY picks rows in an order that depends on the database's plan",
            )
        n = int_literal(limit.expression if limit is not None else None, "LIMIT")
        off = int_literal(offset.expression if offset is not None else None, "OFFSET") or 0
        if n is not None and n < 0:
            n = None  # SQLite: a negative LIMIT means no limit
        if off < 0:
            raise Unsupported("sql_negative_offset", "negative OFFSET")
        if n is None and not off:
            return cur
        if not off:
            self.emit(f"{target} = {cur}.head({n})")
        elif n is None:
            self.emit(f"{target} = {cur}.iloc[{off}:]")
        else:
            self.emit(f"{target} = {cur}.iloc[{off}:{off + n}]")
        return target

    # -------------------------------------------------------------- subqueries

    def _exists(self, node: exp.Exists, sources: list[Source]) -> tuple[exp.Expression, str]:
        """Split ``EXISTS (SELECT ... WHERE inner = outer AND ...)`` into the outer column
        and a variable with the inner column's values (the local conditions applied)."""
        query = _exists_query(node)
        inner = self._source(query.args["from_"].this)

        def is_outer(col: exp.Column) -> bool:
            if col.table:
                return col.table.lower() != inner.alias and any(
                    s.alias == col.table.lower() for s in sources
                )
            if inner.rel.columns is None or inner.lookup(col.name):
                return False
            return any(s.lookup(col.name) for s in sources)

        where = query.args.get("where")
        links: list[tuple[exp.Column, exp.Column]] = []
        local: list[exp.Expression] = []
        for cond in conjuncts(where.this) if where is not None else []:
            outer_cols = [c for c in self.walks.columns(cond) if is_outer(c)]
            if not outer_cols and not has_subquery(cond):
                local.append(cond)
                continue
            a, b = (
                (canon(cond.this), canon(cond.expression))
                if isinstance(cond, exp.EQ)
                else (None, None)
            )
            if isinstance(a, exp.Column) and isinstance(b, exp.Column) and len(outer_cols) == 1:
                links.append((b, a) if is_outer(a) else (a, b))
                continue
            raise Unsupported(
                "sql_correlated_subquery", "EXISTS links other than one inner = outer column"
            )
        if len(links) != 1:
            raise Unsupported("sql_correlated_subquery", "EXISTS needs one inner = outer link")
        inner_col, outer_col = links[0]
        rewritten = exp.select(inner_col.copy()).from_(query.args["from_"].this.copy())
        if local:
            rewritten = rewritten.where(exp.and_(*[c.copy() for c in local]))
        values = self._subquery(rewritten, "values", sources)
        return outer_col, values

    def _subquery(self, node: exp.Expression, mode: str, sources: list[Source]) -> str:
        query = node.this if isinstance(node, exp.Subquery) else node
        if not isinstance(query, exp.Select):
            raise Unsupported("sql_subquery", "only SELECT subqueries are supported")
        if mode == "scalar" and (
            query.args.get("group")
            or query.args.get("having")
            or query.args.get("limit")
            or query.args.get("offset")
            or len(query.expressions) != 1
            or not self.walks.aggregates(query.expressions[0])
        ):
            raise Unsupported(
                "sql_scalar_subquery",
                "only single-aggregate scalar subqueries without GROUP BY are supported",
            )
        self.outer.append(sources)
        try:
            var = self.fresh("sub")
            rel = self.query(query, var)
        finally:
            self.outer.pop()
        if rel.columns is None or len(rel.columns) != 1:
            raise Unsupported("sql_subquery_columns", "the subquery must return one column")
        col = rel.columns[0]
        if mode == "scalar":
            name = self.fresh(col.lower() if is_identifier(col.lower()) else "value")
            self.emit(f"{name} = {var}[{py_str(col)}].iloc[0]")
            return name
        name = self.fresh(f"{col.lower()}_values" if is_identifier(col.lower()) else "values")
        self.emit(f"{name} = {var}[{py_str(col)}]")
        return name


def _exists_query(node: exp.Exists) -> exp.Select:
    query = node.this
    query = query.this if isinstance(query, exp.Subquery) else query
    if not isinstance(query, exp.Select):
        raise Unsupported("sql_exists_subquery", "EXISTS over something other than SELECT")
    for key, val in query.args.items():
        if val and key not in ("expressions", "from_", "where", "kind"):
            raise Unsupported("sql_exists_subquery", f"EXISTS subquery with {key.strip('_')}")
    if any(aggregates(p) for p in query.expressions):
        raise Unsupported("sql_exists_subquery", "EXISTS over an aggregate")
    if not isinstance(query.args["from_"].this, exp.Table):
        raise Unsupported("sql_exists_subquery", "EXISTS over a derived table")
    return query


class _GroupedCompiler(ExprCompiler):
    """Compiles expressions after GROUP BY: group-key expressions map to their columns."""

    def __init__(self, scope: Scope, sem: Semantics, key_nodes: dict[exp.Expression, str]):
        super().__init__(scope, sem)
        self.key_nodes = key_nodes
        self.aliases: dict[str, exp.Expression] = {}

    def value(self, node: exp.Expression) -> Code:
        if isinstance(node, exp.Column) and not node.table and node.name.lower() in self.aliases:
            return self.value(self.aliases[node.name.lower()])
        col = self.key_nodes.get(canon(node))
        if col is not None and not isinstance(node, exp.Column):
            return Code(col_access(self.scope.frame, col), column=col)
        return super().value(node)


def _item_name(expr: exp.Expression, items: list[Item]) -> str:
    for item in items:
        if canon(item.node) == canon(expr) and item.alias and is_identifier(item.name):
            return item.name
    return "_key"


def _lookup_agg(aggs: dict[str, str], key: str) -> str:
    try:
        return aggs[key]
    except KeyError:
        raise Unsupported("sql_aggregate_context", "an aggregate here is not supported") from None


def _and_all(masks: list[Code]) -> Code:
    from zerolayer.plugins.sql_pandas.pycode import BAND

    if len(masks) == 1:
        return masks[0]
    return Code(" & ".join(wrap(m, BAND + 1) for m in masks), prec=BAND)


def _window_order(items: list[Item]) -> exp.Order | None:
    """SQLite returns a window query's rows sorted by the window's PARTITION BY and ORDER BY
    keys; without an ORDER BY of its own the query is sorted the same way."""
    specs: dict[str, exp.Window] = {}
    for item in items:
        if plain_column(item.node):
            continue  # the common item: no window in it
        for win in walk_all(item.node):
            if not isinstance(win, exp.Window):
                continue
            if win.args.get("partition_by") or win.args.get("order"):
                spec = exp.Window(
                    partition_by=win.args.get("partition_by"), order=win.args.get("order")
                )
                specs[spec.sql()] = win
    if not specs:
        return None
    if len(specs) > 1:
        raise Unsupported(
            "sql_window_function", "several window orderings decide the row order differently"
        )
    win = next(iter(specs.values()))
    keys = [
        exp.Ordered(this=p.copy(), desc=False, nulls_first=True)
        for p in win.args.get("partition_by") or []
    ]
    window_order = win.args.get("order")
    keys += [o.copy() for o in window_order.expressions] if window_order is not None else []
    return exp.Order(expressions=keys)


__all__ = ["RESERVED_NAMES", "Relation", "Translator"]
