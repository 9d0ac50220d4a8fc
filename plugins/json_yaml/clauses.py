"""Transforms for the JSON/YAML grammar fragment: parse-tree rules → directives.

Each function receives the children of one rule (tokens, values and already transformed
sub-rules) and returns a value; clause rules return lists of ``Step``/``Option``/``Source``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token
from zerolayer.core.errors import Unsupported
from zerolayer.core.fields import FieldRef
from zerolayer.core.plan import Directive, Option, Source, Step

Children = list[Any]

_FORMATS = ("json", "yaml")


def _fmts(children: Children) -> list[str]:
    return [
        c
        for c in children
        if isinstance(c, str) and not isinstance(c, Token | FieldRef) and c in _FORMATS
    ]


def _names(children: Children) -> list[FieldRef]:
    out: list[FieldRef] = []
    for c in children:
        if isinstance(c, FieldRef):
            out.append(c)
        elif isinstance(c, list) and all(isinstance(x, FieldRef) for x in c):
            out.extend(c)
    return out


def _tokens(children: Children, *types: str) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and c.type in types]


def _emit(fmt: str) -> Step:
    return Step(f"{fmt}.emit")


def _number(children: Children) -> int | float:
    for c in children:
        if isinstance(c, int | float) and not isinstance(c, bool):
            return c
    raise Unsupported("parse.no_number", "a number was expected")


def _count(children: Children) -> int:
    n = _number(children)
    if not isinstance(n, int) or n < 0:
        raise Unsupported("parse.bad_count", f"{n} is not a count")
    return n


def convert_from_to(children: Children) -> list[Directive]:
    fmts = _fmts(children)
    src, dst = fmts[0], fmts[-1]
    return [Source(src), _emit(dst)]


def convert_to(children: Children) -> list[Directive]:
    dst = _fmts(children)[-1]
    out: list[Directive] = [_emit(dst)]
    # "convert to JSON" says the payload is not JSON (YAML reads any JSON too)
    verbs = [c for c in children if isinstance(c, Token) and c.type == "JY_CONVERT"]
    if verbs and dst == "json":
        out.insert(0, Source("yaml"))
    return out


def convert_version(children: Children) -> list[Directive]:
    fmts = _fmts(children)
    out: list[Directive] = [_emit(fmts[0])]
    if len(fmts) > 1:
        out.insert(0, Source(fmts[1]))
    return out


def convert_zh(children: Children) -> list[Directive]:
    fmts = _fmts(children)
    if len(fmts) == 2:
        return [Source(fmts[0]), _emit(fmts[1])]
    return convert_to([*children, Token("JY_CONVERT", "转")])


def convert_to_minified(children: Children) -> list[Directive]:
    """ "Convert this YAML to minified JSON": the conversion and one-line output."""
    return [*convert_to(children), Option("single_line", True)]


def convert_from_to_minified(children: Children) -> list[Directive]:
    return [*convert_from_to(children), Option("single_line", True)]


def seq_dash(children: Children) -> list[Directive]:
    """ "数组项用'-'开头": sequence items start with a dash, i.e. block style."""
    mark = next(c for c in children if isinstance(c, str) and not isinstance(c, Token))
    if mark.strip() != "-":
        raise Unsupported("parse.seq_mark", f"items cannot start with {mark!r} in YAML")
    return [Option("seq_style", "block")]


def source(children: Children) -> list[Directive]:
    return [Source(_fmts(children)[0])]


def indent(children: Children) -> list[Directive]:
    n = _number(children)
    if not isinstance(n, int) or not 1 <= n <= 10:
        raise Unsupported("parse.bad_indent", f"an indent of {n} spaces is not supported")
    return [Option("indent", n)]


def quote(children: Children) -> list[Directive]:
    style = next(c for c in children if c in ("double", "single"))
    return [Option("quote", style)]


def _order(children: Children, default: str | None) -> str:
    for c in children:
        if c in ("asc", "desc") and not isinstance(c, Token | FieldRef):
            return str(c)
    if default is None:
        raise Unsupported("query.order_unstated", "say in which order: ascending or descending")
    return default


def sort(children: Children) -> list[Directive]:
    key = _names(children)[-1]
    return [Step("sort", {"key": key, "order": _order(children, "asc")})]


def keep(children: Children) -> list[Directive]:
    return [Step("project", {"fields": _names(children)})]


def drop(children: Children) -> list[Directive]:
    return [Step("drop", {"fields": _names(children)})]


def rename(children: Children) -> list[Directive]:
    old, new = _names(children)[:2]
    return [Step("rename", {"field": old, "to": str(new)})]


def cond(op: str) -> Callable[[Children], tuple[str, Any, Any]]:
    def build(children: Children) -> tuple[str, Any, Any]:
        field = children[0]
        value = children[-1]
        if isinstance(value, (Token, FieldRef)):
            value = str(value)
        return ("cond", field, (children[1] if op == "" else op), value)

    return build


def _conds(children: Children) -> list[Step]:
    out = []
    for c in children:
        if isinstance(c, tuple) and c and c[0] == "cond":
            _, field, op, value = c
            out.append(Step("filter", {"field": field, "op": op, "value": value}))
        elif isinstance(c, list):
            out.extend(_conds(c))
    return out


def filter_(children: Children) -> list[Directive]:
    return list(_conds(children))


def first(children: Children) -> list[Directive]:
    out: list[Directive] = []
    if _tokens(children, "JY_BY"):
        key = _names(children)[-1]
        out.append(Step("sort", {"key": key, "order": _order(children, None)}))
    out.append(Step("first", {"count": _count(children)}))
    return out


def last(children: Children) -> list[Directive]:
    return [Step("last", {"count": _count(children)})]


def count(children: Children) -> list[Directive]:
    return [*_conds(children), Step("count")]


_AGGREGATES = {"sum": "sum", "total": "sum", "average": "avg", "mean": "avg", "avg": "avg"}


def aggregate(children: Children) -> list[Directive]:
    word = _tokens(children, "JY_AGG")[0].lower()
    field = _names(children)[0]
    return [Step(_AGGREGATES[word], {"field": field})]


_HIGH = ("highest", "largest", "biggest", "greatest", "most", "maximum", "max")


def extreme(children: Children) -> list[Directive]:
    word = _tokens(children, "JY_EXTREME")[0].lower()
    field = _names(children)[-1]
    return [Step("max_by" if word in _HIGH else "min_by", {"field": field})]


def pluck(children: Children) -> list[Directive]:
    names = _names(children)
    field, noun = names[0], names[1]
    steps: list[Directive] = list(_conds(children))
    if noun.lower().endswith("s"):
        steps.append(Step("pluck", {"field": field}))
    else:  # "the email of the user with id 3": exactly one record
        steps += [Step("only"), Step("get", {"path": field})]
    return steps


def pluck_field(children: Children) -> list[Directive]:
    return [Step("pluck", {"field": _names(children)[0]})]


def get(children: Children) -> list[Directive]:
    return [Step("get", {"path": _names(children)[-1]})]


def group(children: Children) -> list[Directive]:
    return [Step("group_count", {"field": _names(children)[-1]})]


def round_(children: Children) -> list[Directive]:
    return [Step("round", {"decimals": _count(children)})]


def answer_field(children: Children) -> list[Directive]:
    """ "Answer with the name only": the answer is that field (see ``finish``)."""
    return [Step("jy.focus", {"field": _names(children)[0]})]


def finish(directives: list[Directive]) -> list[Directive]:
    """Resolve "answer with X only": nothing to do when the chain already ends on field X,
    else read X from the one record at hand."""
    out: list[Directive] = []
    for d in directives:
        if isinstance(d, Step) and d.op == "jy.focus":
            field = d.params["field"]
            steps = [s for s in out if isinstance(s, Step)]
            last_step = steps[-1] if steps else None
            named = (
                last_step.params.get("field") or last_step.params.get("path") if last_step else None
            )
            if last_step and last_step.op in ("pluck", "get") and _same_field(named, field):
                continue
            if last_step and last_step.op in ("max_by", "min_by", "only"):
                out.append(Step("get", {"path": field}))
                continue
            raise Unsupported("query.focus", f"cannot tell which {field!r} the answer is")
        out.append(d)
    return out


def _same_field(a: Any, b: Any) -> bool:
    if a is None:
        return False
    x, y = str(a).lower(), str(b).lower()
    return x == y or x.rstrip("s") == y.rstrip("s")


def _flatten(children: Children) -> list[Directive]:
    out: list[Directive] = []
    for c in children:
        if isinstance(c, list):
            out.extend(c)
    return out


def _const(value: Any) -> Callable[[Children], Any]:
    return lambda _children: value


TRANSFORMS: dict[str, Callable[[Children], Any]] = {
    "jy_json": _const("json"),
    "jy_yaml": _const("yaml"),
    "jy_convert_from_to": convert_from_to,
    "jy_convert_to": convert_to,
    "jy_convert_version": convert_version,
    "jy_convert_zh": convert_zh,
    "jy_source": source,
    "jy_source_from": source,
    "jy_records": lambda children: [Step("records", {"noun": str(_names(children)[0])})],
    "jy_option": _flatten,
    "jy_query": _flatten,
    "jy_sort_keys": _const([Option("sort_keys", True)]),
    "jy_indent": indent,
    "jy_quote": quote,
    "jy_double": _const("double"),
    "jy_single": _const("single"),
    "jy_seq_block": _const([Option("seq_style", "block")]),
    "jy_seq_dash": seq_dash,
    "jy_convert_to_minified": convert_to_minified,
    "jy_convert_from_to_minified": convert_from_to_minified,
    "jy_seq_flow": _const([Option("seq_style", "flow")]),
    "jy_doc_start": _const([Option("explicit_start", True)]),
    "jy_keep_unicode": _const([Option("ensure_ascii", False)]),
    "jy_escape_unicode": _const([Option("ensure_ascii", True)]),
    "jy_minify": _const([Option("single_line", True)]),
    "jy_noop": _const([]),
    "jy_asc": _const("asc"),
    "jy_desc": _const("desc"),
    "jy_sort": sort,
    "jy_sort_noun_free": sort,
    "jy_sort_zh": sort,
    "jy_names": lambda children: [c for c in children if isinstance(c, FieldRef)],
    "jy_keep": keep,
    "jy_drop": drop,
    "jy_rename": rename,
    "jy_true": _const(True),
    "jy_false": _const(False),
    "jy_null": _const(None),
    "jy_word": lambda children: str(children[0]),
    "jy_ge": _const("ge"),
    "jy_le": _const("le"),
    "jy_gt": _const("gt"),
    "jy_lt": _const("lt"),
    "jy_ne": _const("ne"),
    "jy_eq": _const("eq"),
    "jy_cond": cond(""),
    "jy_cond_eq": lambda children: ("cond", children[0], "eq", children[-1]),
    "jy_filter": filter_,
    "jy_first": first,
    "jy_first_zh": first,
    "jy_last": last,
    "jy_count": count,
    "jy_count_zh": count,
    "jy_aggregate": aggregate,
    "jy_extreme": extreme,
    "jy_pluck": pluck,
    "jy_pluck_where": pluck,
    "jy_pluck_field": pluck_field,
    "jy_get": get,
    "jy_keys": _const([Step("keys")]),
    "jy_group": group,
    "jy_group_count_by": group,
    "jy_round": round_,
    "jy_answer_plain": _const([]),
    "jy_answer_field": answer_field,
    "jy_number": lambda children: _to_number(str(children[0])),
}


def _to_number(text: str) -> int | float:
    return float(text) if "." in text else int(text)
